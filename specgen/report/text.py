"""The report for people reading a terminal or a CI log.

Findings are grouped under one header line per file so a reader fixes one
file at a time; the closing summary line is what a skimming reader sees.
Notes are summarised, one line per rule with its count and first location, so
a hundred notes of one kind cannot bury the one error (``list_notes`` lists
each, as ``check --verbose`` asks). Nothing here decides the exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from specgen.diagnostics import Finding, Severity, printable
from specgen.report._common import (TOOL_NAME, clean_text, elapsed, known_counts, known_label, ordered, plural,
                                    severity_counts)
from specgen.report.summary import CheckSummary

_COLOURS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.NOTE: "\x1b[36m"}
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"
_NO_FILE = "(no file)"
NOT_RUN = "rule-not-run"  # specgen.check.needs.NOT_RUN; the report layer does not import the check


def _visible(text: str) -> str:
    """Spec text on one line: a control character could move the cursor, recolour the terminal or, as a
    line break, start a line a CI runner reads as a workflow command; each is shown as ``\\xNN``."""
    return printable(clean_text(text)).replace("\t", " ")


def _location(finding: Finding) -> str:
    if finding.line <= 0:
        return "-"
    return f"{finding.line}:{finding.col}" if finding.col > 0 else str(finding.line)


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color else text


def _rows(findings: Sequence[Finding], color: bool, summary: CheckSummary | None = None) -> list[str]:
    loc_w = max(len(_location(f)) for f in findings)
    sev_w = max(len(Severity(f.severity).value) for f in findings)
    rule_w = max(len(_visible(f.rule)) for f in findings)
    lines: list[str] = []
    for path, group in groupby(findings, key=lambda f: f.path):
        lines.append(_paint(_visible(path) or _NO_FILE, _BOLD, color))
        for finding in group:
            severity = Severity(finding.severity)
            sev = _paint(severity.value.ljust(sev_w), _COLOURS[severity], color)
            head = f"  {_location(finding).rjust(loc_w)}  {sev}  {_visible(finding.rule).ljust(rule_w)}  "
            if finding.subject:
                head += f"[{_visible(finding.subject)}]  "
            label = known_label(finding, summary) if summary is not None else ""
            message_lines = (_visible(finding.message) + (f"  ({_visible(label)})" if label else "")).split("\n")
            lines.append((head + message_lines[0]).rstrip())
            indent = " " * (4 + loc_w + sev_w + 2 + rule_w + 2)
            lines.extend((indent + more).rstrip() for more in message_lines[1:])
    return lines


def notes_by_rule(notes: Sequence[Finding], color: bool) -> list[str]:
    """One line per rule of the notes: how many, in how many files, and where the first one is."""
    lines = ["notes by rule (check --verbose lists each):"]
    by_rule: dict[str, list[Finding]] = {}
    for n in notes:
        by_rule.setdefault(n.rule, []).append(n)
    rule_w = max(len(_visible(r)) for r in by_rule)
    for rule, group in sorted(by_rule.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first = group[0]
        where = _visible(first.path) + (f":{first.line}:{first.col}" if first.line > 0 else "")
        files = len({f.path for f in group})
        lines.append(f"  {_paint(_visible(rule).ljust(rule_w), _COLOURS[Severity.NOTE], color)}  "
                     f"{len(group):>5} in {plural(files, 'file')}, first {where}: "
                     + _visible(first.message).split("\n")[0][:160])
    return lines


def summary_line(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """``2 errors, 1 warning, 0 notes in 3 files; asl_units: 840; 1.20 s``."""
    counts = severity_counts(findings)
    files = len({f.path for f in findings})
    parts = [", ".join([plural(counts["errors"], "error"), plural(counts["warnings"], "warning"),
                        plural(counts["notes"], "note")]) + f" in {plural(files, 'file')}"]
    hidden = [plural(n, word) for word, n in (("warning", summary.hidden.get("warnings", 0)),
                                              ("note", summary.hidden.get("notes", 0))) if n]
    if hidden:
        parts[0] += f" ({' and '.join(hidden)} below --min-severity not shown)"
    known = known_counts(findings, summary)
    if any(known.values()):
        parts[0] += (f" ({plural(sum(known.values()), 'known finding')}: {known['baseline']} in the baseline, "
                     f"{known['suppressed']} suppressed; they do not fail the check)")
    if summary.counts:
        parts.append(", ".join(f"{_visible(k)}: {v}" for k, v in summary.counts.items()))
    seconds = elapsed(summary)
    if seconds is not None:
        parts.append(f"{seconds:.2f} s" + (" (no input changed since the last check: its result was reused)"
                                           if summary.reused else ""))
    return "; ".join(parts)


def not_checked_lines(findings: Sequence[Finding]) -> list[str]:
    """One line per cause of rules that did not run: a passing summary must not hide what was skipped."""
    out = []
    for f in findings:
        if f.rule == NOT_RUN:
            why = "is absent or unreadable" if Severity(f.severity) is Severity.ERROR else "lacks the fact"
            rules = ", ".join(_visible(r) for r in f.related) or "(rules unnamed)"
            out.append(f"not checked: {rules} ({_visible(f.path) or _NO_FILE} {why})")
    return out


def render(findings: Sequence[Finding], summary: CheckSummary, *, color: bool = False,
           list_notes: bool = False) -> str:
    """Grouped findings, the notes by rule (each note with ``list_notes``), then one summary line; ANSI
    colour only when ``color``."""
    items = ordered(findings)
    notes = [] if list_notes else [f for f in items if Severity(f.severity) is Severity.NOTE]
    # known findings (baseline, suppressions) are counted in the summary line; --verbose lists them, marked
    listed = [f for f in items if list_notes or (Severity(f.severity) is not Severity.NOTE
                                                  and summary.known_as(f) is None)]
    lines = _rows(listed, color, summary) if listed else []
    if notes:
        lines.extend(([""] if lines else []) + notes_by_rule(notes, color))
    if lines:
        lines.append("")
    if summary.content_sha256:
        # whole, never abbreviated: a CI log is the record of which content was checked; it goes
        # before the summary line so that line stays last, where CI log scrapers look for it
        lines.append(f"manifest content_sha256: {_visible(summary.content_sha256)}")
    release = f" (release {_visible(summary.release)})" if summary.release else ""
    lines.append(f"{TOOL_NAME} {_visible(summary.tool_version)} check of "
                 f"{_visible(summary.root)}{release}: {summary_line(items, summary)}")
    lines.extend(not_checked_lines(items))
    return "\n".join(lines) + "\n"
