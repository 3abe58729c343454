"""The ASL standard-library functions the corpus calls but does not define.

Each entry takes ``(params, args)``: ``params`` are the ``{…}`` arguments
(``Zeros{64}``), ``args`` the ``(…)`` arguments. Both the ASL1 spelling
``ZeroExtend{N}(x)`` and the older ``ZeroExtend(x, N)`` are accepted.
The set was found by indexing every call site of the corpus against every
definition in it (see docs-internal/asl-interpreter.md).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from .budget import FREE_BITS, heavy, produce, touch
from .ops import touched
from .values import Bits


class BuiltinError(Exception):
    """A built-in was called with arguments it cannot accept."""


def _width(params: tuple, args: tuple, pos: int, name: str = "") -> int:
    """The width argument (``{N}`` or the older trailing ``N``): a non-negative integer within the value budget."""
    if params:
        n = params[0]
    elif len(args) > pos:
        n = args[pos]
    else:
        raise BuiltinError("missing width argument")
    if type(n) is not int:
        raise BuiltinError(f"{name} width must be an integer, not {type(n).__name__}")
    if n < 0:
        raise BuiltinError(f"{name}{{{n}}}: a bitvector width cannot be negative")
    if n > FREE_BITS:
        produce(n, f"{name}{{N}}")
    return n


def _bits_arg(x: object, name: str) -> Bits:
    if type(x) is not Bits:
        raise BuiltinError(f"{name} expects a bitvector, got {type(x).__name__}")
    if x.n > FREE_BITS:  # reading (and remaking) a big value costs its size (budget.py)
        touch(x.n)
    return x


def b_zeros(params, args):
    n = _width(params, args, 0, "Zeros")
    return Bits(0, n)


def b_ones(params, args):
    n = _width(params, args, 0, "Ones")
    return Bits((1 << n) - 1, n)


def b_uint(params, args):
    x = args[0]
    if type(x) is Bits:
        return x.v
    if type(x) is int:
        return x
    raise BuiltinError("UInt expects a bitvector")


def b_sint(params, args):
    x = _bits_arg(args[0], "SInt")
    n = x.n
    v = x.v
    if n and v >> (n - 1):
        return v - (1 << n)
    return v


def b_zero_extend(params, args):
    x = _bits_arg(args[0], "ZeroExtend")
    n = _width(params, args, 1, "ZeroExtend")
    if n < x.n:
        raise BuiltinError(f"ZeroExtend to {n} bits of a bits({x.n}) value")
    return Bits(x.v, n)


def b_sign_extend(params, args):
    x = _bits_arg(args[0], "SignExtend")
    n = _width(params, args, 1, "SignExtend")
    if n < x.n:
        raise BuiltinError(f"SignExtend to {n} bits of a bits({x.n}) value")
    v = x.v
    if x.n and v >> (x.n - 1):
        v |= ((1 << n) - 1) ^ ((1 << x.n) - 1)
    return Bits(v, n)


def b_lsl(params, args):
    x = _bits_arg(args[0], "LSL")
    s = args[1]
    if s < 0:
        raise BuiltinError("LSL by a negative amount")
    if s >= x.n:  # every bit shifted out: no need to make x.v << s first
        return Bits(0, x.n)
    return Bits((x.v << s) & ((1 << x.n) - 1), x.n)


def b_lsr(params, args):
    x = _bits_arg(args[0], "LSR")
    s = args[1]
    if s < 0:
        raise BuiltinError("LSR by a negative amount")
    return Bits(x.v >> s, x.n)


def b_asr(params, args):
    x = _bits_arg(args[0], "ASR")
    s = args[1]
    if s < 0:
        raise BuiltinError("ASR by a negative amount")
    n = x.n
    v = x.v
    if n and v >> (n - 1):
        v -= 1 << n
    return Bits((v >> s) & ((1 << n) - 1), n)


def b_ror(params, args):
    x = _bits_arg(args[0], "ROR")
    n = x.n
    s = args[1] % n if n else 0
    return Bits(((x.v >> s) | (x.v << (n - s))) & ((1 << n) - 1), n)


def b_is_zero(params, args):
    return _bits_arg(args[0], "IsZero").v == 0


def b_is_ones(params, args):
    x = _bits_arg(args[0], "IsOnes")
    return x.v == (1 << x.n) - 1


def b_len(params, args):
    return _bits_arg(args[0], "Len").n


def b_replicate(params, args):
    """``Replicate(x, N)`` (N copies) or ``Replicate{W}(x)`` (W bits): linear in the result, budgeted first."""
    x = _bits_arg(args[0], "Replicate")
    if len(args) > 1:
        count = args[1]
    elif x.n:
        if params[0] % x.n:
            raise BuiltinError(f"Replicate{{{params[0]}}} of a bits({x.n}) value: {params[0]} is not a multiple of {x.n}")
        count = params[0] // x.n
    else:
        count = 0
    if type(count) is not int or count < 0:
        raise BuiltinError(f"Replicate count must be a non-negative integer, not {count!r}")
    n = x.n * count
    if n > FREE_BITS:
        produce(n, f"Replicate of {count:,} copies of a bits({x.n})")
    # doubling: log2(count) shifts of a growing piece, not `count` shifts of the whole result
    v, piece, width, k = 0, x.v, x.n, count
    while k:
        if k & 1:
            v = (v << width) | piece
        k >>= 1
        if k:
            piece = (piece << width) | piece
            width *= 2
    return Bits(v, n)


def b_real(params, args):
    return Fraction(args[0])


def b_round_down(params, args):
    return math.floor(args[0])


def b_round_up(params, args):
    return math.ceil(args[0])


def b_round_towards_zero(params, args):
    x = args[0]
    return math.floor(x) if x >= 0 else math.ceil(x)


def b_min(params, args):
    return min(args[0], args[1])


def b_max(params, args):
    return max(args[0], args[1])


def b_abs(params, args):
    return abs(args[0])


def b_log2(params, args):
    x = args[0]
    if x <= 0 or x & (x - 1):
        raise BuiltinError(f"Log2 of {x}, which is not a power of two")
    return x.bit_length() - 1


def b_floor_log2(params, args):
    x = args[0]
    if x <= 0:
        raise BuiltinError("FloorLog2 of a non-positive value")
    if isinstance(x, Fraction):
        n = x.numerator.bit_length() - x.denominator.bit_length()
        while Fraction(2) ** n > x:
            n -= 1
        while Fraction(2) ** (n + 1) <= x:
            n += 1
        return n
    return x.bit_length() - 1


def b_ceil_log2(params, args):
    x = args[0]
    n = b_floor_log2(params, args)
    return n if Fraction(2) ** n == x else n + 1


def b_is_pow2(params, args):
    x = args[0]
    return x > 0 and not (x & (x - 1))


def b_align(params, args):
    x, a = args[0], args[1]
    touched(x)
    if type(x) is Bits:
        return Bits((x.v // a) * a, x.n)
    return (x // a) * a


def b_bit_count(params, args):
    return bin(_bits_arg(args[0], "BitCount").v).count("1")


def b_highest_set_bit(params, args):
    return _bits_arg(args[0], "HighestSetBit").v.bit_length() - 1


def b_lowest_set_bit(params, args):
    x = _bits_arg(args[0], "LowestSetBit")
    if x.v == 0:
        return x.n
    return (x.v & -x.v).bit_length() - 1


def b_clz(params, args):
    x = _bits_arg(args[0], "CountLeadingZeroBits")
    return x.n - x.v.bit_length()


def b_sqrt_rounded(params, args):
    """Square root of a real to ``fraction_bits`` binary places (round to nearest)."""
    value = Fraction(args[0])
    bits = args[1] if len(args) > 1 else 64
    if value < 0:
        raise BuiltinError("SqrtRounded of a negative value")
    if type(bits) is not int or bits < 0:
        raise BuiltinError(f"SqrtRounded to {bits!r} fraction bits")
    size = max(value.numerator.bit_length(), value.denominator.bit_length()) + 2 * bits
    if size > FREE_BITS:  # the scaled value, its square root and the squares that round it: charged first
        produce(size, "SqrtRounded's scale", heavy(size, size))
    scale = 1 << bits
    scaled = value * scale * scale
    root = math.isqrt(math.floor(scaled))
    if (root + 1) ** 2 - scaled < scaled - root**2:
        root += 1
    return Fraction(root, scale)


BUILTINS: dict[str, Callable[[tuple, tuple], object]] = {
    "Zeros": b_zeros,
    "Ones": b_ones,
    "UInt": b_uint,
    "SInt": b_sint,
    "ZeroExtend": b_zero_extend,
    "SignExtend": b_sign_extend,
    "LSL": b_lsl,
    "LSR": b_lsr,
    "ASR": b_asr,
    "ROR": b_ror,
    "IsZero": b_is_zero,
    "IsOnes": b_is_ones,
    "Len": b_len,
    "Replicate": b_replicate,
    "Real": b_real,
    "RoundDown": b_round_down,
    "RoundUp": b_round_up,
    "RoundTowardsZero": b_round_towards_zero,
    "Min": b_min,
    "Max": b_max,
    "Abs": b_abs,
    "Log2": b_log2,
    "FloorLog2": b_floor_log2,
    "CeilLog2": b_ceil_log2,
    "IsPow2": b_is_pow2,
    "Align": b_align,
    "BitCount": b_bit_count,
    "HighestSetBit": b_highest_set_bit,
    "LowestSetBit": b_lowest_set_bit,
    "CountLeadingZeroBits": b_clz,
    "SqrtRounded": b_sqrt_rounded,
}
