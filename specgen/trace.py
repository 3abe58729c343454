"""``specgen trace``: the whole chain for one instruction, clause or test.

clause → source (path, sha256) → tests (path, sha256) → evidence → ADRs
(path, sha256). The same data feeds the traceability section of every page,
so what CI prints and what readers see cannot differ.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any, TextIO

from .graph import SpecGraph
from .models.located import AslUnit, AvsTest

PTO_ID = re.compile(r"PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def _evidence_index(graph: SpecGraph) -> dict[str, set[str]]:
    """Evidence file -> every PTO ID and asl path it mentions (one regex pass per file, memoised)."""
    idx = graph.memo.get("evidence_index")
    if isinstance(idx, dict):
        return idx
    idx = {}
    prefix = graph.spec.config.json_root + "/"
    for rel, art in sorted(graph.spec.artifacts.items()):
        if rel.startswith(prefix + "catalog/") or rel.startswith(prefix + "schemas/") or not art.text:
            continue
        found = set(PTO_ID.findall(art.text))
        found.update(re.findall(r'"(asl/[^"]+\.asl)"', art.text))
        idx[rel] = found
    graph.memo["evidence_index"] = idx
    return idx


def _recorded(graph: SpecGraph) -> dict[str, str]:
    man = graph.spec.manifest
    if man is None:
        return {}
    return {r.path: r.sha256 for r in [*man.canonical_inputs, *man.owned_artifacts]}


def resolve(graph: SpecGraph, ident: str) -> tuple[str, Any] | None:
    """What an identifier names: ("unit", AslUnit), ("clause", (id, unit)) or ("test", AvsTest)."""
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
    return {"id": h.id if h else "", "kind": h.kind if h else "", "path": t.path, "sha256": t.sha256,
            "line": t.span.line, "requirements": list(h.requirements) if h else []}


def _adr_row(graph: SpecGraph, adr_id: str) -> dict[str, Any]:
    a = graph.adr(adr_id)
    if a is None or a.front is None:
        return {"id": adr_id, "title": "", "status": "missing", "path": None, "sha256": None}
    return {"id": adr_id, "title": a.title or a.front.title, "status": a.front.status, "path": a.path,
            "sha256": a.sha256}


def unit_chain(graph: SpecGraph, unit: AslUnit) -> dict[str, Any]:
    """The full chain of one unit; for instructions it starts at the identity clause."""
    recorded = _recorded(graph)
    ins = unit.instruction
    clauses: list[dict[str, Any]] = []
    if ins is not None:
        clauses.append({"id": ins.clause_id, "implicit": True, "kind": "executable", "status": "accepted",
                        "path": unit.path, "lines": [1, unit.text.count("\n") or 1], "body": ins.summary})
    for c in unit.clauses:
        clauses.append({"id": c.id, "implicit": False, "kind": c.attrs.kind if c.attrs else None,
                        "level": c.attrs.level if c.attrs else None, "layer": c.attrs.layer if c.attrs else None,
                        "status": c.attrs.status if c.attrs else None, "path": c.span.path,
                        "lines": [c.span.line, c.span.end_line], "body": c.text})
    ids = {c["id"] for c in clauses} | {unit.id or ""}
    tests = {t.path: t for t in graph.tests_by_source.get(unit.path, [])}
    for cid in ids:
        for t in graph.tests_by_requirement.get(cid, []):
            tests.setdefault(t.path, t)
    test_rows = sorted((_test_row(t) for t in tests.values()), key=lambda r: r["id"])
    evidence = []
    for rel, mentioned in _evidence_index(graph).items():
        if ids & mentioned or unit.path in mentioned:
            evidence.append({"path": rel, "sha256": graph.spec.hash_of(rel), "recorded_sha256": recorded.get(rel)})
    view = graph.spec.traceability_view
    if view is not None:
        row = next((r for r in view.units if r.source == unit.path), None)
        art = row.instruction_contract.artifact if row and row.instruction_contract else None
        if art and all(e["path"] != art for e in evidence):
            evidence.append({"path": art, "sha256": graph.spec.hash_of(art), "recorded_sha256": recorded.get(art)})
    man = graph.spec.manifest_path
    if man in graph.spec.artifacts and all(e["path"] != man for e in evidence):
        evidence.append({"path": man, "sha256": graph.spec.hash_of(man), "recorded_sha256": None})
    evidence.sort(key=lambda e: e["path"])
    adr_ids = set(graph.readiness_subjects(unit))
    for cid in ids:
        adr_ids.update(graph.adrs_for_requirement(cid))
    return {
        "kind": "instruction" if ins else "unit",
        "id": unit.id,
        "mnemonic": ins.mnemonic if ins else None,
        "source": {"path": unit.path, "sha256": unit.sha256, "recorded_sha256": recorded.get(unit.path)},
        "clauses": clauses,
        "tests": test_rows,
        "evidence": evidence,
        "adrs": [_adr_row(graph, a) for a in sorted(adr_ids)],
    }


def trace_chain(graph: SpecGraph, ident: str) -> dict[str, Any] | None:
    """The chain for a mnemonic, unit/instruction id, clause id, test id or path (None: unknown)."""
    found = resolve(graph, ident)
    if found is None:
        return None
    kind, obj = found
    if kind == "unit":
        return unit_chain(graph, obj)
    if kind == "clause":
        chain = unit_chain(graph, obj.owner)
        chain["kind"] = "clause"
        chain["clauses"] = [c for c in chain["clauses"] if c["id"] == obj.id]
        chain["id"] = obj.id
        chain["tests"] = [_test_row(t) for t in sorted(graph.tests_by_requirement.get(obj.id, []), key=lambda t: t.path)]
        chain["adrs"] = [_adr_row(graph, a) for a in graph.adrs_for_requirement(obj.id)]
        return chain
    t: AvsTest = obj
    source = graph.units_by_path.get(t.header.source) if t.header else None
    chain = unit_chain(graph, source) if source else {"source": None, "clauses": [], "evidence": [], "adrs": []}
    wanted = set(t.header.requirements) if t.header else set()
    chain["clauses"] = [c for c in chain["clauses"] if c["id"] in wanted] or chain["clauses"]
    chain.update({"kind": "test", "id": t.header.id if t.header else t.path, "tests": [_test_row(t)]})
    return chain


def format_text(chain: dict[str, Any]) -> str:
    lines = [f"{chain['kind']} {chain['id']}" + (f" ({chain['mnemonic']})" if chain.get("mnemonic") else "")]
    src = chain.get("source")
    if src:
        lines.append(f"  source   {src['path']}  sha256 {src['sha256']}")
    for c in chain["clauses"]:
        tag = "identity" if c.get("implicit") else f"{c.get('kind')} {c.get('status')}"
        lines.append(f"  clause   {c['id']}  [{tag}]  {c['path']}:{c['lines'][0]}-{c['lines'][1]}")
    for t in chain["tests"]:
        lines.append(f"  test     {t['id']}  [{t['kind']}]  {t['path']}  sha256 {t['sha256']}")
    for e in chain["evidence"]:
        lines.append(f"  evidence {e['path']}  sha256 {e['sha256'] or 'MISSING'}")
    for a in chain["adrs"]:
        lines.append(f"  adr      {a['id']}  [{a['status']}]  {a['title']}  {a['path']}  sha256 {a['sha256']}")
    lines.append(f"{len(chain['clauses'])} clause(s), {len(chain['tests'])} test(s), "
                 f"{len(chain['evidence'])} evidence file(s), {len(chain['adrs'])} ADR(s)")
    return "\n".join(lines) + "\n"


def cmd_trace(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .cli import _load
    graph = SpecGraph.build(_load(args))
    chain = trace_chain(graph, args.id)
    if chain is None:
        print(f"specgen trace: {args.id!r} names no instruction, unit, clause or test of {args.root}", file=err)
        return 1
    if args.format == "json":
        out.write(json.dumps(chain, indent=2, sort_keys=True) + "\n")
    else:
        out.write(format_text(chain))
    return 0
