"""The spec contract: what specgen expects a tree to define, checked on load, and what a tree that lacks it gets.

Variants of 0.58.3 are built at test time in a scratch folder (``tests/variants.py``): a global the
generated BRU set-commit checks read renamed, conditional-branch forms added to the catalog with and
without their ASL. Each gives the derived behaviour or one precise finding; a test that needs what
the tree lacks is ``not-derivable`` with that reason, never failed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specgen import speccontract as contract
from specgen.asl.contract_check import KEYWORDS, declarations, references
from specgen.asl.headers import scan_sources
from specgen.asl.runner import run_tests
from specgen.asl.stdlib import BUILTINS
from specgen.catalog_asl.sources import _ROW_REQUIREMENTS, _SWEEPS, generated_sources
from specgen.check import run_checks
from specgen.cli import testreport
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from variants import build

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("contract-variants")]
REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO.parent / "shared" / "corpus"


def _contract_findings(root: Path) -> list:
    graph = SpecGraph.build(load_spec(root))
    findings, _ = run_checks(graph, only=["spec-contract"])
    return [f for f in findings if f.rule == "spec-contract"]


@pytest.mark.parametrize("root", [REPO / "spec", CORPORA / "pto-spec-0.58.3", CORPORA / "pto-spec-0.58.0"],
                         ids=["bundled", "0.58.3", "0.58.0"])
def test_the_published_trees_define_what_they_need(root: Path) -> None:
    """No finding on the bundled spec and both releases: 0.58.0 lacks ``_BundleConditionSet`` and the jump
    targets, but none of its tests calls a shard that needs them."""
    assert _contract_findings(root) == []


@pytest.mark.parametrize("root", [CORPORA / "pto-spec-0.58.3", CORPORA / "pto-spec-0.58.0"], ids=["0.58.3", "0.58.0"])
def test_shard_generators_declare_every_tree_name_their_text_uses(root: Path) -> None:
    """What a shard generator declares with ``requires(form)`` (the check reads only that) covers every tree
    name its generated text refers to, for every row: the load-time check and the run agree."""
    spec = load_spec(root)
    sources = generated_sources(spec)
    generated = {n for h in scan_sources(sources) for n in (h.name, *h.members)}
    forms = {re.sub(r"[^A-Za-z0-9_]", "_", f["mnemonic"]): f
             for f in spec.artifacts[f"{spec.config.json_root}/catalog/scalar-forms.json"].data["forms"]}
    checked = 0
    for text, _path in sources:
        for name, body in declarations(text):
            if not name.startswith("Validate"):
                continue
            used = references(body) - generated - set(BUILTINS) - KEYWORDS
            head, _, ident = name.partition("_")
            if ident in forms:
                declared = {e.name for requires in _ROW_REQUIREMENTS for e in requires(forms[ident])}
            else:
                declared = next(({e.name for e in uses} for prefix, uses in _SWEEPS if name.startswith(prefix)), set())
            assert used <= declared, f"{name} uses {sorted(used - declared)} that its generator does not declare"
            checked += 1
    assert checked > 400


def test_program_entries_are_what_the_executor_checks() -> None:
    """The executor refuses a tree by the contract's list, and every entry says what it is for."""
    names = [e.name for e in contract.PROGRAMS]
    assert "ExecuteCommandInstruction" in names and "ResetProfileState" in names
    for e in (*contract.PROGRAMS, *contract.SCALAR_PROGRAMS, *contract.CAPABILITIES):
        assert e.purpose and e.kind in ("function", "global", "type", "value", "constant")
    assert contract.purpose_of("InstructionContractOperandsLegal_TMUL")[0] == "function"


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build("condition-global-renamed", CORPORA / "pto-spec-0.58.3", tmp_path_factory.mktemp("v") / "tree")


def test_a_renamed_global_is_one_finding_and_its_tests_are_not_derivable(renamed: Path, tmp_path: Path) -> None:
    found = _contract_findings(renamed)
    assert len(found) == 1 and found[0].subject == "_BundleConditionSet", [f.message for f in found]
    assert "SETC.EQ" in found[0].message and "53 AVS test(s)" in found[0].message
    report = run_tests(load_spec(renamed), ["scalar/bru/SETC.EQ/", "scalar/bru/CMP.EQ/"], jobs=1)
    by = {r.path.split("/")[4]: [] for r in report.results}
    for r in report.results:
        by[r.path.split("/")[4]].append(r.status)
    # the two SETC.EQ tests that call its validation shards; its decoder test passes, as every CMP.EQ test
    assert sorted(by["SETC.EQ"]) == ["not-derivable", "not-derivable", "passed"] and set(by["CMP.EQ"]) == {"passed"}, by
    nd = next(r for r in report.results if r.status == "not-derivable")
    assert "_BundleConditionSet" in nd.message and "SETC.EQ" in nd.message
    assert report.ok  # not derivable is no failure
    # the one JUnit writer: a <skipped> with the reason, counted, and read back as not derivable (--merge)
    xml = testreport.to_junit(report)
    assert 'skipped="2"' in xml and "<skipped " in xml and "_BundleConditionSet" in xml, xml
    (tmp_path / "r.xml").write_text(xml, encoding="utf-8")
    back = testreport.read(tmp_path / "r.xml")
    assert sorted(r.status for r in back.results) == sorted(r.status for r in report.results)


@pytest.fixture(scope="module")
def branches(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("v")
    return (build("branch-form-added", CORPORA / "pto-spec-0.58.3", base / "added"),
            build("branch-form-implemented", CORPORA / "pto-spec-0.58.3", base / "implemented"))


def test_branch_forms_the_catalog_declares_get_their_validation(branches: tuple[Path, Path]) -> None:
    """With the branches' ASL, the derived validation runs and passes; it is a real check: the same ASL with
    the condition inverted fails it."""
    _added, implemented = branches
    assert _contract_findings(implemented) == []
    report = run_tests(load_spec(implemented), ["scalar/model/dispatch/bru/scalar-exec-bru-b-"], jobs=1)
    assert [r.status for r in report.results] == ["passed"] * 4, [(r.path, r.message) for r in report.results]
    unit = implemented / "asl/scalar/model/dispatch/bru.asl"
    text = unit.read_text(encoding="utf-8")
    unit.write_text(text.replace("then left == right else left != right", "then left != right else left == right"),
                    encoding="utf-8")
    try:
        broken = run_tests(load_spec(implemented), ["scalar/model/dispatch/bru/scalar-exec-bru-b-eq"], jobs=1)
    finally:
        unit.write_text(text, encoding="utf-8")
    assert {r.status for r in broken.results} == {"failed"}


def test_branch_forms_without_asl_are_one_finding_each_and_not_derivable(branches: tuple[Path, Path]) -> None:
    added, _implemented = branches
    found = _contract_findings(added)
    assert sorted(f.subject for f in found) == ["InstructionContractTarget_B_EQ", "InstructionContractTarget_B_NE"]
    report = run_tests(load_spec(added), ["scalar/model/dispatch/bru/scalar-exec-bru-b-"], jobs=1)
    assert [r.status for r in report.results] == ["not-derivable"] * 4
    assert all("B.EQ" in r.message or "B.NE" in r.message for r in report.results)


def test_bru_forms_are_classified_by_their_record_not_their_handler() -> None:
    """0.58.0's catalog: B.EQ (no destination, an offset the condition does not need) is a branch; B.NZ names
    no operand of its condition (its ASL reads a branch predicate): nothing is derived for it; CMP.EQ is a
    compare, SETC.EQ a set-commit, J a jump. HL.ADDTPC's immediate is signed because its unit says so
    (``InstructionContractImmediateIsSigned_HL_ADDTPC``), though its record's assembly and summary do not."""
    from specgen.catalog_asl import bru_jumps as gen_bru_jumps, bru_shards as gen_bru_shards
    forms = {f["mnemonic"]: f for f in load_spec(CORPORA / "pto-spec-0.58.0").artifacts[
        "spec/catalog/scalar-forms.json"].data["forms"]}
    assert gen_bru_shards._BRU(forms["B.EQ"]).effect == "branch"
    assert sorted(gen_bru_shards.bru_shards(forms["B.EQ"])) == [
        "ValidateScalarBRUAlias_B_EQ", "ValidateScalarBRUBounds_B_EQ", "ValidateScalarBRUExecute_B_EQ"]
    assert gen_bru_shards.bru_shards(forms["B.NZ"]) == {} and gen_bru_shards.requires(forms["B.NZ"]) == ()
    assert gen_bru_shards._BRU(forms["CMP.EQ"]).effect == "compare"
    assert gen_bru_shards._BRU(forms["SETC.EQ"]).effect == "set-commit"
    assert gen_bru_jumps.handles(forms["J"]) and not gen_bru_jumps.handles(forms["B.EQ"])
    hl = forms["HL.ADDTPC"]
    assert gen_bru_shards.immediate_signed(hl, "imm32", {}) is False  # the record alone does not say
    assert gen_bru_shards.immediate_signed(hl, "imm32", {"InstructionContractImmediateIsSigned_HL_ADDTPC": True})
