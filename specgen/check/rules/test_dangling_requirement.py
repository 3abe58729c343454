"""test-dangling-requirement: every requirement a test lists names a clause or instruction identity."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    for t in graph.spec.tests:
        if t.header is None:
            continue
        line = t.text.split("\n")[t.span.line - 1] if t.span.line else ""
        for rid in t.header.requirements:
            if rid not in graph.clauses and rid not in graph.identities:
                yield Finding(RULE.id, Severity.ERROR, t.path, t.span.line,
                              f"requirement {rid} names no NDF clause or instruction identity",
                              subject=t.header.id, col=max(line.find(f'"{rid}"') + 1, 1))


RULE = Rule("test-dangling-requirement", Severity.ERROR, "A test cites an unknown requirement ID.",
            "Cite an existing clause ID or PTO-INST-* identity.", check)
