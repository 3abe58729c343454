"""Findings and source locations shared by every stage.

A finding is the one currency the loader, the checks, the encoder and the
executor pay in: it always names a rule id, a file, a line and a column, so a
reader (or a CI annotation) can jump straight to the cause. Like
markdown-it-py's ``Token.map``, a :class:`Span` points a record back at the
source lines it came from.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    """How much a finding matters; ``error`` fails ``check``/``validate``."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "note": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Span:
    """Where a record lives: a root-relative POSIX path and 1-based lines/columns.

    ``end_line`` is inclusive; ``line == 0`` means "the file as a whole".
    """

    path: str
    line: int = 0
    col: int = 0
    end_line: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    @property
    def lines(self) -> tuple[int, int]:
        return (self.line, self.end_line or self.line)


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnosed cause, with a message that says what to do about it."""

    rule: str
    severity: Severity
    path: str
    line: int
    message: str
    subject: str = ""
    col: int = 0
    related: tuple[str, ...] = field(default=())

    @property
    def sort_key(self) -> tuple[str, int, int, str, str, str]:
        return (self.path, self.line, self.col, self.rule, self.subject, self.message)

    def format(self) -> str:
        """The canonical one-line form ``path:line:col: rule-id: message``."""
        return f"{self.path}:{self.line}:{self.col}: {self.rule}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "subject": self.subject,
            "message": self.message,
            "related": list(self.related),
        }


def sorted_unique(findings: list[Finding]) -> list[Finding]:
    """Sort by location and drop exact duplicates: one cause, one finding."""
    return sorted(set(findings), key=lambda f: f.sort_key)


def has_failures(findings: Iterable[Finding], strict: bool) -> bool:
    """Whether a run fails: any error, or any warning too under ``--strict``."""
    return any(f.severity is Severity.ERROR or (strict and f.severity is Severity.WARNING) for f in findings)
