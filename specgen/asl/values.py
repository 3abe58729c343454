"""Run-time values of the ASL interpreter and their Python spellings.

=====================  ==========================================
ASL type               Python value
=====================  ==========================================
``integer`` (any)      ``int``
``boolean``            ``bool``
``real``               ``fractions.Fraction`` (exact, as ASL reals are)
``bits(N)``            :class:`Bits` (unsigned value + width)
enumeration member     ``str`` (the member name, e.g. ``"TileDataType_U64"``)
record                 ``dict`` field name -> value
``array [[N]] of T``   ``list`` (indexed from 0; enum-indexed arrays use the member's position)
tuple                  ``tuple``
``string``             ``str``
=====================  ==========================================

Records and arrays are values in ASL. The interpreter never mutates a
container that another variable can see: an update copies the container
unless CPython's reference count proves the updating variable is its only
holder (see ``compile_lvalue``).
"""

from __future__ import annotations

from fractions import Fraction

from .budget import FREE_BITS, touch


class Bits:
    """An ASL bitvector: ``v`` is the unsigned value, ``n`` the width."""

    __slots__ = ("v", "n")

    def __init__(self, v: int, n: int) -> None:
        self.v = v
        self.n = n

    def __eq__(self, other: object) -> bool:
        if self.n > FREE_BITS:  # comparing a big value reads all of it: its size costs steps
            touch(self.n)
        return type(other) is Bits and other.n == self.n and other.v == self.v

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        if self.n > FREE_BITS:  # a ``case`` on a big value hashes all of it: its size costs steps
            touch(self.n)
        return hash((self.v, self.n))

    def __repr__(self) -> str:
        if self.n <= 8:
            return f"'{self.v:0{self.n}b}'" if self.n else "''"
        return f"Bits(0x{self.v:x}, {self.n})"

    def __reduce__(self) -> tuple:
        return (Bits, (self.v, self.n))

    @property
    def signed(self) -> int:
        """The two's complement value (``SInt``)."""
        if self.n and self.v >> (self.n - 1):
            return self.v - (1 << self.n)
        return self.v

    def __int__(self) -> int:
        return self.v

    def __index__(self) -> int:
        return self.v


def bits(value: int | str, width: int | None = None) -> Bits:
    """Convenience constructor: ``bits(5, 8)`` or ``bits('0101')``; negatives wrap."""
    if isinstance(value, str):
        digits = value.replace(" ", "").strip("'")
        return Bits(int(digits, 2) if digits else 0, len(digits))
    if width is None:
        raise ValueError("bits(int) needs a width")
    return Bits(value & ((1 << width) - 1), width)


def to_python(value: object) -> object:
    """A plain-Python image of an ASL value (Bits become ints)."""
    if type(value) is Bits:
        return value.v
    if isinstance(value, dict):
        return {k: to_python(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_python(v) for v in value)
    return value


_SHOWN = 10**30  # larger integers are shown by their size: a message stays a line


def show(value: object) -> str:
    """A short human spelling used in messages."""
    if type(value) is Bits:
        if value.n > 128:
            return f"0x{value.v >> (value.n - 64):016x}… (bits({value.n}))"
        return f"0x{value.v:x} (bits({value.n}))"
    if type(value) is int and not -_SHOWN < value < _SHOWN:
        return f"an integer of {value.bit_length():,} bits"
    if type(value) is bool:
        return "TRUE" if value else "FALSE"
    if isinstance(value, Fraction):
        return str(float(value)) if value.denominator != 1 else f"{value.numerator}.0"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={show(v)}" for k, v in list(value.items())[:6]) + "…}"
    if isinstance(value, list):
        return f"array[{len(value)}]"
    return repr(value)
