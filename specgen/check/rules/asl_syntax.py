"""asl-syntax (error): a unit of the spec's ASL does not parse.

Reported once, at the offending token. What only follows from it (an instruction of
that unit "not an operation of this spec", its examples, the tests that call it) is
not reported again by the check: see :func:`specgen.asl.static.is_consequence`.
"""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("asl-syntax", Severity.ERROR, "A unit of the spec's ASL does not parse.",
            "Fix the ASL at the reported token; nothing the unit declares exists until it parses.", check)
