"""Generate the BRU validation shards (``ValidateScalarBRU{Execute,Bounds,Alias}_<M>``).

The corpus's per-mnemonic BRU tests call shards the upstream generator
writes ("executes the canonical comparison, branch, jump, or control
effect", "covers operand selectors, immediates, conditions, targets, and
faults", "covers special register aliases, queue selectors, or precise
control faults"). The catalog record gives the encoding, the fields and the
``semantic_handler`` (``ExecuteCompare``, ``ExecuteCompareLogical``,
``ExecuteSetCommit``, ``ExecuteSetCommitLogical``); which comparison a
mnemonic tests is stated nowhere but in the mnemonic itself, so it is read
from the last dotted component with this mapping (an ``I`` suffix on a form
with an immediate field only marks the immediate):

=========  ==========================================
suffix     condition (``left`` op ``right``)
=========  ==========================================
EQ / NE    equal / not equal (64-bit)
LT / GE    signed less than / signed greater or equal
LTU / GEU  unsigned less than / unsigned greater or equal
AND / OR   ``left AND right`` / ``left OR right`` is non-zero
=========  ==========================================

The right operand is the register, adjusted by ``SrcRType`` when present
(``00`` none, ``01`` sign-extended low word, ``10`` zero-extended low
word, ``11`` none for ordered compares, NOT for logical ones), or the
immediate: sign- or zero-extended per the field's signedness and, for
condition setters, shifted left by ``shamt``. ``CMP.*`` writes 1/0 to its
destination (``->t``/``->u`` push a queue); ``SETC.*`` sets the commit
argument and the block's ``taken`` inside a conditional block, once.
The jump/link handlers (J, JR, ADDTPC, SETRET) are not generated yet.
"""

from __future__ import annotations

from ..encoding.model import catalog_word
from .scalar_shards import MASK64, _check_reg, _ident, shard_body, family_shards_asl, _sext, _w, _write_reg

_HANDLERS = ("ExecuteCompare", "ExecuteCompareLogical", "ExecuteSetCommit", "ExecuteSetCommitLogical")
_IMMS = ("simm5", "simm12", "simm24", "uimm12", "uimm24")
_TPC = 0x100


def condition_of(mnemonic: str, has_immediate: bool) -> str | None:
    """The comparison a compare/set-commit mnemonic tests (see the module table)."""
    suffix = mnemonic.rsplit(".", 1)[-1].upper()
    if has_immediate and suffix.endswith("I") and suffix[:-1] in ("EQ", "NE", "LT", "GE", "LTU", "GEU", "AND", "OR"):
        suffix = suffix[:-1]
    return suffix if suffix in ("EQ", "NE", "LT", "GE", "LTU", "GEU", "AND", "OR") else None


def holds(cond: str, left: int, right: int) -> bool:
    left &= MASK64
    right &= MASK64
    return {
        "EQ": left == right, "NE": left != right,
        "LT": _sext(left, 64) < _sext(right, 64), "GE": _sext(left, 64) >= _sext(right, 64),
        "LTU": left < right, "GEU": left >= right,
        "AND": (left & right) != 0, "OR": (left | right) != 0,
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
    def __init__(self, form: dict) -> None:
        self.form = form
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form["length_bits"])
        self.imm = next((f for f in _IMMS if f in self.fields), None)
        self.cond = condition_of(form["mnemonic"], self.imm is not None)
        self.setc = form["semantic_handler"].startswith("ExecuteSetCommit")
        self.logical = form["semantic_handler"].endswith("Logical")
        # compressed compare-immediate: left is T#1, result pushed to ->t (no fields say so)
        self.implicit_left = "SrcL" not in self.fields

    def encode(self, values: dict[str, int]) -> int:
        return catalog_word(self.form, values)

    def imm_range(self) -> tuple[int, int]:
        w = self.fields[self.imm]["width"]
        if self.imm.startswith("s"):
            return -(1 << (w - 1)), (1 << (w - 1)) - 1
        return 0, (1 << w) - 1


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


_PAIRS = [(5, 5), (3, 7), (7, 3), (-1, 1), (1, -1), (0, 0), (0x0C, 0x03), (0x0C, 0x06), (-8, -8), (9, 0)]


def _true_false(b: _BRU, rtype: int = 0, shamt: int = 0) -> list[tuple[int, int]]:
    """A (left, right) pair for which the condition holds and one for which it does not."""
    lo, hi = b.imm_range() if b.imm else (-(1 << 63), (1 << 63) - 1)
    got: dict[bool, tuple[int, int]] = {}
    for left, right in _PAIRS:
        if not lo <= right <= hi:
            continue
        operand = ((right & MASK64) << shamt) & MASK64 if b.imm else _modify(right & MASK64, rtype, b.logical)
        got.setdefault(holds(b.cond, left, operand), (left, right))
    return [got[k] for k in (True, False) if k in got]


def bru_shards(form: dict) -> dict[str, str]:
    """Shard name -> ASL text for one compare / set-commit record (empty for other handlers)."""
    if form.get("semantic_handler") not in _HANDLERS:
        return {}
    b = _BRU(form)
    if b.cond is None:
        return {}
    m = _ident(form["mnemonic"])
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


def bru_shards_asl(catalog: dict) -> str:
    """Every BRU shard this module derives, for one ``scalar-forms.json`` document."""
    return family_shards_asl(catalog, "BRU", bru_shards)
