"""Helpers every formatter shares, so all formats agree on order and counts."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from specgen.diagnostics import Finding, Severity, sorted_unique
from specgen.report.summary import CheckSummary, RuleInfo

TOOL_NAME = "specgen"
# Where each rule is documented: its row of the rules table, anchored by its id (``#asl-syntax``); a finding
# of no registered rule (the reader's and the loader's) links the paragraph about them. One constant: the
# repository's address is set here (tests/test_report_formats.py checks every rule's anchor exists).
RULES_DOC_URL = "https://github.com/specgen-dev/specgen/blob/main/docs-internal/check-rules.md"
UNREGISTERED_ANCHOR = "findings-without-a-rule"


def help_uri(rule: RuleInfo) -> str:
    """The address of ``rule``'s documentation: its own anchor when it is registered (it has a description)."""
    return f"{RULES_DOC_URL}#{rule.id if rule.description else UNREGISTERED_ANCHOR}"

# A Python str decoded with ``surrogateescape`` carries lone surrogates; they
# cannot be encoded as UTF-8, so writing the report would crash.
_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Make ``text`` encodable as UTF-8 (lone surrogates become U+FFFD)."""
    return _SURROGATE.sub("\ufffd", text)


def clean_data(value: object) -> object:
    """``clean_text`` applied to every string (and key) inside JSON-like data."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list | tuple):
        return [clean_data(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_data(v) for k, v in value.items()}
    return value


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Findings should arrive sorted and unique; re-establish it rather than trust it.

    ``Finding.sort_key`` leaves out severity and ``related``, and set order
    varies with hash seeding, so those break ties: equal inputs, equal bytes.
    """
    return sorted(sorted_unique(list(findings)),
                  key=lambda f: (f.sort_key, Severity(f.severity).rank, f.related))


def severity_counts(findings: Sequence[Finding]) -> dict[str, int]:
    """``{"errors": n, "warnings": n, "notes": n}`` in that order."""
    counts = {"errors": 0, "warnings": 0, "notes": 0}
    for finding in findings:
        counts[_PLURAL_KEY[Severity(finding.severity)]] += 1
    return counts


_PLURAL_KEY = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.NOTE: "notes"}


def elapsed(summary: CheckSummary) -> float | None:
    """The run time if it should be printed: absent, negative or non-finite is not."""
    value = summary.elapsed_seconds
    if value is None or not math.isfinite(value) or value < 0:
        return None
    return round(float(value), 3)


def rule_catalogue(summary: CheckSummary, findings: Sequence[Finding]) -> list[RuleInfo]:
    """Every rule that ran, in the order given, then any rule only a finding names.

    A finding from an undeclared rule still needs a rule entry (SARIF's
    ``ruleIndex`` must point somewhere); its default severity is the most
    severe one it was reported with.
    """
    rules: dict[str, RuleInfo] = {}
    for rule in summary.rules:
        rules.setdefault(rule.id, rule)
    extra: dict[str, Severity] = {}
    for finding in findings:
        if finding.rule in rules:
            continue
        severity = Severity(finding.severity)
        known = extra.get(finding.rule)
        if known is None or severity.rank < known.rank:
            extra[finding.rule] = severity
    for rule_id in sorted(extra):
        rules[rule_id] = RuleInfo(rule_id, extra[rule_id], "", "")
    return list(rules.values())


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def known_counts(findings: Sequence[Finding], summary: CheckSummary) -> dict[str, int]:
    """``{"baseline": n, "suppressed": n}``: the findings a baseline or a suppression knows."""
    counts = {"baseline": 0, "suppressed": 0}
    for finding in findings:
        known = summary.known_as(finding)
        if known is not None:
            counts["baseline" if known.kind == "baseline" else "suppressed"] += 1
    return counts


def known_label(finding: Finding, summary: CheckSummary) -> str:
    """``in the baseline`` / ``suppressed: <reason>``, or "" for a new finding."""
    known = summary.known_as(finding)
    if known is None:
        return ""
    return "in the baseline" if known.kind == "baseline" else f"suppressed: {known.reason}"
