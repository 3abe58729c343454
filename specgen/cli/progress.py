"""Progress of a long command on stderr, so a person at a terminal sees it move and a CI log stays short.

On a terminal one line is rewritten in place (stage, count, elapsed time); anywhere else (a CI log,
a pipe, a test's ``StringIO``) each stage is one line when it starts, and counts inside a stage are
not printed at all, so a log of a 3,000-test run is a handful of lines. Nothing goes to stdout: a
``--format json`` report there stays exactly what it was. ``SPECGEN_PROGRESS=0`` turns it off and
``SPECGEN_PROGRESS=1`` forces the one-line-per-stage form even on a terminal.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

#: A terminal line is redrawn at most this often (seconds): a 3,000-test run stays cheap to watch
REDRAW_EVERY = 0.1


class Progress:
    """Stages and counts of one command, written to ``err``."""

    def __init__(self, err: TextIO, command: str) -> None:
        self.err = err
        self.command = command
        mode = os.environ.get("SPECGEN_PROGRESS", "")
        self.enabled = mode != "0"
        isatty = getattr(err, "isatty", None)
        self.tty = self.enabled and mode != "1" and bool(isatty and isatty())
        self.t0 = time.perf_counter()
        self.stage_name = ""
        self._drawn = 0.0
        self._width = 0

    def stage(self, name: str) -> None:
        """A new stage starts (one line off a terminal, a redraw on one)."""
        self.stage_name = name
        if not self.enabled:
            return
        if self.tty:
            self._draw(name, force=True)
        else:
            print(f"specgen {self.command}: {name} ({self.elapsed():.1f} s)", file=self.err, flush=True)

    def count(self, done: int, total: int) -> None:
        """``done`` of ``total`` items of the current stage (drawn on a terminal only)."""
        if self.tty:
            self._draw(f"{self.stage_name} {done}/{total}", force=done >= total)

    def finish(self) -> None:
        """End the rewriting line so what follows starts on a clean one."""
        if self.tty and self._width:
            self.err.write("\r" + " " * self._width + "\r")
            self.err.flush()
            self._width = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def _draw(self, text: str, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._drawn < REDRAW_EVERY:
            return
        self._drawn = now
        line = f"specgen {self.command}: {text} ({self.elapsed():.1f} s)"
        pad = max(0, self._width - len(line))
        self.err.write("\r" + line + " " * pad)
        self.err.flush()
        self._width = len(line)
