"""Generate the BRU jump/link shards (``ValidateScalarBRU{Execute,Bounds,Alias}_<M>``).

The BRU records with an immediate and no condition in their mnemonic (J,
JR, ADDTPC, HL.ADDTPC, SETRET, HL.SETRET in 0.58.3) compute an address from
a base (the instruction's TPC, or the ``SrcL`` register) and an immediate.
Their effect class is read from the record's shape, not from handler names:
a ``->Ra`` destination links (SETRET), another destination receives the
address (ADDTPC), no destination jumps (J, JR). From the record we read the
immediate field and its signedness (the field's own ``signedness``; for
``encoding-defined`` fields the spec's ``InstructionContractImmediateIsSigned_<M>()``,
else the asm token ``simm`` / ``uimm``, else the word "signed" in the
record's summary: :func:`specgen.catalog_asl.bru_shards.immediate_signed`), the destination
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
from dataclasses import replace
from typing import Mapping

from .. import speccontract as contract
from ..encoding.model import catalog_word
from .bru_shards import condition_of, immediate_signed
from .scalar_shards import MASK64, _check_reg, _ident, shard_body, family_shards_asl, _w, _write_reg

_IMM = re.compile(r"^(u|s)?imm\d*$")
_SENTINEL = 0x5A5A5A5A


def handles(form: dict) -> bool:
    """A BRU form with an immediate and no condition: a jump, a link or a TPC-relative address."""
    fields = [fl.get("name", "") for fl in form.get("fields", [])]
    return (form.get("semantic_family") == "BRU" and any(_IMM.match(n) for n in fields)
            and condition_of(form.get("mnemonic", ""), True) is None)


class _Jump:
    def __init__(self, form: dict, flags: Mapping[str, bool] | None = None) -> None:
        self.form = form
        self.m = _ident(form["mnemonic"])
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form["length_bits"])
        self.imm = next(n for n in self.fields if _IMM.match(n))
        self.width = self.fields[self.imm]["width"]
        self.signed = immediate_signed(form, self.imm, flags or {})
        asm = form.get("asm", "")
        self.link = bool(re.search(r"-\s*>\s*ra\b", asm, re.IGNORECASE))
        self.jump = not self.link and "RegDst" not in self.fields and "->" not in asm
        self.reserved_dst = [c["value"] for c in form.get("constraints", [])
                             if c.get("field") == "RegDst" and c.get("operator") == "not-equal"]

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


def jump_shards(form: dict, flags: Mapping[str, bool] | None = None) -> dict[str, str]:
    """Shard name -> ASL text for one jump/link record (empty for other forms)."""
    if not handles(form):
        return {}
    j = _Jump(form, flags)
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


def requires(form: dict) -> tuple[contract.ExpectedName, ...]:
    """The tree's names the jump/link shards of ``form`` use (the spec contract); () for other handlers."""
    if not handles(form):
        return ()
    j = _Jump(form)
    out = contract.SCALAR_ATTEMPT + contract.BRU_JUMP + (replace(contract.BRU_TARGET, name=contract.BRU_TARGET.of(j.m)),)
    if j.jump and "SrcL" in j.fields:
        out += (replace(contract.BRU_EVEN_TARGET, name=contract.BRU_EVEN_TARGET.of(j.m)),)
    return out


def jump_shards_asl(catalog: dict, flags: Mapping[str, bool] | None = None) -> str:
    """Every jump/link shard this module derives, for one ``scalar-forms.json`` document (``flags``: the tree's
    literal boolean contract functions)."""
    return family_shards_asl(catalog, "BRU", lambda form: jump_shards(form, flags))
