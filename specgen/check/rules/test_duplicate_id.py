"""test-duplicate-id: test IDs are unique across the tree."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    for tid, tests in sorted(graph.tests_by_id.items()):
        for t in tests[1:]:
            yield Finding(RULE.id, Severity.ERROR, t.path, t.span.line,
                          f"test ID {tid} is already used by {tests[0].path}; give this test a new ID",
                          subject=tid, col=1, related=(tests[0].path,))


RULE = Rule("test-duplicate-id", Severity.ERROR, "Two tests share an ID.", "Renumber one of them.", check)
