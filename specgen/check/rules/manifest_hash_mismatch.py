"""manifest-hash-mismatch: every listed file's SHA-256 equals the manifest's recorded hash."""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import manifest_facts


def check(graph: SpecGraph) -> Iterable[Finding]:
    man = graph.spec.manifest
    art = graph.spec.artifacts.get(graph.spec.manifest_path)
    if man is None or art is None:
        return
    facts = manifest_facts(graph)
    recorded = {r.path: r.sha256 for r in [*man.canonical_inputs, *man.owned_artifacts]}
    for path in sorted(facts.changed):
        got = graph.spec.hash_of(path)
        yield Finding(RULE.id, Severity.ERROR, path, 0,
                      f"SHA-256 {got} differs from the manifest's {recorded[path]}; the file changed after "
                      "the release was recorded: revert it or regenerate the manifest ('specgen manifest --write')",
                      subject=path, related=(f"{graph.spec.manifest_path}:{art.line_of(path)}",))


RULE = Rule("manifest-hash-mismatch", Severity.ERROR, "A listed file's hash differs from the manifest.",
            "Revert the change or regenerate the manifest with 'specgen manifest --write'.", check,
            requires=("manifest",))
