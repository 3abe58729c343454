"""The machine-readable report: one JSON document, stable key order, versioned.

``version`` changes only when a consumer would break; the document's shape is
pinned by ``schemas/check-report.schema.json`` (exported by ``specgen schema``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from specgen.diagnostics import Finding, Severity
from specgen.report._common import (TOOL_NAME, clean_data, elapsed, known_counts, ordered, rule_catalogue,
                                    severity_counts)
from specgen.report.summary import CheckSummary

REPORT_FORMAT_VERSION = 1


def report_document(findings: Sequence[Finding], summary: CheckSummary) -> dict[str, object]:
    """The report as plain data, for callers that embed it rather than print it."""
    items = ordered(findings)
    summary_obj: dict[str, object] = {**severity_counts(items), "counts": dict(summary.counts)}
    if summary.known or summary.baseline:
        summary_obj["known"] = known_counts(items, summary)
    seconds = elapsed(summary)
    if seconds is not None:
        summary_obj["elapsed_seconds"] = seconds
    rules = [{"id": r.id, "severity": Severity(r.severity).value, "description": r.description,
              "help": r.help} for r in rule_catalogue(summary, items)]
    document = {
        "version": REPORT_FORMAT_VERSION,
        "tool": {"name": TOOL_NAME, "version": summary.tool_version, "rules": rules},
        "root": summary.root,
        "release": summary.release,
        "summary": summary_obj,
        "findings": [_finding(f, summary) for f in items],
    }
    return clean_data(document)  # type: ignore[return-value]


def _finding(finding: Finding, summary: CheckSummary) -> dict[str, object]:
    """``Finding.to_json`` plus ``"baseline": true`` or ``"suppressed": {kind, reason, where}`` when known."""
    data = finding.to_json()
    known = summary.known_as(finding)
    if known is not None and known.kind == "baseline":
        data["baseline"] = True
    elif known is not None:
        data["suppressed"] = {"kind": known.kind, "reason": known.reason, "where": known.where}
    return data


def render(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """Sorted keys, two-space indent, trailing newline: diffable and byte-stable."""
    text = json.dumps(report_document(findings, summary), sort_keys=True, indent=2,
                      ensure_ascii=False, allow_nan=False)
    return text + "\n"
