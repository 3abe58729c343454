"""One Block command, parsed to its decoded fields (or to placeholders, for a sketch).

The parser knows the command *syntax* and the spec's names (DataType, PadValue,
CMODE, from its :class:`~specgen.vocabulary.Vocabulary`); what a field means
is the spec's ASL, asked by the executor.
"""

from __future__ import annotations

import re
from typing import Callable

from ..vocabulary import Vocabulary
from .syntax import (EXECUTE_ROLES, FORMS, HANDS, LAYOUT_NAMES, NAMED_BSTART, RMODE_NAMES, ZERO_REGISTERS,
                     ProgramError, SketchOperand, Statement, Token, named_bstart)

_SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_#]*$")


class StatementParser:
    """Parse the tokens of one statement; placeholders go to the program's shared ``sketch`` list."""

    def __init__(self, tokens: list[Token], path: str, sketch: list[SketchOperand], vocabulary: Vocabulary) -> None:
        self.t = tokens
        self.vocabulary = vocabulary
        self.pads = {p.name.upper(): p.code for p in vocabulary.pad_values}
        self.cmodes = {c.name.upper(): c.code for c in vocabulary.compare_modes}
        self.i = 0
        self.path = path
        self.sketch = sketch
        self.mnemonic = ""
        self.fields: dict[str, object] = {}

    # -- cursor ---------------------------------------------------------------------
    @property
    def cur(self) -> Token:
        return self.t[self.i]

    def error(self, expected: str, tok: Token | None = None, kind: str = "syntax", message: str = "") -> ProgramError:
        tok = tok or self.cur
        msg = message or f"expected {expected}, found {tok.shown}"
        if self.mnemonic and not message:
            form = FORMS.get(self.mnemonic, NAMED_BSTART).format(pads="|".join(p.name for p in self.vocabulary.pad_values))
            msg += f" (in {self.mnemonic}; form: {form})"
        return ProgramError(msg, tok.line, tok.col, tok.text, expected, kind, self.path)

    def take(self) -> Token:
        tok = self.t[self.i]
        if tok.kind not in ("sep", "eof"):
            self.i += 1
        return tok

    def at(self, text: str) -> bool:
        return self.cur.kind in ("punct", "arrow") and self.cur.text == text

    def expect(self, text: str, what: str = "") -> Token:
        if not self.at(text):
            raise self.error(what or repr(text))
        return self.take()

    def annotations(self) -> None:
        """Skip ``(…)`` annotations such as ``(optional)``; each one makes the program a sketch."""
        while self.at("("):
            start = self.take()
            depth, words = 1, []
            while depth:
                tok = self.cur
                if tok.kind in ("sep", "eof"):
                    raise self.error("')' closing the annotation opened", tok, "unterminated",
                                     f"unterminated annotation '(' opened at {start.line}:{start.col}; "
                                     f"expected ')'")
                self.take()
                if tok.text == "(":
                    depth += 1
                elif tok.text == ")":
                    depth -= 1
                if depth:
                    words.append(tok.text)
            self.sketch.append(SketchOperand(f"({' '.join(words)})", start.line, start.col,
                                             "command (an annotation is not assembly)"))

    def placeholder(self, tok: Token, role: str) -> None:
        """Record a symbolic operand, swallowing a ``<…>`` suffix such as ``DstTile<TSize>``."""
        text = tok.text
        if self.at("<"):
            self.take()
            inner = self.take()
            close = self.expect(">", "'>'")
            text += f"<{inner.text}>"
            _ = close
        self.sketch.append(SketchOperand(text, tok.line, tok.col, role))

    def end(self) -> None:
        self.annotations()
        if self.cur.kind not in ("sep", "eof"):
            raise self.error("end of statement (';' or a new line)")

    # -- values ---------------------------------------------------------------------
    def number(self, role: str, lo: int | None = None, hi: int | None = None) -> int | None:
        tok = self.cur
        if tok.kind == "number":
            self.take()
            value = int(tok.text.replace("_", ""), 0) if not tok.text.isdigit() else int(tok.text)
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise self.error(f"{role} in {lo}..{hi}", tok, "range",
                                 f"{role} {tok.text} is out of range {lo}..{hi}")
            return value
        if tok.kind == "ident" and _SYMBOL.match(tok.text):
            self.take()
            self.placeholder(tok, role)
            return None
        raise self.error(role)

    def name_or_number(self, names: dict[str, int], role: str, hi: int) -> int | None:
        tok = self.cur
        if tok.kind == "ident" and tok.text.upper() in names:
            self.take()
            return names[tok.text.upper()]
        return self.number(role, 0, hi)

    def datatype(self, allow_none: bool = False) -> int | None:
        tok = self.cur
        if tok.kind == "ident":
            if allow_none and tok.text.upper() == "DTYPE_NONE" and self.vocabulary.dtype_none_code is not None:
                self.take()
                return self.vocabulary.dtype_none_code
            et = self.vocabulary.datatype(tok.text)
            if et is not None:
                self.take()
                return et.code
            if _SYMBOL.match(tok.text):
                self.take()
                self.placeholder(tok, "DataType name such as FP16 or S32")
                return None
        if tok.kind == "number":
            return self.number("DataType code", 0, 31)
        raise self.error("a DataType name such as FP16, BF16, FP32 or S32")

    def tile_register(self, role: str) -> int | None:
        tok = self.cur
        if tok.kind == "number":
            return self.number(f"{role} register number", 0, 63)
        if tok.kind == "ident":
            m = re.fullmatch(r"([TUMN])([0-9]+)", tok.text, re.IGNORECASE)
            if m:
                k = int(m.group(2))
                if k > 15:
                    raise self.error(f"{role} register T0..T15, U0..U15, M0..M15 or N0..N15", tok,
                                     "range", f"tile register {tok.text} does not exist; each hand "
                                     "T, U, M, N has registers 0..15")
                self.take()
                return HANDS[m.group(1).upper()] * 16 + k
            if _SYMBOL.match(tok.text):
                self.take()
                self.placeholder(tok, f"{role} tile register such as T1")
                return None
        raise self.error(f"a {role} tile register (T0..T15, U0..U15, M0..M15, N0..N15 or 0..63)")

    # -- commands -------------------------------------------------------------------
    def parse(self) -> Statement:
        head = self.take()
        if head.kind != "ident":
            raise ProgramError(f"expected a command, found {head.shown}", head.line, head.col, head.text,
                               "a command: " + ", ".join(FORMS), "syntax", self.path)
        mnemonic = head.text.upper()
        if mnemonic not in FORMS and not named_bstart(mnemonic):
            raise ProgramError(f"unknown command {head.text!r}; this executor runs "
                               f"{', '.join(FORMS)}, {NAMED_BSTART}", head.line, head.col, head.text,
                               "a command: " + ", ".join(FORMS), "unknown-command", self.path)
        self.mnemonic = mnemonic
        (StatementParser._bstart_named if named_bstart(mnemonic) else COMMANDS[mnemonic])(self)
        self.end()
        return Statement(mnemonic, "", head.line, head.col, self.fields)

    def _bstart(self) -> None:
        tok = self.cur
        if tok.kind != "ident":
            raise self.error("a tile operation name such as TADD")
        self.take()
        if re.fullmatch(r"T[A-Z0-9_]+", tok.text.upper()) and tok.text.upper() == tok.text:
            self.fields["operation"] = tok.text.upper()
        else:
            self.placeholder(tok, "tile operation name such as TADD")
            self.fields["operation"] = None
        self.annotations()
        self.expect(",", "',' before the DataType")
        self.fields["data_type"] = self.datatype()

    def _bstart_vec(self) -> None:
        self._bstart()

    def _bstart_sfu(self) -> None:
        self._bstart()

    def _bstart_named(self) -> None:
        self.fields["data_type"] = self.datatype()
        if self.at("["):  # ``BSTART.TMOV U8 [TMOV.L2S.INSERT form]``: one of the spelling's catalog variants
            self.take()
            tok = self.cur
            if tok.kind != "ident":
                raise self.error("the name of one of the spelling's encoding variants, such as "
                                 "[TMOV.L2S.INSERT form]")
            self.take()
            self.fields["variant"] = tok.text.upper()
            if self.cur.kind == "ident" and self.cur.text.lower() == "form":
                self.take()
            self.expect("]", "']' closing the variant")

    def _b_fpatr(self) -> None:
        # the form's fields in template order; how many and which values are legal is the catalog's call
        values: list[int | None] = [self.number("field value", 0, 0xFFFF)]
        while self.at(","):
            self.take()
            values.append(self.number("field value", 0, 0xFFFF))
        self.fields["values"] = values

    def _bstart_tepl(self) -> None:
        self.fields["mode"] = self.number("Mode", 0, 3)
        self.expect(",", "',' after Mode")
        self.fields["function"] = self.number("Function", 0, 31)
        self.expect(",", "',' after Function")
        self.fields["data_type"] = self.datatype()

    def _b_datr(self) -> None:
        if self.at("{"):
            self.take()
            order = [("layout", LAYOUT_NAMES, "Layout code", 31), ("data_type", None, "", 31),
                     ("pad", self.pads, "PadValue", 3), ("cmode", self.cmodes, "CMode code", 7),
                     ("rmode", RMODE_NAMES, "RMode code", 7), ("sat", {}, "Sat", 1),
                     ("canonicalize", {}, "Canonicalize", 1)]
            for k, (name, names, role, hi) in enumerate(order):
                if k:
                    self.expect(",", f"',' before the {name} field (B.DATR takes seven fields)")
                if names is None:
                    self.fields[name] = self.datatype(allow_none=True)
                else:
                    self.fields[name] = self.name_or_number(names, role, hi)
            self.expect("}", "'}' after the seventh field")
            return
        tok = self.cur
        if tok.kind == "ident" and tok.text.lower() == "padvalue":
            self.take()
            if not self.at("="):
                self.annotations()
                self.placeholder(tok, f"PadValue (PadValue={self._pad_choice()})")
                self.fields["pad"] = None
                return
            self.take()
            v = self.cur
            if v.kind == "number":
                self.fields["pad"] = self.number("PadValue code", 0, 3)
            elif v.kind == "ident" and v.text.upper() in self.pads:
                self.take()
                self.fields["pad"] = self.pads[v.text.upper()]
            else:
                raise self.error(", ".join(p.name for p in self.vocabulary.pad_values) + " or a code 0b00..0b11")
            return
        raise self.error("'PadValue=…' or '{layout, datatype, pad, cmode, rmode, sat, canonicalize}'")

    def _pad_choice(self) -> str:
        """``Zero, Max, Min or Null``: the spec's PadValue names, for messages."""
        names = [p.name for p in self.vocabulary.pad_values]
        return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)

    def _b_dim(self) -> None:
        tok = self.cur
        m = re.fullmatch(r"LB([0-9]+)", tok.text, re.IGNORECASE) if tok.kind == "ident" else None
        if m:
            lb = int(m.group(1))
            if lb > 2:
                raise self.error("LB0, LB1 or LB2", tok, "range", f"loop bound {tok.text} does not exist; "
                                 "B.DIM writes LB0, LB1 or LB2")
            self.take()
            if not (self.at("=") or self.at(",")):
                raise self.error(f"'=' after {tok.text}")
            self.take()
            self.fields["lb"] = lb
            self.fields["value"] = self.number("loop bound value", 0, 0x1FFFF)
            return
        if tok.kind == "ident":
            self.take()
            if tok.text.lower() not in ZERO_REGISTERS:
                self.sketch.append(SketchOperand(tok.text, tok.line, tok.col,
                                                 "register: the model has no general-purpose registers, "
                                                 "use 'zero'"))
            self.expect(",", "',' after RegSrc")
            self.fields["value"] = self.number("uimm17 value", 0, 0x1FFFF)
            self.expect(",", "',' before ->LBn")
            self.expect("->", "'->LB0', '->LB1' or '->LB2'")
            dst = self.cur
            m = re.fullmatch(r"LB([0-2])", dst.text, re.IGNORECASE) if dst.kind == "ident" else None
            if not m:
                raise self.error("LB0, LB1 or LB2 after '->'")
            self.take()
            self.fields["lb"] = int(m.group(1))
            return
        raise self.error("'LB0=value' or 'zero, value, ->LB0'")

    def _b_iot(self) -> None:
        # zero, one or two sources before the mask (the spec's B.IOT forms: binary, unary, destination-only)
        sources = 0
        while sources < 2 and not self._at_mask() and self.cur.kind in ("ident", "number"):
            key, role = (("source_left", "left source"), ("source_right", "right source"))[sources]
            self.fields[key] = self.tile_register(role)
            sources += 1
            if self.cur.kind in ("sep", "eof"):
                break
            self.expect(",", f"',' after the {role}")
        self.fields["last"] = False
        seen_mask = False
        item = self.cur.kind not in ("sep", "eof") and sources > 0 and self.t[self.i - 1].text == ","
        if sources == 0 or item:
            item = True
        while item or self.at(","):
            if not item:
                self.take()
            item = False
            tok = self.cur
            if self._at_mask():
                self.fields["pe_mask"] = self._mask_operand()
                seen_mask = True
            elif self.at("<"):
                self.take()
                word = self.cur
                if not (word.kind == "ident" and word.text.lower() == "last"):
                    raise self.error("'<last>'")
                self.take()
                self.expect(">", "'>' closing <last>")
                self.fields["last"] = True
            elif tok.kind == "ident" and tok.text.lower() == "last":
                self.take()
                self.fields["last"] = True
            elif self.at("->"):
                self.take()
                self._destination()
            else:
                raise self.error("'mask=…', '<last>' or '->Hand<SizeCode>'")
        if not seen_mask:
            raise self.error("', mask=0b…' (every binding names its PE mask)", kind="missing-operand")
        if "destination_hand" not in self.fields and sources == 0:
            # a binding may name only sources: TFMA's first B.IOT, and a last one whose Block writes memory, not a
            # Tile (MSCATTER: the spec's two-source form with L and no DstTile)
            raise self.error("', ->T<SizeCode>' (the destination hand and its size)", kind="missing-operand")

    def _at_mask(self) -> bool:
        tok = self.cur
        return tok.kind == "ident" and tok.text.lower() == "mask" and self.t[self.i + 1].text == "="

    def _mask_operand(self) -> int | None:
        self.take()
        self.expect("=", "'=' after mask")
        return self._mask()

    def _mask(self) -> int | None:
        tok = self.cur
        if tok.kind == "number":
            self.take()
            text = tok.text.lower().replace("_", "")
            if text.startswith("0b"):
                value = int(text[2:], 2)
            elif text.startswith("0x"):
                value = int(text[2:], 16)
            elif re.fullmatch(r"[01]{4}", text):
                value = int(text, 2)  # the corpus writes the four mask digits bare: mask=0011
            else:
                raise self.error("a four-digit PE mask such as 0b0001", tok, "bad-value",
                                 f"PE mask {tok.text} is not four binary digits; write e.g. mask=0b0001")
            if value > 15:
                raise self.error("a four-digit PE mask such as 0b0001", tok, "range",
                                 f"PE mask {tok.text} has more than four bits")
            return value
        if tok.kind == "ident" and _SYMBOL.match(tok.text):
            self.take()
            self.placeholder(tok, "PE mask such as 0b0001")
            return None
        raise self.error("a PE mask such as 0b0001")

    def _destination(self) -> None:
        tok = self.cur
        hand: int | None
        if tok.kind == "ident" and tok.text.upper() in HANDS:
            hand = HANDS[tok.text.upper()]
            self.take()
        elif tok.kind == "number" and tok.text in ("0", "1", "2", "3"):
            hand = int(tok.text)
            self.take()
        elif tok.kind == "ident" and re.fullmatch(r"[TUMN][0-9]+", tok.text, re.IGNORECASE):
            raise self.error("a destination hand T, U, M or N", tok, "bad-value",
                             f"'->{tok.text}' names a register; a B.IOT destination names a hand "
                             f"('->{tok.text[0].upper()}<SizeCode>') and the Block writes its lowest free register")
        elif tok.kind == "ident" and _SYMBOL.match(tok.text):
            self.take()
            self.placeholder(tok, "destination hand with its size such as T<1>")
            self.fields["destination_hand"] = None
            self.fields["size_code"] = None
            return
        else:
            raise self.error("a destination hand T, U, M or N")
        self.fields["destination_hand"] = hand
        self.expect("<", "'<SizeCode>' after the destination hand")
        self.fields["size_code"] = self.number("SizeCode", 0, 15)
        self.expect(">", "'>' closing the SizeCode")

    def _b_ior(self) -> None:
        # the spec's form: up to three source GPRs and an optional destination GPR (absolute selectors;
        # which codes are legal is the catalog's constraint, checked when the word is assembled)
        sources: list[int | None] = []
        while self.cur.kind in ("ident", "number") and len(sources) < 3:
            sources.append(self._gpr("source GPR"))
            if not self.at(","):
                break
            self.take()
        if self.at("->"):
            self.take()
            self.fields["gpr_destination"] = self._gpr("destination GPR")
        elif sources and self.t[self.i - 1].text == ",":
            raise self.error("a GPR such as R5 or '->R8'")
        self.fields["gpr_sources"] = sources

    def _gpr(self, role: str) -> int | None:
        tok = self.cur
        text = tok.text.lower()
        # ``R5`` is an absolute GPR (ADR 0055: an assembler may accept R0..R23); an ABI name (``a0``, ``x1``) has no
        # code in the spec, so it is a symbolic operand like ``ScalarGPR``
        m = re.fullmatch(r"r([0-9]+)", text) if tok.kind == "ident" else None
        if tok.kind == "ident" and text not in ZERO_REGISTERS and not m and _SYMBOL.match(tok.text):
            self.take()
            self.placeholder(tok, f"{role} such as R5")
            return None
        if tok.kind == "ident" and text in ZERO_REGISTERS:
            value = 0
        elif m or tok.kind == "number" and text.isdigit():
            value = int(m.group(1) if m else text)
        else:
            raise self.error(f"a {role} (zero or R0..R31)")
        if value > 31:
            raise self.error(f"a {role} (zero or R0..R31)", tok, "range", f"GPR {tok.text} does not exist")
        self.take()
        return value

    def _bstop(self) -> None:
        pass

    def _execute(self) -> None:
        tok = self.cur
        if tok.kind in ("sep", "eof"):
            raise self.error("an instruction mnemonic such as TMUL", kind="missing-operand")
        if tok.kind != "ident" or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.]*", tok.text):
            raise self.error("an instruction mnemonic such as TMUL")
        if re.fullmatch(r"[TUMN][0-9]+", tok.text, re.IGNORECASE):
            raise self.error("an instruction mnemonic such as TMUL", tok, "missing-operand",
                             f"EXECUTE names the instruction before its registers, found the register "
                             f"{tok.text}; write e.g. 'EXECUTE TMUL T0, T0, T1'")
        self.take()
        mn = tok.text.upper()
        self.fields["operation"] = mn
        registers: list[int | None] = []
        while True:
            if len(registers) == len(EXECUTE_ROLES):
                if self.cur.kind in ("sep", "eof"):
                    raise self.error("end of statement", kind="syntax",
                                     message=f"trailing ',' after the right source; EXECUTE {mn} takes "
                                     "three tile registers (destination, left source, right source)")
                extra = 1
                k = self.i
                while self.t[k].kind not in ("sep", "eof"):
                    extra += self.t[k].text == ","
                    k += 1
                raise self.error("end of statement", kind="syntax",
                                 message=f"EXECUTE {mn} takes three tile registers (destination, left source, "
                                 f"right source), found {len(registers) + extra}")
            if self.cur.kind in ("sep", "eof"):
                raise self.error("", kind="missing-operand",
                                 message=f"EXECUTE {mn} takes three tile registers (destination, left source, "
                                 f"right source), found {len(registers)}; missing the "
                                 f"{EXECUTE_ROLES[len(registers)]}")
            registers.append(self.tile_register(EXECUTE_ROLES[len(registers)]))
            if not self.at(","):
                break
            self.take()
        if len(registers) < len(EXECUTE_ROLES):
            if self.cur.kind in ("sep", "eof"):
                raise self.error("", kind="missing-operand",
                                 message=f"EXECUTE {mn} takes three tile registers (destination, left source, "
                                 f"right source), found {len(registers)}; missing the "
                                 f"{EXECUTE_ROLES[len(registers)]}")
            raise self.error(f"',' before the {EXECUTE_ROLES[len(registers)]}")
        self.fields["destination"], self.fields["source_left"], self.fields["source_right"] = registers


# Each command of the syntax (:data:`~specgen.program.syntax.FORMS`) and the method that reads its operands;
# a named BSTART (``BSTART.TMOV U8``) is read by ``_bstart_named``.
COMMANDS: dict[str, Callable[[StatementParser], None]] = {
    "BSTART.VEC": StatementParser._bstart_vec,
    "BSTART.SFU": StatementParser._bstart_sfu,
    "BSTART.TEPL": StatementParser._bstart_tepl,
    "B.DATR": StatementParser._b_datr,
    "B.DIM": StatementParser._b_dim,
    "B.IOT": StatementParser._b_iot,
    "B.IOR": StatementParser._b_ior,
    "B.FPATR": StatementParser._b_fpatr,
    "BSTOP": StatementParser._bstop,
    "EXECUTE": StatementParser._execute,
}
