"""Generate FSU validation shards (``ValidateScalarFSU<Kind>_<M>``) where an independent oracle exists.

The corpus's FSU tests call per-mnemonic shards ("executes the canonical
floating-point effect", "covers zeros, infinities, NaNs, extrema, and signed
carriers", "covers sticky floating-point exception-flag accumulation",
"covers every assigned source data-type encoding", "rejects reserved
data-type encodings before architectural effects", "source snapshotting",
"source aliases", "destination aliases"). What a shard asserts is computed
here, in Python, from the catalog record and IEEE 754 encodings
(``struct``), never from the interpreter:

* every FSU record: ``TypesReserved`` - each value outside a ``one-of``
  constraint (``SrcType`` 2/3, ``DstType`` 15..31) rejects with
  ``Fault_IllegalInstruction``; the destination and the sticky flags are
  unchanged;
* ``FloatingCompare`` records (FEQ/FNE/FLT/FGE, ``S`` suffix = signaling;
  the relation is read from the mnemonic): all shard kinds. The spec's
  model compares encodings: any NaN makes every relation false (NE too,
  unlike IEEE's unordered-NE), ``+0 == -0``, otherwise the numeric order;
  NV (flag bit 0) is raised by a signaling NaN, or by any NaN for the
  signaling forms. FP32 (``SrcType`` 1) uses the low 32 bits of the carrier;
* ``FMIN``/``FMAX``: all shard kinds, as the model's ``ScalarFPMinMax``
  states them (:func:`minmax`: a NaN operand yields the other one, two NaNs
  the canonical quiet NaN, ``-0 < +0``, NV only for a signaling NaN);
* ``FADD``/``FSUB``/``FMUL``/``FDIV``: all shard kinds, with the result of
  the reference profile's raw-carrier arithmetic (:func:`raw_carrier`; the
  corpus's reference numeric model is this placeholder, so these shards
  state what the spec's ASL computes under ``--profile reference``; under
  ``hardware-ieee`` they fail by design);
* ``FABS``: all shard kinds; clears the sign bit of the FP64 carrier or of
  the low FP32 word (zero-extended) and raises no flag.

The unary (FSQRT/FRECIP/FEXP), fused and conversion forms are not generated
yet (``Rounding`` shards neither): their reference-profile hooks and the
rounding-mode plumbing need their own oracle.
"""

from __future__ import annotations

import math
import struct

from ..encoding.model import catalog_word
from .gen_scalar_shards import MASK64, _check_reg, _ident, family_shards_asl, _w, _write_reg

_TPC = 0x100
_KINDS = ("Execute", "Bounds", "Flags", "TypesLegal", "AliasSnapshot", "AliasSources", "AliasDestination")


def _f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits & MASK64))[0]


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def _is_snan(bits: int, single: bool) -> bool:
    if single:
        b = bits & 0xFFFFFFFF
        return (b >> 23) & 0xFF == 0xFF and b & 0x7FFFFF != 0 and not b & 0x400000
    b = bits & MASK64
    return (b >> 52) & 0x7FF == 0x7FF and b & ((1 << 52) - 1) != 0 and not b & (1 << 51)


def compare(relation: str, signaling: bool, left: int, right: int, single: bool) -> tuple[bool, int]:
    """(result, flags) of the spec's encoding comparison (module docstring)."""
    x, y = (_f32(left), _f32(right)) if single else (_f64(left), _f64(right))
    nan = math.isnan(x) or math.isnan(y)
    snan = _is_snan(left, single) or _is_snan(right, single)
    flags = 1 if snan or (signaling and nan) else 0
    if nan:
        return False, flags
    return {"EQ": x == y, "NE": x != y, "LT": x < y, "GE": not x < y}[relation], flags


def minmax(op: str, left: int, right: int, single: bool) -> tuple[int, int]:
    """FMIN/FMAX as the spec's model states them: a NaN operand yields the other operand (two NaNs
    the canonical quiet NaN), -0 < +0, otherwise the numeric order; NV only for a signaling NaN."""
    mask, sign, qnan = (0xFFFFFFFF, 1 << 31, 0x7FC00000) if single else (MASK64, 1 << 63, 0x7FF8000000000000)
    left &= mask
    right &= mask
    x, y = (_f32(left), _f32(right)) if single else (_f64(left), _f64(right))
    flags = 1 if _is_snan(left, single) or _is_snan(right, single) else 0
    if math.isnan(x) and math.isnan(y):
        return qnan, flags
    if math.isnan(x) or math.isnan(y):
        return (right if math.isnan(x) else left), flags
    if x == 0 and y == 0:
        negative = (left & sign, right & sign)
        if op == "MAX":
            return (sign if all(negative) else 0), flags
        return (sign if any(negative) else 0), flags
    if op == "MIN":
        return (left if x < y else right), flags
    return (right if x < y else left), flags


def raw_carrier(op: str, left: int, right: int, single: bool) -> tuple[int, int]:
    """FADD/FSUB/FMUL/FDIV under the reference profile (``ScalarFPBinaryProfile`` in
    ``asl/arch/profile/reference-profile.asl``): integer arithmetic on the carriers modulo 2^64
    (unsigned division), division by a ±0 encoding gives all ones and DZ (flag bit 1); an FP32
    result keeps the low word. This is the spec's placeholder numeric model, not IEEE."""
    mask = 0xFFFFFFFF if single else MASK64
    left &= mask
    right &= mask
    if op == "ADD":
        value, flags = left + right, 0
    elif op == "SUB":
        value, flags = left - right, 0
    elif op == "MUL":
        value, flags = left * right, 0
    elif right & (mask >> 1) == 0:
        value, flags = MASK64, 2
    else:
        value, flags = left // right, 0
    return value & mask, flags


def fabs(value: int, single: bool) -> int:
    return (value & 0x7FFFFFFF) if single else (value & ~(1 << 63) & MASK64)


# FP64 / FP32 encodings for the value sweeps
_D = {"1": 0x3FF0000000000000, "2": 0x4000000000000000, "-1": 0xBFF0000000000000, "+0": 0,
      "-0": 1 << 63, "inf": 0x7FF0000000000000, "-inf": 0xFFF0000000000000, "qnan": 0x7FF8000000000000,
      "snan": 0x7FF0000000000001, "max": 0x7FEFFFFFFFFFFFFF, "-max": 0xFFEFFFFFFFFFFFFF, "tiny": 1,
      "-tiny": (1 << 63) | 1}
_S = {"1": 0x3F800000, "2": 0x40000000, "-1": 0xBF800000, "+0": 0, "-0": 0x80000000, "inf": 0x7F800000,
      "-inf": 0xFF800000, "qnan": 0x7FC00000, "snan": 0x7F800001, "max": 0x7F7FFFFF, "-max": 0xFF7FFFFF,
      "tiny": 1, "-tiny": 0x80000001}
_CARRIER = 0xDEADBEEF00000000  # high half of an FP32 carrier: ignored by the model


class _FSU:
    def __init__(self, form: dict) -> None:
        self.form = form
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form["length_bits"])
        self.handler = form.get("semantic_handler")
        m = form["mnemonic"].upper()
        self.signaling = self.handler == "FloatingCompare" and m.endswith("S")
        self.relation = (m[1:-1] if self.signaling else m[1:]) if self.handler == "FloatingCompare" else None
        self.binary = "SrcR" in self.fields
        self.minmax = m[1:] if m in ("FMIN", "FMAX") else None
        self.raw = m[1:] if m in ("FADD", "FSUB", "FMUL", "FDIV") else None

    def encode(self, values: dict[str, int]) -> int:
        return catalog_word(self.form, values)

    def expected(self, left: int, right: int, single: bool) -> tuple[int, int]:
        if self.minmax:
            return minmax(self.minmax, left, right, single)
        if self.raw:
            return raw_carrier(self.raw, left, right, single)
        if self.relation:
            r, flags = compare(self.relation, self.signaling, left, right, single)
            return int(r), flags
        return fabs(left, single), 0


def _run(f: _FSU, left: int, right: int, *, single: bool, sel: dict[str, int] | None = None,
         preset_flags: int = 0) -> list[str]:
    s = {"left": 2, "right": 4, "dst": 5, **(sel or {})}
    vals = {"SrcL": s["left"], "SrcType": int(single), "RegDst": s["dst"]}
    out = ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});"]
    out += _write_reg(s["left"], left)
    if f.binary:
        vals["SrcR"] = s["right"]
        if s["right"] != s["left"]:
            out += _write_reg(s["right"], right)
        else:
            right = left
    if preset_flags:
        out.append(f"    RecordNumericStatusFlags(Zeros{{5}} + {preset_flags});")
    value, flags = f.expected(left, right, single)
    out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{f.encode(vals):x};",
            f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Executed;",
            "    assert _LastFault == Fault_None;",
            f"    assert ReadTPC() == {_w(_TPC + f.length // 8)};"]
    out += _check_reg(s["dst"], value)
    out.append(f"    assert NumericStatusFlags() == Zeros{{5}} + {flags | preset_flags};")
    return out


def _pairs(f: _FSU, names: list[tuple[str, str]], single: bool) -> list[tuple[int, int]]:
    t = _S if single else _D
    hi = _CARRIER if single else 0
    return [(t[a] | hi, t[b] | hi) for a, b in names]


_BASIC = [("1", "2"), ("2", "1"), ("-1", "-1")]
_EDGES = [("+0", "-0"), ("-0", "+0"), ("inf", "max"), ("-inf", "-max"), ("max", "inf"), ("qnan", "1"),
          ("1", "qnan"), ("snan", "1"), ("qnan", "qnan"), ("tiny", "+0"), ("-tiny", "-0"), ("-max", "tiny"),
          ("inf", "inf"), ("-inf", "inf")]


def _body(name: str, lines: list[str]) -> str:
    return "\n".join([f"func {name}()", "begin", "    var instruction: bits(48) = Zeros{48};", *lines, "end;"])


def _types_reserved(f: _FSU) -> list[str]:
    lines: list[str] = []
    for c in f.form.get("constraints", []):
        if c.get("operator") != "one-of" or c.get("field") not in f.fields:
            continue
        width = f.fields[c["field"]]["width"]
        for bad in (v for v in range(1 << width) if v not in c["values"]):
            vals = {n: 0 for n in f.fields}
            vals.update({"SrcL": 2, "RegDst": 5})
            if "SrcR" in f.fields:
                vals["SrcR"] = 4
            if "SrcA" in f.fields:
                vals["SrcA"] = 6
            vals[c["field"]] = bad
            lines += ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});",
                      *_write_reg(2, _D["1"]), *_write_reg(4, _D["2"]), *_write_reg(5, 0x5A5A),
                      "    RecordNumericStatusFlags(Zeros{5} + 4);", "    ClearFault();",
                      f"    instruction = Zeros{{48}} + 0x{f.encode(vals):x};",
                      f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Rejected;",
                      "    assert _LastFault == Fault_IllegalInstruction;",
                      *_check_reg(5, 0x5A5A), "    assert NumericStatusFlags() == Zeros{5} + 4;"]
    return lines


def fsu_shards(form: dict) -> dict[str, str]:
    """Shard name -> ASL text for one FSU record (only the kinds with an oracle here)."""
    f = _FSU(form)
    m = _ident(form["mnemonic"])
    out: dict[str, str] = {}
    reserved = _types_reserved(f)
    if reserved:
        out[f"ValidateScalarFSUTypesReserved_{m}"] = _body(f"ValidateScalarFSUTypesReserved_{m}", reserved)
    if not (f.relation or f.minmax or f.raw or form["mnemonic"] == "FABS"):
        return out
    kinds: dict[str, list[str]] = {k: [] for k in _KINDS}
    for single in (False, True):
        for l, r in _pairs(f, _BASIC, single):
            kinds["Execute"] += _run(f, l, r, single=single)
        for l, r in _pairs(f, _EDGES, single):
            kinds["Bounds"] += _run(f, l, r, single=single)
        for l, r in _pairs(f, [("snan", "1"), ("qnan", "2"), ("1", "1"), ("2", "-0")], single):
            kinds["Flags"] += _run(f, l, r, single=single, preset_flags=0b10100)
        l, r = _pairs(f, [("-1", "2")], single)[0]
        kinds["TypesLegal"] += _run(f, l, r, single=single)
        # the destination overlaps a source: both are read before the result is written
        kinds["AliasSnapshot"] += _run(f, l, r, single=single, sel={"dst": 2})
        if f.binary:
            kinds["AliasSnapshot"] += _run(f, l, r, single=single, sel={"dst": 4})
        kinds["AliasSources"] += _run(f, l, r, single=single, sel={"right": 2})
        kinds["AliasSources"] += _run(f, l, r, single=single, sel={"left": 24, "right": 28})
        for dst in (30, 31):
            kinds["AliasDestination"] += _run(f, l, r, single=single, sel={"dst": dst})
    for k, lines in kinds.items():
        out[f"ValidateScalarFSU{k}_{m}"] = _body(f"ValidateScalarFSU{k}_{m}", lines)
    return out


def fsu_shards_asl(catalog: dict) -> str:
    """Every FSU shard this module derives, for one ``scalar-forms.json`` document."""
    return family_shards_asl(catalog, "FSU", fsu_shards)
