"""evidence-stale: the release-traceability view agrees with the tree.

The view records the hash of every source and test, every unit's tests and
every requirement. A file that changed or vanished, a test or unit the view
does not know, or a row for something that is gone makes the view stale. All
rows that one file or ID makes stale are one finding about that cause.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import settled


def check(graph: SpecGraph) -> Iterable[Finding]:
    art = graph.spec.traceability
    view = graph.spec.traceability_view
    if art is None or view is None:
        return
    causes: dict[str, list[str]] = defaultdict(list)
    gone: set[str] = set()
    for path, digest in view.sources.items():
        if settled(graph, path):
            continue
        got = graph.spec.hash_of(path)
        if got is None:
            gone.add(path)
            causes[path].append("is recorded but absent")
        elif got != digest:
            causes[path].append(f"is recorded with sha256 {digest[:12]}… but is now {got[:12]}…")
    tree_tests = {t.header.id: t for t in graph.spec.tests if t.header}
    view_tests = {row.id: row for row in view.tests}
    for tid, row in view_tests.items():
        t = tree_tests.get(tid)
        if row.path in gone or settled(graph, row.path):
            continue
        if t is None:
            causes[row.path].append(f"test {tid} is recorded but no test has that ID")
            continue
        h = t.header
        assert h is not None
        if t.path != row.path:
            causes[t.path].append(f"test {tid} is recorded at {row.path}")
        elif t.sha256 != row.sha256 and row.path not in view.sources:
            causes[t.path].append(f"test {tid} is recorded with another sha256")
        if (h.kind, h.source, list(h.requirements)) != (row.kind, row.source, list(row.requirements)):
            causes[t.path].append(f"test {tid}'s kind, source or requirements differ from the record")
    for tid, t in sorted(tree_tests.items()):
        if tid not in view_tests:
            causes[t.path].append(f"test {tid} is not in the view")
    view_units = {row.source: row for row in view.units}
    for u in graph.spec.units:
        row = view_units.get(u.path)
        if row is None:
            causes[u.path].append("unit is not in the view")
            continue
        if row.id != u.id:
            causes[u.path].append(f"unit is recorded as {row.id}, the tree says {u.id}")
        have = sorted(t.header.id for t in graph.tests_by_source.get(u.path, []) if t.header)
        recorded = [x for x in row.tests if not (x in view_tests and view_tests[x].path in gone)]
        if have != recorded and sorted(recorded) != have:
            missing = sorted(set(have) - set(recorded))
            extra = sorted(set(recorded) - set(have))
            causes[u.path].append(f"unit's tests differ (not recorded: {missing[:3]}, recorded but gone: {extra[:3]})")
    for path in view_units:
        if path not in graph.units_by_path and not settled(graph, path) and path not in gone:
            causes[path].append("unit is recorded but absent")
    for row in view.requirements:
        if not graph.known_id(row.id) and not any(settled(graph, o) for o in row.owners):
            causes[row.id].append("requirement is recorded but is no clause or identity of the tree")
    for cause, reasons in sorted(causes.items()):
        line = art.line_of(f'"{cause}"')
        yield Finding(RULE.id, Severity.ERROR, art.path, line,
                      f"{cause} {reasons[0]}" + (f" (and {len(reasons) - 1} more row(s))" if len(reasons) > 1 else "")
                      + "; regenerate the traceability evidence", subject=cause, col=1)


RULE = Rule("evidence-stale", Severity.ERROR, "The traceability evidence disagrees with the tree.",
            "Regenerate the release-traceability evidence from the tree.", check,
            requires=("traceability_view",))
