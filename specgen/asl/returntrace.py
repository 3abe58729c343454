"""Return tracing: which ``return`` statements ran, with which value, at which call depth.

A fault that ASL generated from the catalogs records (a legality predicate returned FALSE) is
decided somewhere inside the spec's predicate; to name that line the executor runs the
predicate again with its returns recorded (:mod:`specgen.executor.faultsite`).

Tracing costs nothing when it is off: a traced function is a second compiled variant of its
body (``return`` statements that call the recorder, see ``compile_stmt.s_return``), compiled
lazily the first time the function runs while tracing is on. Switching the mode swaps each
compiled function's ``impl`` with the other variant (``Function.other``); call sites read ``impl``
at each call, so already compiled callers reach the traced callees without recompiling.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator
from weakref import WeakKeyDictionary

from specgen.diagnostics import Span

from .compile_base import Function
from .interp import Interpreter


@dataclass(frozen=True, slots=True)
class ReturnEvent:
    """One ``return`` that ran: the function's call depth (1 = called from Python), its name, the
    site it was called from, the return statement's span and the value returned."""

    depth: int
    function: str
    call_site: Span
    span: Span
    value: object


def _switch(interp: Interpreter) -> None:
    for f in list(interp.compiled.values()):
        f.impl, f.other = f.other, f.impl


class _Recorder:
    """The one hook an interpreter's traced variants call (compiled in, so it outlives a session):
    it appends to the current session's list, and does nothing between sessions."""

    __slots__ = ("events", "stack")

    def __init__(self, stack: list[tuple[str, Span]]) -> None:
        self.stack = stack
        self.events: list[ReturnEvent] | None = None

    def __call__(self, span: Span, value: object) -> None:
        events = self.events
        if events is not None:
            stack = self.stack
            name, site = stack[-1] if stack else ("", Span("<python>"))
            events.append(ReturnEvent(len(stack), name, site, span, value))


_RECORDERS: WeakKeyDictionary[Interpreter, _Recorder] = WeakKeyDictionary()  # one per interpreter, for its life


@contextmanager
def tracing(interp: Interpreter, events: list[ReturnEvent]) -> Iterator[None]:
    """Within: every ASL function of ``interp`` runs its traced variant, appending to ``events``."""
    if interp.trace is not None:
        raise RuntimeError("return tracing is already on")
    recorder = _RECORDERS.get(interp)
    if recorder is None:
        recorder = _RECORDERS[interp] = _Recorder(interp.stack)
    _switch(interp)
    recorder.events = events
    interp.trace = recorder
    try:
        yield
    finally:
        interp.trace = None
        recorder.events = None
        _switch(interp)


@contextmanager
def traced_calls(interp: Interpreter, names: Iterable[str], events: list[ReturnEvent]) -> Iterator[None]:
    """Within: each call of a function named in ``names`` runs traced, ``events`` holding the last call's returns.

    Everything else runs as compiled, so a program re-run to explain a fault pays for tracing only
    inside the functions that decided it.
    """
    armed: list[tuple[Function, Callable | None]] = []
    for name in dict.fromkeys(names):
        for fn in interp.resolved(name):  # compiled plain first, so the mode switch knows it
            armed.append((fn, fn.impl))
            fn.impl = _trigger(interp, fn, fn.impl, events)  # type: ignore[arg-type]
    try:
        yield
    finally:
        for fn, impl in reversed(armed):
            fn.impl = impl


def _trigger(interp: Interpreter, fn: Function, plain: Callable, events: list[ReturnEvent]) -> Callable:
    def traced(*args: object) -> object:
        if interp.trace is not None:  # a hook called inside another traced call: its ASL already records
            return plain(*args)
        events.clear()
        with tracing(interp, events):
            if id(fn) not in interp.compiled:  # a hook: it runs as it is, the ASL it calls is traced
                return plain(*args)
            impl = fn.impl  # the traced variant after the switch (None: not compiled traced yet)
            if impl is None:
                interp.compile(fn)
                impl = fn.impl
            return impl(*args)  # type: ignore[misc]
    return traced


__all__ = ["ReturnEvent", "tracing", "traced_calls"]
