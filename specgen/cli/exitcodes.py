"""The exit status of every ``specgen`` subcommand, defined once.

The README's command table documents these; scripts and CI read them, so a
value never changes meaning.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """0 success, 1 findings (or failed tests, a fault, an unknown id), 2 usage, unreadable root or an
    output path the system refuses."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    INTERRUPTED = 130
    BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader closed the output (``… | head``)
