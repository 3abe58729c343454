"""asl-duplicate (error): the spec's ASL declares a type, constant, config or variable twice, or a function
twice with the same parameter types (an ``impdef`` and its ``implementation`` are one pair, not twice)."""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("asl-duplicate", Severity.ERROR, "The spec's ASL declares one name twice.",
            "Remove or rename one: a type, constant, config or variable is declared once, a function once "
            "per parameter types.", check)
