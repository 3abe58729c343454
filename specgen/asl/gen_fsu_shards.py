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
* ``FABS``: all shard kinds; clears the sign bit of the FP64 carrier or of
  the low FP32 word (zero-extended) and raises no flag.

The arithmetic, conversion and fused forms go through the spec's numeric
profile hooks, whose reference profile is the raw-carrier placeholder; their
shards are not generated yet.
"""

from __future__ import annotations

import math
import struct

from .gen_scalar_shards import MASK64, _check_reg, _ident, _w, _write_reg

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

    def encode(self, values: dict[str, int]) -> int:
        word = int(self.form["encoding"][0]["match"], 16)
        for name, v in values.items():
            for p in self.fields[name]["pieces"]:
                m = (1 << p["width"]) - 1
                word = (word & ~(m << p["instruction_lsb"])) | (((v >> p["value_lsb"]) & m) << p["instruction_lsb"])
        return word

    def expected(self, left: int, right: int, single: bool) -> tuple[int, int]:
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
    if not (f.relation or form["mnemonic"] == "FABS"):
        return out
    kinds: dict[str, list[str]] = {k: [] for k in _KINDS}
    for single in (False, True):
        for l, r in _pairs(f, _BASIC, single):
            kinds["Execute"] += _run(f, l, r, single=single)
        for l, r in _pairs(f, _EDGES, single):
            kinds["Bounds"] += _run(f, l, r, single=single)
        for l, r in _pairs(f, [("snan", "1"), ("qnan", "2"), ("1", "1")], single):
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
    parts = ["// Generated by specgen from spec/catalog/scalar-forms.json (FSU validation shards). Do not edit."]
    for form in catalog.get("forms") or []:
        if isinstance(form, dict) and form.get("semantic_family") == "FSU":
            parts.extend(fsu_shards(form).values())
    return "\n".join(parts) + "\n"
