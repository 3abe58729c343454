"""Binary floating-point formats in plain Python: a value rounded into a format, a word read back.

Why not NumPy and ml_dtypes: they cost 73 MB of every install (issue 41's light
hook) for a handful of conversions, and every format a Tile element uses is
defined by three numbers, its exponent width, its fraction width and how it
spells the values past its largest finite one. Rounding is IEEE 754's
round-to-nearest-even, done in integers, so it is exact for any binade and
subnormal; a result too large for the format is an infinity, or NaN where the
format has no infinity (ml_dtypes' ``*fn`` formats, e.g. ``float8_e4m3fn``).
NaN keeps its sign and becomes the format's quiet NaN. ``tests/test_floatformat.py``
compares every format with NumPy/ml_dtypes, word for word.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FloatFormat:
    """A binary format: ``exponent`` and ``fraction`` bit widths; ``infinities`` False for the ``fn`` formats,
    whose all-ones exponent is one more binade of finite values and whose only NaN is all ones."""

    exponent: int
    fraction: int
    infinities: bool = True

    @property
    def bits(self) -> int:
        return 1 + self.exponent + self.fraction

    @property
    def bias(self) -> int:
        return (1 << (self.exponent - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.bias

    @property
    def emax(self) -> int:
        return self.bias + (0 if self.infinities else 1)

    @property
    def largest(self) -> float:
        """The largest finite value (448 for E4M3, 65504 for FP16)."""
        top = (1 << (self.fraction + 1)) - (1 if self.infinities else 2)
        return math.ldexp(top, self.emax - self.fraction)

    @property
    def smallest_normal(self) -> float:
        return math.ldexp(1.0, self.emin)

    def quiet_nan(self, negative: bool = False) -> int:
        sign = (1 << (self.bits - 1)) if negative else 0
        if not self.infinities:
            return sign | ((1 << (self.bits - 1)) - 1)
        return sign | (((1 << self.exponent) - 1) << self.fraction) | (1 << (self.fraction - 1))

    def infinity(self, negative: bool = False) -> int:
        if not self.infinities:
            return self.quiet_nan(negative)
        return ((1 << (self.bits - 1)) if negative else 0) | (((1 << self.exponent) - 1) << self.fraction)

    def is_nan(self, word: int) -> bool:
        ones = (1 << self.exponent) - 1
        exp = (word >> self.fraction) & ones
        frac = word & ((1 << self.fraction) - 1)
        if not self.infinities:
            return exp == ones and frac == (1 << self.fraction) - 1
        return exp == ones and frac != 0

    def encode(self, value: float) -> int:
        """The word nearest ``value`` (ties to even); overflow is an infinity (NaN without infinities)."""
        if self.bits == 64:
            return struct.unpack("<Q", struct.pack("<d", value))[0]
        negative = math.copysign(1.0, value) < 0
        sign = (1 << (self.bits - 1)) if negative else 0
        if math.isnan(value):
            return self.quiet_nan(negative)
        if math.isinf(value):
            return self.infinity(negative)
        if value == 0:
            return sign
        num, den = abs(value).as_integer_ratio()  # den is a power of two
        shift = den.bit_length() - 1
        exp = max(num.bit_length() - 1 - shift, self.emin)
        scale = shift + exp - self.fraction  # significand = num / 2**scale
        if scale <= 0:
            sig = num << -scale
        else:
            sig, rest = num >> scale, num & ((1 << scale) - 1)
            half = 1 << (scale - 1)
            if rest > half or (rest == half and sig & 1):
                sig += 1
        if sig >> (self.fraction + 1):  # the rounding carried into the next binade
            sig >>= 1
            exp += 1
        frac_ones = (1 << self.fraction) - 1
        if exp > self.emax or (not self.infinities and exp == self.emax and sig & frac_ones == frac_ones):
            return self.infinity(negative)
        if not sig >> self.fraction:  # subnormal (only at emin)
            return sign | sig
        return sign | ((exp + self.bias) << self.fraction) | (sig & frac_ones)

    def decode(self, word: int) -> float:
        """The value of ``word``'s low ``bits`` bits."""
        if self.bits == 64:
            return struct.unpack("<d", struct.pack("<Q", word & ((1 << 64) - 1)))[0]
        word &= (1 << self.bits) - 1
        negative = word >> (self.bits - 1)
        ones = (1 << self.exponent) - 1
        exp = (word >> self.fraction) & ones
        frac = word & ((1 << self.fraction) - 1)
        if self.is_nan(word):
            return -math.nan if negative else math.nan
        if exp == ones and self.infinities:
            return -math.inf if negative else math.inf
        value = math.ldexp(frac, self.emin - self.fraction) if exp == 0 else math.ldexp(
            frac | (1 << self.fraction), exp - self.bias - self.fraction)
        return -value if negative else value


FP64 = FloatFormat(11, 52)
FP32 = FloatFormat(8, 23)
FP16 = FloatFormat(5, 10)
BF16 = FloatFormat(8, 7)
E4M3 = FloatFormat(4, 3, infinities=False)
E5M2 = FloatFormat(5, 2)
