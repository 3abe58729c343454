"""Verify or regenerate the release manifest's hashes (``specgen manifest --check | --write``).

``--write`` keeps every field a release author owns (release, selection
policy, counts, profiles) and regenerates only what is derived from files:
the canonical-input and owned-artifact hashes (every file under a source root
is added), the NDF digests of the release selection, the policy digest, and
``content_sha256``. It writes atomically (:func:`specgen.cache.atomic_write`).
"""

from __future__ import annotations

import json
import stat
from typing import Any

from .cache import atomic_write
from .check import run_checks
from .check.needs import NOT_RUN
from .check.facts import ManifestFacts, manifest_facts
from .check.rules.ndf_hash import expected_digests
from .diagnostics import Finding
from .graph import SpecGraph
from .hashing import canon, content_sha256
from .loader import Spec


def regenerate(graph: SpecGraph) -> dict[str, Any]:
    """The manifest as it should be for this tree (raw JSON object)."""
    spec = graph.spec
    art = spec.artifacts[spec.manifest_path]
    data: dict[str, Any] = json.loads(art.text)
    facts = manifest_facts(graph)
    rows: dict[str, str] = {}
    for row in data.get("canonical_inputs", []):
        p = row.get("path", "")
        if p in facts.unsafe:
            continue
        h = spec.hash_of(p)
        if h is not None:
            rows[p] = h
    for u in spec.units:
        rows[u.path] = u.sha256
    for p in spec.other_files:
        h = spec.hash_of(p)
        if h is not None:
            rows[p] = h
    catalogs = f"{spec.config.json_root}/catalog/"  # inputs of the release too (manifest-unlisted-file)
    for p, artifact in spec.artifacts.items():
        if p.startswith(catalogs) and p not in facts.unsafe:
            rows[p] = artifact.sha256
    data["canonical_inputs"] = [{"path": p, "sha256": rows[p]} for p in sorted(rows)]
    owned = []
    for row in data.get("owned_artifacts", []):
        p = row.get("path", "")
        h = None if p in facts.unsafe else spec.hash_of(p)
        if h is not None:
            owned.append({**row, "sha256": h})
    data["owned_artifacts"] = sorted(owned, key=lambda r: r["path"])
    sel = data.get("release_selection")
    if isinstance(sel, dict):
        statuses = set(sel.get("included_ndf_statuses", ["accepted"]))
        digests = expected_digests(graph)
        keep = {cid for cid in digests if cid in graph.identities}
        for cid, clauses in graph.clauses.items():
            if len(clauses) == 1 and clauses[0].attrs is not None and clauses[0].attrs.status in statuses:
                keep.add(cid)
        sel["expanded_ndf"] = [{"id": cid, "sha256": digests[cid]} for cid in sorted(keep)]
        policy = spec.artifacts.get(spec.config.json_root + "/release-selection.json")
        if policy is not None and isinstance(policy.data, dict):
            sel["policy_sha256"] = canon(policy.data)
    data["content_sha256"] = content_sha256([(r["path"], r["sha256"]) for r in data["canonical_inputs"]])
    return data


def dumps(data: dict[str, Any]) -> str:
    """The manifest's own formatting: indent 2, sorted keys, trailing newline."""
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


class ManifestMissingError(ValueError):
    """The tree has no readable release manifest to verify or regenerate."""


# the rules that judge the manifest itself (``specgen manifest --check``)
MANIFEST_RULES = ("manifest-missing-file", "manifest-hash-mismatch", "manifest-content-hash",
                  "manifest-unlisted-file", "manifest-unsafe-path", "ndf-hash")


def manifest_graph(spec: Spec, *, parsed: bool = True) -> SpecGraph:
    """The graph of a spec that has a manifest; :class:`ManifestMissingError` when it has none.

    ``parsed``: the manifest must also be valid JSON (``--write`` rewrites its
    data); ``--check`` takes an unreadable one and reports why it could not verify it.
    """
    art = spec.artifacts.get(spec.manifest_path)
    if art is None or (parsed and art.data is None):
        raise ManifestMissingError(f"no readable manifest at {spec.manifest_path}; write one first")
    return SpecGraph.build(spec)


def write_manifest(graph: SpecGraph) -> bool:
    """Replace the manifest with :func:`regenerate`'s, atomically, keeping its permission bits.

    False when the file cannot be written.
    """
    target = graph.spec.root / graph.spec.manifest_path
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = None
    return atomic_write(target, dumps(regenerate(graph)).encode("utf-8"), mode=mode)


def verify(graph: SpecGraph) -> tuple[list[Finding], ManifestFacts]:
    """The findings of the manifest rules, and how many entries were listed and verified.

    A manifest that could not be read, or a rule its generation lacks a fact
    for, is one ``rule-not-run`` finding among them.
    """
    findings, _ = run_checks(graph, only=MANIFEST_RULES)
    return [f for f in findings if f.rule in MANIFEST_RULES or f.rule == NOT_RUN], manifest_facts(graph)
