"""Errors raised while parsing or running ASL.

Every failure a user can cause (bad syntax, an unknown name, a failed
``assert``, a construct the interpreter does not implement) is an
:class:`ASLError` naming a file, line and column, plus the ASL call stack
when it happened at run time; never a bare Python traceback.
"""

from __future__ import annotations

from specgen.diagnostics import Span


class ASLError(Exception):
    """A located ASL failure.

    ``kind`` classifies it for the test runner: ``parse``, ``unknown-name``,
    ``assert``, ``type``, ``unsupported``, ``unreachable``, ``runtime``,
    ``missing-function``, ``broken-unit`` (the name belongs to a unit that does
    not parse; the message gives that unit's syntax error).
    """

    def __init__(
        self,
        message: str,
        span: Span | None = None,
        kind: str = "runtime",
        asl_stack: tuple[tuple[str, Span], ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span or Span("<unknown>")
        self.kind = kind
        self.asl_stack = asl_stack

    def __str__(self) -> str:
        return f"{self.span}: {self.message}"


class ASLAssertionError(ASLError):
    """An ASL ``assert`` (or ``as`` range check) evaluated to FALSE."""


class MissingFunction(ASLError):
    """A name the spec's code or a test uses is defined nowhere: not in the tree, not in the ASL
    specgen generates from the tree's catalogs (a shard an unseen release adds, or a catalog a
    generator cannot read). The run stops there; the test fails naming the function."""

    def __init__(self, name: str, span: Span | None = None, asl_stack: tuple = ()) -> None:
        super().__init__(
            f"'{name}' is defined neither in the spec tree nor in the ASL specgen generates from "
            "its catalogs (decoders, dispatch tables, validation shards)",
            span,
            "missing-function",
            asl_stack,
        )
        self.name = name


class NotDerivable(ASLError):
    """The run reached a name the ASL specgen generates refers to but the tree does not define (or a
    validation shard specgen derives nothing for from the tree's catalog row): the test is not
    derivable on this tree, which is not a failure of the spec. ``reason`` says which name, which
    generator and which catalog rows (:mod:`specgen.asl.contract_check`)."""

    def __init__(self, name: str, reason: str, span: Span | None = None, asl_stack: tuple = ()) -> None:
        super().__init__(f"not derivable: {reason}", span, "not-derivable", asl_stack)
        self.name = name
        self.reason = reason


# ------------------------------------------------------------ stacks in reports
Frame = tuple[str, Span]
STACK_HEAD = 10
STACK_TAIL = 10
_MAX_PERIOD = 8


def _frame_text(frame: Frame) -> str:
    name, span = frame
    return f"{name} at {span.path}:{span.line}"


def _collapse_cycles(frames: list[Frame]) -> list[Frame | str]:
    """Each run of a repeated call cycle, kept once and followed by one line counting the rest.

    Deep recursion leaves thousands of identical frames; a reader needs the cycle
    (which functions call each other, where) and its length, not every repetition.
    """
    out: list[Frame | str] = []
    i, n = 0, len(frames)
    while i < n:
        best_p, best_r = 0, 1
        for p in range(1, min(_MAX_PERIOD, (n - i) // 2) + 1):
            r = 1
            while i + (r + 1) * p <= n and frames[i + r * p:i + (r + 1) * p] == frames[i:i + p]:
                r += 1
            if r >= 3 and r * p > best_r * best_p:
                best_p, best_r = p, r
        if best_p == 0:
            out.append(frames[i])
            i += 1
            continue
        cycle = frames[i:i + best_p]
        out.extend(cycle)
        names = " → ".join([name for name, _ in cycle] + [cycle[0][0]])
        out.append(f"… {(best_r - 1) * best_p:,} more frames of {names}")
        i += best_r * best_p
    return out


def bounded_stack(frames: tuple[Frame, ...] | list[Frame], head: int = STACK_HEAD,
                  tail: int = STACK_TAIL) -> list[str]:
    """An ASL stack as report lines (outermost first), at most ``head + tail + 1`` of them.

    Repeated cycles are collapsed first; what is still too long keeps its first ``head``
    and last ``tail`` lines (where the run started and where it failed) around one line
    saying how many frames were left out.
    """
    lines = [x if isinstance(x, str) else _frame_text(x) for x in _collapse_cycles(list(frames))]
    if len(lines) <= head + tail + 1:
        return lines
    hidden = lines[head:len(lines) - tail]
    count = sum(_hidden_frames(line) for line in hidden)
    return [*lines[:head], f"… {count:,} more frames", *lines[len(lines) - tail:]]


def _hidden_frames(line: str) -> int:
    """How many frames one report line stands for (a collapsed cycle line counts its frames)."""
    if line.startswith("… ") and " more frames" in line:
        return int(line[2:line.index(" more frames")].replace(",", ""))
    return 1
