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

FP64/FP32 use NumPy's native types; FP16 and BF16 go through NumPy's
``float16`` and ml_dtypes' ``bfloat16``, whose operations compute in a wider
format and round once; with at least 2p+2 bits of intermediate precision
that double rounding is innocuous for + - * /. Tile MAX/MIN already follow
IEEE rules in the ASL (``HardwareNumericFloatingMinMax``), which the profile
keeps; the hook's own MIN/MAX arms (scalar totality arms) use IEEE
minimumNumber/maximumNumber. Other formats (TF32, HF32, 8-bit) and other
rounding modes fall back to the ASL implementation.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Callable

import ml_dtypes
import numpy as np

from .hooks import Around, Hook
from .values import Bits

# encoding code (TileDataTypeToEncoding) -> (numpy type, unsigned view, bits, canonical NaN)
_FORMATS: dict[int, tuple] = {
    0: (np.float64, np.uint64, 64, 0x7FF8000000000000),
    1: (np.float32, np.uint32, 32, 0x7FC00000),
    4: (np.float16, np.uint16, 16, 0x7E00),
    5: (ml_dtypes.bfloat16, np.uint16, 16, 0x7FC0),
}
_OPS = ("FloatingBinary_ADD", "FloatingBinary_SUB", "FloatingBinary_MUL", "FloatingBinary_DIV",
        "FloatingBinary_MIN", "FloatingBinary_MAX")
NV, DZ, OF, UF, NX = 1, 2, 4, 8, 16


def _decode(raw: int, fmt: tuple):
    ftype, utype, width, _nan = fmt
    return np.array([raw & ((1 << width) - 1)], dtype=utype).view(ftype)[0]


def _encode(value, fmt: tuple) -> int:
    ftype, utype, _width, nan = fmt
    arr = np.array([value], dtype=ftype)
    if np.isnan(arr[0]):
        return nan
    return int(arr.view(utype)[0])


def _is_snan(raw: int, fmt: tuple) -> bool:
    ftype, _u, width, _nan = fmt
    v = _decode(raw, fmt)
    if not np.isnan(v):
        return False
    mant = {64: 52, 32: 23, 16: 10 if ftype is np.float16 else 7}[width]
    return not (raw >> (mant - 1)) & 1


def _exact(v) -> Fraction:
    return Fraction(float(v))


def ieee_binary(op: str, code: int, left: int, right: int) -> tuple[int, int]:
    """IEEE RNE ``left op right`` on raw encodings; returns (raw result, flags)."""
    fmt = _FORMATS[code]
    ftype = fmt[0]
    a = _decode(left, fmt)
    b = _decode(right, fmt)
    flags = 0
    if _is_snan(left, fmt) or _is_snan(right, fmt):
        flags |= NV
    if op in ("FloatingBinary_MIN", "FloatingBinary_MAX"):
        an, bn = bool(np.isnan(a)), bool(np.isnan(b))
        if an and bn:
            return fmt[3], flags
        if an:
            return _encode(b, fmt), flags
        if bn:
            return _encode(a, fmt), flags
        if a == b == 0:
            neg_a = math.copysign(1.0, float(a)) < 0
            neg_b = math.copysign(1.0, float(b)) < 0
            want_neg = (neg_a or neg_b) if op == "FloatingBinary_MIN" else (neg_a and neg_b)
            pick = a if (math.copysign(1.0, float(a)) < 0) == want_neg else b
            return _encode(pick, fmt), flags
        pick = (a if a <= b else b) if op == "FloatingBinary_MIN" else (a if a >= b else b)
        return _encode(pick, fmt), flags
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if op == "FloatingBinary_ADD":
            r = ftype(a + b)
        elif op == "FloatingBinary_SUB":
            r = ftype(a - b)
        elif op == "FloatingBinary_MUL":
            r = ftype(a * b)
        else:
            r = ftype(a / b)
    r = np.array([r], dtype=ftype)[0]
    finite_in = bool(np.isfinite(a)) and bool(np.isfinite(b))
    if np.isnan(r):
        if not (np.isnan(a) or np.isnan(b)):
            flags |= NV
        return fmt[3], flags
    if op == "FloatingBinary_DIV" and finite_in and b == 0 and a != 0:
        flags |= DZ
    elif np.isinf(r) and finite_in:
        flags |= OF | NX
    elif finite_in and np.isfinite(r):
        ea, eb = _exact(a), _exact(b)
        if op == "FloatingBinary_ADD":
            exact = ea + eb
        elif op == "FloatingBinary_SUB":
            exact = ea - eb
        elif op == "FloatingBinary_MUL":
            exact = ea * eb
        else:
            exact = ea / eb if eb != 0 else None
        if exact is not None and _exact(r) != exact:
            flags |= NX
            tiny = float(np.finfo(ftype).tiny) if ftype is not ml_dtypes.bfloat16 else float(
                ml_dtypes.finfo(ftype).tiny)
            if abs(float(r)) < tiny:
                flags |= UF
    return _encode(r, fmt), flags


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
