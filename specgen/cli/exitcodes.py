"""The exit codes every ``specgen`` subcommand returns."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    FINDINGS = 1
    USAGE = 2
    INTERRUPTED = 130
