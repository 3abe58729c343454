"""The traceability chain of one unit, computed from the graph.

This is the one place the pages learn "what traces to what". It returns the
same shape as ``specgen.trace.trace_chain(graph, ident)`` is planned to (clause
→ source → tests → evidence → ADRs, each with path and SHA-256), so swapping
it for the lead's function is a one-line change in :func:`unit_chain`.
"""

from __future__ import annotations

from typing import Any

from ..graph import SpecGraph
from ..models.evidence import TraceabilityView
from ..models.located import AslUnit

# Release evidence every instruction page cites, besides the traceability view itself:
# the JSON projections the view's ``derivation`` names, the release-gate readiness
# record and the manifest. Order follows the chain (view first, manifest last).
GATE_EVIDENCE = "spec/evidence/release-gate-readiness.json"


def _evidence_id(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].removesuffix(".json")
    return "PTO-EVIDENCE-" + stem.upper().replace("_", "-")


def recorded_hash(graph: SpecGraph, path: str) -> tuple[str, bool]:
    """(sha256, present): the file's hash, or the one the release recorded for an absent file."""
    spec = graph.spec
    if path in spec.files:
        return spec.files[path], True
    view = spec.traceability_view
    if isinstance(view, TraceabilityView) and path in view.sources:
        return view.sources[path], False
    if spec.manifest is not None:
        for row in spec.manifest.canonical_inputs:
            if row.path == path:
                return row.sha256, False
    return "", False


def evidence_paths(graph: SpecGraph) -> list[str]:
    spec = graph.spec
    out: list[str] = []
    if spec.traceability is not None:
        out.append(spec.traceability.path)
        view = spec.traceability_view
        for key in sorted(view.derivation) if isinstance(view, TraceabilityView) else []:
            val = view.derivation[key]
            if val.endswith(".json") and "{" not in val:
                out.append(val)
    if GATE_EVIDENCE in spec.artifacts:
        out.append(GATE_EVIDENCE)
    if spec.manifest_path and (spec.manifest_path in spec.files or spec.manifest is not None):
        out.append(spec.manifest_path)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]


def clause_digest(graph: SpecGraph, clause_id: str) -> str:
    man = graph.spec.manifest
    if man is None:
        return ""
    for d in man.release_selection.expanded_ndf:
        if d.id == clause_id:
            return d.sha256
    return ""


def unit_chain(graph: SpecGraph, unit: AslUnit) -> dict[str, Any]:
    """clause → source → tests → evidence → ADRs for one unit (all lists sorted by id)."""
    clause_ids = [c.id for c in unit.clauses]
    identity = unit.instruction.clause_id if unit.instruction is not None else None
    clauses = [{"id": c.id, "path": unit.path, "sha256": clause_digest(graph, c.id),
                "start": c.span.lines[0], "end": c.span.lines[1]} for c in unit.clauses]
    tests: dict[str, Any] = {}
    for t in graph.unit_tests(unit):
        if t.header is not None:
            tests[t.header.id] = t
    for rid in clause_ids + ([identity] if identity else []):
        for t in graph.tests_by_requirement.get(rid, []):
            if t.header is not None:
                tests.setdefault(t.header.id, t)
    adr_ids = set(graph.readiness_subjects(unit))
    for rid in clause_ids:
        adr_ids.update(graph.adrs_for_requirement(rid))
    adrs = []
    for aid in sorted(adr_ids):
        a = graph.adr(aid)
        if a is not None and a.front is not None:
            adrs.append({"id": aid, "path": a.path, "sha256": a.sha256, "title": a.front.title,
                         "status": a.front.status})
    evidence = []
    for p in evidence_paths(graph):
        sha, present = recorded_hash(graph, p)
        evidence.append({"id": _evidence_id(p), "path": p, "sha256": sha, "present": present})
    return {
        "id": unit.id,
        "identity": identity,
        "clauses": clauses,
        "source": {"path": unit.path, "sha256": unit.sha256},
        "tests": [{"id": k, "path": v.path, "sha256": v.sha256, "kind": v.header.kind,
                   "source": v.header.source} for k, v in sorted(tests.items())],
        "evidence": evidence,
        "adrs": adrs,
    }
