"""Findings and source locations shared by every stage.

A finding is the one currency the loader, the checks, the encoder and the
executor pay in: it always names a rule id, a file, a line and a column, so a
reader (or a CI annotation) can jump straight to the cause. Like
markdown-it-py's ``Token.map``, a :class:`Span` points a record back at the
source lines it came from.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .cache import codec


def printable(text: str) -> str:
    """``text`` as one safe line: every character that is not printable (control characters, line and
    paragraph separators, CR and LF included) is shown as ``\\xNN`` / ``\\uNNNN``.

    Spec text (a file name, a JSON string) may carry a line break followed by ``::error::``; printed raw,
    a CI runner reads that line as its own workflow command, and an ESC recolours a terminal. Every text
    report puts spec text through here, so a line break in its output is always specgen's own.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\t" else (f"\\x{ord(ch):02x}" if ord(ch) < 0x100
                                                              else f"\\u{ord(ch):04x}") for ch in text)


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
        """The canonical one-line form ``path:line:col: rule-id: message``, control characters escaped."""
        return printable(f"{self.path}:{self.line}:{self.col}: {self.rule}: {self.message}")

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


#: ``file.asl:12`` or ``file.asl:12:3`` and ``line 12`` inside a message: where another thing is, which moves
#: with unrelated edits and so stays out of a finding's key
_LOCATION_IN_TEXT = re.compile(r"(?<=[\w.]):\d+(?::\d+)?\b|\b(line|lines|col|column) \d+(?:[-\u2013]\d+)?")


def finding_key(finding: Finding) -> str:
    """What a finding *is*, for a baseline or a suppression: its rule, path, subject and message (locations
    inside the message reduced to their file), never its own line, so an edit elsewhere in the file keeps the
    key and a different defect at the same place gets a new one. 32 hex digits of SHA-256."""
    import hashlib
    message = _LOCATION_IN_TEXT.sub(lambda m: f"{m.group(1)} N" if m.group(1) else ":N", finding.message)
    key = "\0".join((finding.rule, finding.path, finding.subject, message))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class KnownFinding:
    """A finding the team already knows of: ``kind`` ``baseline`` (recorded by ``check --write-baseline``),
    ``inSource`` (a ``specgen: ignore[rule]`` comment beside it) or ``external`` (``[[specgen.suppress]]`` in
    ``specification.toml``), with the reason given (a baseline entry's is empty). Reported, never dropped;
    it does not fail the check."""

    kind: str
    reason: str = ""
    where: str = ""  # the suppression's own location (``path:line``), for the reader who wants to remove it


def sorted_unique(findings: list[Finding]) -> list[Finding]:
    """Sort by location and drop exact duplicates: one cause, one finding."""
    return sorted(set(findings), key=lambda f: f.sort_key)


def has_failures(findings: Iterable[Finding], strict: bool) -> bool:
    """Whether a run fails: any error, or any warning too under ``--strict``."""
    return any(f.severity is Severity.ERROR or (strict and f.severity is Severity.WARNING) for f in findings)


#: Findings that leave a file unusable as a whole: its bytes (reader) or, for a JSON file, its syntax
UNUSABLE_FILE_RULES = frozenset({"file-encoding", "file-nul", "file-too-large", "path-unreadable",
                                 "record-json", "record-duplicate-key"})


def drop_followers(findings: list[Finding], causes: Iterable[Finding]) -> list[Finding]:
    """``findings`` without those elsewhere that name a file ``causes`` left unusable.

    One cause, one finding: when ``command-forms.json`` does not parse, every tile operation
    whose carrier "has 0 forms in command-forms.json" says nothing the parse error did not.
    A file is unusable when a cause of :data:`UNUSABLE_FILE_RULES` is about the whole of it (a
    JSON file; an ASL unit keeps its records, its bytes replaced). At that file itself only the
    cause and the manifest's findings stay (a hash mismatch is a separate fact); a second reader of
    the same bytes (the examples runner's "invalid example: not valid JSON") is the same cause.
    """
    paths: set[str] = set()
    for c in causes:
        if c.rule in UNUSABLE_FILE_RULES and (c.path.endswith(".json") or c.rule in ("file-too-large",
                                                                                      "path-unreadable")):
            paths.add(c.path)
    if not paths:
        return findings
    names = paths | {p.rsplit("/", 1)[-1] for p in paths}
    return [f for f in findings if f.rule in UNUSABLE_FILE_RULES or f.rule.startswith("manifest-")
            or (f.path not in paths and not any(n in f.message for n in names))]


class Sentence(str):
    """A sentence specgen writes, as English text (logs, findings, the command line) that also carries the
    message-catalog key and values a page uses to say it in the page's language.

    It is a ``str`` so every caller that reads, searches or prints the English keeps working; a value
    that is itself a :class:`Sentence` is said in the page's language too, and ``detail`` is text
    quoted as written (a parser's or the interpreter's own message, spec syntax). Pickles with its key.
    """

    key: str
    params: dict[str, object]

    def __new__(cls, key: str, text: str, **params: object) -> Sentence:
        obj = super().__new__(cls, text)
        obj.key = key
        obj.params = params
        return obj

    def __reduce__(self) -> tuple[object, ...]:
        return (_sentence, (self.key, str(self), self.params))


def _sentence(key: str, text: str, params: dict[str, object]) -> Sentence:
    return Sentence(key, text, **params)


def _sentence_state(s: Sentence) -> list[object]:
    return [s.key, str(s), s.params]


def _sentence_of(state: list) -> Sentence:
    key, text, params = state
    return Sentence(key, text, **params)


codec.register(Severity, Span, Finding)
codec.register(Sentence, encode=_sentence_state, decode=_sentence_of)
