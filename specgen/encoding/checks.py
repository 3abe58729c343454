"""All encoding checks in one call, in a stable order."""

from __future__ import annotations

from specgen.diagnostics import Finding, sorted_unique

from .model import EncodingSet
from .rules import ALL

RULE_IDS = tuple(r.RULE for r in ALL)


def check_encodings(es: EncodingSet) -> list[Finding]:
    """Findings of every encoding rule plus the records the builder could not read."""
    found: list[Finding] = list(es.build_findings)
    for rule in ALL:
        found.extend(rule.check(es))
    return sorted_unique(found)
