"""``specgen trace``: the chain one page shows, for an instruction, a clause and a test."""

from __future__ import annotations

import json
from pathlib import Path

from specgen.cli import main
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.chain import unit_chain as page_chain
from specgen.trace import trace_chain


def test_tmul_chain_matches_the_reference_entries(corpus_root: Path, capsys) -> None:
    assert main(["trace", "TMUL", "--root", str(corpus_root), "--format", "json"]) == 0
    chain = json.loads(capsys.readouterr().out)
    assert chain["source"]["sha256"] == "add330416d6c9b3308d6a5ebc508a1bee9a509307af5b693fef9f3f32ae21ebd"
    assert chain["identity"] == "PTO-INST-TILE-TMUL"
    assert [c["id"] for c in chain["clauses"]] == ["PTO-TMUL-CONTRACT-001"]
    assert (chain["clauses"][0]["start"], chain["clauses"][0]["end"]) == (3, 10)
    assert [t["id"] for t in chain["tests"]] == ["PTO-AVS-TILE-TMUL-ALIAS-001", "PTO-AVS-TILE-TMUL-PADDING-001",
                                                 "PTO-AVS-TILE-TMUL-STATIC-001", "PTO-AVS-TILE-TMUL-TYPES-001"]
    assert chain["tests"][0]["sha256"] == "c2495d1ed54406d43ca9162fa6461faf78ecbeff44bb316f121b066d67cc477f"
    assert [a["id"] for a in chain["adrs"]] == ["ADR-0035", "ADR-0052", "ADR-0057", "ADR-0059", "ADR-0080"]
    assert chain["adrs"][0]["title"] == "VEC/SFU carrier totality and profile boundary"
    ev = {e["path"]: e for e in chain["evidence"]}
    assert len(ev) == 5
    closure = ev["spec/evidence/instruction-contract-closure.json"]
    assert closure["present"] is False and closure["sha256"].startswith("f51c7d74")
    # 14 entries, as the reference page lists: 4 tests + 5 evidence + 5 ADRs
    assert len(chain["tests"]) + len(chain["evidence"]) + len(chain["adrs"]) == 14


def test_page_and_trace_share_one_chain(bundled_root: Path) -> None:
    graph = SpecGraph.build(load_spec(bundled_root))
    unit = graph.instructions["TMUL"]
    assert page_chain(graph, unit) == trace_chain(graph, "TMUL")


def test_clause_and_test_chains_and_unknown_id(bundled_root: Path, capsys) -> None:
    graph = SpecGraph.build(load_spec(bundled_root))
    clause = trace_chain(graph, "PTO-TMUL-CONTRACT-001")
    assert clause is not None and clause["kind"] == "clause"
    assert [c["id"] for c in clause["clauses"]] == ["PTO-TMUL-CONTRACT-001"]
    test = trace_chain(graph, "PTO-AVS-TILE-TMUL-TYPES-001")
    assert test is not None and [t["id"] for t in test["tests"]] == ["PTO-AVS-TILE-TMUL-TYPES-001"]
    assert main(["trace", "NOPE", "--root", str(bundled_root)]) == 1
    capsys.readouterr()
    assert main(["trace", "TMUL", "--root", str(bundled_root)]) == 0
    chain = trace_chain(graph, "TMUL")
    assert chain is not None
    summary = capsys.readouterr().out.strip().split("\n")[-1]
    assert summary == (f"{len(chain['clauses']) + 1} clause(s), {len(chain['tests'])} test(s), "
                       f"{len(chain['evidence'])} evidence file(s), {len(chain['adrs'])} ADR(s)")
