"""instruction-dangling-dependency: every ``depends_on`` entry names a unit of the tree.

``generated:decoders`` is the one allowed synthetic node (the upstream decoder).
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    for u in graph.spec.units:
        rec = u.instruction or u.unit
        if rec is None or u.header_span is None:
            continue
        line = u.text.split("\n", 1)[0] if u.header_span.line == 1 else u.text.split("\n")[u.header_span.line - 1]
        for dep in rec.depends_on:
            if dep != "generated:decoders" and dep not in graph.units_by_id:
                yield Finding(RULE.id, Severity.ERROR, u.path, u.header_span.line,
                              f"depends_on names {dep}, which is no unit ID of this tree",
                              subject=rec.id, col=max(line.find(f'"{dep}"') + 1, 1))


RULE = Rule("instruction-dangling-dependency", Severity.ERROR, "A unit depends on an unknown unit.",
            "Name an existing unit ID in depends_on.", check)
