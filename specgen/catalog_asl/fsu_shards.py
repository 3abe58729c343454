"""Generate the FSU validation shards (``ValidateScalarFSU<Kind>_<M>``) for every FSU record.

The corpus's FSU tests call per-mnemonic shards ("executes the canonical
floating-point effect", "covers zeros, infinities, NaNs, extrema, and signed
carriers", "covers sticky floating-point exception-flag accumulation",
"covers every assigned source data-type encoding", "rejects reserved
data-type encodings before architectural effects", "source snapshotting",
"source aliases", "destination aliases", "covers all encoded active or fixed
rounding-mode selections"). A shard is concrete ASL: it resets the profile,
seeds the sources, builds the word from the record's encoding and fields,
runs ``ExecuteScalarInstruction`` and asserts the destination, the sticky
flags and TPC against values computed in Python by
:mod:`specgen.catalog_asl.fsu_oracle` (never by the interpreter).

What a record does is read from its catalog data: the ``semantic_handler``
(``FloatingCompare``, ``FloatingBinary``, ``FloatingUnary``,
``FloatingFused``, ``ConvertFloatingEncoding``), the operation from the
mnemonic (``F<OP>``; a trailing ``S`` on a compare = signaling), the
sources from the ``SrcL``/``SrcR``/``SrcA`` fields, the assigned type codes
from the ``one-of`` constraints, and a conversion's source signedness and
destination kind from its ``semantic_summary`` (``sign-extended``, ``to
integer carrier``). Shard kinds:

* ``TypesReserved``: each value outside a ``one-of`` constraint (``SrcType``
  2/3, ``DstType`` 15..31) rejects with ``Fault_IllegalInstruction``; the
  destination and the sticky flags are unchanged;
* ``Execute``/``Bounds``/``Flags``: basic values, then zeros, infinities,
  NaNs, extrema and subnormals, then pre-set sticky flags (OR-accumulated),
  for FP64 and FP32 (the FP32 shards put garbage in the carrier's high word);
* ``TypesLegal``: every assigned ``SrcType`` (and ``DstType``);
* ``AliasSnapshot``/``AliasSources``/``AliasDestination``: the destination
  overlapping each source, duplicate and queue (T#1/U#1) sources, results
  pushed to ->u / ->t;
* ``Rounding`` (records that reach a numeric-profile hook: all but compares,
  FMIN/FMAX and FABS): each of the eight ``core_state[39:37]`` encodings.

The numeric results are the reference profile's (the spec's placeholder
model): these shards state what the ASL computes under ``--profile
reference`` and fail under ``hardware-ieee`` by design. A conversion's
expected value is the spec's own ``NormalizeScalarFPResult`` /
``NormalizeScalarIntegerResult`` of the oracle's value, so the width of
each carrier code is read from the spec, never restated.
"""

from __future__ import annotations

from .. import speccontract as contract
from ..encoding.model import catalog_word
from . import fsu_oracle as oracle
from .scalar_shards import MASK64, _ident, family_shards_asl, _w, _write_reg

_TPC = 0x100
_KINDS = ("Execute", "Bounds", "Flags", "TypesLegal", "AliasSnapshot", "AliasSources", "AliasDestination",
          "Rounding")
_SOURCES = ("SrcL", "SrcR", "SrcA")
_HOME = {"SrcL": 2, "SrcR": 4, "SrcA": 6, "RegDst": 5}

# FP64 / FP32 encodings for the value sweeps
_D = {"1": 0x3FF0000000000000, "2": 0x4000000000000000, "-1": 0xBFF0000000000000, "+0": 0,
      "-0": 1 << 63, "inf": 0x7FF0000000000000, "-inf": 0xFFF0000000000000, "qnan": 0x7FF8000000000000,
      "snan": 0x7FF0000000000001, "max": 0x7FEFFFFFFFFFFFFF, "-max": 0xFFEFFFFFFFFFFFFF, "tiny": 1,
      "-tiny": (1 << 63) | 1, "3": 0x4008000000000000}
_S = {"1": 0x3F800000, "2": 0x40000000, "-1": 0xBF800000, "+0": 0, "-0": 0x80000000, "inf": 0x7F800000,
      "-inf": 0xFF800000, "qnan": 0x7FC00000, "snan": 0x7F800001, "max": 0x7F7FFFFF, "-max": 0xFF7FFFFF,
      "tiny": 1, "-tiny": 0x80000001, "3": 0x40400000}
_CARRIER = 0xDEADBEEF00000000  # high half of an FP32 carrier: ignored by the model


class _FSU:
    """One FSU record: how to encode it and what it must produce (module docstring)."""

    def __init__(self, form: dict) -> None:
        self.form = form
        self.fields = {fl["name"]: fl for fl in form.get("fields", [])}
        self.length = int(form["length_bits"])
        self.handler = form.get("semantic_handler")
        self.summary = str(form.get("semantic_summary", ""))
        m = form["mnemonic"].upper()
        self.mnemonic = m
        self.sources = [n for n in _SOURCES if n in self.fields]
        self.signaling = self.handler == "FloatingCompare" and m.endswith("S")
        self.op = (m[1:-1] if self.signaling else m[1:]) if m.startswith("F") else m
        self.kind = {"FloatingCompare": "compare", "FloatingUnary": "unary", "FloatingFused": "fused",
                     "ConvertFloatingEncoding": "convert"}.get(self.handler or "", "binary")
        if self.kind == "binary" and self.op in ("MIN", "MAX"):
            self.kind = "minmax"
        self.legal = {c["field"]: list(c["values"]) for c in form.get("constraints", [])
                      if c.get("operator") == "one-of" and c.get("field") in self.fields}

    @property
    def known(self) -> bool:
        return self.kind in ("compare", "minmax", "binary", "fused", "convert") or (
            self.kind == "unary" and self.op in ("ABS", "SQRT", "EXP", "RECIP"))

    @property
    def rounds(self) -> bool:
        """The record reaches a numeric-profile hook (so the rounding mode is an input)."""
        return self.kind in ("binary", "fused", "convert") or (self.kind == "unary" and self.op != "ABS")

    def dst_types(self) -> list[int | None]:
        """Assigned destination carrier codes: the ``one-of`` values; a record that states none
        (0.58.0) gets codes 0 and 1, the 64- and 32-bit carriers every release assigns."""
        if "DstType" not in self.fields:
            return [None]
        return list(self.legal.get("DstType", [])) or [0, 1]

    def encode(self, values: dict[str, int]) -> int:
        return catalog_word(self.form, values)

    def expected(self, v: dict[str, int], src_type: int, dst_type: int | None) -> tuple[int | str, int]:
        """(destination value or an ASL expression for it, flags)."""
        single = src_type == 1
        left, right, addend = v.get("SrcL", 0), v.get("SrcR", 0), v.get("SrcA", 0)
        if self.kind == "compare":
            r, flags = oracle.compare(self.op, self.signaling, left, right, single)
            return int(r), flags
        if self.kind == "minmax":
            return oracle.minmax(self.op, left, right, single)
        if self.kind == "binary":
            return oracle.raw_carrier(self.op, left, right, single)
        if self.kind == "unary":
            return oracle.unary(self.op, left, single)
        if self.kind == "fused":
            return oracle.fused(self.op, left, right, addend, single)
        value = oracle.convert_source(self.summary, left, src_type)
        kind = oracle.convert_kind(self.summary)
        return f"NormalizeScalar{kind}Result({_w(value)}, '{(dst_type or 0):05b}')", 0


def _check(sel: int, expected: int | str) -> list[str]:
    value = expected if isinstance(expected, str) else _w(expected)
    if sel < 24:
        return [f"    assert ReadGPR({sel}) == {value};"]
    return [f"    assert ReadTemporaryQueue({'TRUE' if sel == 31 else 'FALSE'}, 0) == {value};"]


def _run(f: _FSU, values: tuple[int, ...], *, single: bool, sel: dict[str, int] | None = None,
         preset_flags: int = 0, dst_type: int | None = None, rounding: int | None = None) -> list[str]:
    """One attempt: ``values`` are SrcL, SrcR, SrcA in order (as many as the record reads)."""
    s = {**_HOME, **(sel or {})}
    vals = {"SrcType": int(single), "RegDst": s["RegDst"]}
    if "DstType" in f.fields:
        vals["DstType"] = f.dst_types()[0] if dst_type is None else dst_type
    out = ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});"]
    if rounding is not None:
        out.append(f"    _SystemRegisters.core_state[39:37] = '{rounding:03b}';")
    seen: dict[int, int] = {}
    effective: dict[str, int] = {}
    for name, value in zip(f.sources, values):
        vals[name] = s[name]
        if s[name] not in seen:  # a duplicate selector reads the value written first
            seen[s[name]] = value
            out += _write_reg(s[name], value)
        effective[name] = seen[s[name]]
    if preset_flags:
        out.append(f"    RecordNumericStatusFlags(Zeros{{5}} + {preset_flags});")
    value, flags = f.expected(effective, int(single), vals.get("DstType"))
    out += ["    ClearFault();", f"    instruction = Zeros{{48}} + 0x{f.encode(vals):x};",
            f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Executed;",
            "    assert _LastFault == Fault_None;",
            f"    assert ReadTPC() == {_w(_TPC + f.length // 8)};"]
    out += _check(s["RegDst"], value)
    out.append(f"    assert NumericStatusFlags() == Zeros{{5}} + {flags | preset_flags};")
    return out


def _vals(names: tuple[str, ...], single: bool) -> tuple[int, ...]:
    t = _S if single else _D
    hi = _CARRIER if single else 0
    return tuple(t[n] | hi for n in names)


_BASIC = [("1", "2", "3"), ("2", "1", "-1"), ("-1", "-1", "2")]
_EDGES = [("+0", "-0", "+0"), ("-0", "+0", "-0"), ("inf", "max", "1"), ("-inf", "-max", "inf"),
          ("max", "inf", "-max"), ("qnan", "1", "2"), ("1", "qnan", "qnan"), ("snan", "1", "snan"),
          ("qnan", "qnan", "+0"), ("tiny", "+0", "tiny"), ("-tiny", "-0", "-1"), ("-max", "tiny", "max"),
          ("inf", "inf", "-inf"), ("-inf", "inf", "qnan")]
_FLAG_VALUES = [("snan", "1", "2"), ("qnan", "2", "1"), ("1", "1", "1"), ("2", "-0", "+0"), ("+0", "+0", "1")]


def _body(name: str, lines: list[str]) -> str:
    return "\n".join([f"func {name}()", "begin", "    var instruction: bits(48) = Zeros{48};", *lines, "end;"])


def _types_reserved(f: _FSU) -> list[str]:
    lines: list[str] = []
    for field, legal in f.legal.items():
        width = f.fields[field]["width"]
        for bad in (v for v in range(1 << width) if v not in legal):
            vals = {n: 0 for n in f.fields}
            vals.update({n: _HOME[n] for n in (*f.sources, "RegDst") if n in f.fields})
            vals[field] = bad
            lines += ["    ResetProfileState();", f"    WriteTPC({_w(_TPC)});",
                      *_write_reg(2, _D["1"]), *_write_reg(4, _D["2"]), *_write_reg(6, _D["3"]),
                      *_write_reg(5, 0x5A5A), "    RecordNumericStatusFlags(Zeros{5} + 4);", "    ClearFault();",
                      f"    instruction = Zeros{{48}} + 0x{f.encode(vals):x};",
                      f"    assert ExecuteScalarInstruction(instruction, {f.length}) == ScalarExecution_Rejected;",
                      "    assert _LastFault == Fault_IllegalInstruction;",
                      f"    assert ReadTPC() == {_w(_TPC)};",
                      *_check(5, 0x5A5A), "    assert NumericStatusFlags() == Zeros{5} + 4;"]
    return lines


def _kinds(f: _FSU) -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {k: [] for k in _KINDS}
    src_types = f.legal.get("SrcType", [0, 1])
    for single in (t == 1 for t in src_types if t in (0, 1)):
        for dst in f.dst_types()[:2]:
            for names in _BASIC:
                kinds["Execute"] += _run(f, _vals(names, single), single=single, dst_type=dst)
        for names in _EDGES:
            kinds["Bounds"] += _run(f, _vals(names, single), single=single)
        for names in _FLAG_VALUES:
            kinds["Flags"] += _run(f, _vals(names, single), single=single, preset_flags=0b10100)
        typical = _vals(("-1", "2", "3"), single)
        for dst in f.dst_types():
            kinds["TypesLegal"] += _run(f, typical, single=single, dst_type=dst)
        # the destination overlaps a source: every source is read before the result is written
        for name in f.sources:
            kinds["AliasSnapshot"] += _run(f, typical, single=single, sel={"RegDst": _HOME[name]})
        if len(f.sources) > 1:
            kinds["AliasSources"] += _run(f, typical, single=single, sel={n: 2 for n in f.sources})
        kinds["AliasSources"] += _run(f, typical, single=single, sel={"SrcL": 24, "SrcR": 28})
        for dst in (30, 31):
            kinds["AliasDestination"] += _run(f, typical, single=single, sel={"RegDst": dst})
        if f.rounds:
            for mode in range(8):
                kinds["Rounding"] += _run(f, typical, single=single, rounding=mode)
    return kinds


def fsu_shards(form: dict) -> dict[str, str]:
    """Shard name -> ASL text for one FSU record."""
    f = _FSU(form)
    m = _ident(form["mnemonic"])
    out: dict[str, str] = {}
    reserved = _types_reserved(f)
    if reserved:
        out[f"ValidateScalarFSUTypesReserved_{m}"] = _body(f"ValidateScalarFSUTypesReserved_{m}", reserved)
    if not f.known:
        return out
    for k, lines in _kinds(f).items():
        if lines:
            out[f"ValidateScalarFSU{k}_{m}"] = _body(f"ValidateScalarFSU{k}_{m}", lines)
    return out


def requires(form: dict) -> tuple[contract.ExpectedName, ...]:
    """The tree's names the FSU shards of ``form`` use (the spec contract), () for a form of another family."""
    if form.get("semantic_family") != "FSU":
        return ()
    return contract.SCALAR_ATTEMPT + contract.FSU_SHARDS


def fsu_shards_asl(catalog: dict) -> str:
    """Every FSU shard this module derives, for one ``scalar-forms.json`` document."""
    return family_shards_asl(catalog, "FSU", fsu_shards)
