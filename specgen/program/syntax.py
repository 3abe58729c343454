"""The words of Block assembly: commands and their forms, tokens, statements, placeholders, errors.

Shared by the statement parser (:mod:`specgen.program.statements`) and the
program reader (:mod:`specgen.program.reader`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Commands this parser reads, and the form of each (for "expected" messages).
FORMS: dict[str, str] = {
    "BSTART.VEC": "BSTART.VEC TileOp, DataType",
    "BSTART.SFU": "BSTART.SFU TileOp, DataType",
    "BSTART.TEPL": "BSTART.TEPL Mode, Function, DataType",
    "B.DATR": "B.DATR PadValue={pads}  or  B.DATR {{layout, datatype, pad, cmode, rmode, sat, canonicalize}}",
    "B.DIM": "B.DIM LB0=value  or  B.DIM zero, value, ->LB0",
    "B.IOT": "B.IOT SrcLeft, SrcRight, mask=0b0001, <last>, ->T<SizeCode>",
    "B.IOR": "B.IOR R5[, R6[, R7]][, ->R8]  (absolute GPRs: zero or R0..R31)",
    "B.FPATR": "B.FPATR value, value, …  (every field of the spec's form, in its template's order)",
    "BSTOP": "BSTOP",
    "EXECUTE": "EXECUTE Mnemonic Destination, SrcLeft, SrcRight",
}
EXECUTE_ROLES = ("destination", "left source", "right source")
# a BSTART spelling that names its operation (``BSTART.TMATMUL FP16``, ``BSTART.MGATHER.MASK U8``): any
# ``BSTART.<NAME>`` the parser does not read otherwise; whether the spec has a form for it is the assembler's call
NAMED_BSTART = "BSTART.<Operation> DataType  or  BSTART.<Operation> DataType [Variant form]"
_NAMED_BSTART = re.compile(r"BSTART(\.[A-Z][A-Z0-9_]*)+")


def named_bstart(mnemonic: str) -> bool:
    """Whether ``mnemonic`` is a BSTART spelling that carries only a DataType (the operation is in its name)."""
    return mnemonic not in FORMS and _NAMED_BSTART.fullmatch(mnemonic) is not None


def spells(head: str) -> bool:
    """Whether the parser reads a command spelled ``head`` (an assembly template's first word)."""
    return head in FORMS or named_bstart(head)

LAYOUT_NAMES = {"NORM": 0}
RMODE_NAMES = {"DEFAULT": 0}
HANDS = {"T": 0, "U": 1, "M": 2, "N": 3}
ZERO_REGISTERS = {"zero"}
# the field that marks a statement of another form (see :attr:`Statement.is_template`)
TEMPLATE = "template"

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<semi>;)
  | (?P<comment>//[^\n]*)
  | (?P<arrow>->)
  | (?P<number>0[xX][0-9A-Fa-f_]+\b|0[bB][01_]+\b|[0-9]+\b)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.#]*)
  | (?P<punct>[,=<>{}()\[\]])
  | (?P<other>.)
""", re.VERBOSE)


class ProgramError(Exception):
    """A malformed program: where, what was found, what was expected."""

    def __init__(self, message: str, line: int, col: int, token: str = "", expected: str = "",
                 kind: str = "syntax", path: str = "<program>") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.token = token
        self.expected = expected
        self.kind = kind
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # number | ident | arrow | punct | other | sep | eof
    text: str
    line: int
    col: int

    @property
    def shown(self) -> str:
        return {"sep": "end of statement", "eof": "end of program"}.get(self.kind, repr(self.text))


@dataclass(frozen=True, slots=True)
class SketchOperand:
    """A placeholder that makes a program a sketch."""

    text: str
    line: int
    col: int
    role: str  # what the position needs, e.g. "loop bound value"

    @property
    def reason(self) -> str:
        return f"sketch: symbolic operand {self.text} (needs a concrete {self.role})"


@dataclass(frozen=True, slots=True)
class Statement:
    """One command with its decoded fields (``None`` where a sketch has a placeholder)."""

    mnemonic: str
    text: str
    line: int
    col: int
    fields: dict[str, object] = field(default_factory=dict)

    @property
    def is_template(self) -> bool:
        """A command of a form the Block syntax does not spell (a scalar form, …): kept as written in
        ``text``, assembled from its form's catalog template and run by the executor's word path."""
        return self.fields.get(TEMPLATE) is True


def character_error(tok: Token, path: str) -> ProgramError:
    """The one finding for a character no command of the Block syntax uses."""
    return ProgramError(f"unexpected character {tok.text!r}", tok.line, tok.col, tok.text,
                        "a command, an operand, ',', '=', '<', '>', '->', '{', '}', '[', ']', ';'",
                        "character", path)


def tokenize(text: str, path: str) -> list[Token]:
    out: list[Token] = []
    pos, line, line_start = 0, 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        col = pos - line_start + 1
        ch = text[pos]
        if ch == "#" and (pos == line_start or text[pos - 1] in " \t;"):
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
            continue
        assert m is not None  # ``other`` matches any character but a new line, which ``nl`` matches
        kind = m.lastgroup or ""
        tok = m.group()
        if kind == "nl":
            out.append(Token("sep", "\n", line, col))
            line += 1
            line_start = m.end()
        elif kind == "semi":
            out.append(Token("sep", ";", line, col))
        elif kind not in ("ws", "comment"):
            out.append(Token(kind, tok, line, col))
        pos = m.end()
    out.append(Token("eof", "", line, pos - line_start + 1))
    return out
