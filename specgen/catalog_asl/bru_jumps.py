"""Generate the BRU jump/link shards (``ValidateScalarBRU{Execute,Bounds,Alias}_<M>``).

The records whose ``semantic_handler`` is ``JumpRelative`` (J),
``JumpRegister`` (JR), ``AddToPC`` (ADDTPC, HL.ADDTPC) or
``SetReturnAddress`` (SETRET, HL.SETRET) compute an address from a base
(the instruction's TPC, or the ``SrcL`` register for JR) and an immediate.
From the record we read the immediate field and its signedness (the field's
own ``signedness``; for ``encoding-defined`` fields the asm token ``simm`` /
``uimm``, else the word "signed" in the record's summary), the destination
(``RegDst``; ``->Ra`` in the asm: R10 and the bundle-local return address)
and the reserved destination values (``not-equal`` constraints: such a word
never executes as the record, it decodes as another form or not at all). How the
immediate is scaled (halfwords, 4 KiB pages) is the spec's own
``InstructionContractTarget_<M>(base, offset)``: the shard compares what
``ExecuteScalarInstruction`` does with that contract function, so the
dispatch and the mnemonic's contract are checked against each other.

Effects asserted: a jump (handler ``Jump…``) sets TPC to the target and
writes no register; a target with bit 0 set faults ``Fault_InstructionPC``
when ``InstructionContractRequiresEvenTarget_<M>()`` says so (JR); ADDTPC
writes the address to its destination (->t / ->u push a queue) and advances
TPC by the instruction length; SETRET writes R10 and ``_ReturnAddress``. Every computation wraps modulo 2^64 (Bounds starts near the top of
the address space).
"""

from __future__ import annotations

import re

from ..encoding.model import catalog_word
from .scalar_shards import MASK64, _check_reg, _ident, shard_body, family_shards_asl, _w, _write_reg

_HANDLERS = ("JumpRelative", "JumpRegister", "AddToPC", "SetReturnAddress")
_IMM = re.compile(r"^(u|s)?imm\d*$")
_SENTINEL = 0x5A5A5A5A


class _Jump:
    def __init__(self, form: dict) -> None:
        self.form = form
        self.m = _ident(form["mnemonic"])
        self.handler = form["semantic_handler"]
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form["length_bits"])
        self.imm = next(n for n in self.fields if _IMM.match(n))
        self.width = self.fields[self.imm]["width"]
        self.signed = self._signed(form)
        self.jump = self.handler.startswith("Jump")
        self.link = bool(re.search(r"-\s*>\s*ra\b", form.get("asm", ""), re.IGNORECASE))
        self.reserved_dst = [c["value"] for c in form.get("constraints", [])
                             if c.get("field") == "RegDst" and c.get("operator") == "not-equal"]

    def _signed(self, form: dict) -> bool:
        sig = self.fields[self.imm].get("signedness")
        if sig in ("signed", "unsigned"):
            return sig == "signed"
        tokens = re.findall(r"\b(simm|uimm)\b", form.get("asm", ""))
        if tokens:
            return tokens[0] == "simm"
        return bool(re.search(r"\bsigned\b", form.get("semantic_summary", "")))

    def imm_range(self) -> tuple[int, int]:
        if self.signed:
            return -(1 << (self.width - 1)), (1 << (self.width - 1)) - 1
        return 0, (1 << self.width) - 1

    def encode(self, imm: int, extra: dict[str, int]) -> int:
        return catalog_word(self.form, {self.imm: imm & ((1 << self.width) - 1), **extra})


def _scenario(j: _Jump, *, tpc: int, imm: int, base: int = 0, src: int = 2, dst: int = 5) -> list[str]:
    vals: dict[str, int] = {}
    out = ["    ResetProfileState();", f"    WriteTPC({_w(tpc)});", f"    WriteGPR(10, {_w(_SENTINEL)});",
           f"    WriteGPR(5, {_w(_SENTINEL)});"]
    if "SrcL" in j.fields:
        vals["SrcL"] = src
        out += _write_reg(src, base)
    else:
        base = tpc
    if "RegDst" in j.fields:
        vals["RegDst"] = dst
    out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{j.encode(imm, vals):x};",
            f"    target = InstructionContractTarget_{j.m}({_w(base)}, {_w(imm)});"]
    run = f"ExecuteScalarInstruction(instruction, {j.length})"
    if dst in j.reserved_dst and "RegDst" in j.fields:
        # the reserved destination never executes as this form: the word is another form's
        # (ADDTPC with Ra is SETRET's encoding) or rejected
        decoded = f"DecodeScalarForm(instruction, {j.length})"
        return out + [f"    if {decoded} != PTO_SCALAR_FORM_COUNT then",
                      f"        assert ScalarOperationOfForm({decoded}) != ScalarOperation_{j.m};", "    end;"]
    if j.jump:
        even = f"InstructionContractRequiresEvenTarget_{j.m}()" if "SrcL" in j.fields else "FALSE"
        return out + [f"    if {even} && target[0] == '1' then",
                      f"        assert {run} == ScalarExecution_Rejected;",
                      "        assert _LastFault == Fault_InstructionPC;", "        assert _FaultAddress == target;",
                      "    else",
                      f"        assert {run} == ScalarExecution_Executed;", "        assert _LastFault == Fault_None;",
                      "        assert ReadTPC() == target;", "    end;",
                      f"    assert ReadGPR(10) == {_w(_SENTINEL)};", f"    assert ReadGPR(5) == {_w(_SENTINEL)};"]
    out += [f"    assert {run} == ScalarExecution_Executed;", "    assert _LastFault == Fault_None;",
            f"    assert ReadTPC() == {_w(tpc + j.length // 8)};"]
    if j.link:
        return out + ["    assert ReadGPR(10) == target;", "    assert _ReturnAddress == target;",
                      f"    assert ReadGPR(5) == {_w(_SENTINEL)};"]
    if dst == 0 or 24 <= dst <= 29:  # discard
        return out + [f"    assert ReadGPR(5) == {_w(_SENTINEL)};"]
    check = _check_reg(dst, 0)[0].rsplit("==", 1)[0]
    return out + [f"{check}== target;"]


def jump_shards(form: dict) -> dict[str, str]:
    """Shard name -> ASL text for one jump/link record (empty for other handlers)."""
    if form.get("semantic_handler") not in _HANDLERS:
        return {}
    j = _Jump(form)
    lo, hi = j.imm_range()
    small = [1, 2, -3] if j.signed else [1, 2, 3]
    lines: list[str] = []
    for imm in [0, *small]:
        lines += _scenario(j, tpc=0x10000, imm=imm, base=0x20000)
    out = {f"ValidateScalarBRUExecute_{j.m}": lines}
    lines = []
    for imm in (lo, hi, -1 if j.signed else 1):
        for tpc in (0x1000, (1 << 63) - 0x800, MASK64 - 0xFFF):
            lines += _scenario(j, tpc=tpc, imm=imm, base=(tpc ^ (1 << 63)) & ~1)
    if "SrcL" in j.fields:
        for base in (MASK64, 1, (1 << 63) | 2):  # odd targets fault when the contract requires even ones
            lines += _scenario(j, tpc=0x1000, imm=2, base=base)
    for dst in j.reserved_dst:
        lines += _scenario(j, tpc=0x1000, imm=1, dst=dst)
    out[f"ValidateScalarBRUBounds_{j.m}"] = lines
    lines = []
    if "SrcL" in j.fields:
        for src in (24, 28, 0):
            lines += _scenario(j, tpc=0x4000, imm=4, base=0 if src == 0 else 0x8000, src=src)
    if "RegDst" in j.fields:
        for dst in (30, 31, 0, 1, 23):
            lines += _scenario(j, tpc=0x4000, imm=-2 if j.signed else 2, dst=dst)
    if j.link:
        lines += _scenario(j, tpc=0x4000, imm=hi)
    out[f"ValidateScalarBRUAlias_{j.m}"] = lines
    return {name: shard_body(name, body, "target") for name, body in out.items()}


def jump_shards_asl(catalog: dict) -> str:
    """Every jump/link shard this module derives, for one ``scalar-forms.json`` document."""
    return family_shards_asl(catalog, "BRU", jump_shards)
