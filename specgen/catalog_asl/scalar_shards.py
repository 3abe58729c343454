"""Generate the AGU validation shards (``ValidateScalarAGU{Execute,Alias,Bounds,Fault}_<M>``).

The corpus's migrated AVS tests call per-mnemonic validation shards that the
upstream generator writes and the tree lacks; their only statement of intent
is the test header ("executes the canonical address calculation", "covers
absolute and temporary register selector aliases", "covers address fields,
modifiers, limits, and wrap behavior", "rejects faults before partial
register or memory effects"). We write our own shards from each
``scalar-forms.json`` record's data alone: the encoding (``match`` plus the
field pieces), the ``agu`` attributes (action, address kind, size, offset
scale, update mode, signed load, prefetch-returns-address) and the field
constraints. Each shard is concrete ASL: it resets the profile, builds the
instruction word, seeds registers and memory, runs
``ExecuteScalarInstruction`` and asserts the effects that this module
computes independently (address = base + (immediate << scale) or
base + (index << shift), modulo 2^64; post-index addresses the old base;
loads zero- or sign-extend; pairs touch ``address`` and ``address + size``;
retirement advances TPC by the instruction length; a fault leaves TPC,
registers and memory untouched).

Operand roles follow the Reg5 roles every record states: the base is
``SrcL`` except for register-less stores with an immediate (base ``SrcR``,
data ``SrcL``/``SrcD``); compressed forms use the implicit T#1 queue entry.
"""

from __future__ import annotations

import re
from typing import Callable

from .. import speccontract as contract
from ..encoding.model import catalog_word

MASK64 = (1 << 64) - 1
_IMM_FIELDS = ("simm5", "simm12", "simm17", "simm22", "simm")
_LOAD_PATTERN = 0xF1E2D3C4B5A69788  # every low 1/2/4-byte part is negative
_PAIR_PATTERN = 0x8E7D6C5B4A392817
_STORE_PATTERN = 0xA1B2C3D4E5F60718
_STORE_PAIR_PATTERN = 0x9ACBDCEDFE0F1021


def shard_body(name: str, lines: list[str], word: str) -> str:
    """A zero-argument shard ``name``: the instruction word and one ``bits(PTO_XLEN)`` local
    ``word`` (the BRU shards' expected TPC or jump target), then ``lines``."""
    return "\n".join([f"func {name}()", "begin", "    var instruction: bits(48) = Zeros{48};",
                      f"    var {word}: bits(PTO_XLEN) = Zeros{{PTO_XLEN}};", *lines, "end;"])


def _ident(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _w(v: int) -> str:
    return f"(Zeros{{PTO_XLEN}} + 0x{v & MASK64:x})"


def _sext(v: int, width: int) -> int:
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _extend(v: int, size: int, signed: bool) -> int:
    bits = size * 8
    v &= (1 << bits) - 1
    return (_sext(v, bits) & MASK64) if signed else v


class _Form:
    def __init__(self, form: dict, index: int) -> None:
        self.form, self.index = form, index
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        a = form["agu"]
        self.action, self.kind = a["action"], a["address_kind"]
        self.size, self.scale = int(a["size_bytes"]), int(a["offset_scale"])
        self.update, self.signed = a["update_mode"], bool(a["signed_load"])
        self.returns_address = bool(a.get("prefetch_returns_address"))
        self.length = int(form["length_bits"])
        self.imm = next((f for f in _IMM_FIELDS if f in self.fields), None)
        stores = self.action in ("Store", "StorePair")
        if self.kind == "PCRelative":
            self.base_field = None
        elif stores and self.kind == "Immediate":
            self.base_field = "SrcR"
        else:
            self.base_field = "SrcL"
        self.index_field = "SrcR" if self.kind == "Register" else None

    def encode(self, values: dict[str, int]) -> int:
        return catalog_word(self.form, values)

    def legal_defaults(self) -> dict[str, int]:
        """Encoded values for fields that are not operands of the scenario (first legal value)."""
        out: dict[str, int] = {}
        for c in self.form.get("constraints", []):
            if c.get("field") in self.fields and c.get("operator") == "one-of" and c.get("values"):
                out[c["field"]] = int(c["values"][0])
        return out


class _Scenario:
    """One execution of a form: operand choices and the effects they imply."""

    def __init__(self, f: _Form, *, base: int, imm: int = 0, index: int = 0, tpc: int = 0x40,
                 sel: dict[str, int] | None = None) -> None:
        self.f = f
        self.sel = {"base": 2, "index": 4, "data": 3, "data1": 7, "dst": 5, "dst1": 6, **(sel or {})}
        self.tpc = tpc & MASK64
        self.imm = imm
        self.index = index & MASK64
        if f.kind == "PCRelative":
            self.base = self.tpc & ~3 & MASK64
        else:
            self.base = base & MASK64
        if f.kind == "Register":
            shift = 0 if "shamt" in f.fields else f.scale
            self.offset = (self.index << shift) & MASK64
        else:
            self.offset = ((imm if f.imm else 0) << f.scale) & MASK64
        self.updated = (self.base + self.offset) & MASK64
        self.address = self.base if f.update == "PostIndex" else self.updated

    def fields(self) -> dict[str, int]:
        f, s = self.f, self.sel
        v = dict(f.legal_defaults())
        if f.base_field:
            v[f.base_field] = s["base"]
        if f.index_field:
            v[f.index_field] = s["index"]
            if "SrcRType" in f.fields:
                v["SrcRType"] = 0
            if "shamt" in f.fields:
                v["shamt"] = 0
        if f.imm:
            v[f.imm] = self.imm & ((1 << f.fields[f.imm]["width"]) - 1)
        if f.action == "Store":
            if "SrcD" in f.fields:
                v["SrcD"] = s["data"]
            elif f.kind != "Compressed" and "SrcL" in f.fields and f.base_field != "SrcL":
                v["SrcL"] = s["data"]
        if f.action == "StorePair":
            v["SrcD"], v["SrcD1"] = s["data"], s["data1"]
        for d, key in (("RegDst", "dst"), ("RegDst0", "dst"), ("RegDst1", "dst1")):
            if d in f.fields:
                v[d] = s[key]
        return v

    def setup(self) -> list[str]:
        f, s = self.f, self.sel
        out = ["    ResetProfileState();", f"    WriteTPC({_w(self.tpc)});"]
        out += _write_reg(s["base"], self.base) if f.base_field else []
        out += _write_reg(s["index"], self.index) if f.index_field else []
        if f.action in ("Load", "LoadPair") and self.in_memory():
            out.append(f"    Store({_w(self.address)}, {f.size}, {_w(_LOAD_PATTERN)});")
            if f.action == "LoadPair":
                out.append(f"    Store({_w(self.address + f.size)}, {f.size}, {_w(_PAIR_PATTERN)});")
        if f.action == "Store":
            if f.kind == "Compressed":
                out.append(f"    PushTemporaryQueue(TRUE, {_w(_STORE_PATTERN)});")
            else:
                out += _write_reg(s["data"], _STORE_PATTERN)
        if f.action == "StorePair":
            out += _write_reg(s["data"], _STORE_PATTERN) + _write_reg(s["data1"], _STORE_PAIR_PATTERN)
        out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{self.f.encode(self.fields()):x};"]
        return out

    def in_memory(self) -> bool:
        return self.address + 2 * self.f.size <= 4096 and self.address % self.f.size == 0

    def expect_executed(self) -> list[str]:
        f, s = self.f, self.sel
        out = [f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Executed;",
               "    assert _LastFault == Fault_None;",
               f"    assert ReadTPC() == {_w(self.tpc + f.length // 8)};"]
        if f.action == "Load":
            value = _extend(_LOAD_PATTERN, f.size, f.signed)
            if f.kind == "Compressed":
                out.append(f"    assert ReadTemporaryQueue(TRUE, 0) == {_w(value)};")
            elif f.update == "None":
                out += _check_reg(s["dst"], value)
            else:
                out += _check_reg(s["dst"], value) + _check_reg(s["dst1"], self.updated)
        elif f.action == "LoadPair":
            out += _check_reg(s["dst"], _extend(_LOAD_PATTERN, f.size, f.signed))
            out += _check_reg(s["dst1"], _extend(_PAIR_PATTERN, f.size, f.signed))
        elif f.action == "Store":
            out.append(f"    assert LoadTranslatedUnsigned({_w(self.address)}, {f.size}) == "
                       f"{_w(_extend(_STORE_PATTERN, f.size, False))};")
            if f.update != "None":
                out += _check_reg(s["dst"], self.updated)
        elif f.action == "StorePair":
            out.append(f"    assert LoadTranslatedUnsigned({_w(self.address)}, {f.size}) == "
                       f"{_w(_extend(_STORE_PATTERN, f.size, False))};")
            out.append(f"    assert LoadTranslatedUnsigned({_w(self.address + f.size)}, {f.size}) == "
                       f"{_w(_extend(_STORE_PAIR_PATTERN, f.size, False))};")
        elif f.action == "Prefetch" and f.returns_address:
            out += _check_reg(s["dst"], self.updated)
        return out


def _write_reg(sel: int, value: int) -> list[str]:
    if sel < 24:
        return [f"    WriteGPR({sel}, {_w(value)});"]
    return [f"    PushTemporaryQueue({'TRUE' if sel < 28 else 'FALSE'}, {_w(value)});"]


def _check_reg(sel: int, value: int) -> list[str]:
    if sel < 24:
        return [f"    assert ReadGPR({sel}) == {_w(value)};"]
    return [f"    assert ReadTemporaryQueue({'TRUE' if sel == 31 else 'FALSE'}, 0) == {_w(value)};"]


_TRAP_VECTOR = 0x900


def _trap_setup(setup: list[str]) -> list[str]:
    """Run the attempt from ring 2 with ring 1's trap vector set, capturing memory events."""
    return setup[:-2] + ["    StartMemoryEventCapture(0);", "    SetCurrentACR(2);",
                         f"    PTOv0WriteContextRegister(1, 0x0f01, {_w(_TRAP_VECTOR)});"] + setup[-2:]


def _trap_check(f: "_Form", sc: "_Scenario", fault: str, address: int | None) -> list[str]:
    """A precise fault: rejected, trapped to ring 1 with the faulting TPC saved, no memory event;
    recovery returns to the faulting instruction."""
    out = [f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Rejected;",
           f"    assert _LastFault == {fault};"]
    if address is not None:
        out.append(f"    assert _FaultAddress == {_w(address)};")
    out += ["    assert CurrentACR() == 1;", f"    assert ReadTPC() == {_w(_TRAP_VECTOR)};",
            "    assert _TrapContexts[[1]].valid;", f"    assert _TrapContexts[[1]].tpc == {_w(sc.tpc)};",
            "    assert _MemoryEventCount == 0;"]
    return out


def _recover(sc: "_Scenario") -> list[str]:
    return ["    assert RecoverTrapContext(1);", "    assert CurrentACR() == 2;",
            f"    assert ReadTPC() == {_w(sc.tpc)};"]


def _aligned_scenario(f: _Form, target: int, **kw) -> _Scenario:
    """A scenario whose access address is ``target`` (aligned), adjusting the base or TPC."""
    probe = _Scenario(f, base=0, **kw)
    if f.kind == "PCRelative":
        tpc = (target - (0 if f.update == "PostIndex" else probe.offset)) & MASK64
        return _Scenario(f, base=0, tpc=tpc, **{k: v for k, v in kw.items() if k != "tpc"})
    base = target if f.update == "PostIndex" else (target - probe.offset) & MASK64
    return _Scenario(f, base=base, **kw)


def _small_immediate(f: _Form) -> int:
    """A non-zero immediate whose scaled offset keeps ``size``- and 8-byte alignment."""
    return max(1, 8 >> f.scale)


def _body(name: str, lines: list[str]) -> str:
    return "\n".join([f"func {name}()", "begin", "    var instruction: bits(48) = Zeros{48};", *lines, "end;"])


def agu_shards(form: dict, index: int) -> dict[str, str]:
    """Shard name -> ASL function text for one AGU record."""
    f = _Form(form, index)
    m = _ident(form["mnemonic"])
    out: dict[str, str] = {}

    # Execute: canonical registers, small offset, access at 0x200
    ex = _aligned_scenario(f, 0x200, imm=_small_immediate(f), index=8)
    out[f"ValidateScalarAGUExecute_{m}"] = _body(f"ValidateScalarAGUExecute_{m}", ex.setup() + ex.expect_executed())

    # Alias: base from a temporary-queue source (T#1 / U#1), destination pushed to a queue
    if f.kind == "Compressed":
        sel = {"base": 28}
    else:
        sel = {"base": 24 if f.action != "Store" or f.kind == "Compressed" else 28, "dst": 30}
        if f.action in ("Store", "StorePair") and f.kind != "Compressed":
            sel = {"base": 28, "data": 24, "data1": 7, "dst": 30}
    if f.update != "None" or f.action == "LoadPair":
        sel["dst"] = 5  # two results: keep them in GPRs
    if f.kind == "PCRelative":
        sel.pop("base", None)
    al = _aligned_scenario(f, 0x300, imm=_small_immediate(f), index=16, sel=sel)
    out[f"ValidateScalarAGUAlias_{m}"] = _body(f"ValidateScalarAGUAlias_{m}", al.setup() + al.expect_executed())

    # Bounds: extreme immediates (or index values) with 2^64 wrap-around
    lines: list[str] = []
    if f.imm:
        w = f.fields[f.imm]["width"]
        hi = (1 << (w - 1)) - 1
        while (hi << f.scale) % 8:
            hi -= 1
        lo = -(1 << (w - 1))
        for imm, target in ((hi, 0x280), (lo, 0x380)):
            sc = _aligned_scenario(f, target, imm=imm)
            lines += sc.setup() + sc.expect_executed()
    if f.kind == "Register":
        for idx, target in ((MASK64 & ~7, 0x280), (0x7FFFFFFFFFFFFFF8, 0x380)):
            sc = _aligned_scenario(f, target, index=idx)
            lines += sc.setup() + sc.expect_executed()
    if not lines:
        sc = _aligned_scenario(f, 0x280, imm=_small_immediate(f))
        lines = sc.setup() + sc.expect_executed()
    out[f"ValidateScalarAGUBounds_{m}"] = _body(f"ValidateScalarAGUBounds_{m}", lines)

    # Fault: misaligned or out-of-range access, or a reserved constrained field value
    lines = []
    if f.action != "Prefetch":
        if f.size > 1 and f.kind != "PCRelative":
            sc = _aligned_scenario(f, 0x200, imm=_small_immediate(f), index=8)
            sc = _Scenario(f, base=sc.base + 1, imm=sc.imm, index=sc.index, tpc=sc.tpc)
            fault = "Fault_DataAlignment"
        else:
            sc = _aligned_scenario(f, 4096, imm=_small_immediate(f), index=8)
            fault = "Fault_DataPage"
        lines += _trap_setup(sc.setup()) + _trap_check(f, sc, fault, sc.address)
        if f.action in ("Load", "LoadPair"):
            for d in ("RegDst", "RegDst0", "RegDst1"):
                if d in f.fields:
                    lines += _check_reg(sc.sel["dst1" if d == "RegDst1" else "dst"], 0)
        if f.update != "None" and f.action == "Store":
            lines += _check_reg(sc.sel["dst"], 0)
        if f.base_field:
            lines += _check_reg(sc.sel["base"], sc.base)
        lines += _recover(sc)
    else:
        # a prefetch never faults: one outside the model memory retires with no fault and no access
        sc = _aligned_scenario(f, 4096, imm=_small_immediate(f), index=8)
        lines += sc.setup() + sc.expect_executed() + ["    assert _MemoryEventCount == 0;"]
    for c in form.get("constraints", []):
        if c.get("operator") != "one-of" or c.get("field") not in f.fields:
            continue
        width = f.fields[c["field"]]["width"]
        bad = next((v for v in range(1 << width) if v not in c["values"]), None)
        if bad is None:
            continue
        sc = _aligned_scenario(f, 0x200, imm=_small_immediate(f), index=8)
        vals = sc.fields()
        vals[c["field"]] = bad
        lines += _trap_setup(sc.setup()[:-1] + [f"    instruction = Zeros{{48}} + 0x{f.encode(vals):x};"])
        lines += _trap_check(f, sc, "Fault_IllegalInstruction", None)
    if lines:
        out[f"ValidateScalarAGUFault_{m}"] = _body(f"ValidateScalarAGUFault_{m}", lines)
    return out


def family_shards_asl(catalog: dict, family: str, shards: Callable[[dict], dict[str, str]]) -> str:
    """The shards ``shards(form)`` derives for every form of one semantic family, as one module."""
    parts = [f"// Generated by specgen from spec/catalog/scalar-forms.json ({family} validation shards). Do not edit."]
    for form in catalog.get("forms") or []:
        if isinstance(form, dict) and form.get("semantic_family") == family:
            parts.extend(shards(form).values())
    return "\n".join(parts) + "\n"


def scalar_shards_asl(catalog: dict) -> str:
    """Every shard this module can derive, for one ``scalar-forms.json`` document."""
    parts = ["// Generated by specgen from spec/catalog/scalar-forms.json (validation shards). Do not edit."]
    for i, form in enumerate(catalog.get("forms") or []):
        if isinstance(form, dict) and form.get("semantic_family") == "AGU" and isinstance(form.get("agu"), dict):
            parts.extend(agu_shards(form, i).values())
    return "\n".join(parts) + "\n"


def requires(form: dict) -> tuple[contract.ExpectedName, ...]:
    """The tree's names the AGU shards of ``form`` use (the spec contract), () for a form it derives none for."""
    if form.get("semantic_family") != "AGU" or not isinstance(form.get("agu"), dict):
        return ()
    return contract.SCALAR_ATTEMPT + contract.AGU_SHARDS
