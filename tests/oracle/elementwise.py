"""An independent NumPy model of the corpus' elementwise tile-tile family under the reference profile.

Written from the 0.58.3 ASL (``/work/shared/notes/tadd-family-semantics.md``
section 3 and the ASL it cites), not from specgen: the test compares it with
what the spec's own ASL computes through specgen's assembler and executor, bit
for bit, on every element of the physical Tile (valid region and pad region)
and on definedness.

Tile elements are 64-bit carrier words (``uint64``). The model covers the
integer types S8..S64/U8..U64 and the floating types FP64/FP32/FP16/BF16 (the
other floating formats have encoding-validity rules this model does not
state). It also states the Block-level faults a program of this family can
meet: an integer divisor that is zero as a 64-bit word, and an explicit
B.DATR whose concrete DataType differs from the BSTART type (see
:func:`predicted_fault`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

W64 = (1 << 64) - 1
SIGN64 = 1 << 63

OPS = ("TADD", "TSUB", "TMUL", "TDIV", "TREM", "TMAX", "TMIN", "TAND", "TOR", "TXOR", "TSHL", "TSHR")
INTEGER = {"S8": (8, True), "S16": (16, True), "S32": (32, True), "S64": (64, True),
           "U8": (8, False), "U16": (16, False), "U32": (32, False), "U64": (64, False)}
# width, exponent bits, canonical NaN (the destination's, formats/*.asl)
FLOAT = {"FP64": (64, 11, 0x7FF8000000000000), "FP32": (32, 8, 0x7FC00000), "FP16": (16, 5, 0x7E00),
         "BF16": (16, 8, 0x7FC0)}
INTEGER_ONLY = ("TAND", "TOR", "TXOR", "TSHL", "TSHR")
# The pad words of TilePadValueForDataType (elements.asl): FP Max/Min are the largest finite magnitudes,
# signed Min is zero-extended, unsigned Min is zero.
PAD_MAX = {"FP64": 0x7FEFFFFFFFFFFFFF, "FP32": 0x7F7FFFFF, "FP16": 0x7BFF, "BF16": 0x7F7F}
PAD_MIN = {"FP64": 0xFFEFFFFFFFFFFFFF, "FP32": 0xFF7FFFFF, "FP16": 0xFBFF, "BF16": 0xFF7F}


def width(dt: str) -> int:
    return INTEGER[dt][0] if dt in INTEGER else FLOAT[dt][0]


def types_for(op: str) -> tuple[str, ...]:
    """The DataTypes the model states for ``op`` (the ASL admits these; logic and shifts are integer only)."""
    ints = tuple(INTEGER)
    return ints if op in INTEGER_ONLY else ints + tuple(FLOAT)


def pad_word(pad: str, dt: str) -> int:
    """The word the pad region holds for PadValue ``pad`` (Null: 0, and the element stays undefined)."""
    if pad in ("Zero", "Null"):
        return 0
    if dt in FLOAT:
        return PAD_MAX[dt] if pad == "Max" else PAD_MIN[dt]
    bits, signed = INTEGER[dt]
    if pad == "Max":
        return (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    return 1 << (bits - 1) if signed else 0


def canonical_input(word: int, dt: str) -> int:
    """How a source element is written: signed sign-extended, unsigned and floating zero-extended."""
    bits = width(dt)
    low = word & ((1 << bits) - 1)
    if dt in INTEGER and INTEGER[dt][1] and low >> (bits - 1):
        return (low - (1 << bits)) & W64
    return low


# ------------------------------------------------------------------ one element
def _ext(word: int, bits: int, signed: bool) -> int:
    """TileIntegerOperandValue: the operand's value from its width (a Python int)."""
    v = word & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def _norm(value: int, bits: int, signed: bool) -> int:
    """NormalizeTileInteger: signed results sign-extended from the width, unsigned zero-extended."""
    return _ext(value & W64, bits, signed) & W64


def integer_element(op: str, dt: str, left: int, right: int) -> int:
    bits, signed = INTEGER[dt]
    mask = (1 << bits) - 1
    x, y = _ext(left, bits, signed), _ext(right, bits, signed)
    if op in ("TAND", "TOR", "TXOR"):
        raw = {"TAND": left & right, "TOR": left | right, "TXOR": left ^ right}[op]
        return raw & mask if bits < 64 else raw & W64  # carrier path zero-extends; 64-bit keeps the word
    if op in ("TADD", "TSUB", "TMUL"):
        return _norm({"TADD": x + y, "TSUB": x - y, "TMUL": x * y}[op], bits, signed)
    if op in ("TMAX", "TMIN"):
        pick = y if ((y > x) if op == "TMAX" else (y < x)) else x  # ties return the left operand
        return pick & W64
    if op in ("TSHL", "TSHR"):
        amount = y & (bits - 1)
        if op == "TSHL":
            return (x << amount) & mask
        return (x >> amount) & mask  # ASR on the signed value, LSR on the unsigned one
    if op == "TDIV":
        q = abs(x) // abs(y)
        return (q if (x < 0) == (y < 0) else -q) & W64  # truncates toward zero; not re-normalised
    if op == "TREM":
        return (x % y) & W64 if signed else (x - (x // y) * y) & W64  # floored: the divisor's sign
    raise ValueError(op)


def _is_nan(word: int, dt: str) -> bool:
    bits, ebits, _ = FLOAT[dt]
    fbits = bits - 1 - ebits
    v = word & ((1 << bits) - 1)
    return (v >> fbits) & ((1 << ebits) - 1) == (1 << ebits) - 1 and v & ((1 << fbits) - 1) != 0


def _is_zero(word: int, dt: str) -> bool:
    bits = FLOAT[dt][0]
    return word & ((1 << bits) - 1) & ~(1 << (bits - 1)) == 0


def _order_key(word: int, dt: str) -> int:
    bits = FLOAT[dt][0]
    v = word & ((1 << bits) - 1)
    sign = 1 << (bits - 1)
    return (~v) & ((1 << bits) - 1) if v & sign else v ^ sign


def _carrier_zero(word: int, dt: str) -> bool:
    """ScalarFPCarrierIsZero: FP32 tests its 32 bits for +-0; FP16/BF16 fall through to FP64's whole word."""
    if dt == "FP32":
        return word & 0xFFFFFFFF in (0, 0x80000000)
    return word & ~SIGN64 & W64 == 0


def float_element(op: str, dt: str, left: int, right: int) -> int:
    if op in ("TADD", "TSUB", "TMUL"):  # the reference profile: modular arithmetic on the raw carriers
        return {"TADD": left + right, "TSUB": left - right, "TMUL": left * right}[op] & W64
    if op in ("TDIV", "TREM"):
        if _carrier_zero(right, dt):
            return W64
        q = left // right
        return q if op == "TDIV" else (left - q * right) & W64
    if op in ("TMAX", "TMIN"):
        ln, rn = _is_nan(left, dt), _is_nan(right, dt)
        if ln and rn:
            return FLOAT[dt][2]
        if ln or rn:
            return right if ln else left
        if _is_zero(left, dt) and _is_zero(right, dt):
            neg = 1 << (FLOAT[dt][0] - 1)
            lneg, rneg = bool(left & neg), bool(right & neg)
            if op == "TMAX":
                return left if lneg and rneg else 0
            return left if lneg else (right if rneg else 0)
        kl, kr = _order_key(left, dt), _order_key(right, dt)
        pick = right if ((kr > kl) if op == "TMAX" else (kr < kl)) else left
        return pick
    raise ValueError(op)


def element(op: str, dt: str, left: int, right: int) -> int:
    """The destination word of one valid element."""
    return integer_element(op, dt, left, right) if dt in INTEGER else float_element(op, dt, left, right)


# ------------------------------------------------------------------ one program
@dataclass(frozen=True)
class Case:
    """One random program of the family: operation, type, shape, PadValue (None: no B.DATR), source words."""

    op: str
    dt: str
    columns: int
    valid_rows: int
    valid_columns: int
    pad: str | None
    left: tuple[tuple[int, ...], ...]
    right: tuple[tuple[int, ...], ...]

    @property
    def rows(self) -> int:
        return 128 * 8 // (self.columns * width(self.dt))  # SizeCode 1: 128 bytes


def predicted_fault(case: Case) -> str | None:
    """The fault the Block must raise, or None.

    * DIV/REM on an integer type with a right element that is zero as a whole word: the legality
      predicate (TilePayloadNonzero) rejects the commit.
    * An explicit B.DATR: only PadValue may be nonzero for this family, so the program writes the
      DataType field as code 0, which is FP64, a concrete type that overrides the BSTART type; any
      other BSTART type then gives an FP64 destination: an allocation fault when FP64 cannot hold the
      shape in SizeCode 1, else a legality fault (destination and sources mismatched).
    """
    if case.op in ("TDIV", "TREM") and case.dt in INTEGER and any(w == 0 for row in case.right for w in row):
        return "Fault_TileLegality"
    if case.pad is not None and case.dt != "FP64":
        # the destination is resolved as FP64 first: a shape FP64 cannot hold in the SizeCode is an
        # allocation fault (destination-shape.asl), else the type mismatch with the sources is a legality fault
        rows = 128 * 8 // (case.columns * 64)
        return "Fault_TileAllocation" if rows < 1 or case.valid_rows > rows else "Fault_TileLegality"
    return None


def expected_tile(case: Case) -> tuple[np.ndarray, np.ndarray]:
    """The destination's words and definedness over the whole physical Tile (rows x columns)."""
    words = np.zeros((case.rows, case.columns), dtype=np.uint64)
    defined = np.zeros((case.rows, case.columns), dtype=bool)
    pad = case.pad or "Null"
    words[:, :] = np.uint64(pad_word(pad, case.dt))
    defined[:, :] = pad != "Null"
    for r in range(case.valid_rows):
        for c in range(case.valid_columns):
            words[r, c] = np.uint64(element(case.op, case.dt, case.left[r][c], case.right[r][c]))
            defined[r, c] = True
    return words, defined
