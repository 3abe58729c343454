"""Python stand-ins for ASL functions: the hooks of the interpreter's public extension API.

A hook stands in for the ASL function of its name, for every caller (compiled ASL and
:meth:`~specgen.asl.interp.Interpreter.call` alike), once
:meth:`~specgen.asl.interp.Interpreter.install_hook` installed it. Installing is refused once a
call has reached the function, because compiled callers already hold the ASL definition. A hook
is declared with its calling convention, never flagged by an attribute on the function:

* :class:`Replace` ``function(*args) -> result``: the ASL definition never runs (a profile's
  IEEE 754 numerics where the tree's are a placeholder; a scratch interpreter's refusal).
* :class:`Around` ``function(original, *args) -> result``: ``original(*args)`` runs the ASL
  definition (compiled on its first use), and the hook decides whether and when to call it (a
  fault probe that snapshots the call stack first, a vectorised fast path that falls back to the
  ASL for what it does not cover, the memo of a pure function).

Arguments and results are ASL values (:mod:`specgen.asl.values`): ``Bits``, ``int``, ``bool``,
an enumeration member as its name, a record as a ``dict``, an array as a ``list``. A hook that
calls other ASL functions uses :meth:`~specgen.asl.interp.Interpreter.function`, which keeps the
call stack of the call it runs in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Concatenate, TypeAlias

ASLFunction: TypeAlias = Callable[..., object]
"""An ASL function as Python calls it: ASL values in, an ASL value (or None) out."""


@dataclass(frozen=True, slots=True)
class Replace:
    """``function(*args)`` runs instead of the ASL definition."""

    function: ASLFunction


@dataclass(frozen=True, slots=True)
class Around:
    """``function(original, *args)`` runs instead, with the ASL definition as ``original``."""

    function: Callable[Concatenate[ASLFunction, ...], object]


Hook: TypeAlias = Replace | Around
"""A Python stand-in for an ASL function, with its calling convention."""

__all__ = ["ASLFunction", "Around", "Hook", "Replace"]
