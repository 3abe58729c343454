"""Where an ASL ``print``/``println`` goes: stderr, each line prefixed with the test that printed it.

A test's ``println`` is a debugging aid; in a build or a ``specgen test`` run its lines reached stderr
bare, among the progress lines, so 75 lines of a 0.58.0 test read as the build's own. The runner names
the running test (:func:`prefixed`); every line printed while it runs starts with that ID.

A log nobody reads any more (``specgen test 2>&1 | head``: the reader closed the pipe) is not the test's
failure: the line is dropped and the run goes on, so the verdict recorded is the test's own. A 0.58.0
test that prints was recorded as "internal evaluation error: BrokenPipeError" and then stood as a
recorded failure in every ``test --changed``. What the command itself writes to the closed pipe after
that ends it with exit 141, as in every command.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_PREFIX: ContextVar[str] = ContextVar("asl_print_prefix", default="")
_AT_LINE_START: ContextVar[bool] = ContextVar("asl_print_line_start", default=True)


def write(text: str) -> None:
    """``text`` on stderr, each line it starts prefixed with ``<test ID>: `` while a test runs."""
    prefix = _PREFIX.get()
    if not prefix or not text:
        _emit(text)
        return
    out: list[str] = []
    start = _AT_LINE_START.get()
    for piece in text.splitlines(keepends=True):
        out.append(f"{prefix}: {piece}" if start else piece)
        start = piece.endswith("\n")
    _AT_LINE_START.set(start)
    _emit("".join(out))


def _emit(text: str) -> None:
    try:
        sys.stderr.write(text)
    except (BrokenPipeError, ValueError):  # the reader went away, or stderr was closed: the line is dropped
        pass


@contextmanager
def prefixed(prefix: str) -> Iterator[None]:
    """While the block runs, what ASL prints is prefixed with ``prefix`` (a test's ID); an unfinished line
    is ended when it leaves, so the next output starts a line of its own."""
    token, line = _PREFIX.set(prefix), _AT_LINE_START.set(True)
    try:
        yield
    finally:
        if not _AT_LINE_START.get():
            _emit("\n")
        _PREFIX.reset(token)
        _AT_LINE_START.reset(line)
