"""The ``hardware-ieee`` profile: IEEE 754-2019 results for the FP binary hook.

The spec routes every floating ADD/SUB/MUL/DIV of the elementwise tile-tile
family (``TileProfileBinaryWithFlags`` in
``asl/tile/model/execution/elementwise.asl``) and of the scalar FSU through
one profile hook, ``ScalarFPBinaryProfile(operation, rounding_mode,
source_type, left, right) => (Word, bits(5))``; the reference profile
implements it as raw-carrier integer arithmetic
(``asl/arch/profile/reference-profile.asl``). This profile replaces exactly
that hook, following ``spec/hardware-conformance-profile.json``: RNE (the
hardware default), canonical NaN output, signed zero, subnormals kept with
gradual underflow (no FTZ/DAZ), flags ``NV DZ OF UF NX`` in bits 0..4.

Each operation is computed in binary64 (Python's float) and rounded once into
the format (:mod:`specgen.asl.floatformat`, round-to-nearest-even): FP64
is native, and for FP32, FP16 and BF16 binary64 has at least 2p+2 bits, so
that double rounding is innocuous for + - * / (Figueroa), the result is the
correctly rounded one, as NumPy's and ml_dtypes' own types compute it
(``tests/test_examples_fast.py`` compares them). Tile MAX/MIN already follow
IEEE rules in the ASL (``HardwareNumericFloatingMinMax``), which the profile
keeps; the hook's own MIN/MAX arms (scalar totality arms) use IEEE
minimumNumber/maximumNumber. Other formats (TF32, HF32, 8-bit) and other
rounding modes fall back to the ASL implementation.
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Any, Callable

from .floatformat import BF16, FP16, FP32, FP64, FloatFormat
from .hooks import Around, Hook
from .values import Bits

# encoding code (TileDataTypeToEncoding) -> format; its canonical NaN is the positive quiet NaN
_FORMATS: dict[int, FloatFormat] = {0: FP64, 1: FP32, 4: FP16, 5: BF16}
_OPS = ("FloatingBinary_ADD", "FloatingBinary_SUB", "FloatingBinary_MUL", "FloatingBinary_DIV",
        "FloatingBinary_MIN", "FloatingBinary_MAX")
NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16


def _is_snan(raw: int, fmt: FloatFormat) -> bool:
    return fmt.is_nan(raw) and not (raw >> (fmt.fraction - 1)) & 1


def _negative(x: float) -> bool:
    return math.copysign(1.0, x) < 0


# the four operations, on binary64 floats and on the exact Fractions the inexact flag compares with
_ARITH: dict[str, Callable[[Any, Any], Any]] = {"FloatingBinary_ADD": operator.add, "FloatingBinary_SUB": operator.sub,
                                               "FloatingBinary_MUL": operator.mul, "FloatingBinary_DIV": operator.truediv}


def _arith(op: str, a: float, b: float) -> float:
    """``a op b`` in binary64 with IEEE's special cases (Python raises on a zero divisor)."""
    if op == "FloatingBinary_DIV" and b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return -math.inf if _negative(a) != _negative(b) else math.inf
    return _ARITH[op](a, b)


def ieee_binary(op: str, code: int, left: int, right: int) -> tuple[int, int]:
    """IEEE RNE ``left op right`` on raw encodings; returns (raw result, flags)."""
    fmt = _FORMATS[code]
    canonical = fmt.quiet_nan()
    left &= (1 << fmt.bits) - 1
    right &= (1 << fmt.bits) - 1
    a, b = fmt.decode(left), fmt.decode(right)
    flags = 0
    if _is_snan(left, fmt) or _is_snan(right, fmt):
        flags |= NV
    if op in ("FloatingBinary_MIN", "FloatingBinary_MAX"):
        an, bn = math.isnan(a), math.isnan(b)
        if an and bn:
            return canonical, flags
        if an:
            return fmt.encode(b), flags
        if bn:
            return fmt.encode(a), flags
        if a == b == 0:
            neg_a, neg_b = _negative(a), _negative(b)
            want_neg = (neg_a or neg_b) if op == "FloatingBinary_MIN" else (neg_a and neg_b)
            return fmt.encode(a if neg_a == want_neg else b), flags
        pick = (a if a <= b else b) if op == "FloatingBinary_MIN" else (a if a >= b else b)
        return fmt.encode(pick), flags
    raw = fmt.encode(_arith(op, a, b))
    r = fmt.decode(raw)
    finite_in = math.isfinite(a) and math.isfinite(b)
    if math.isnan(r):
        if not (math.isnan(a) or math.isnan(b)):
            flags |= NV
        return canonical, flags
    if op == "FloatingBinary_DIV" and finite_in and b == 0 and a != 0:
        flags |= DZ
    elif math.isinf(r) and finite_in:
        flags |= OF | NX
    elif finite_in and math.isfinite(r):
        exact = None if op == "FloatingBinary_DIV" and b == 0 else _ARITH[op](Fraction(a), Fraction(b))
        if exact is not None and Fraction(r) != exact:
            flags |= NX
            if abs(r) < fmt.smallest_normal:
                flags |= UF
    return raw, flags


def scalar_fp_binary_profile(original: Callable, operation, rounding_mode, source_type, left, right):
    """Hook for ``ScalarFPBinaryProfile``: IEEE for RNE on FP64/FP32/FP16/BF16."""
    code = source_type.v if type(source_type) is Bits else int(source_type)
    if (code not in _FORMATS or operation not in _OPS
            or rounding_mode not in ("NumericRound_RNE", "NumericRound_NONE")):
        return original(operation, rounding_mode, source_type, left, right)
    raw, flags = ieee_binary(operation, code, left.v, right.v)
    return (Bits(raw, left.n), Bits(flags, 5))


# TileDataType member -> _FORMATS code, for trees (like the bundled sample) whose
# tile FP hook ``TileFPBinaryElement(op, data_type, left, right) => Word`` takes
# the data type as an enumeration member and the element in the low bits of Word.
_TILE_TYPES = {"TileDataType_FP64": 0, "TileDataType_FP32": 1, "TileDataType_FP16": 4, "TileDataType_BF16": 5}
_TILE_OPS = {"TileBinary_ADD": "FloatingBinary_ADD", "TileBinary_SUB": "FloatingBinary_SUB",
             "TileBinary_MUL": "FloatingBinary_MUL", "TileBinary_DIV": "FloatingBinary_DIV"}


def tile_fp_binary_element(original: Callable, op, data_type, left, right):
    """Hook for ``TileFPBinaryElement``: IEEE RNE ADD/SUB/MUL/DIV on FP64/FP32/FP16/BF16.

    MAX/MIN stay with the tree's ASL: the spec defines them as selections that
    follow its ordering rules in every profile. The result is the rounded
    element zero-extended into the Word carrier; flags are dropped because the
    hook's contract has no status output.
    """
    code = _TILE_TYPES.get(data_type) if isinstance(data_type, str) else None
    fop = _TILE_OPS.get(op) if isinstance(op, str) else None
    if code is None or fop is None:
        return original(op, data_type, left, right)
    raw, _flags = ieee_binary(fop, code, left.v, right.v)
    return Bits(raw, left.n)


def hooks() -> dict[str, Hook]:
    """Hooks of the profile, each around the ASL it falls back to; one whose name a tree does not define
    is never called."""
    return {"ScalarFPBinaryProfile": Around(scalar_fp_binary_profile),
            "TileFPBinaryElement": Around(tile_fp_binary_element)}
