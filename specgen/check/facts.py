"""Facts several rules need, derived once per graph and shared.

One cause, one finding: when the manifest rules find a file missing or changed,
the evidence and NDF-digest rules consult these facts and stay silent about the
same file, so a reader sees the cause once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..graph import Derived, SpecGraph


@dataclass
class ManifestFacts:
    missing: set[str] = field(default_factory=set)   # listed but absent
    changed: set[str] = field(default_factory=set)   # listed with a different hash
    unsafe: set[str] = field(default_factory=set)    # never read
    verified: int = 0
    listed: int = 0


def _is_unsafe(graph: SpecGraph, path: str) -> bool:
    fs = graph.spec.fs
    if path.startswith("/") or "\\" in path or ".." in path.split("/") or (len(path) > 1 and path[1] == ":"):
        return True
    return fs is None or fs.safe(path) is None


def _manifest_facts(graph: SpecGraph) -> ManifestFacts:
    """Hash every manifest entry once (the loader's hashes are reused)."""
    facts = ManifestFacts()
    man = graph.spec.manifest
    if man is not None:
        rows = [(r.path, r.sha256) for r in man.canonical_inputs] + [(r.path, r.sha256) for r in man.owned_artifacts]
        facts.listed = len(rows)
        for path, want in rows:
            if _is_unsafe(graph, path):
                facts.unsafe.add(path)
                continue
            got = graph.spec.hash_of(path)
            if got is None:
                facts.missing.add(path)
            elif got != want:
                facts.changed.add(path)
            else:
                facts.verified += 1
    return facts


# a fact of the graph, not of the structure: it hashes files the loader did not read (a manifest may list
# any file), which no input of the workspace holds
manifest_facts = Derived(_manifest_facts)


def settled(graph: SpecGraph, path: str) -> bool:
    """True when a manifest rule already reported this file (missing, changed or unsafe)."""
    f = manifest_facts(graph)
    return path in f.missing or path in f.changed or path in f.unsafe


def recorded_owner(graph: SpecGraph, rid: str) -> str | None:
    """The file the traceability evidence says owns a requirement ID (for IDs the tree lost)."""
    return _RECORDED_OWNERS(graph).get(rid)


def _recorded_owners(graph: SpecGraph) -> dict[str, str]:
    view = graph.spec.traceability_view
    return {r.id: r.owners[0] for r in view.requirements if r.owners} if view is not None else {}


_RECORDED_OWNERS = Derived(_recorded_owners, structural=True)  # the traceability view: structure
