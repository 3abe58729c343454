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
    ``needs-generated``.
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


class NeedsGenerated(ASLError):
    """A name belongs to code the upstream build generates and this tree lacks."""

    def __init__(self, name: str, span: Span | None = None, asl_stack: tuple = ()) -> None:
        super().__init__(
            f"'{name}' is defined by generated ASL (decoder/validation shards) that the "
            "spec tree does not contain; specgen does not produce it yet",
            span,
            "needs-generated",
            asl_stack,
        )
        self.name = name
