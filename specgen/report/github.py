"""GitHub Actions workflow commands, which the runner turns into annotations.

Every value is escaped as GitHub's toolkit does (``%``, CR, LF, and in
properties also ``:`` and ``,``), so a message can neither break its own line
nor smuggle in a second workflow command.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.diagnostics import Finding, Severity
from specgen.report._common import TOOL_NAME, clean_text, ordered
from specgen.report.summary import CheckSummary
from specgen.report.text import summary_line

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
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


def render(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """One command per finding, then a ``::notice::`` with the summary line. Paths are relative to the
    repository root when the summary knows where the spec root lies in it (``--repo-root``, default the
    git top level), else to the spec root."""
    items = ordered(findings)
    prefix = summary.spec_in_repo if summary.repo_root is not None and summary.spec_in_repo else ""
    lines = [command(f, prefix) for f in items]
    lines.append(f"::notice::{escape_data(f'{TOOL_NAME} check: ' + summary_line(items, summary))}")
    return "\n".join(lines) + "\n"
