"""manifest-missing-file: every path the release manifest lists exists in the tree.

A missing input breaks the release's identity. The finding says how many other
records (traceability view rows, instruction contracts) name the same file, so
one absent artifact is one finding however many records point at it.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import manifest_facts


def references(graph: SpecGraph, path: str) -> dict[str, int]:
    """Who else names ``path``: instruction contracts, view sources, other evidence."""
    counts: dict[str, int] = {}
    view = graph.spec.traceability_view
    if view is not None:
        n = sum(1 for u in view.units if u.instruction_contract and u.instruction_contract.artifact == path)
        if n:
            counts["instruction records"] = n
        if path in view.sources:
            counts["traceability sources"] = 1
        if path in view.derivation.values():
            counts["traceability derivation"] = 1
    others = sum(1 for rel, art in graph.spec.artifacts.items()
                 if rel != graph.spec.manifest_path and art.text and f'"{path}"' in art.text
                 and (view is None or graph.spec.traceability is None or rel != graph.spec.traceability.path))
    if others:
        counts["other JSON files"] = others
    return counts


def check(graph: SpecGraph) -> Iterable[Finding]:
    man_path = graph.spec.manifest_path
    facts = manifest_facts(graph)
    for path in sorted(facts.missing):
        line = graph.spec.artifacts[man_path].line_of(f'"path": "{path}"') if man_path in graph.spec.artifacts else 0
        refs = references(graph, path)
        named = "; ".join(f"{n} {what}" for what, n in refs.items())
        yield Finding(RULE.id, Severity.ERROR, man_path, line,
                      f"{path} is listed in the manifest but absent from the tree"
                      + (f" (also named by {named})" if named else "")
                      + "; restore the file or regenerate the manifest",
                      subject=path, col=1)


RULE = Rule("manifest-missing-file", Severity.ERROR, "A file listed in the release manifest is absent.",
            "Restore the file, or remove it from the manifest with 'specgen manifest --write'.", check,
            requires=("manifest",))
