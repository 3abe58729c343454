"""Baselines and suppressions: a tree with known findings can still gate on new ones.

A real tree rarely starts clean (0.58.3 as released has one true ``manifest-missing-file``), and
``--disable`` of the whole rule would hide the next such defect too. Like detekt's, bandit's and
phpstan's baseline files and ruff's ``noqa``, three ways mark a finding as known, each reported (SARIF
``baselineState`` / ``suppressions``, JSON ``baseline`` / ``suppressed``, JUnit ``<skipped>``) and never
dropped, and none of them fails the check:

* a **baseline file** (``check --write-baseline FILE``, read with ``--baseline FILE``): one entry per
  finding, keyed by :func:`specgen.diagnostics.finding_key` (rule, path, subject, message; never its line);
* ``[[specgen.suppress]]`` tables in ``specification.toml`` (``rule``, optional ``path`` glob and
  ``subject``, a required ``reason``): for files that cannot hold a comment (JSON) or are absent;
* a comment beside the finding, ``specgen: ignore[rule-id, …] reason`` after the file's own comment
  leader (``// specgen: ignore[asl-arity] …`` in ASL, ``<!-- specgen: ignore[adr-dangling-link] … -->``
  in Markdown), on the finding's line or the line above; for a finding about the whole file (line 0),
  anywhere in the file.

An entry that no longer matches a finding is stale: one ``baseline-stale`` / ``suppression-stale``
note, so the baseline shrinks as defects are fixed. A suppression without a reason is not applied and is
one ``suppression-invalid`` warning.
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Finding, KnownFinding, Severity, finding_key
from .files import SpecFiles

BASELINE_FORMAT = "specgen-baseline"
BASELINE_VERSION = 1
CONFIG = "specification.toml"
STALE_BASELINE = "baseline-stale"
STALE_SUPPRESSION = "suppression-stale"
INVALID_SUPPRESSION = "suppression-invalid"
# the rules of this module; a check never reports them as known (a stale note cannot be baselined away)
OWN_RULES = frozenset({STALE_BASELINE, STALE_SUPPRESSION, INVALID_SUPPRESSION})
#: ``specgen: ignore[rule-a, rule-b] reason``; the reason runs to the end of the line or a comment closer
MARKER = re.compile(r"specgen:\s*ignore\[(?P<rules>[^\]]*)\](?P<reason>.*)$")
_CLOSERS = re.compile(r"\s*(-->|\*/)\s*$")
# files that can hold the comment: the ASL sources and tests, the prose, the TOML configuration
COMMENTED_SUFFIXES = (".asl", ".md", ".toml")


class BaselineError(ValueError):
    """A baseline file that cannot be read, is not JSON or is not a specgen baseline."""


@dataclass(frozen=True)
class BaselineEntry:
    """One known finding of a baseline file (``message`` is there for the reader of the file)."""

    rule: str
    path: str
    key: str
    message: str = ""


@dataclass(frozen=True)
class Suppression:
    """A ``[[specgen.suppress]]`` table or a ``specgen: ignore[…]`` comment."""

    rules: tuple[str, ...]
    reason: str
    path: str  # where it is written
    line: int
    kind: str  # inSource | external
    target: str = ""  # external: glob over the finding's path ("": every path); inSource: its own file
    subject: str = ""  # external: the finding's subject must equal it ("": any)

    def matches(self, f: Finding) -> bool:
        if f.rule not in self.rules:
            return False
        if self.kind == "external":
            return (not self.target or fnmatch.fnmatchcase(f.path, self.target)) and \
                (not self.subject or f.subject == self.subject)
        return f.path == self.target and (f.line <= 0 or f.line in (self.line, self.line + 1))


@dataclass
class Applied:
    """The findings (with this module's own notes and warnings added) and which of them are known."""

    findings: list[Finding]
    known: dict[str, KnownFinding] = field(default_factory=dict)


# ------------------------------------------------------------------ the baseline file
def baseline_document(findings: Iterable[Finding], release: str | None = None) -> str:
    """The baseline of ``findings``: sorted, one entry per key, with the message for the reader."""
    entries: dict[str, dict[str, str]] = {}
    for f in findings:
        if f.rule in OWN_RULES:
            continue
        entries.setdefault(finding_key(f), {"rule": f.rule, "path": f.path, "key": finding_key(f),
                                            "severity": f.severity.value, "message": f.message})
    doc = {"format": BASELINE_FORMAT, "version": BASELINE_VERSION, "release": release,
           "findings": sorted(entries.values(), key=lambda e: (e["path"], e["rule"], e["key"]))}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def is_baseline(path: Path) -> bool:
    """Whether ``path`` holds a specgen baseline (``--write-baseline`` replaces only such a file)."""
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("format") == BASELINE_FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def read_baseline(path: Path) -> list[BaselineEntry]:
    """The entries of a baseline file; :class:`BaselineError` with one line saying why not."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise BaselineError(f"{path}:0:0: baseline-unreadable: cannot read: {e.strerror or e}") from e
    except ValueError as e:
        raise BaselineError(f"{path}:0:0: baseline-unreadable: not JSON: {e}") from e
    if not isinstance(doc, dict) or doc.get("format") != BASELINE_FORMAT or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}:0:0: baseline-unreadable: not a specgen baseline "
                            f"(write one with specgen check --write-baseline FILE)")
    entries = []
    for i, e in enumerate(doc["findings"]):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) for k in ("rule", "path", "key")):
            raise BaselineError(f"{path}:0:0: baseline-unreadable: entry {i} needs the strings rule, path and key")
        entries.append(BaselineEntry(e["rule"], e["path"], e["key"], str(e.get("message", ""))))
    return entries


# ------------------------------------------------------------------ suppressions
def _line_of(text: str, needle: str, start: int = 0) -> int:
    at = text.find(needle, start)
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def config_suppressions(files: SpecFiles) -> tuple[list[Suppression], list[Finding]]:
    """``[[specgen.suppress]]`` of the tree's ``specification.toml`` (a broken file is the loader's finding)."""
    read = files.read(CONFIG) if files.exists(CONFIG) else None
    if read is None or read.text is None:
        return [], []
    try:
        data = tomllib.loads(read.text)
    except tomllib.TOMLDecodeError:
        return [], []
    table = data.get("specgen", {}) if isinstance(data.get("specgen"), dict) else {}
    raw = table.get("suppress", [])
    out: list[Suppression] = []
    problems: list[Finding] = []
    anchor = read.text.find("[[specgen.suppress]]")
    for i, item in enumerate(raw if isinstance(raw, list) else [raw]):
        line = _line_of(read.text, "[[specgen.suppress]]", anchor) if anchor >= 0 else 0
        anchor = read.text.find("[[specgen.suppress]]", anchor + 1) if anchor >= 0 else -1
        rules = item.get("rule") if isinstance(item, dict) else None
        rules = [rules] if isinstance(rules, str) else rules
        reason = item.get("reason") if isinstance(item, dict) else None
        if not (isinstance(rules, list) and rules and all(isinstance(r, str) for r in rules)) or \
                not isinstance(reason, str) or not reason.strip():
            problems.append(Finding(INVALID_SUPPRESSION, Severity.WARNING, CONFIG, line,
                                    f"[[specgen.suppress]] number {i + 1} needs a rule (or a list of rules) and a "
                                    f"non-empty reason; it is not applied"))
            continue
        target, subject = item.get("path", ""), item.get("subject", "")
        out.append(Suppression(tuple(rules), reason.strip(), CONFIG, line, "external",
                               target if isinstance(target, str) else "", subject if isinstance(subject, str) else ""))
    return out, problems


def comment_suppressions(files: SpecFiles, paths: Iterable[str]) -> tuple[list[Suppression], list[Finding]]:
    """The ``specgen: ignore[…]`` comments of the files ``paths`` (those of :data:`COMMENTED_SUFFIXES`)."""
    out: list[Suppression] = []
    problems: list[Finding] = []
    for rel in sorted(set(paths)):
        if not rel.endswith(COMMENTED_SUFFIXES) or not files.present(rel):
            continue
        read = files.read(rel)
        if read is None or read.text is None or "specgen:" not in read.text:
            continue
        for number, text in enumerate(read.text.splitlines(), 1):
            m = MARKER.search(text)
            if m is None:
                continue
            rules = tuple(r.strip() for r in m["rules"].split(",") if r.strip())
            reason = _CLOSERS.sub("", m["reason"]).strip(" \t:-\u2014")
            if not rules or not reason:
                problems.append(Finding(INVALID_SUPPRESSION, Severity.WARNING, rel, number,
                                        "a 'specgen: ignore[rule-id] reason' comment needs a rule id and a reason; "
                                        "it is not applied", col=m.start() + 1))
                continue
            out.append(Suppression(rules, reason, rel, number, "inSource", rel))
    return out, problems


def _commented_files(files: SpecFiles, findings: Sequence[Finding], log_paths: Iterable[str]) -> set[str]:
    """The files whose comments may suppress something: those with a finding, and every file the check read
    that carries a marker (a stale one must be found too)."""
    return {f.path for f in findings if f.path} | {p for p in log_paths if p.endswith(COMMENTED_SUFFIXES)}


# ------------------------------------------------------------------ applying them
def apply(root: Path, findings: Sequence[Finding], *, baseline: Sequence[BaselineEntry] | None = None,
          baseline_label: str = "", judged: frozenset[str] | None = None,
          read_paths: Iterable[str] = ()) -> Applied:
    """Mark the known findings and add the notes about stale entries and the warnings about bad ones.

    ``judged``: the rules whose absence of a finding means something (the rules that ran and the loader's
    own kinds); an entry of another rule (disabled, not run on this tree) is not stale. ``read_paths``: the
    files the check read, searched for ``specgen: ignore`` comments.
    """
    files = SpecFiles(root)
    suppressions, problems = config_suppressions(files)
    inline, inline_problems = comment_suppressions(files, _commented_files(files, findings, read_paths))
    suppressions += inline
    problems += inline_problems
    known: dict[str, KnownFinding] = {}
    used: set[int] = set()
    for f in findings:
        if f.rule in OWN_RULES:
            continue
        for i, s in enumerate(suppressions):
            if s.matches(f):
                used.add(i)
                known.setdefault(finding_key(f), KnownFinding(s.kind, s.reason, f"{s.path}:{s.line}"))
    notes: list[Finding] = []

    def judged_rule(rule: str) -> bool:
        return judged is None or rule in judged

    for i, s in enumerate(suppressions):
        if i not in used and any(judged_rule(r) for r in s.rules):
            notes.append(Finding(STALE_SUPPRESSION, Severity.NOTE, s.path, s.line,
                                 f"suppression of {', '.join(s.rules)} matches no finding (its finding is gone); "
                                 f"remove it", subject=", ".join(s.rules)))
    if baseline is not None:
        current = {finding_key(f) for f in findings}
        for e in baseline:
            if e.key in current:
                known.setdefault(e.key, KnownFinding("baseline", "", baseline_label))
            elif judged_rule(e.rule):
                notes.append(Finding(STALE_BASELINE, Severity.NOTE, e.path, 0,
                                     f"the baseline {baseline_label} lists a {e.rule} finding that is gone "
                                     f"({e.message[:160]}); write the baseline again to drop it", subject=e.rule))
    return Applied(list(findings) + problems + notes, known)
