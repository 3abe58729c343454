"""GitHub Actions workflow commands, which the runner turns into annotations.

Every value is escaped as GitHub's toolkit does (``%``, CR, LF, and in
properties also ``:`` and ``,``), so a message can neither break its own line
nor smuggle in a second workflow command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote

from specgen.diagnostics import Finding, Severity
from specgen.report._common import TOOL_NAME, clean_text, known_label, ordered, plural, severity_counts
from specgen.report.summary import CheckSummary
from specgen.report.text import summary_line

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
#: GitHub shows at most 10 annotations of each type per step (and 50 per job); what is beyond is dropped
#: silently, so specgen writes no more than that, best first, and says how many it left out
PER_TYPE = 10
#: the step summary is at most 1 MiB; the table stops short of it and says how many rows it left out
SUMMARY_BUDGET = 900_000
# Other control characters would reach the log viewer raw (ESC recolours it); the Unicode line and
# paragraph separators end a line for some readers.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def _visible(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        clean_text(text))


def escape_data(text: str) -> str:
    """The message part, after ``::``."""
    return _visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A ``key=value`` property before ``::``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(finding: Finding, prefix: str = "") -> str:
    """One ``::error file=…,line=…,col=…,title=…::message`` line (no newline); ``prefix`` is the spec root's
    path inside the repository, since GitHub attaches an annotation to ``file`` relative to the repository."""
    props: list[tuple[str, str]] = []
    if finding.path:
        props.append(("file", f"{prefix.rstrip('/')}/{finding.path}" if prefix.strip("/") else finding.path))
        if finding.line > 0:
            props.append(("line", str(finding.line)))
            if finding.col > 0:
                props.append(("col", str(finding.col)))
    props.append(("title", finding.rule))
    message = f"{finding.subject}: {finding.message}" if finding.subject else finding.message
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    return f"::{_COMMAND[Severity(finding.severity)]} {joined}::{escape_data(message)}"


def _path(finding: Finding, prefix: str) -> str:
    return f"{prefix.rstrip('/')}/{finding.path}" if prefix.strip("/") and finding.path else finding.path


def _prefix(summary: CheckSummary) -> str:
    return summary.spec_in_repo if summary.repo_root is not None and summary.spec_in_repo else ""


def ranked(findings: Sequence[Finding], summary: CheckSummary) -> list[Finding]:
    """New findings in the order they deserve an annotation: errors, warnings, notes; within each, those in
    the files the pull request changed (``summary.changed_files``) first, then by path and line."""
    prefix = _prefix(summary)
    new = [f for f in ordered(findings) if summary.known_as(f) is None]
    return sorted(new, key=lambda f: (Severity(f.severity).rank, _path(f, prefix) not in summary.changed_files))


def render(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """At most :data:`PER_TYPE` commands per annotation type, ranked by :func:`ranked` (the last notice is the
    summary), then a ``::notice::`` with the summary line and how many findings were not annotated. Paths
    are relative to the repository root when the summary knows where the spec root lies in it
    (``--repo-root``, default the git top level), else to the spec root."""
    items = ordered(findings)
    prefix = _prefix(summary)
    room = {Severity.ERROR: PER_TYPE, Severity.WARNING: PER_TYPE, Severity.NOTE: PER_TYPE - 1}
    lines = []
    left = 0
    for f in ranked(items, summary):
        severity = Severity(f.severity)
        if room[severity] > 0:
            room[severity] -= 1
            lines.append(command(f, prefix))
        else:
            left += 1
    known = sum(1 for f in items if summary.known_as(f) is not None)
    tail = f"{TOOL_NAME} check: " + summary_line(items, summary)
    if left:
        tail += (f"; {plural(left, 'finding')} not annotated (GitHub shows {PER_TYPE} annotations of each type "
                 f"per step): the job summary and the SARIF log list every one")
    if known:
        tail += f"; {plural(known, 'known finding')} (baseline, suppressions) not annotated"
    lines.append(f"::notice::{escape_data(tail)}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text for one Markdown table cell: one line, pipes and markup characters escaped."""
    text = _visible(text).replace("\r", " ").replace("\n", " ")
    for ch in "\\|*_`<>[]":
        text = text.replace(ch, "\\" + ch)
    return text


def step_summary(findings: Sequence[Finding], summary: CheckSummary, link_base: str | None = None) -> str:
    """The Markdown for ``$GITHUB_STEP_SUMMARY``: the counts, then one row per error and warning (new ones
    first, as annotated; known ones marked), notes counted. ``link_base`` (``SERVER/OWNER/REPO/blob/SHA``)
    makes each location a link to the file at that line."""
    items = ordered(findings)
    prefix = _prefix(summary)
    counts = severity_counts(items)
    release = f" (release {_cell(summary.release)})" if summary.release else ""
    root = _visible(summary.root).replace("`", "'")
    out = [f"## {TOOL_NAME} check of `{root}`{release}", "",
           "| errors | warnings | notes | known (baseline, suppressed) |", "| ---: | ---: | ---: | ---: |",
           f"| {counts['errors']} | {counts['warnings']} | {counts['notes']} | "
           f"{sum(1 for f in items if summary.known_as(f) is not None)} |", ""]
    hidden = summary.hidden
    if hidden:
        out += [f"Below `--min-severity`, not listed: {', '.join(f'{n} {k}' for k, n in hidden.items())}.", ""]
    listed = [f for f in ranked(items, summary) if Severity(f.severity) is not Severity.NOTE]
    listed += [f for f in items if summary.known_as(f) is not None and Severity(f.severity) is not Severity.NOTE]
    if listed:
        out += ["| severity | rule | location | message | status |", "| --- | --- | --- | --- | --- |"]
    size = sum(len(line) + 1 for line in out)
    for i, f in enumerate(listed):
        path = _path(f, prefix)
        where = f"{path}:{f.line}" if f.line > 0 else (path or "(no file)")
        if link_base and path:
            anchor = f"#L{f.line}" if f.line > 0 else ""
            where = f"[{_cell(where)}]({link_base.rstrip('/')}/{quote(path)}{anchor})"
        else:
            where = _cell(where)
        message = f"{f.subject}: {f.message}" if f.subject else f.message
        row = (f"| {Severity(f.severity).value} | {_cell(f.rule)} | {where} | {_cell(message)[:1000]} | "
               f"{_cell(known_label(f, summary)) or 'new'} |")
        if size + len(row) > SUMMARY_BUDGET:
            out.append(f"\n{len(listed) - i} more rows not shown (the step summary holds 1 MiB); the SARIF log and "
                       f"`specgen check --format json` list every finding.")
            break
        out.append(row)
        size += len(row) + 1
    if counts["notes"]:
        out += ["", f"{plural(counts['notes'], 'note')} counted, not listed (`specgen check --verbose` lists them)."]
    return "\n".join(out) + "\n"
