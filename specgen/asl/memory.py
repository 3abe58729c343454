"""What a run of spec code holds at once: its globals and every value its frames reach, each object once.

:mod:`specgen.asl.budget` keeps a cheap *account* of what a run allocates and
calls :func:`measurer`'s function only when the account passes the memory limit
(or the process grew by a quarter of it): then the live state is counted
exactly, so a run that makes and drops big values for a long time is never
refused, and one that keeps them is refused at the statement that would pass
the limit.

The roots are the interpreter's globals and the Python frames between the
statement running and the outermost :meth:`~specgen.asl.interp.Interpreter.call`:
an ASL frame is a dict those frames hold, and a value being computed (an
argument evaluated before its call) is a Python local of one of them. Only ASL
value types are followed (lists, dicts, tuples, :class:`~specgen.asl.values.Bits`,
``Fraction``); functions, cells and modules are not, so the compiled program
(its constants included) is not counted as the run's. Sizes are CPython's own
(``sys.getsizeof``), so the figure is what the values really take, give or
take the allocator's rounding.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from types import FrameType
from typing import Callable

from .values import Bits

def live(roots: list[object]) -> tuple[int, int]:
    """Bytes held by ``roots`` and everything of an ASL value type they reach, and the work done counting
    them (objects visited plus references read: a 65,536-element array of one shared record is one
    object but 65,536 references, deduplicated at C speed before anything is looked at one by one)."""
    seen: set[int] = set()
    total = 0
    work = 0
    todo = list(roots)
    size = sys.getsizeof
    while todo:
        x = todo.pop()
        i = id(x)
        if i in seen:
            continue
        t = type(x)
        if t is int or t is str:
            seen.add(i)
            total += size(x)
        elif t is list or t is tuple or t is dict:
            seen.add(i)
            total += size(x)
            items = x.values() if t is dict else x  # type: ignore[union-attr]
            work += len(items)
            todo.extend(dict(zip(map(id, items), items)).values())
        elif t is Bits:
            seen.add(i)
            total += size(x)
            todo.append(x.v)  # type: ignore[union-attr]
        elif t is Fraction:
            seen.add(i)
            total += size(x)
            todo.append(x.numerator)  # type: ignore[union-attr]
            todo.append(x.denominator)  # type: ignore[union-attr]
    return total, work + len(seen)


def frame_values(top: FrameType | None, base: FrameType | None) -> list[object]:
    """The local values of the Python frames from ``top`` out to ``base`` (included)."""
    out: list[object] = []
    f = top
    while f is not None:
        out.extend(f.f_locals.values())
        if f is base:
            break
        f = f.f_back
    return out


def measurer(globals_: dict[str, object], base: FrameType | None) -> Callable[[], tuple[int, int]]:
    """The function the budget calls to count a run's live bytes (``base``: the outermost call's frame)."""

    def measure() -> tuple[int, int]:
        return live([globals_, *frame_values(sys._getframe(1), base)])
    return measure
