"""adr-bad-status: ADR statuses agree with their relations and with the release selection.

A superseded ADR is named in its successor's ``supersedes`` (and vice versa);
the release selection selects accepted ADRs only and excludes exactly the drafts.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    by_id = {a.front.id: a for a in graph.adrs if a.front}
    for a in graph.adrs:
        f = a.front
        assert f is not None
        # a generation that does not record a relation (None) cannot contradict it
        for succ in f.superseded_by or ():
            other = by_id.get(succ)
            if other and other.front and other.front.supersedes is not None and f.id not in other.front.supersedes:
                yield Finding(RULE.id, Severity.ERROR, a.path, 2,
                              f"{f.id} is superseded_by {succ}, but {succ} does not list {f.id} in supersedes",
                              subject=f.id, col=1)
        for pred in f.supersedes or ():
            other = by_id.get(pred)
            if other and other.front:
                if other.front.superseded_by is not None and f.id not in other.front.superseded_by:
                    yield Finding(RULE.id, Severity.ERROR, a.path, 2,
                                  f"{f.id} supersedes {pred}, but {pred} does not list {f.id} in superseded_by",
                                  subject=f.id, col=1)
                if other.front.status != "superseded" and f.status == "accepted":
                    yield Finding(RULE.id, Severity.ERROR, other.path, 2,
                                  f"{pred} is superseded by accepted {f.id} but its status is {other.front.status!r}",
                                  subject=pred, col=1)
    man = graph.spec.manifest
    art = graph.spec.artifacts.get(graph.spec.manifest_path)
    sel = man.release_selection if man is not None else None
    if sel is None or art is None:  # no release selection in this generation: ndf-hash's rule-not-run says so
        return
    for adr_id in sel.selected_adr_ids:
        a = by_id.get(adr_id)
        if a and a.front and a.front.status != "accepted":
            yield Finding(RULE.id, Severity.ERROR, graph.spec.manifest_path, art.line_of(f'"{adr_id}"'),
                          f"release selection selects {adr_id}, whose status is {a.front.status!r}",
                          subject=adr_id, col=1)
    drafts = {i for i, a in by_id.items() if a.front and a.front.status == "draft"}
    excluded = set(sel.excluded_draft_adrs)
    for adr_id in sorted(drafts ^ excluded):
        why = "is a draft not in" if adr_id in drafts else "is excluded as a draft but is not a draft, in"
        yield Finding(RULE.id, Severity.ERROR, graph.spec.manifest_path, art.line_of('"excluded_draft_adrs"'),
                      f"{adr_id} {why} release_selection.excluded_draft_adrs", subject=adr_id, col=1)


RULE = Rule("adr-bad-status", Severity.ERROR, "An ADR's status contradicts its relations or the release.",
            "Make supersedes/superseded_by reciprocal and statuses consistent.", check)
