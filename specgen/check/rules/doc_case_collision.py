"""doc-case-collision: no two documents have paths that differ only in letter case.

Each prose document becomes a page named after its path (``docs/Guide.md`` ->
``en/docs/Guide.html``). On a case-insensitive file system (macOS and Windows by default) two such
pages are one file, so the one written last replaces the other, and a checkout there holds only one
of the two sources. A warning, not an error: on Linux both pages exist; a published site copied to
one of those systems loses one. One finding per group, at every member after the first (in path
order), naming the others.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def collisions(paths: Iterable[str]) -> list[list[str]]:
    """The groups (sorted, two or more) of ``paths`` equal when case is ignored (``str.casefold``)."""
    groups: dict[str, list[str]] = {}
    for p in sorted(set(paths)):
        groups.setdefault(p.casefold(), []).append(p)
    return [g for g in groups.values() if len(g) > 1]


def check(graph: SpecGraph) -> Iterable[Finding]:
    for group in collisions(d.path for d in graph.spec.docs):
        first, *rest = group
        for path in rest:
            others = [p for p in group if p != path]
            yield Finding(RULE.id, Severity.WARNING, path, 1,
                          f"{path} and {', '.join(others)} differ only in letter case: their pages overwrite each "
                          "other on a case-insensitive file system (macOS, Windows), and a checkout there keeps "
                          "one of the files; rename one",
                          subject=first, col=1, related=tuple(others))


RULE = Rule("doc-case-collision", Severity.WARNING, "Two documents' paths differ only in letter case.",
            "Rename one: on macOS and Windows their pages (and files) are one.", check)
