"""Releases specgen has not seen: variants of the corpus built at test time (``tests/variants.py``).

Each gives the derived behaviour or one precise finding, never a failing test or a false error:

* the matrix Blocks of a release whose compositions say "A matrix, B matrix" (no CUBE layouts), whose
  B.FPATR has 7 fields, whose matrix predicates name their operands ``lhs``/``rhs`` and whose ordinary
  matrix operations accept only all-PE bindings still get worked examples, and every generated program
  parses;
* ADR headers of the older Markdown generation that its CI accepted (superseded without a named
  successor, ``Status: proposed``) are read, not errors;
* a readiness evidence view of an unknown shape is one warning naming the keys it lacks and a note per
  rule that could not use it;
* a tree of the layout before 0.58 (0.57.1: ADRs in ``docs/architecture-decisions/``, tests as shards of
  ``Test…`` functions, no records) is one finding per kind, and its test functions run; its instruction
  prose (``docs/instructions/*.md``) is a document page each when hand-written, the unit's page when
  generated.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from specgen.asl.runner import run_tests
from specgen.check import run_checks
from specgen.diagnostics import Severity
from specgen.worked.generator import Generator
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import Page, RenderOptions, render_site
from variants import VARIANTS, build
from treecopy import copy_tree

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("release-variants")]
CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
V583, V580 = CORPORA / "pto-spec-0.58.3", CORPORA / "pto-spec-0.58.0"


def _errors(root: Path) -> list[str]:
    graph = SpecGraph.build(load_spec(root))
    findings, _ = run_checks(graph)
    return [f"{f.rule} {f.path}: {f.message}" for f in findings if f.severity is Severity.ERROR]


def _only_the_closure_file(errors: list[str]) -> None:
    """0.58.3's one true error (its extract lacks the closure file) and nothing else."""
    assert len(errors) == 1 and errors[0].startswith("manifest-missing-file ") \
        and "instruction-contract-closure.json" in errors[0], errors


@pytest.fixture(scope="module")
def matrix_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tree with every matrix change an unseen release had: prose, B.FPATR, operand names, PE masks."""
    root = copy_tree(V583, tmp_path_factory.mktemp("v") / "tree")
    from variants import _hashes, rehash
    before = _hashes(root)
    for name in ("matrix-prose", "fpatr7", "matrix-operands-renamed", "matrix-all-pes"):
        VARIANTS[name](root)
    rehash(root, before)
    return root


MATRIX = ("TMATMUL", "TMATMUL_ACC", "TGEMV", "TGEMV_MX", "TMATMUL_MX_BIAS", "BSTART.TMATMUL.BIAS")


def test_matrix_blocks_from_roles_not_names(matrix_release: Path) -> None:
    """Worked examples for the matrix forms of the changed release: sources, layouts (CUBE from the predicates,
    though the prose names none), the 7-field B.FPATR of its form and the PE mask its predicate requires."""
    _only_the_closure_file(_errors(matrix_release))
    suite = Generator(SpecGraph.build(load_spec(matrix_release))).run(only=frozenset(MATRIX))
    missing = {m: (e.reason.english() if e.reason else "", [a.problem for a in e.attempts][-1:])
               for m, e in suite.entries.items() if not e.examples}
    assert not missing, missing
    tmatmul = suite.entries["TMATMUL"].examples[0]
    lines = [x.text for x in tmatmul.result.lines]
    assert "B.FPATR 0, 0, 0, 0, 0, 0, 0" in lines  # the form's 7 fields, not the prose's 9
    assert any("mask=0b1111" in x for x in lines)  # the PE mask TileOperandsLegal_TMATMUL requires
    assert {t.layout for t in tmatmul.result.inputs} == {"CUBE_M16", "CUBE_N8"}
    for entry in suite.entries.values():  # a program that does not parse is a defect of the generator
        assert not any("does not parse" in a.problem for a in entry.attempts), entry.mnemonic


@pytest.mark.parametrize("root,floor", [(V583, 121), (V580, 106)], ids=["0.58.3", "0.58.0"])
def test_worked_examples_of_both_releases(root: Path, floor: int) -> None:
    """Both releases keep their worked examples (121/124 and 106/109, over the issue's 95 %), and no attempt
    is a program specgen wrote that does not parse (that would be a defect of the generator)."""
    suite = Generator(SpecGraph.build(load_spec(root))).run()
    assert suite.executed >= floor and suite.executed >= 0.95 * suite.total, suite.summary()
    bad = [e.mnemonic for e in suite.entries.values() if any("does not parse" in a.problem for a in e.attempts)]
    assert not bad, bad


def test_markdown_adr_variants_are_read(tmp_path: Path) -> None:
    root = build("adr-markdown-variants", V580, tmp_path / "tree")
    spec = load_spec(root)
    statuses = collections.Counter(a.front.status for a in spec.adrs if a.front is not None)
    assert statuses["proposed"] == 2 and statuses["superseded"] >= 3
    assert all(a.front is not None for a in spec.adrs)
    assert _errors(root) == []


def test_an_evidence_view_of_unknown_shape_is_one_warning(tmp_path: Path) -> None:
    root = build("evidence-renamed-keys", V583, tmp_path / "tree")
    graph = SpecGraph.build(load_spec(root))
    findings, _ = run_checks(graph)
    view = "spec/evidence/release-traceability-readiness.json"
    warnings = [f for f in findings if f.path == view and f.severity is Severity.WARNING]
    assert len(warnings) == 1 and "readiness_subjects: missing key" in warnings[0].message
    notes = sorted(f.related[0] for f in findings if f.rule == "rule-not-run" and f.path == view)
    assert notes == ["evidence-stale", "instruction-missing-artifact"]
    assert all(f.severity is Severity.NOTE for f in findings if f.rule == "rule-not-run")
    _only_the_closure_file([f"{f.rule} {f.path}: {f.message}" for f in findings if f.severity is Severity.ERROR])


@pytest.fixture(scope="module")
def older(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build("older-layout", V580, tmp_path_factory.mktemp("v") / "tree")


def test_an_older_layout_is_one_finding_per_kind(older: Path) -> None:
    spec = load_spec(older)
    assert spec.config.adr_dir == "docs/architecture-decisions" and len(spec.adrs) == 54
    unknown = [f for f in spec.findings if f.rule == "format-generation-unknown"]
    assert sorted(f.severity.value for f in unknown) == ["note", "warning"], [f.message for f in unknown]
    assert not [f for f in spec.findings if f.rule == "header-missing"]
    assert _errors(older) == []


def test_an_older_layouts_test_functions_run(older: Path) -> None:
    spec = load_spec(older)
    report = run_tests(spec, ["arch/"], jobs=1)
    assert report.results and all(r.status == "passed" for r in report.results), \
        [(r.id, r.message) for r in report.results if r.status != "passed"]
    assert all("::Test" in r.id for r in report.results)
    graph = SpecGraph.build(spec)
    shard = next(t for t in spec.tests if t.path.startswith("tests/asl/arch/"))
    assert any(shard in graph.unit_tests(u) for u in spec.units)  # its unit's page lists its functions


def test_an_older_layouts_test_functions_shard_and_merge(older: Path, tmp_path: Path) -> None:
    """A shard file holds several tests: --shard places each function (``path::Test…``), the shards are
    disjoint and cover the selection, and --merge joins their JUnit reports without calling a file's
    second function a test run twice."""
    from specgen.asl.runner import discover, select
    from specgen.asl.sharding import merge
    from specgen.cli import testreport
    from specgen.cli.test import _shard_of
    spec = load_spec(older)
    ids = sorted(c.id for c in select(discover(spec), ["arch/"]))
    assert len(ids) > len({i.split("::")[0] for i in ids})  # some file holds several test functions
    reports = []
    for k in (1, 2):
        keys, info = _shard_of(spec, ["arch/"], k, 2, {})
        report = run_tests(spec, ["arch/"], jobs=1, only=keys)
        assert report.results and len(report.results) == len(keys)
        (tmp_path / f"{k}.xml").write_text(testreport.to_junit(report, shard=info), encoding="utf-8")
        reports.append(testreport.read(tmp_path / f"{k}.xml"))
    merged, infos = merge(reports)
    assert sorted(r.id for r in merged.results) == ids and [i.index for i in infos] == [1, 2]
    assert merged.ok


def _doc_pages(root: Path) -> list[Page]:
    """The document pages of a tree and the site's pages they link (render_site fails on a dangling link)."""
    graph = SpecGraph.build(load_spec(root))
    return render_site(graph, RenderOptions(examples=False), only=lambda p: p.kind.name in ("doc", "doc-index"))


def test_an_older_layouts_generated_instruction_documents_are_their_units(older: Path) -> None:
    """The variant's ``docs/instructions/*.md`` carry ``GENERATED FROM``: no page of their own (each names a
    unit the tree has, whose page replaces it), so no document page and no index."""
    spec = load_spec(older)
    instructions = [d for d in spec.docs if d.path.startswith("docs/instructions/")]
    units = {u.path for u in spec.units}
    assert len(instructions) > 600 and all(d.generated_from in units for d in instructions)
    assert [d.path for d in spec.docs if d.generated_from is None] == []  # its docs/status went with the layout
    assert _doc_pages(older) == []


def test_an_older_layouts_instruction_prose_gets_pages(older: Path, tmp_path: Path) -> None:
    """0.57.1 as published: ``docs/instructions/*.md`` is hand-written (no marker), so each is a document
    page in each language, with the documents index, under the page budget and with no broken link."""
    from variants import _hashes, instruction_prose, rehash
    root = copy_tree(older, tmp_path / "tree")
    before = _hashes(root)
    rehash(instruction_prose(root), before)
    spec = load_spec(root)
    prose = [d for d in spec.docs if d.path.startswith("docs/instructions/")]
    assert len(prose) > 600 and all(d.generated_from is None for d in prose)
    pages = _doc_pages(root)
    counts = collections.Counter((p.kind.name, p.lang) for p in pages)
    assert counts == {("doc", "en"): len(prose), ("doc", "zh"): len(prose), ("doc-index", "en"): 1,
                      ("doc-index", "zh"): 1}, counts
    tadd = next(p for p in pages if p.url == "en/docs/instructions/TADD.md")
    assert tadd.title == "TADD" and "sg-doc-body" in tadd.content
    assert max(len(p.content.encode()) for p in pages) < spec.config.page_budget_bytes
    assert _errors(root) == []


def test_a_removed_form_leaves_no_false_error_and_its_neighbours_pass(tmp_path: Path) -> None:
    """A later release drops a scalar form (XORW, the catalog's last) with its unit, tests and references: the check
    finds nothing beyond 0.58.3's closure file, the generated decoders and shards are derived without it, and the
    tests of its neighbours (XOR, the word ALU model) still pass."""
    root = build("form-removed", V583, tmp_path / "tree")
    assert not (root / "asl/scalar/alu/XORW.asl").exists()
    _only_the_closure_file(_errors(root))
    spec = load_spec(root)
    assert not [t for t in spec.tests if "XORW" in t.path]
    report = run_tests(spec, ["scalar/alu/XOR/", "scalar/alu/ORW/"], jobs=1)
    assert len(report.results) >= 4 and all(r.status == "passed" for r in report.results), \
        [(r.id, r.status, r.message) for r in report.results if r.status != "passed"]


def test_an_older_layouts_main_per_file_tests_run(tmp_path: Path) -> None:
    """Issue 39: 0.57.1's README says each test file has one ``func main()`` returning 0; its headerless files
    are then tests (a note, not the "no convention" warning), run by their paths, on their units' pages."""
    root = build("older-layout-main", V580, tmp_path / "tree")
    spec = load_spec(root)
    assert spec.formats["avs"] == "main-per-file"
    unknown = [f for f in spec.findings if f.rule == "format-generation-unknown"]
    assert sorted(f.severity.value for f in unknown) == ["note", "warning"], [f.message for f in unknown]
    assert not any("no convention" in f.message for f in unknown)
    assert _errors(root) == []
    report = run_tests(spec, ["arch/"], jobs=1)
    assert report.results and all(r.status == "passed" for r in report.results), \
        [(r.path, r.message) for r in report.results if r.status != "passed"]
    graph = SpecGraph.build(spec)
    test = next(t for t in spec.tests if t.path.startswith("tests/asl/arch/"))
    assert any(test in graph.unit_tests(u) for u in spec.units)  # its unit's page lists it
    suite = Generator(graph).run(save=False)
    assert suite.total == 0 and "none" in suite.summary() and "0/0" not in suite.summary()
