"""ndf-hash: the manifest's ``release_selection.expanded_ndf`` digests match the clauses.

Each row is recomputed from the tree: explicit clauses from id, status, source
and body; instruction identities from the whole file's hash. A row for an ID
that no longer exists, or an accepted clause the selection omits, is reported too.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...hashing import clause_digest, identity_digest
from ..base import Rule
from ..facts import recorded_owner, settled


def expected_digests(graph: SpecGraph) -> dict[str, str]:
    """The digest every selectable clause should have (duplicated IDs are left out)."""
    out: dict[str, str] = {}
    for cid, unit in graph.identities.items():
        out[cid] = identity_digest(cid, unit)
    for cid, clauses in graph.clauses.items():
        if len(clauses) == 1 and clauses[0].attrs is not None:
            out[cid] = clause_digest(clauses[0])
    return out


def check(graph: SpecGraph) -> Iterable[Finding]:
    man = graph.spec.manifest
    art = graph.spec.artifacts.get(graph.spec.manifest_path)
    if man is None or art is None:
        return
    want = expected_digests(graph)
    rows = {r.id: r.sha256 for r in man.release_selection.expanded_ndf}
    statuses = set(man.release_selection.included_ndf_statuses)
    for rid, digest in sorted(rows.items()):
        if rid not in want:
            owner = recorded_owner(graph, rid)
            if rid in graph.clauses or (owner is not None and settled(graph, owner)):
                continue  # duplicated (ndf-duplicate-id says so) or its file changed (manifest-hash-mismatch)
            yield Finding(RULE.id, Severity.ERROR, graph.spec.manifest_path, art.line_of(f'"{rid}"'),
                          f"expanded_ndf names {rid}, which is no clause or instruction identity in the tree",
                          subject=rid, col=1)
            continue
        if want[rid] != digest:
            req = graph.requirement(rid)
            path = req.owner.path if req else graph.spec.manifest_path
            if settled(graph, path):
                continue  # the file's own hash mismatch is the cause
            line = req.span.line if req else 0
            yield Finding(RULE.id, Severity.ERROR, path, line,
                          f"clause {rid} digests to {want[rid]}, the manifest records {digest}; the clause "
                          "changed after the release selection: regenerate the manifest", subject=rid, col=1)
    for cid, clauses in sorted(graph.clauses.items()):
        c = clauses[0]
        if len(clauses) == 1 and c.attrs is not None and c.attrs.status in statuses and cid not in rows:
            yield Finding(RULE.id, Severity.ERROR, c.span.path, c.span.line,
                          f"{c.attrs.status} clause {cid} is missing from the manifest's expanded_ndf; "
                          "regenerate the manifest", subject=cid, col=15)


RULE = Rule("ndf-hash", Severity.ERROR, "A release-selection clause digest does not match the tree.",
            "Regenerate the manifest with 'specgen manifest --write'.", check,
            requires=("release_selection",))
