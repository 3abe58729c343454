"""Block programs: the assembly a spec writes in its examples, parsed to decoded fields.

A program is a sequence of Block commands (``BSTART.VEC TMUL, FP16; B.DIM
LB0=4; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP``) separated by ``;``
or newlines, with ``#`` (at a line start or after blank) and ``//`` comments.
``EXECUTE TMUL T0, T0, T1`` is not an assembly line but the instruction's
tile-level contract entry (``InstructionContractOperandsLegal_<MN>`` then
``InstructionContractExecute_<MN>``): it names the destination register
itself, so it can show a destination aliasing a source, which a Block (always
a newly allocated destination) cannot express.
With ``any_form`` a line whose first word is not a Block command (a scalar command such as
``addi zero, 5, ->R3``, any other catalog form) is kept as written, for the assembler to read from
its form's template (:mod:`specgen.executor.scalar`). A named BSTART may select one of its catalog
variant rows: ``BSTART.TMOV U8 [TMOV.L2S.INSERT form]``.
The parser knows the command *syntax* only; which operation a name selects and
what a field means is the spec's ASL, asked by the executor.

Two kinds of failure, kept apart on purpose:

* a malformed program raises :class:`ProgramError` (line, column, the
  offending token and what was expected) and never a traceback;
* a well-formed *sketch* - a contract example written with placeholder
  operands (``ValidCol``, ``SrcLeft``, ``PE_MASK``, ``DstTile<TSize>``,
  ``DataType``) or ``(optional)`` annotations - parses, and
  :attr:`Program.sketch` lists each placeholder; such a program cannot run as
  written.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Sentence
from ..vocabulary import Vocabulary
from .statements import StatementParser
from .syntax import TEMPLATE, ProgramError, SketchOperand, Statement, Token, character_error, spells, tokenize

__all__ = ["Program", "ProgramError", "parse_program"]


@dataclass(slots=True)
class Program:
    """A parsed program: its statements in order and the placeholders that make it a sketch."""

    source: str
    statements: list[Statement]
    sketch: list[SketchOperand]
    path: str = "<program>"

    @property
    def is_sketch(self) -> bool:
        return bool(self.sketch)

    @property
    def sketch_reason(self) -> str:  # a Sentence (pages say it in their language)
        """One line naming every placeholder (empty for a runnable program)."""
        if not self.sketch:
            return ""
        names = ", ".join(dict.fromkeys(s.text for s in self.sketch))
        return Sentence("example.sketch_symbolic", f"sketch: symbolic operand{'s' if len(self.sketch) > 1 else ''} {names}",
                        count=len(self.sketch), names=names)

    @property
    def is_block(self) -> bool:
        """A whole Block (a BSTART… first and BSTOP last), as opposed to a single-command fragment."""
        return (bool(self.statements) and self.statements[0].mnemonic.startswith("BSTART")
                and self.statements[-1].mnemonic == "BSTOP")


def parse_program(text: str, vocabulary: Vocabulary, path: str = "<program>", *, any_form: bool = False) -> Program:
    """Parse ``text``; raise :class:`ProgramError` when it is malformed (a sketch is not an error).

    ``vocabulary`` is the spec's: DataType, PadValue and CMODE names are the ones it states.
    With ``any_form`` a statement whose first word is not a Block command (``addi zero, 5, ->R3``, a scalar
    or other command form) is kept as written (:attr:`Statement.is_template`): the assembler reads it from
    its form's catalog template, and an unknown mnemonic is its finding, at the statement's line and
    column. Without it (a contract example, which may be prose) such a line is an ``unknown-command``.
    """
    tokens = tokenize(text, path)
    lines = text.split("\n")
    statements: list[Statement] = []
    sketch: list[SketchOperand] = []
    i = 0
    while tokens[i].kind != "eof":
        if tokens[i].kind == "sep":
            i += 1
            continue
        j = i
        while tokens[j].kind not in ("sep", "eof"):
            j += 1
        stmt_tokens = tokens[i:j] + [Token("sep" if tokens[j].kind == "sep" else "eof", tokens[j].text,
                                           tokens[j].line, tokens[j].col)]
        first, last = tokens[i], tokens[j - 1]
        if any_form and first.kind == "ident" and not spells(first.text.upper()):
            st = Statement(first.text.upper(), "", first.line, first.col, {TEMPLATE: True})
        else:
            bad = next((t for t in stmt_tokens if t.kind == "other"), None)
            if bad is not None:
                raise character_error(bad, path)
            st = StatementParser(stmt_tokens, path, sketch, vocabulary).parse()
        if first.line == last.line:
            src = lines[first.line - 1][first.col - 1:last.col - 1 + len(last.text)]
        else:
            src = " ".join(t.text for t in tokens[i:j])
        statements.append(Statement(st.mnemonic, src.strip(), first.line, first.col, st.fields))
        i = j
    if not statements:
        end = tokens[-1]
        raise ProgramError("the program is empty", end.line, end.col, "", "a Block command such as "
                           "'BSTART.VEC TADD, FP32'", "empty", path)
    return Program(text, statements, sketch, path)
