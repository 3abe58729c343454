"""The report for people reading a terminal or a CI log.

Findings are grouped under one header line per file so a reader fixes one
file at a time; the closing summary line is what a skimming reader sees.
Nothing here decides the exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from specgen.diagnostics import Finding, Severity, printable
from specgen.report._common import TOOL_NAME, clean_text, elapsed, ordered, plural, severity_counts
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


def _rows(findings: Sequence[Finding], color: bool) -> list[str]:
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
            message_lines = _visible(finding.message).split("\n")
            lines.append((head + message_lines[0]).rstrip())
            indent = " " * (4 + loc_w + sev_w + 2 + rule_w + 2)
            lines.extend((indent + more).rstrip() for more in message_lines[1:])
    return lines


def summary_line(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """``2 errors, 1 warning, 0 notes in 3 files; asl_units: 840; 1.20 s``."""
    counts = severity_counts(findings)
    files = len({f.path for f in findings})
    parts = [", ".join([plural(counts["errors"], "error"), plural(counts["warnings"], "warning"),
                        plural(counts["notes"], "note")]) + f" in {plural(files, 'file')}"]
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


def render(findings: Sequence[Finding], summary: CheckSummary, *, color: bool = False) -> str:
    """Grouped findings then one summary line; ANSI colour only when ``color``."""
    items = ordered(findings)
    lines = _rows(items, color) if items else []
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
