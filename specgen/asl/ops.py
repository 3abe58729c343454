"""ASL operators and bit slicing on run-time values (see :mod:`specgen.asl.values`).

Pure functions with no interpreter state: the expression compiler binds
them into closures once, so a run calls them directly. Bitvector results
wrap to the operand width, as ASL arithmetic on ``bits(N)`` does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from .values import Bits, show


def _add(a, b):
    ta = type(a)
    if ta is Bits:
        n = a.n
        return Bits((a.v + (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    if type(b) is Bits:
        n = b.n
        return Bits((a + b.v) & ((1 << n) - 1), n)
    return a + b


def _sub(a, b):
    ta = type(a)
    if ta is Bits:
        n = a.n
        return Bits((a.v - (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    if type(b) is Bits:
        n = b.n
        return Bits((a - b.v) & ((1 << n) - 1), n)
    return a - b


def _mul(a, b):
    if type(a) is Bits:
        n = a.n
        return Bits((a.v * (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    return a * b


def _and(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"AND of bits({a.n}) and {show(b)}")
        return Bits(a.v & b.v, a.n)
    return a & b


def _or(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"OR of bits({a.n}) and {show(b)}")
        return Bits(a.v | b.v, a.n)
    return a | b


def _xor(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"XOR of bits({a.n}) and {show(b)}")
        return Bits(a.v ^ b.v, a.n)
    return a ^ b


def _div(a, b):
    if b == 0:
        raise ZeroDivisionError("DIV by zero")
    q, r = divmod(a, b)
    if r:
        raise ArithmeticError(f"DIV of {a} by {b} is not exact (use DIVRM)")
    return q


def _divrm(a, b):
    if b == 0:
        raise ZeroDivisionError("DIVRM by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError("MOD by zero")
    return a % b


def _rdiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return Fraction(a) / b


def _pow(a, b):
    if isinstance(a, Fraction):
        return a**b
    if b < 0:
        return Fraction(a) ** b
    return a**b


def _shl(a, b):
    return a << b


def _shr(a, b):
    return a >> b


def cmp_type(a: object, b: object) -> None:
    """ASL orders integers and reals only; a bitvector operand is a type error."""
    if type(a) is Bits or type(b) is Bits:
        raise TypeError(f"ordering comparison of {show(a)} and {show(b)}")


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
        return Bits((a.v << b.n) | b.v, a.n + b.n)
    return a + b


BINOPS: dict[str, Callable] = {
    "+": _add, "-": _sub, "*": _mul, "AND": _and, "OR": _or, "XOR": _xor,
    "DIV": _div, "DIVRM": _divrm, "MOD": _mod, "/": _rdiv, "^": _pow,
    "<<": _shl, ">>": _shr, "<": _lt, "<=": _le, ">": _gt, ">=": _ge,
    "==": _eq, "!=": _ne, "++": _concat,
}


def _not(a):
    if type(a) is Bits:
        return Bits(a.v ^ ((1 << a.n) - 1), a.n)
    raise TypeError(f"NOT of {show(a)}")


def _neg(a):
    if type(a) is Bits:
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
        if lo < 0 or width < 0 or lo + width > value.n:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({value.n})")
        return Bits((value.v >> lo) & ((1 << width) - 1), width)
    if type(value) is int:
        if lo < 0 or width < 0:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] of an integer")
        return Bits((value >> lo) & ((1 << width) - 1), width)
    raise TypeError(f"slice of {show(value)}")


def slice_write(old: object, lo: int, width: int, new: object) -> Bits:
    """``old`` with bits ``lo +: width`` replaced by ``new`` (an int, or a bits of that width)."""
    if type(old) is not Bits:
        raise TypeError(f"slice assignment into {show(old)}")
    if lo < 0 or lo + width > old.n:
        raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({old.n})")
    nv = new.v if type(new) is Bits else new
    if type(new) is Bits and new.n != width:
        raise TypeError(f"assigning bits({new.n}) to a {width}-bit slice")
    mask = ((1 << width) - 1) << lo
    return Bits((old.v & ~mask) | ((nv << lo) & mask), old.n)


def hkey(v: object) -> object:
    """A ``case`` table key: bool and int hash alike, so keep them apart."""
    return (type(v), v) if type(v) is bool else v


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
