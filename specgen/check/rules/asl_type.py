"""asl-type (error): a type mismatch the spec's ASL shows before running (results, declarations, conditions, operands)."""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("asl-type", Severity.ERROR, "The spec's ASL returns or uses a value its declarations do not allow.",
            "Make the value agree with the declared type: the function's result, the local's declaration, a boolean condition.", check)
