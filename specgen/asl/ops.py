"""ASL operators and bit slicing on run-time values (see :mod:`specgen.asl.values`).

Pure functions with no interpreter state: the expression compiler binds
them into closures once, so a run calls them directly. Bitvector results
wrap to the operand width, as ASL arithmetic on ``bits(N)`` does. An
operator whose result is larger than :data:`~specgen.asl.budget.FREE_BITS`
(``<<``, ``^``, ``*``, ``++``, a slice of an integer, any arithmetic on a
big value) charges its size to the run's budgets first, a product, quotient
or power superlinearly (:func:`specgen.asl.budget.produce`). The checks are
comparisons with a constant, so the small values of real trees pay next to
nothing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from .budget import FREE_BITS, heavy, produce, touch
from .values import Bits, show

_FREE = 1 << FREE_BITS  # an integer below this in magnitude is small: nothing to charge


def sized(r: object, what: str) -> object:
    """``r`` after charging its size (a big integer, or a real's larger part) to the value budget."""
    t = type(r)
    if t is int:
        if -_FREE < r < _FREE:
            return r
        produce(r.bit_length(), what)
    elif t is Fraction:
        produce(max(r.numerator.bit_length(), r.denominator.bit_length()), what)
    elif t is str and len(r) > FREE_BITS // 8:
        produce(len(r) * 8, what)
    return r


def _rbits(x: object) -> int:
    """An integer's bit length, a real's larger part's; 0 for anything else."""
    if type(x) is Fraction:
        return max(x.numerator.bit_length(), x.denominator.bit_length())  # type: ignore[union-attr]
    return abs(x).bit_length() if type(x) is int else 0  # type: ignore[arg-type]


def _real(a: object, b: object, what: str) -> None:
    """Charge real arithmetic before it runs, as integers are: a sum, product or quotient of reals multiplies
    numerators by denominators (the result up to both sizes added) and reduces by a gcd (quadratic)."""
    sa, sb = _rbits(a), _rbits(b)
    size = sa + sb + 1
    if size > FREE_BITS:
        produce(size, what, heavy(size, size))


def _heavy(a: int, b: int, size: int, what: str) -> None:
    """Charge a product or quotient of ``a`` and ``b`` (superlinear: words times words) before it runs."""
    produce(size, what, heavy(abs(a).bit_length(), abs(b).bit_length()))


def _add(a, b):
    ta = type(a)
    tb = type(b)
    if ta is int and tb is int:  # the common case first
        r = a + b
        return r if -_FREE < r < _FREE else sized(r, "a sum")
    if ta is Bits:
        n = a.n
        if n > FREE_BITS:
            produce(n, "a sum")
        return Bits((a.v + (b.v if tb is Bits else b)) & ((1 << n) - 1), n)
    if tb is Bits:
        n = b.n
        if n > FREE_BITS:
            produce(n, "a sum")
        return Bits((a + b.v) & ((1 << n) - 1), n)
    if ta is Fraction or tb is Fraction:  # charged before: real arithmetic multiplies and reduces
        _real(a, b, "a sum")
    return sized(a + b, "a sum")


def _sub(a, b):
    ta = type(a)
    tb = type(b)
    if ta is int and tb is int:  # the common case first
        r = a - b
        return r if -_FREE < r < _FREE else sized(r, "a difference")
    if ta is Bits:
        n = a.n
        if n > FREE_BITS:
            produce(n, "a difference")
        return Bits((a.v - (b.v if tb is Bits else b)) & ((1 << n) - 1), n)
    if tb is Bits:
        n = b.n
        if n > FREE_BITS:
            produce(n, "a difference")
        return Bits((a - b.v) & ((1 << n) - 1), n)
    if ta is Fraction or tb is Fraction:  # charged before: real arithmetic multiplies and reduces
        _real(a, b, "a difference")
    return sized(a - b, "a difference")


def _mul(a, b):
    if type(a) is Bits:
        n = a.n
        bv = b.v if type(b) is Bits else b
        if n > FREE_BITS:
            _heavy(a.v, bv, n, "a product")
        return Bits((a.v * bv) & ((1 << n) - 1), n)
    if type(a) is int and type(b) is int:
        if -_FREE < a < _FREE and -_FREE < b < _FREE:
            r = a * b  # at most twice FREE_BITS: cheap, charged after
            return r if -_FREE < r < _FREE else sized(r, "a product")
        _heavy(a, b, abs(a).bit_length() + abs(b).bit_length(), "a product")  # before a slow multiplication
        return a * b
    if type(a) is Fraction or type(b) is Fraction:
        _real(a, b, "a product")
    return sized(a * b, "a product")


def _and(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"AND of bits({a.n}) and {show(b)}")
        if a.n > FREE_BITS:
            produce(a.n, "an AND")
        return Bits(a.v & b.v, a.n)
    return a & b


def _or(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"OR of bits({a.n}) and {show(b)}")
        if a.n > FREE_BITS:
            produce(a.n, "an OR")
        return Bits(a.v | b.v, a.n)
    return a | b


def _xor(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"XOR of bits({a.n}) and {show(b)}")
        if a.n > FREE_BITS:
            produce(a.n, "an XOR")
        return Bits(a.v ^ b.v, a.n)
    return a ^ b


def _quotient(a: int, b: object, what: str) -> None:
    """Charge a division of a big integer ``a`` before it runs: quadratic in CPython, and even by a small
    divisor about eight times a linear pass (one step per 128 bytes of the dividend)."""
    size = abs(a).bit_length()
    divisor = abs(b).bit_length() if type(b) is int else 0
    produce(size, what, heavy(size, divisor) + (size >> 10))


def _div(a, b):
    if b == 0:
        raise ZeroDivisionError("DIV by zero")
    if type(a) is int and not -_FREE < a < _FREE:
        _quotient(a, b, "a quotient")
    q, r = divmod(a, b)
    if r:
        raise ArithmeticError(f"DIV of {show(a)} by {show(b)} is not exact (use DIVRM)")
    return q


def _divrm(a, b):
    if b == 0:
        raise ZeroDivisionError("DIVRM by zero")
    if type(a) is int and not -_FREE < a < _FREE:
        _quotient(a, b, "a quotient")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError("MOD by zero")
    if type(a) is int and not -_FREE < a < _FREE:
        _quotient(a, b, "a remainder")
    return a % b


def _rdiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    _real(a, b, "a quotient")
    return sized(Fraction(a) / b, "a quotient")


def _pow(a, b):
    if type(a) is int and type(b) is int and b < 0:  # ASLRef: "Illegal application of operator ^"
        raise ArithmeticError(f"{show(a)} ^ {show(b)}: an integer power with a negative exponent")
    if type(b) is int:  # the result's size, known before it is computed
        big = max(a.numerator.bit_length(), a.denominator.bit_length()) if isinstance(a, Fraction) \
            else abs(a).bit_length() if type(a) is int else 0
        if big > 1 and (big - 1) * abs(b) > FREE_BITS:
            size = (big - 1) * abs(b) + 1
            produce(size, "a power", heavy(size // 2, size // 2))  # its last squaring dominates
    return a**b  # a real base takes a negative exponent (ASLRef: 2.0 ^ -1 is 0.5)


def _shl(a, b):
    if type(a) is int and type(b) is int and a and (b > 64 or not -_FREE < a < _FREE):
        produce(a.bit_length() + max(0, b), "a left shift")
    try:
        return a << b
    except ValueError:  # a negative amount (ASLRef: "Illegal application of operator <<"); free to catch
        raise ArithmeticError(f"{show(a)} << {show(b)}: a shift by a negative amount") from None


def _shr(a, b):
    if type(a) is int and not -_FREE < a < _FREE:
        produce(a.bit_length(), "a right shift")
    try:
        return a >> b
    except ValueError:  # a negative amount (ASLRef: "Illegal application of operator >>")
        raise ArithmeticError(f"{show(a)} >> {show(b)}: a shift by a negative amount") from None


def cmp_type(a: object, b: object) -> None:
    """ASL orders integers and reals only; a bitvector operand is a type error."""
    if type(a) is Bits or type(b) is Bits:
        raise TypeError(f"ordering comparison of {show(a)} and {show(b)}")


def touched(v: object) -> object:
    """``v`` after charging a read of it when it is a big integer or bitvector (a comparison, a hash)."""
    t = type(v)
    if t is int:
        if not -_FREE < v < _FREE:  # type: ignore[operator]
            touch(v.bit_length())  # type: ignore[union-attr]
    elif t is Bits and v.n > FREE_BITS:  # type: ignore[union-attr]
        touch(v.n)  # type: ignore[union-attr]
    return v


def _lt(a, b):
    return a < b


def _le(a, b):
    return a <= b


def _gt(a, b):
    return a > b


def _ge(a, b):
    return a >= b


def _eq(a, b):
    return a == b


def _ne(a, b):
    return a != b


def _concat(a, b):
    if type(a) is Bits and type(b) is Bits:
        n = a.n + b.n
        if n > FREE_BITS:
            produce(n, "a concatenation")
        return Bits((a.v << b.n) | b.v, n)
    return sized(a + b, "a concatenation")


BINOPS: dict[str, Callable] = {
    "+": _add, "-": _sub, "*": _mul, "AND": _and, "OR": _or, "XOR": _xor,
    "DIV": _div, "DIVRM": _divrm, "MOD": _mod, "/": _rdiv, "^": _pow,
    "<<": _shl, ">>": _shr, "<": _lt, "<=": _le, ">": _gt, ">=": _ge,
    "==": _eq, "!=": _ne, "++": _concat,
}


def _not(a):
    if type(a) is Bits:
        if a.n > FREE_BITS:
            produce(a.n, "a NOT")
        return Bits(a.v ^ ((1 << a.n) - 1), a.n)
    raise TypeError(f"NOT of {show(a)}")


def _neg(a):
    if type(a) is Bits:
        if a.n > FREE_BITS:
            produce(a.n, "a negation")
        return Bits((-a.v) & ((1 << a.n) - 1), a.n)
    return -a


def _lnot(a):
    if type(a) is not bool:
        raise TypeError(f"'!' of {show(a)}")
    return not a


UNOPS = {"NOT": _not, "-": _neg, "!": _lnot}


def slice_read(value: object, lo: int, width: int) -> Bits:
    """``value[lo +: width]`` of a bitvector (in range) or a non-negative-indexed integer."""
    if type(value) is Bits:
        if value.n > FREE_BITS:
            touch(value.n)  # the shift reads the whole value
        if lo < 0 or width < 0 or lo + width > value.n:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({value.n})")
        return Bits((value.v >> lo) & ((1 << width) - 1), width)
    if type(value) is int:
        if lo < 0 or width < 0:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] of an integer")
        if width > FREE_BITS:
            produce(width, "a slice")
        if not -_FREE < value < _FREE:
            touch(value.bit_length())
        return Bits((value >> lo) & ((1 << width) - 1), width)
    raise TypeError(f"slice of {show(value)}")


def slice_write(old: object, lo: int, width: int, new: object) -> Bits:
    """``old`` with bits ``lo +: width`` replaced by ``new`` (an int, or a bits of that width)."""
    if type(old) is not Bits:
        raise TypeError(f"slice assignment into {show(old)}")
    if lo < 0 or lo + width > old.n:
        raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({old.n})")
    nv = new.v if type(new) is Bits else new
    if old.n > FREE_BITS:
        produce(old.n, "a slice assignment")
    if type(new) is Bits and new.n != width:
        raise TypeError(f"assigning bits({new.n}) to a {width}-bit slice")
    mask = ((1 << width) - 1) << lo
    return Bits((old.v & ~mask) | ((nv << lo) & mask), old.n)


def hkey(v: object) -> object:
    """A ``case`` table key: bool and int hash alike, so keep them apart (a big integer costs its size)."""
    t = type(v)
    if t is bool:
        return (t, v)
    if t is int and not -_FREE < v < _FREE:  # type: ignore[operator]
        touch(v.bit_length())  # type: ignore[union-attr]
    return v


def slice_bounds(slices: tuple, fr: dict) -> list[tuple[int, int]]:
    """``(lo, width)`` of each compiled slice spec, most significant first."""
    out = []
    for kind, x, y in slices:
        if kind == "range":
            lo = y(fr)
            out.append((lo, x(fr) - lo + 1))
        elif kind == "single":
            out.append((x(fr), 1))
        elif kind == "up":
            out.append((x(fr), y(fr)))
        else:
            w = y(fr)
            out.append((x(fr) * w, w))
    return out


def split_slices(slices: tuple, fr: dict, v: object) -> list[tuple[int, int, object]]:
    """``(lo, width, part)`` per slice: a multi-slice target takes ``v`` piece by piece."""
    bounds = slice_bounds(slices, fr)
    if len(bounds) == 1:
        return [(bounds[0][0], bounds[0][1], v)]
    if type(v) is not Bits:
        raise TypeError("multi-slice assignment needs a bitvector")
    out = []
    pos = v.n
    for lo, width in bounds:
        pos -= width
        out.append((lo, width, Bits((v.v >> pos) & ((1 << width) - 1), width)))
    return out
