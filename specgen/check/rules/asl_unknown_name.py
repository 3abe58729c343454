"""asl-unknown-name (error): the spec's ASL uses a name nothing binds.

A lower-case name that no parameter, local or definition binds, or a capitalised name
nothing defines that is one edit away from one that is defined (the message names it).
"""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("asl-unknown-name", Severity.ERROR, "The spec's ASL uses a name that nothing defines.",
            "Correct the spelling or declare the name.", check)
