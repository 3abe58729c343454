"""Which line of the spec's ASL decided a fault: the site a reader of the spec can open.

The executor records the interpreter's call stack when the spec calls ``SetFault``
(:mod:`specgen.executor.executor`); this module reads the site out of it. When ASL specgen
generated raised the fault because a spec predicate returned FALSE, the executor re-runs
that predicate with its returns traced (:mod:`specgen.asl.returntrace`) and
:func:`deciding_chain` follows the FALSE down to the ``return`` that produced it.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from .. import speccontract as contract
from ..asl import Interpreter
from ..asl.returntrace import ReturnEvent, traced_calls
from ..diagnostics import Sentence, Span

GENERATED_PREFIX = "<generated>"  # the path of ASL specgen generated from the catalogs (specgen.catalog_asl.sources)


def fault_site(stack: tuple[tuple[str, Span], ...], generated_line: Callable[[str, int], str],
               declaration: Callable[[str], Span | None],
               forwards: Callable[[str], bool] = lambda name: False) -> tuple[Span | None, str]:
    """The spec's ASL site that decided a fault, and the function it is in, from the stack at ``SetFault``.

    ``stack`` holds (callee, call site) frames. The site is the call of ``SetFault`` when that is in the
    spec's own ASL. When ASL specgen generated from the catalogs called it (the tile dispatch rejects an
    operation whose legality handler returned FALSE), the generated line says nothing to a reader of the
    spec: the site is then the declaration of the spec predicate the generated check called (the
    ``if !Predicate(…) then`` line before the call), or else the innermost call site in a spec file.
    A helper that takes the fault kind as a parameter (``forwards``) only passes it on: the site is
    then the call of that helper, where the kind was chosen.
    """
    at = next((i for i, (name, _) in enumerate(stack) if name == contract.SET_FAULT.name), None)
    if at is None:
        return None, ""
    while at > 1 and forwards(stack[at - 1][0]):
        at -= 1
    span = stack[at][1]
    caller = stack[at - 1][0] if at > 0 else contract.SET_FAULT.name
    if not span.path.startswith(GENERATED_PREFIX):
        return span, caller
    for name in reversed(guard_predicates(stack, generated_line, forwards)):
        decl = declaration(name)
        if decl is not None and not decl.path.startswith(GENERATED_PREFIX):
            return decl, name
    for i in range(at, 0, -1):  # innermost frame whose call site is in a spec file
        site = stack[i][1]
        if not site.path.startswith(GENERATED_PREFIX):
            return site, stack[i - 1][0]
    return span, caller


def guard_predicates(stack: tuple[tuple[str, Span], ...], generated_line: Callable[[str, int], str],
                     forwards: Callable[[str], bool] = lambda name: False) -> list[str]:
    """The predicates a generated ``if !Predicate(…) then`` check called just before its ``SetFault`` call
    (empty when the spec's own ASL called ``SetFault``): the functions whose FALSE raised the fault."""
    at = next((i for i, (name, _) in enumerate(stack) if name == contract.SET_FAULT.name), None)
    if at is None:
        return []
    while at > 1 and forwards(stack[at - 1][0]):
        at -= 1
    span = stack[at][1]
    if not span.path.startswith(GENERATED_PREFIX):
        return []
    for back in range(1, 4):  # the check is the line(s) just before the SetFault call
        text = generated_line(span.path, span.line - back)
        if text.lstrip().startswith(("if ", "elsif ")):
            return re.findall(r"!\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(", text)
    return []


_GUARD = re.compile(r"(?:els)?if\b")
_LITERAL_FALSE = re.compile(r"return\s+FALSE\s*;")


def deciding_chain(events: Sequence[ReturnEvent], source_line: Callable[[str, int], str]) -> list[ReturnEvent]:
    """The returns that decided a predicate's FALSE, outermost (the predicate's own return) first.

    ``events`` are one traced call of the predicate, in the order the returns ran, so its own return is
    the last and the return just before it, one call deeper, is the last callee that returned. That
    callee decided the FALSE when it returned FALSE and the return used it: it was called on the
    ``return`` statement itself (``return A(x) && B(y);``, not negated), or the statement is a literal
    ``return FALSE;`` and the callee was called, negated (``!B(y)``), in the ``if``/``elsif`` condition
    guarding it. Then the same question is asked inside that callee, down to the innermost return: a
    ``return`` of an expression with no such call (``return x != 0;``), or a ``return FALSE;`` whose guard
    holds no negated FALSE call (``if IsZero(…) then return FALSE;``). Empty when the predicate did not
    return FALSE. ``source_line(path, line)`` is the text of a line of the ASL (``""`` if unknown).
    """
    if not events or events[-1].value is not False:
        return []
    i = len(events) - 1
    chain = [events[i]]
    while i > 0:
        ev, callee = events[i], events[i - 1]
        if callee.depth != ev.depth + 1 or callee.value is not False or not _uses(ev, callee, source_line):
            break
        i -= 1
        chain.append(callee)
    return chain


def _uses(ev: ReturnEvent, callee: ReturnEvent, source_line: Callable[[str, int], str]) -> bool:
    """Whether ``ev``'s return statement took its FALSE from ``callee``'s FALSE (see :func:`deciding_chain`)."""
    site, ret = callee.call_site, ev.span
    if site.path != ret.path:
        return False
    negated = re.compile(r"!\s*\(?\s*" + re.escape(callee.function) + r"\s*\(")
    text = source_line(ret.path, ret.line)
    if _LITERAL_FALSE.match(text[max(ret.col - 1, 0):]):
        start = _guard_start(ret, source_line)
        if start is None or not start <= site.line <= ret.line:
            return False
        guard = " ".join(source_line(ret.path, n) for n in range(start, ret.line + 1))
        return negated.search(guard) is not None
    end = ret.line
    while end - ret.line < 40 and ";" not in source_line(ret.path, end):
        end += 1
    statement = " ".join(source_line(ret.path, n) for n in range(ret.line, end + 1))
    return ret.line <= site.line <= end and negated.search(statement) is None


def _guard_start(ret: Span, source_line: Callable[[str, int], str]) -> int | None:
    """The line the ``if``/``elsif`` condition guarding the ``return`` at ``ret`` starts on (None: unguarded)."""
    here = source_line(ret.path, ret.line)[:max(ret.col - 1, 0)].strip()
    if _GUARD.match(here):
        return ret.line
    if here and not here.endswith("then"):  # ``else return FALSE;`` or another statement before it
        return None
    for n in range(ret.line - 1, max(ret.line - 40, 0), -1):
        text = source_line(ret.path, n).strip()
        if text.startswith("//"):
            continue
        if _GUARD.match(text):
            return n
        if not text or text.endswith((";", "begin", "do", "else", "otherwise")) or text.startswith("when "):
            return None
    return None


def describe_chain(chain: Sequence[tuple[str, Span]]) -> str:
    """``from F at file.asl:26, from G at …``: the predicates the deciding return was reached from, innermost first
    (a :class:`Sentence` of one clause per predicate, so a page says it in its language)."""
    parts = [Sentence("example.chain_from", f", from {name} at {span.path.rsplit('/', 1)[-1]}:{span.line}",
                      name=name, site=f"{span.path.rsplit('/', 1)[-1]}:{span.line}") for name, span in reversed(chain)]
    return Sentence("@join", "".join(parts), parts=parts) if parts else ""


class FaultTrace:
    """The traced returns of the predicates being explained, and what they held when ``SetFault`` ran
    (the executor's hook around ``SetFault`` calls :meth:`at_fault`)."""

    __slots__ = ("events", "seen")

    def __init__(self) -> None:
        self.events: list[ReturnEvent] | None = None
        self.seen: list[ReturnEvent] = []

    def at_fault(self) -> None:
        if self.events is not None:
            self.seen = list(self.events)


def explain(interp: Interpreter, names: Sequence[str], rerun: Callable[[], object], trace: FaultTrace,
            source_line: Callable[[str, int], str], failures: tuple[type[BaseException], ...]) -> list[ReturnEvent]:
    """The :func:`deciding_chain` of a fault raised because one of the predicates ``names`` returned FALSE.

    ``rerun`` repeats the faulting run on a reset interpreter (the state the predicate saw is rebuilt
    the same way); only calls of ``names`` run traced. Empty when there is nothing to explain, the
    repeat fails (``failures``), or the deciding return is not in a spec file.
    """
    if not names:
        return []
    events: list[ReturnEvent] = []
    trace.events, trace.seen = events, []
    try:
        with traced_calls(interp, names, events):
            rerun()
    except failures:
        return []
    finally:
        trace.events = None
    chain = deciding_chain(trace.seen, source_line)
    if not chain or chain[-1].span.path.startswith(GENERATED_PREFIX):
        return []
    return chain
