"""manifest-unsafe-path: manifest paths stay inside the root (no absolute, ``..`` or escaping link).

Such a path is never read: a release manifest must not make the tool read (or
vouch for) files outside the tree it describes.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import manifest_facts


def check(graph: SpecGraph) -> Iterable[Finding]:
    art = graph.spec.artifacts.get(graph.spec.manifest_path)
    for path in sorted(manifest_facts(graph).unsafe):
        line = art.line_of(f'"{path}"') if art else 0
        yield Finding(RULE.id, Severity.ERROR, graph.spec.manifest_path, line,
                      f"path {path!r} is absolute, contains '..' or resolves outside the spec root; "
                      "it was not read: list root-relative paths only", subject=path, col=1)


RULE = Rule("manifest-unsafe-path", Severity.ERROR, "A manifest path leaves the spec root.",
            "Use root-relative POSIX paths without '..'; links must stay inside the root.", check,
            requires=("manifest",))
