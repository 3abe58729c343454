"""ndf-duplicate-id: a clause ID names exactly one clause in the whole tree.

IDs are the anchors tests, ADRs and the manifest cite; two clauses with one ID
make every citation ambiguous. Clause IDs must also not collide with an
instruction identity or a unit ID.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...hashing import clause_digest
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    man = graph.spec.manifest
    sel = man.release_selection if man else None  # a generation without a release selection records none
    recorded = {r.id: r.sha256 for r in sel.expanded_ndf} if sel else {}
    for cid, clauses in sorted(graph.clauses.items()):
        if len(clauses) > 1:
            # the clause the release recorded keeps the ID; the others are the duplicates
            first = next((c for c in clauses if c.attrs and clause_digest(c) == recorded.get(cid)), clauses[0])
            for c in clauses:
                if c is first:
                    continue
                yield Finding(RULE.id, Severity.ERROR, c.span.path, c.span.line,
                              f"clause ID {cid} is already defined at {first.span.path}:{first.span.line}; "
                              "give this clause a new ID", subject=cid, col=15,
                              related=(f"{first.span.path}:{first.span.line}",))
        if cid in graph.identities or cid in graph.units_by_id:
            c = clauses[0]
            yield Finding(RULE.id, Severity.ERROR, c.span.path, c.span.line,
                          f"clause ID {cid} collides with an instruction identity or unit ID", subject=cid, col=15)


RULE = Rule("ndf-duplicate-id", Severity.ERROR, "Two NDF clauses share an ID.",
            "Rename one clause; IDs are global across the tree.", check)
