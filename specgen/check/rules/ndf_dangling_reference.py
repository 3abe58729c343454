"""ndf-dangling-reference: every ``[[PTO-…]]`` in a clause body names a clause, identity or state."""

from __future__ import annotations

import re
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule

REF = re.compile(r"\[\[(PTO-[A-Z0-9-]+)\]\]")


def check(graph: SpecGraph) -> Iterable[Finding]:
    for clauses in graph.clauses.values():
        for c in clauses:
            for i, line in enumerate(c.body):
                for m in REF.finditer(line):
                    ref = m.group(1)
                    if not (ref in graph.clauses or ref in graph.identities or ref in graph.states):
                        yield Finding(RULE.id, Severity.ERROR, c.span.path, c.span.line + 1 + i + 1,
                                      f"[[{ref}]] names no clause, instruction identity or state",
                                      subject=c.id, col=m.start() + 4)


RULE = Rule("ndf-dangling-reference", Severity.ERROR, "A clause body cites an unknown ID.",
            "Fix the ID, or define the clause it should cite.", check)
