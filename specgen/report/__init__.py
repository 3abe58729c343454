"""Report formatters for ``specgen check``: one pure function per output format.

Each ``render(findings, summary) -> str`` depends only on its arguments, so
CI can diff reports between runs; pick one by name with :func:`render_report`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path

from specgen.diagnostics import Finding
from specgen.report.summary import CheckSummary, RuleInfo

# format name -> module whose ``render(findings, summary, **options)`` writes it; imported on
# use, so a check prints its report without loading the XML or SARIF machinery it does not need
FORMATS: dict[str, str] = {
    "text": "specgen.report.text",
    "json": "specgen.report.json",
    "junit": "specgen.report.junit",
    "sarif": "specgen.report.sarif",
    "github": "specgen.report.github",
}
REPORT_SCHEMA_PATH: Path = Path(__file__).resolve().parent / "schemas" / "check-report.schema.json"


def render_report(fmt: str, findings: Sequence[Finding], summary: CheckSummary, **options: object) -> str:
    """Render in format ``fmt``; ``options`` go to the formatter (``color`` for text).

    Raises ``ValueError`` naming the known formats when ``fmt`` is unknown, so
    the CLI can turn it into a usage error instead of a traceback.
    """
    try:
        module = FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}") from None
    return str(importlib.import_module(module).render(findings, summary, **options))


__all__ = ["FORMATS", "REPORT_SCHEMA_PATH", "CheckSummary", "RuleInfo", "render_report"]
