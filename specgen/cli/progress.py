"""Progress of a long command on stderr, so a person at a terminal sees it move and a CI log stays short.

The one progress reporter of the command line (``check``, ``test``, ``build``). On a terminal one line
is rewritten in place (stage, count or a bar over the known stages, elapsed time); anywhere else (a CI
log, a pipe, a test's ``StringIO``) each stage is one line when it starts, and counts inside a stage
are not printed at all, so a log of a 3,000-test run is a handful of lines. A command whose output is
its report and that runs in hooks (``check``: ``quiet=True``) prints nothing off a terminal, so a failing
pre-commit hook shows the findings alone. Nothing goes to stdout: a
``--format json`` report there stays exactly what it was. ``SPECGEN_PROGRESS=0`` turns it off and
``SPECGEN_PROGRESS=1`` forces the one-line-per-stage form even on a terminal (and for a quiet command).
"""

from __future__ import annotations

import os
import time
from typing import TextIO

#: A terminal line is redrawn at most this often (seconds): a 3,000-test run stays cheap to watch
REDRAW_EVERY = 0.1
BAR = 24  # characters of the stage bar (commands that know their stages up front: ``build``)


class Progress:
    """Stages and counts of one command, written to ``err``.

    ``stages``: the command's stages in order, when it knows them (``build``); a terminal then shows a
    bar of how many have started. Calling the reporter is the same as :meth:`stage`, so it can be
    handed to a lower layer as a plain ``callable(stage_name)``.
    """

    def __init__(self, err: TextIO, command: str, stages: tuple[str, ...] = (), *, quiet: bool = False) -> None:
        self.err = err
        self.command = command
        self.stages = stages
        mode = os.environ.get("SPECGEN_PROGRESS", "")
        isatty = getattr(err, "isatty", None)
        on_tty = bool(isatty and isatty())
        self.enabled = mode != "0" and (on_tty or mode == "1" or not quiet)
        self.tty = self.enabled and mode != "1" and on_tty
        self.t0 = time.perf_counter()
        self.stage_name = ""
        self._started = 0  # stages started, for the bar
        self._drawn = 0.0
        self._width = 0

    def __call__(self, name: str) -> None:
        self.stage(name)

    def stage(self, name: str) -> None:
        """A new stage starts (one line off a terminal, a redraw on one)."""
        self.stage_name = name
        self._started = self.stages.index(name) + 1 if name in self.stages else self._started + 1
        if not self.enabled:
            return
        if self.tty:
            self._draw(self._bar() + name, force=True)
        else:
            print(f"specgen {self.command}: {name} ({self.elapsed():.1f} s)", file=self.err, flush=True)

    def count(self, done: int, total: int) -> None:
        """``done`` of ``total`` items of the current stage (drawn on a terminal only)."""
        if self.tty:
            self._draw(f"{self._bar()}{self.stage_name} {done}/{total}", force=done >= total)

    def finish(self) -> None:
        """End the rewriting line so what follows starts on a clean one."""
        if self.tty and self._width:
            self.err.write("\r" + " " * self._width + "\r")
            self.err.flush()
            self._width = 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def _bar(self) -> str:
        if not self.stages:
            return ""
        fill = int(BAR * min(self._started, len(self.stages)) / len(self.stages))
        return f"[{'#' * fill}{'.' * (BAR - fill)}] "

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
