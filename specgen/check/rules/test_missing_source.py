"""test-missing-source: a test's ``source`` and ``related_sources`` name ASL units that exist."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    for t in graph.spec.tests:
        h = t.header
        if h is None:
            continue
        for key, paths in (("source", [h.source]), ("related_sources", h.related_sources)):
            for p in paths:
                if p not in graph.units_by_path:
                    col = t.span.col + t.text.split("\n")[t.span.line - 1].find(f'"{p}"') - len("// PTO-TEST: ") \
                        if t.span.line else 0
                    yield Finding(RULE.id, Severity.ERROR, t.path, t.span.line,
                                  f"{key} {p} is not an ASL unit of this tree; fix the path or restore the unit",
                                  subject=h.id, col=max(col, 1))


RULE = Rule("test-missing-source", Severity.ERROR, "A test names a source unit that does not exist.",
            "Point 'source' at the unit the test exercises.", check)
