"""Generate the BRU validation shards (``ValidateScalarBRU{Execute,Bounds,Alias}_<M>``).

The corpus's per-mnemonic BRU tests call shards the upstream generator
writes ("executes the canonical comparison, branch, jump, or control
effect", "covers operand selectors, immediates, conditions, targets, and
faults", "covers special register aliases, queue selectors, or precise
control faults"). The catalog record gives the encoding and the fields;
which comparison a mnemonic tests is stated nowhere but in the mnemonic
itself, so it is read from the last dotted component with this mapping (an
``I`` suffix on a form with an immediate field only marks the immediate):

=========  ==========================================
suffix     condition (``left`` op ``right``)
=========  ==========================================
EQ / NE    equal / not equal (64-bit)
LT / GE    signed less than / signed greater or equal
LTU / GEU  unsigned less than / unsigned greater or equal
AND / OR   ``left AND right`` / ``left OR right`` is non-zero
NZ / Z     ``left`` is non-zero / zero (one operand)
=========  ==========================================

What the form does with the condition (its effect class) is read from the
record's shape, not from a list of handler names, so a form of a release
this module has not seen gets its validation too:

* **compare**: it names a destination (a ``RegDst`` field or ``->`` in its
  assembly): 1/0 is written there;
* **branch**: no destination, and an immediate the condition does not need
  as an operand (two register operands and an immediate, or a one-operand
  condition and an immediate), or a handler or summary that says "branch":
  TPC becomes the spec's ``InstructionContractTarget_<M>(TPC, immediate)``
  when the condition holds, else advances by the length;
* **set-commit**: no destination otherwise: the command latches the commit
  argument inside a conditional Block (the AND/OR conditions take the
  logical right-operand modifiers).

The right operand is the register, adjusted by ``SrcRType`` when present
(``00`` none, ``01`` sign-extended low word, ``10`` zero-extended low
word, ``11`` none for ordered compares, NOT for logical ones), or the
immediate: sign- or zero-extended per the field's signedness and, for
condition setters, shifted left by ``shamt``. ``CMP.*`` writes 1/0 to its
destination (``->t``/``->u`` push a queue); ``SETC.*`` sets the commit
argument and the block's ``taken`` inside a conditional block, once.
Jumps, links and TPC-relative addresses (no condition) are
:mod:`specgen.catalog_asl.bru_jumps`'.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Mapping

from .. import speccontract as contract
from ..encoding.model import catalog_word
from .scalar_shards import MASK64, _check_reg, _ident, shard_body, family_shards_asl, _sext, _w, _write_reg

_IMM = re.compile(r"^(?:(u|s)imm|imm|offset|label)\d*$", re.IGNORECASE)
_CONDITIONS = {"EQ": 2, "NE": 2, "LT": 2, "GE": 2, "LTU": 2, "GEU": 2, "AND": 2, "OR": 2, "NZ": 1, "Z": 1}
_TPC = 0x100


def condition_of(mnemonic: str, has_immediate: bool) -> str | None:
    """The comparison a compare/set-commit mnemonic tests (see the module table)."""
    suffix = mnemonic.rsplit(".", 1)[-1].upper()
    if has_immediate and suffix.endswith("I") and _CONDITIONS.get(suffix[:-1]) == 2:
        suffix = suffix[:-1]
    return suffix if suffix in _CONDITIONS else None


def holds(cond: str, left: int, right: int) -> bool:
    left &= MASK64
    right &= MASK64
    return {
        "EQ": left == right, "NE": left != right,
        "LT": _sext(left, 64) < _sext(right, 64), "GE": _sext(left, 64) >= _sext(right, 64),
        "LTU": left < right, "GEU": left >= right,
        "AND": (left & right) != 0, "OR": (left | right) != 0, "NZ": left != 0, "Z": left == 0,
    }[cond]


def _modify(value: int, rtype: int, logical: bool) -> int:
    if rtype == 1:
        return _sext(value, 32) & MASK64
    if rtype == 2:
        return value & 0xFFFFFFFF
    if rtype == 3 and logical:
        return ~value & MASK64
    return value & MASK64


class _BRU:
    """A conditional BRU form and its effect class (module docstring), read from its record's shape."""

    def __init__(self, form: dict, flags: Mapping[str, bool] | None = None) -> None:
        self.form = form
        self.m = _ident(form.get("mnemonic", ""))
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form.get("length_bits", 32))
        self.imm = next((f for f in self.fields if _IMM.match(f)), None)
        self.cond = condition_of(form.get("mnemonic", ""), self.imm is not None)
        asm = str(form.get("asm", ""))
        words = f"{form.get('semantic_handler', '')} {form.get('semantic_summary', '')}".lower()
        destination = "RegDst" in self.fields or "->" in asm
        operands = ("SrcR" in self.fields) + 1  # SrcL or the implicit T#1
        needs = _CONDITIONS.get(self.cond or "", 2)
        self.effect = "compare" if destination else (
            "branch" if self.imm is not None and (operands >= needs or "branch" in words) else "set-commit")
        self.setc = self.effect == "set-commit"
        self.logical = self.cond in ("AND", "OR")
        self.signed = immediate_signed(form, self.imm, flags or {}) if self.imm else False
        # compressed compare-immediate: left is T#1, result pushed to ->t (its assembly names t#1, no field does)
        self.implicit_left = "SrcL" not in self.fields
        # whether the record names where the condition's left operand comes from (B.NZ in 0.58.0 names none:
        # its ASL reads a branch predicate no field or assembly operand states, so nothing is derived for it)
        self.operands_known = "SrcL" in self.fields or bool(re.search(r"\bt#1\b", asm, re.IGNORECASE))

    def encode(self, values: dict[str, int]) -> int:
        return catalog_word(self.form, values)

    def imm_range(self) -> tuple[int, int]:
        w = self.fields[self.imm]["width"]
        if self.signed:
            return -(1 << (w - 1)), (1 << (w - 1)) - 1
        return 0, (1 << w) - 1


def immediate_signed(form: dict, field: str, flags: Mapping[str, bool]) -> bool:
    """Whether a BRU form's immediate is signed: the field's own signedness, else the spec's
    ``InstructionContractImmediateIsSigned_<M>()`` (``flags``: the tree's literal boolean contract
    functions), else the assembly token (``simm``/``uimm``), else the field name, else "signed" in
    the record's summary."""
    fields = {fl["name"]: fl for fl in form.get("fields", [])}
    sig = fields.get(field, {}).get("signedness")
    if sig in ("signed", "unsigned"):
        return sig == "signed"
    declared = flags.get(contract.BRU_SIGNED_IMMEDIATE.of(_ident(form.get("mnemonic", ""))))
    if declared is not None:
        return declared
    tokens = re.findall(r"\b(simm|uimm)\b", str(form.get("asm", "")))
    if tokens:
        return tokens[0] == "simm"
    if field[:1].lower() in "su" and field[1:4].lower() == "imm":
        return field[0].lower() == "s"
    return bool(re.search(r"\bsigned\b", str(form.get("semantic_summary", ""))))


def _scenario(b: _BRU, left: int, right: int, *, rtype: int = 0, shamt: int = 0,
              sel: dict[str, int] | None = None) -> list[str]:
    """One attempt; ``right`` is the encoded immediate (signed) or the register value."""
    s = {"left": 2, "right": 4, "dst": 5, **(sel or {})}
    vals: dict[str, int] = {}
    out = ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});"]
    if b.setc:
        out += [f"    BeginBundle(BundleKind_Standard, BundleTransfer_Conditional, {_w(0x80)}, {_w(0x180)}, "
                f"{_w(0)}, FALSE);", "    EnterBundleBody();"]
    if b.implicit_left:
        out.append(f"    PushTemporaryQueue(TRUE, {_w(left)});")
    else:
        vals["SrcL"] = s["left"]
        out += _write_reg(s["left"], left)
    if b.imm:
        vals[b.imm] = right & ((1 << b.fields[b.imm]["width"]) - 1)
        operand = right & MASK64
        if "shamt" in b.fields:
            vals["shamt"] = shamt
            operand = (operand << (shamt & 63)) & MASK64
    else:
        vals["SrcR"] = s["right"]
        out += _write_reg(s["right"], right)
        if "SrcRType" in b.fields:
            vals["SrcRType"] = rtype
        operand = _modify(right, rtype, b.logical)
    if "RegDst" in b.fields:
        vals["RegDst"] = s["dst"]
    result = holds(b.cond, left, operand)
    out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{b.encode(vals):x};", "    tpc = ReadTPC();",
            f"    assert ExecuteScalarInstruction(instruction, {b.length}) == ScalarExecution_Executed;",
            "    assert _LastFault == Fault_None;",
            f"    assert ReadTPC() == tpc + {b.length // 8};"]
    if b.setc:
        out += [f"    assert _CommitArgument == {_w(int(result))};",
                f"    assert _BARG.taken == {'TRUE' if result else 'FALSE'};",
                "    assert _BundleConditionSet;"]
    elif b.implicit_left:
        out.append(f"    assert ReadTemporaryQueue(TRUE, 0) == {_w(int(result))};")
    else:
        out += _check_reg(s["dst"], int(result))
    return out


def _branch(b: _BRU, left: int, right: int, imm: int, *, sel: dict[str, int] | None = None) -> list[str]:
    """One branch attempt: TPC becomes the spec's target when the condition holds, else the next command."""
    s = {"left": 2, "right": 4, **(sel or {})}
    vals: dict[str, int] = {b.imm: imm & ((1 << b.fields[b.imm]["width"]) - 1)}  # type: ignore[index]
    out = ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});"]
    if b.implicit_left:
        out.append(f"    PushTemporaryQueue(TRUE, {_w(left)});")
    else:
        vals["SrcL"] = s["left"]
        out += _write_reg(s["left"], left)
    if "SrcR" in b.fields:
        vals["SrcR"] = s["right"]
        out += _write_reg(s["right"], right)
    taken = holds(b.cond, left, right)  # type: ignore[arg-type]
    out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{b.encode(vals):x};",
            f"    target = {contract.BRU_TARGET.of(b.m)}({_w(_TPC)}, {_w(imm)});",
            f"    assert ExecuteScalarInstruction(instruction, {b.length}) == ScalarExecution_Executed;",
            "    assert _LastFault == Fault_None;",
            "    assert ReadTPC() == target;" if taken else f"    assert ReadTPC() == {_w(_TPC + b.length // 8)};"]
    return out


def _branch_shards(b: _BRU) -> dict[str, str]:
    """Execute (taken and not taken, small even offsets), Bounds (the extreme even offsets), Alias (sources
    read from T#1 / U#1): the spec's own target function says where a taken branch goes."""
    lo, hi = b.imm_range()
    pairs = _true_false(b, offset=True)
    bodies = {
        "Execute": [x for left, right in pairs for imm in (2, 4, -6 if b.signed else 6)
                    for x in _branch(b, left, right, imm)],
        "Bounds": [x for left, right in pairs for imm in (lo & ~1, hi & ~1) for x in _branch(b, left, right, imm)],
        "Alias": [x for left, right in pairs for x in _branch(b, left, right, 2, sel={"left": 24, "right": 28})],
    }
    return {f"ValidateScalarBRU{k}_{b.m}": shard_body(f"ValidateScalarBRU{k}_{b.m}", v, "target")
            for k, v in bodies.items()}


_PAIRS = [(5, 5), (3, 7), (7, 3), (-1, 1), (1, -1), (0, 0), (0x0C, 0x03), (0x0C, 0x06), (-8, -8), (9, 0)]


def _true_false(b: _BRU, rtype: int = 0, shamt: int = 0, offset: bool = False) -> list[tuple[int, int]]:
    """A (left, right) pair for which the condition holds and one for which it does not (``offset``: the
    immediate is a branch offset, both operands are registers)."""
    lo, hi = b.imm_range() if b.imm and not offset else (-(1 << 63), (1 << 63) - 1)
    got: dict[bool, tuple[int, int]] = {}
    for left, right in _PAIRS:
        if not lo <= right <= hi:
            continue
        operand = (((right & MASK64) << shamt) & MASK64 if b.imm and not offset
                   else _modify(right & MASK64, rtype, b.logical))
        got.setdefault(holds(b.cond, left, operand), (left, right))
    return [got[k] for k in (True, False) if k in got]


def bru_shards(form: dict, flags: Mapping[str, bool] | None = None) -> dict[str, str]:
    """Shard name -> ASL text for one conditional BRU record (compare, set-commit or branch; empty for a form
    with no condition: the jumps and links are :mod:`specgen.catalog_asl.bru_jumps`')."""
    b = _BRU(form, flags)
    if b.cond is None or not b.operands_known:
        return {}
    if b.effect == "branch":
        return _branch_shards(b)
    m = b.m
    out: dict[str, str] = {}
    lines: list[str] = []
    for left, right in _true_false(b):
        lines += _scenario(b, left, right)
    out[f"ValidateScalarBRUExecute_{m}"] = shard_body(f"ValidateScalarBRUExecute_{m}", lines, "tpc")

    # Bounds: extreme immediates (and the largest shift), or the SrcRType word modifiers
    lines = []
    if b.imm:
        lo, hi = b.imm_range()
        shamt = (1 << b.fields["shamt"]["width"]) - 1 if "shamt" in b.fields else 0
        for imm in (lo, hi, -1 if lo < 0 else 1):
            operand = ((imm & MASK64) << shamt) & MASK64
            for left in (operand, (operand + 1) & MASK64, (operand - 1) & MASK64, 0, 1 << 63):
                lines += _scenario(b, left, imm, shamt=shamt)
    else:
        rtypes = range(4) if "SrcRType" in b.fields else (0,)
        for rtype in rtypes:
            for left, right in ((0xFFFFFFFF80000000, 0x0000000180000000), (0x80000000, 0xFFFFFFFF80000000),
                                (1 << 63, (1 << 63) - 1), (0, MASK64)):
                lines += _scenario(b, left, right, rtype=rtype)
    out[f"ValidateScalarBRUBounds_{m}"] = shard_body(f"ValidateScalarBRUBounds_{m}", lines, "tpc")

    # Alias: sources read from T#1 / U#1, destinations pushed to ->u / ->t
    lines = []
    for left, right in _true_false(b):
        for dst in (30, 31):
            lines += _scenario(b, left, right, sel={"left": 24, "right": 28, "dst": dst})
            if "RegDst" not in b.fields:
                break
    out[f"ValidateScalarBRUAlias_{m}"] = shard_body(f"ValidateScalarBRUAlias_{m}", lines, "tpc")
    return out


def requires(form: dict) -> tuple[contract.ExpectedName, ...]:
    """The tree's names the conditional shards of ``form`` use (the spec contract); () when it gets none."""
    if form.get("semantic_family") != "BRU":
        return ()
    b = _BRU(form)
    if b.cond is None or not b.operands_known:
        return ()
    if b.effect == "branch":
        return contract.SCALAR_ATTEMPT + (replace(contract.BRU_TARGET, name=contract.BRU_TARGET.of(b.m)),)
    return contract.SCALAR_ATTEMPT + (contract.BRU_SET_COMMIT if b.setc else ())


def bru_shards_asl(catalog: dict, flags: Mapping[str, bool] | None = None) -> str:
    """Every conditional BRU shard this module derives, for one ``scalar-forms.json`` document (``flags``: the
    tree's literal boolean contract functions, which may say whether an immediate is signed)."""
    return family_shards_asl(catalog, "BRU", lambda form: bru_shards(form, flags))
