"""asl-arity (error): a call in the spec's ASL passes a number of arguments no declaration takes."""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("asl-arity", Severity.ERROR, "A call in the spec's ASL has the wrong number of arguments.",
            "Pass the arguments the function declares, or declare the overload.", check)
