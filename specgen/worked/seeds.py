"""Seeded, deterministic input values for worked examples, edge cases first.

The first source of a worked example starts with the values a reader wants to
see handled (the type's maximum and minimum, zero, a negative value, NaN for a
floating type); the other sources hold small nonzero values so that a divisor
or shift count is legal, and the rest is drawn from a generator seeded by the
instruction and DataType, so a page shows the same values on every build.
"""

from __future__ import annotations

import hashlib
import math
import random

from ..executor.datatypes import ValueError_, encode, float_format
from ..vocabulary import DataType


def seed_of(*parts: str) -> int:
    """A 32-bit seed from text (stable across processes, unlike ``hash``)."""
    return int.from_bytes(hashlib.sha256("\0".join(parts).encode()).digest()[:4], "big")


def edge_values(et: DataType) -> list[object]:
    """The edge cases of ``et`` as example values: maximum, minimum, zero, a negative, NaN."""
    if et.kind == "signed":
        return [(1 << (et.bits - 1)) - 1, -(1 << (et.bits - 1)), 0, -1]
    if et.kind == "unsigned":
        return [et.mask, 0, 1]
    fmt = float_format(et)
    if fmt is not None:
        return [fmt.largest, -fmt.largest, 0.0, -1.5, "nan"]
    return []


def tame_value(et: DataType, rng: random.Random) -> object:
    """A small nonzero value of ``et`` (a legal divisor, a short shift count)."""
    if et.kind == "signed":
        return rng.choice([-7, -3, -2, -1, 1, 2, 3, 5, 7])
    if et.kind == "unsigned":
        return rng.randint(1, 9)
    if float_format(et) is not None:
        return rng.choice([-2.5, -1.0, -0.5, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0])
    return f"0x{rng.randint(1, 9):x}"


def random_value(et: DataType, rng: random.Random) -> object:
    """A value of ``et`` from a wider range than :func:`tame_value`."""
    if et.kind == "signed":
        return rng.randint(-100, 100)
    if et.kind == "unsigned":
        return rng.randint(0, 200)
    if float_format(et) is not None:
        return round(rng.uniform(-64, 64) * 4) / 4
    return f"0x{rng.getrandbits(min(et.bits, 16)):x}"


def source_words(et: DataType, rows: int, cols: int, k: int, rng: random.Random, *,
                 edges: bool, order: str = "") -> tuple[tuple[int, ...], ...]:
    """The valid region of source ``k``: edge cases first (source 0, ``edges``), else tame or random values.

    ``order`` ("ascending"/"descending") sorts each row, for operations that take sorted sequences (a merge);
    NaN has no place in an order, so a sorted source leaves it out.
    """
    n = rows * cols
    if k == 0 and edges:
        values = [v for v in edge_values(et) if not (order and isinstance(v, str))][:n]
        values += [random_value(et, rng) for _ in range(n - len(values))]
    else:
        values = [tame_value(et, rng) for _ in range(n)]
    if order and all(isinstance(v, (int, float)) for v in values):
        values = [v for r in range(rows)
                  for v in sorted(values[r * cols:(r + 1) * cols], reverse=order == "descending")]
    words = []
    for v in values:
        try:
            words.append(encode(v, et))
        except ValueError_:
            words.append(encode(tame_value(et, rng), et))
    return tuple(tuple(words[r * cols:(r + 1) * cols]) for r in range(rows))


def describe_edges(et: DataType) -> str:
    """How the edge cases of ``et`` read on a page (``2147483647, -2147483648, 0, -1``)."""
    out = []
    for v in edge_values(et):
        out.append(v if isinstance(v, str) else (repr(v) if isinstance(v, float) and math.isfinite(v) else str(v)))
    return ", ".join(str(x) for x in out)
