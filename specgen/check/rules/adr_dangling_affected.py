"""adr-dangling-affected: what an ADR's front matter names exists.

``affected_ndf`` must name clauses or instruction identities (or requirements the release has
settled), ``affected_units`` unit IDs. It needs ADRs whose generation declares those lists: the
Markdown-header ADRs of 0.58.0 name requirements in prose.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import recorded_owner, settled


def check(graph: SpecGraph) -> Iterable[Finding]:
    for a in graph.adrs:
        f = a.front
        assert f is not None
        for nid in f.affected_ndf or ():
            owner = recorded_owner(graph, nid)
            if nid not in graph.clauses and nid not in graph.identities and not (owner and settled(graph, owner)):
                yield Finding(RULE.id, Severity.ERROR, a.path, 2,
                              f"affected_ndf names {nid}, which is no clause of this tree", subject=f.id, col=1)
        for uid in f.affected_units or ():
            if uid not in graph.units_by_id:
                yield Finding(RULE.id, Severity.ERROR, a.path, 2,
                              f"affected_units names {uid}, which is no unit of this tree", subject=f.id, col=1)


RULE = Rule("adr-dangling-affected", Severity.ERROR, "An ADR's affected_ndf or affected_units names an unknown ID.",
            "Fix the ID, or restore the clause or unit.", check, requires=("adr_affected",))
