"""Report formatters for ``specgen check``: one pure function per output format.

Each ``render(findings, summary) -> str`` depends only on its arguments, so
CI can diff reports between runs; pick one by name with :func:`render_report`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from specgen.diagnostics import Finding
from specgen.report import github, junit, sarif, text
from specgen.report import json as json_format
from specgen.report.json import REPORT_SCHEMA_PATH
from specgen.report.summary import CheckSummary, RuleInfo

FORMATS: dict[str, Callable[..., str]] = {
    "text": text.render,
    "json": json_format.render,
    "junit": junit.render,
    "sarif": sarif.render,
    "github": github.render,
}


def render_report(fmt: str, findings: Sequence[Finding], summary: CheckSummary, **options: object) -> str:
    """Render in format ``fmt``; ``options`` go to the formatter (``color`` for text).

    Raises ``ValueError`` naming the known formats when ``fmt`` is unknown, so
    the CLI can turn it into a usage error instead of a traceback.
    """
    try:
        formatter = FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown report format {fmt!r}; choose one of: {', '.join(FORMATS)}") from None
    return formatter(findings, summary, **options)


__all__ = ["FORMATS", "REPORT_SCHEMA_PATH", "CheckSummary", "RuleInfo", "render_report"]
