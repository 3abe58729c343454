"""Python oracles for the FSU validation shards: what each scalar FP operation must produce.

Written from the spec's own model (``asl/scalar/model/dispatch/fsu.asl``,
``asl/scalar/model/fsu/profile.asl``) and its reference profile
(``asl/arch/profile/reference-profile.asl``), never from the interpreter, so
a shard compares two independent statements of one rule:

* compares work on encodings: any NaN makes every relation false (NE too,
  unlike IEEE's unordered-NE), ``+0 == -0``, otherwise the numeric order;
  NV (flag bit 0) for a signaling NaN, or any NaN for the ``S`` forms;
* FMIN/FMAX: a NaN operand yields the other one, two NaNs the canonical
  quiet NaN, ``-0 < +0``, NV only for a signaling NaN;
* the reference profile's numeric hooks are the spec's placeholder model,
  not IEEE: ``ScalarFPBinaryProfile`` is integer arithmetic on the carriers
  modulo 2^64 (unsigned division; a ±0 divisor gives all ones and DZ, flag
  bit 1); ``ScalarFPUnaryProfile`` keeps the value for SQRT, adds one for
  EXP and divides all ones by the value for RECIP (±0: all ones, DZ);
  ``ScalarFPFusedProfile`` is ``L*R ± A`` (negated for the ``N`` forms);
  the three conversion hooks return the (source-normalised) value unchanged.

FP32 (``SrcType`` 1) uses the zero-extended low word of the carrier, and an
FP32 result keeps its low word. The width of a conversion's destination
carrier is not restated here: the shards compare against the spec's own
``NormalizeScalarFPResult`` / ``NormalizeScalarIntegerResult`` of the
oracle's value (see :mod:`specgen.catalog_asl.fsu_shards`).
"""

from __future__ import annotations

import math
import struct

MASK64 = (1 << 64) - 1
DZ = 2
NV = 1


def _f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits & MASK64))[0]


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def is_snan(bits: int, single: bool) -> bool:
    if single:
        b = bits & 0xFFFFFFFF
        return (b >> 23) & 0xFF == 0xFF and b & 0x7FFFFF != 0 and not b & 0x400000
    b = bits & MASK64
    return (b >> 52) & 0x7FF == 0x7FF and b & ((1 << 52) - 1) != 0 and not b & (1 << 51)


def _mask(single: bool) -> int:
    return 0xFFFFFFFF if single else MASK64


def _is_zero(value: int, single: bool) -> bool:
    return value & (_mask(single) >> 1) == 0


def compare(relation: str, signaling: bool, left: int, right: int, single: bool) -> tuple[bool, int]:
    """(result, flags) of the spec's encoding comparison (module docstring)."""
    x, y = (_f32(left), _f32(right)) if single else (_f64(left), _f64(right))
    nan = math.isnan(x) or math.isnan(y)
    snan = is_snan(left, single) or is_snan(right, single)
    flags = NV if snan or (signaling and nan) else 0
    if nan:
        return False, flags
    return {"EQ": x == y, "NE": x != y, "LT": x < y, "GE": not x < y}[relation], flags


def minmax(op: str, left: int, right: int, single: bool) -> tuple[int, int]:
    """FMIN/FMAX as the spec's model states them (module docstring)."""
    mask, sign, qnan = (0xFFFFFFFF, 1 << 31, 0x7FC00000) if single else (MASK64, 1 << 63, 0x7FF8000000000000)
    left &= mask
    right &= mask
    x, y = (_f32(left), _f32(right)) if single else (_f64(left), _f64(right))
    flags = NV if is_snan(left, single) or is_snan(right, single) else 0
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
    """FADD/FSUB/FMUL/FDIV under the reference profile (module docstring)."""
    mask = _mask(single)
    left &= mask
    right &= mask
    if op == "ADD":
        value, flags = left + right, 0
    elif op == "SUB":
        value, flags = left - right, 0
    elif op == "MUL":
        value, flags = left * right, 0
    elif _is_zero(right, single):
        value, flags = MASK64, DZ
    else:
        value, flags = left // right, 0
    return value & mask, flags


def unary(op: str, value: int, single: bool) -> tuple[int, int]:
    """FABS (clears the sign bit), FSQRT/FEXP/FRECIP under the reference profile."""
    mask = _mask(single)
    value &= mask
    if op == "ABS":
        return value & (mask >> 1), 0
    if op == "SQRT":
        return value, 0
    if op == "EXP":
        return (value + 1) & mask, 0
    if _is_zero(value, single):  # RECIP
        return mask, DZ
    return (MASK64 // value) & mask, 0


def fused(op: str, left: int, right: int, addend: int, single: bool) -> tuple[int, int]:
    """FMADD/FMSUB/FNMADD/FNMSUB under the reference profile: ``L*R ± A``, negated for ``N``."""
    mask = _mask(single)
    product = ((left & mask) * (right & mask)) & MASK64
    addend &= mask
    value = {"MADD": product + addend, "MSUB": product - addend,
             "NMADD": -(product + addend), "NMSUB": -(product - addend)}[op]
    return value & mask, 0


def convert_source(summary: str, value: int, src_type: int) -> int:
    """The source a conversion hook receives: a 64-bit source (``SrcType`` 0) passes unchanged;
    the 32-bit one is the low word, sign-extended when the record's summary says the source is
    "sign-extended" (SCVTF), else zero-extended (FP32 carriers, UCVTF)."""
    value &= MASK64
    if src_type == 0:
        return value
    low = value & 0xFFFFFFFF
    if "sign-extended" in summary and low >> 31:
        return low | (MASK64 ^ 0xFFFFFFFF)
    return low


def convert_kind(summary: str) -> str:
    """Which of the spec's result normalisations a conversion uses: ``Integer`` when the
    record's summary converts "to integer carrier" (the fixed-rounding FCVT<x> forms), else
    ``FP`` (FCVT, SCVTF, UCVTF)."""
    return "Integer" if "to integer carrier" in summary else "FP"
