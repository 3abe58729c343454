"""The traceability chain of one instruction, clause or test (what `specgen trace` prints).

clause → source (path, sha256) → tests (path, sha256) → evidence → ADRs
(path, sha256). The same data feeds the traceability section of every page,
so what CI prints and what readers see cannot differ.
"""

from __future__ import annotations

from typing import Any

from .graph import Derived, Requirement, SpecGraph
from .models.located import AslUnit, AvsTest

GATE_EVIDENCE = "spec/evidence/release-gate-readiness.json"


def evidence_id(path: str) -> str:
    """A stable display id for an evidence file (``PTO-EVIDENCE-<STEM>``)."""
    stem = path.rsplit("/", 1)[-1].removesuffix(".json")
    return "PTO-EVIDENCE-" + stem.upper().replace("_", "-")


def recorded_hash(graph: SpecGraph, path: str) -> tuple[str, bool]:
    """(sha256, present): the file's hash, or the one the release recorded for an absent file."""
    spec = graph.spec
    got = spec.hash_of(path)
    if got is not None:
        return got, True
    view = spec.traceability_view
    if view is not None and path in view.sources:
        return view.sources[path], False
    if spec.manifest is not None:
        for row in spec.manifest.canonical_inputs:
            if row.path == path:
                return row.sha256, False
    return "", False


def evidence_paths(graph: SpecGraph) -> list[str]:
    """The release evidence every unit's chain cites.

    The traceability view, the JSON projections its ``derivation`` names (such
    as the instruction-contract closure and the architecture readiness), the
    release-gate readiness record and the manifest: the evidence the reference
    portal lists, derived from the view instead of typed in.
    """
    spec = graph.spec
    out: list[str] = []
    view = spec.traceability_view
    if spec.traceability is not None and view is not None:
        out.append(spec.traceability.path)
        for key in sorted(view.derivation):
            val = view.derivation[key]
            if val.endswith(".json") and "{" not in val:
                out.append(val)
    gate = graph.spec.config.json_root + GATE_EVIDENCE.removeprefix("spec")
    if gate in spec.artifacts:
        out.append(gate)
    if spec.manifest_path and spec.manifest_path in spec.artifacts:
        out.append(spec.manifest_path)
    seen: set[str] = set()
    return [p for p in out if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]


def clause_digest(graph: SpecGraph, clause_id: str) -> str:
    """The digest the release selection records for a clause ('' when none)."""
    return NDF_DIGESTS(graph).get(clause_id, "")


def _ndf_digests(graph: SpecGraph) -> dict[str, str]:
    """Clause ID -> the digest the release selection records (empty without one: a manifest generation may lack it)."""
    man = graph.spec.manifest
    sel = man.release_selection if man is not None else None
    return {} if sel is None else {d.id: d.sha256 for d in sel.expanded_ndf}


NDF_DIGESTS = Derived(_ndf_digests, structural=True)  # the manifest: structure


def resolve(graph: SpecGraph, ident: str) -> tuple[str, AslUnit | Requirement | AvsTest] | None:
    """What an identifier names: ("unit", AslUnit), ("clause", Requirement) or ("test", AvsTest)."""
    if ident in graph.instructions:
        return "unit", graph.instructions[ident]
    upper = ident.upper()
    if upper in graph.instructions:
        return "unit", graph.instructions[upper]
    if ident in graph.units_by_id:
        return "unit", graph.units_by_id[ident][0]
    if ident in graph.units_by_path:
        return "unit", graph.units_by_path[ident]
    if ident in graph.identities or ident in graph.clauses:
        req = graph.requirement(ident)
        assert req is not None
        return "clause", req
    if ident in graph.tests_by_id:
        return "test", graph.tests_by_id[ident][0]
    for t in graph.spec.tests:
        if t.path == ident:
            return "test", t
    return None


def _test_row(t: AvsTest) -> dict[str, Any]:
    h = t.header
    return {"id": h.id if h else t.path, "kind": h.kind if h else "", "path": t.path, "sha256": t.sha256,
            "line": t.span.line, "source": h.source if h else "",
            "requirements": list(h.requirements) if h else []}


def _adr_row(graph: SpecGraph, adr_id: str) -> dict[str, Any]:
    a = graph.adr(adr_id)
    if a is None or a.front is None:
        return {"id": adr_id, "title": "", "status": "missing", "path": None, "sha256": None}
    return {"id": adr_id, "title": a.front.title, "status": a.front.status, "path": a.path, "sha256": a.sha256}


def unit_chain(graph: SpecGraph, unit: AslUnit) -> dict[str, Any]:
    """clause → source → tests → evidence → ADRs of one unit (the data its page's traceability shows)."""
    ins = unit.instruction
    identity = ins.clause_id if ins is not None else None
    clauses = [{"id": c.id, "path": c.span.path, "sha256": clause_digest(graph, c.id),
                "start": c.span.line, "end": c.span.end_line,
                "kind": c.attrs.kind if c.attrs else None, "level": c.attrs.level if c.attrs else None,
                "layer": c.attrs.layer if c.attrs else None, "status": c.attrs.status if c.attrs else None,
                "body": c.text} for c in unit.clauses]
    ids = [c["id"] for c in clauses] + ([identity] if identity else [])
    tests = {t.path: t for t in graph.tests_by_source.get(unit.path, [])}
    for cid in ids:
        for t in graph.tests_by_requirement.get(cid, []):
            tests.setdefault(t.path, t)
    adr_ids = set(graph.readiness_subjects(unit))
    for cid in ids:
        adr_ids.update(graph.adrs_for_requirement(cid))
    evidence = []
    for p in evidence_paths(graph):
        sha, present = recorded_hash(graph, p)
        evidence.append({"id": evidence_id(p), "path": p, "sha256": sha, "present": present})
    return {
        "kind": "instruction" if ins else "unit",
        "id": unit.id,
        "mnemonic": ins.mnemonic if ins else None,
        "identity": identity,
        "identity_sha256": clause_digest(graph, identity) if identity else "",
        "source": {"path": unit.path, "sha256": unit.sha256},
        "clauses": clauses,
        "tests": sorted((_test_row(t) for t in tests.values()), key=lambda r: r["id"]),
        "evidence": evidence,
        "adrs": [_adr_row(graph, a) for a in sorted(adr_ids)],
    }


def trace_chain(graph: SpecGraph, ident: str) -> dict[str, Any] | None:
    """The chain for a mnemonic, unit/instruction id, clause id, test id or path (None: unknown)."""
    found = resolve(graph, ident)
    if found is None:
        return None
    _kind, obj = found
    if isinstance(obj, AslUnit):
        return unit_chain(graph, obj)
    if isinstance(obj, Requirement):
        chain = unit_chain(graph, obj.owner)
        chain["kind"] = "clause"
        chain["clauses"] = [c for c in chain["clauses"] if c["id"] == obj.id]
        if obj.clause is not None:
            chain["identity"] = None
        chain["id"] = obj.id
        chain["tests"] = [_test_row(t) for t in sorted(graph.tests_by_requirement.get(obj.id, []), key=lambda t: t.path)]
        chain["adrs"] = [_adr_row(graph, a) for a in graph.adrs_for_requirement(obj.id)]
        return chain
    t = obj
    source = graph.units_by_path.get(t.header.source) if t.header else None
    chain = unit_chain(graph, source) if source else {"source": None, "identity": None, "clauses": [],
                                                      "evidence": [], "adrs": []}
    wanted = set(t.header.requirements) if t.header else set()
    chain["clauses"] = [c for c in chain["clauses"] if c["id"] in wanted] or chain["clauses"]
    chain.update({"kind": "test", "id": t.header.id if t.header else t.path, "tests": [_test_row(t)]})
    return chain
