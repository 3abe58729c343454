"""instruction-untested: every instruction has at least one semantic AVS test.

Semantic kinds are execution, boundary, fault, state-transition, ordering and
atomicity: a decode or static test alone does not show the instruction works.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    for u in graph.iter_instruction_units():
        tests = graph.tests_by_source.get(u.path, [])
        if not any(t.header and t.header.semantic for t in tests):
            ins = u.instruction
            assert ins is not None
            span = u.header_span
            yield Finding(RULE.id, Severity.ERROR, u.path, span.line if span else 1,
                          f"{ins.mnemonic} has {len(tests)} test(s) and none of a semantic kind; add an "
                          "execution, boundary or fault test", subject=ins.id, col=1)


RULE = Rule("instruction-untested", Severity.ERROR, "An instruction has no semantic test.",
            "Add an AVS test of kind execution, boundary, fault, state-transition, ordering or atomicity.", check,
            requires=("semantic_tests",))
