"""Format generations: each release's formats are read with their own closed models.

Cheap synthetic trees (copies of the bundled spec) show the mechanics: a tree of
an older generation loads clean, a stray record of another generation is one
finding, a generation specgen does not know is ONE finding, never one per record.
The corpus tests pin the two real releases.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.loader import load_spec
from specgen.loader.adrs import scan_adr
from specgen.loader.conventions import parse_test_naming
from specgen.models.generations import GENERATIONS, KINDS, UNKNOWN
from specgen.models.instruction import InstructionHeader, PreContractInstruction, instruction_model
from specgen.models.manifest import ReleaseManifest, UnselectedReleaseManifest

# as tests/conftest.py: a bare ``from conftest import`` can get tests/browser/conftest.py
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pto-spec-0.58.3"
OLD_CORPUS = CORPUS.parent / "pto-spec-0.58.0"
HEADER = "// PTO-INSTRUCTION: "


def _rewrite_instructions(root: Path, edit: "callable[[dict], dict]", only: str | None = None) -> list[str]:
    """Rewrite the PTO-INSTRUCTION record of every (or one) instruction file; drop PTO-REVIEW lines too."""
    touched = []
    for p in sorted((root / "asl").rglob("*.asl")):
        text = p.read_text()
        if HEADER not in text or (only is not None and p.stem != only):
            continue
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line.startswith(HEADER):
                lines[i] = HEADER + json.dumps(edit(json.loads(line[len(HEADER):])), separators=(",", ":"))
        p.write_text("\n".join(lines))
        touched.append(p.relative_to(root).as_posix())
    return touched


def _without_contract(rec: dict) -> dict:
    rec.pop("contract", None)
    return rec


def test_every_label_is_documented() -> None:
    assert set(KINDS) == {"instruction", "unit", "review", "ndf", "adr", "avs", "manifest", "evidence", "engine",
                          "catalog"}
    assert all(doc.strip() for labels in GENERATIONS.values() for doc in labels.values())


def test_bundled_spec_is_the_current_generation(bundled_root: Path) -> None:
    spec = load_spec(bundled_root)
    assert spec.formats["instruction"] == "contract"
    assert spec.formats["review"] == "review-records"
    assert spec.formats["manifest"] == "release-selection"
    assert spec.formats["evidence"] == "readiness-subjects"
    assert spec.formats["adr"] == "json-front-matter"


def _without_engine(rec: dict) -> dict:
    rec.pop("engine", None)
    return rec


def test_tile_records_without_engine_are_a_generation(bundled_copy: Path) -> None:
    """A tree none of whose tile records carries ``engine`` (the upstream development trees before 0.58.0,
    issue 39's sweep: 109 ``record-schema`` errors and 330 dangling references they caused) is read without
    it; a tree where some do requires it of the rest, one error each."""
    touched = _rewrite_instructions(bundled_copy, _without_engine)
    spec = load_spec(bundled_copy, cache=False)
    tiles = [u for u in spec.instructions if u.instruction.surface == "tile"]
    assert spec.formats["engine"] == "none" and len(tiles) > 5
    assert not [f for f in spec.findings if f.path in touched and f.rule == "record-schema"], spec.findings[:3]


def test_a_tile_record_without_engine_among_ones_with_it_is_an_error(bundled_copy: Path) -> None:
    touched = _rewrite_instructions(bundled_copy, _without_engine, only="TAND")
    spec = load_spec(bundled_copy, cache=False)
    assert spec.formats["engine"] == "record"
    bad = [f for f in spec.findings if f.rule == "record-schema"]
    assert [f.path for f in bad] == touched and "engine is required on tile records" in bad[0].message


def test_pre_contract_tree_loads_clean(bundled_copy: Path) -> None:
    touched = _rewrite_instructions(bundled_copy, _without_contract)
    for rel in touched:  # the generation before review records
        p = bundled_copy / rel
        p.write_text("\n".join(ln for ln in p.read_text().split("\n") if not ln.startswith("// PTO-REVIEW: ")))
    spec = load_spec(bundled_copy, cache=False)
    assert spec.formats["instruction"] == "pre-contract"
    assert spec.formats["review"] == "none"
    assert len(spec.instructions) == len(touched) > 5
    assert all(u.instruction.contract is None for u in spec.instructions)
    assert not [f for f in spec.findings if f.path in touched], spec.findings[:3]


def test_a_stray_record_of_another_generation_is_one_finding(bundled_copy: Path) -> None:
    touched = _rewrite_instructions(bundled_copy, _without_contract, only="TADD")
    spec = load_spec(bundled_copy, cache=False)
    assert spec.formats["instruction"] == "contract"
    mine = [f for f in spec.findings if f.path == touched[0]]
    assert [f.rule for f in mine] == ["format-generation-mixed"]
    assert "'pre-contract'" in mine[0].message and "'contract'" in mine[0].message


def test_unknown_instruction_generation_is_one_finding(bundled_copy: Path) -> None:
    def future(rec: dict) -> dict:
        rec["flavour"] = 2
        return rec

    touched = _rewrite_instructions(bundled_copy, future)
    spec = load_spec(bundled_copy, cache=False)
    assert spec.formats["instruction"] == UNKNOWN
    about = [f for f in spec.findings if f.path in touched]
    assert len(about) == 1, about
    assert about[0].rule == "format-generation-unknown"
    assert about[0].path == touched[0] and about[0].line == 1
    assert "'flavour'" in about[0].message and f"{len(touched)} of {len(touched)}" in about[0].message


def test_unknown_evidence_generation_is_one_warning_naming_every_field(bundled_copy: Path) -> None:
    """Issue 26: a view of an unknown shape is one warning naming the keys (the rules that read it say, a note
    each, that they did not run), not an error per field."""
    rel = "spec/evidence/release-traceability-readiness.json"
    path = bundled_copy / rel
    data = json.loads(path.read_text())
    assert len(data["units"]) >= 5
    for row in data["units"]:
        row["test_ids"] = row.pop("tests")
    path.write_text(json.dumps(data, indent=2, sort_keys=True))
    spec = load_spec(bundled_copy, cache=False)
    about = [f for f in spec.findings if f.path == rel]
    assert [(f.rule, f.severity.value) for f in about] == [("format-generation-unknown", "warning")]
    assert sorted(re.findall(r"(units\.\*\.\w+):", about[0].message)) == ["units.*.test_ids", "units.*.tests"]
    assert spec.formats["evidence"] == "absent" or spec.formats["evidence"] == UNKNOWN


def test_variants_stay_closed() -> None:
    rec = {"id": "PTO-BLOCK-HL-BSTART-CALL", "mnemonic": "HL.BSTART CALL", "surface": "block",
           "classification": ["encoding"], "summary": "s", "assembly": ["a"], "block": [],
           "catalog_indices": [], "catalog_records": [], "depends_on": ["PTO-X"]}
    assert instruction_model(rec) is PreContractInstruction
    assert PreContractInstruction.model_validate(rec).contract is None
    with pytest.raises(ValueError, match="not part of this record generation"):
        PreContractInstruction.model_validate({**rec, "contract": {}})
    with pytest.raises(ValueError):  # the current generation has no spaces in mnemonics, and a contract
        InstructionHeader.model_validate(rec)
    assert issubclass(UnselectedReleaseManifest, ReleaseManifest)


MARKDOWN_ADRS = {
    "0001-a.md": "# ADR-0001: Scope\n\n- Status: accepted\n- Requirement: PTO-REQ-A-001\n"
                 "- Formal-model issue: [#4](https://example.org/i/4)\n- Decision date: 2026-07-28\n\n## Context\n",
    "0009-b.md": "# ADR 0009: scalar TPC\n\n## Status\n\nAccepted.\n\n## Context\n\ntext\n",
    "0012-c.md": "# ADR 0012: Old\n\n## Status\n\nSuperseded by [ADR 0046](0046-x.md).\n\n## Context\n",
    "0053-d.md": "# ADR 0053: Cleanup\n\n- **Status**: accepted\n- **Date**: 2026-08-05\n"
                 "- **Deciders**: PTO ISA maintainers\n\n## Context\n",
}


def test_markdown_header_adrs_read_into_the_same_facts() -> None:
    findings: list = []
    adrs = {name: scan_adr(f"docs/status/decisions/{name}", "0" * 64, text, findings)
            for name, text in MARKDOWN_ADRS.items()}
    assert findings == []
    a, b, c, d = (adrs[n].front for n in MARKDOWN_ADRS)
    assert (a.id, a.title, a.status, str(a.accepted)) == ("ADR-0001", "Scope", "accepted", "2026-07-28")
    assert a.affected_ndf == ["PTO-REQ-A-001"] and a.implementation_issue == "https://example.org/i/4"
    assert (b.id, b.status, b.accepted, b.authors) == ("ADR-0009", "accepted", None, None)
    assert (c.status, c.superseded_by) == ("superseded", ["ADR-0046"])
    assert (d.status, str(d.accepted), d.approvers) == ("accepted", "2026-08-05", ["PTO ISA maintainers"])
    assert adrs["0009-b.md"].title == "scalar TPC"


def test_markdown_adr_without_status_is_one_finding() -> None:
    findings: list = []
    adr = scan_adr("docs/status/decisions/0002-x.md", "0" * 64, "# ADR 0002: X\n\n## Context\n", findings)
    assert adr.front is None
    assert [f.rule for f in findings] == ["adr-front-matter"] and "no status" in findings[0].message


def test_test_naming_is_read_from_the_readme() -> None:
    text = "# Tests\n\n```text\nasl/<surface>/<unit>.asl\ntests/asl/<surface>/<unit>/<PTO-TEST-ID>.asl\n```\n"
    naming = parse_test_naming(text, "tests/README.md", "tests/asl")
    assert naming is not None and naming.line == 5
    assert naming.expected_file_name("PTO-AVS-A-001") == "PTO-AVS-A-001.asl"
    other = parse_test_naming("tests/asl/<surface>/<surface>-<kind>-<name>-<NNN>.asl\n", "r", "tests/asl")
    assert other is not None and other.expected_file_name("PTO-AVS-A-001") is None
    assert parse_test_naming("no template here\n", "r", "tests/asl") is None


# ---- the two real releases


@pytest.fixture(scope="module")
def old_corpus() -> Path:
    if not OLD_CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the corpus must be at {OLD_CORPUS} under CI")
        pytest.skip(f"corpus not found at {OLD_CORPUS}")
    return OLD_CORPUS


@pytest.mark.corpus
def test_release_0580_is_read_with_its_generation(old_corpus: Path) -> None:
    spec = load_spec(old_corpus)
    assert spec.findings == []
    counts = spec.counts()
    assert (counts["asl_units"], counts["instruction_records"], counts["unit_records"]) == (788, 651, 137)
    assert (counts["review_records"], counts["adr_files"], counts["manifest_inputs"]) == (0, 54, 801)
    assert spec.formats == {"instruction": "pre-contract", "unit": "v1", "review": "none", "ndf": "v1",
                            "adr": "markdown-headers", "avs": "id-named", "manifest": "no-release-selection",
                            "evidence": "no-readiness-subjects", "engine": "record",
                            "catalog": "linx-vector-reservations"}
    assert spec.manifest is not None and spec.manifest.release_selection is None
    assert spec.test_naming is not None and spec.test_naming.named_by_id
    call = next(u for u in spec.instructions if u.path.endswith("/HL.BSTART_CALL.asl"))
    assert call.instruction.mnemonic == "HL.BSTART CALL" and call.instruction.contract is None


@pytest.mark.corpus
def test_0580_decodes_its_reserved_vpar_word(old_corpus: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    rc = main(["decode", "--root", str(old_corpus), "0x00021181"], out=out, err=err)
    assert rc == 0, err.getvalue()
    assert "BSTART.VPAR" in out.getvalue() and "linx-vector-reservations.json" in out.getvalue()


def test_unknown_test_header_generation_is_one_finding(bundled_copy: Path) -> None:
    prefix = "// PTO-TEST: "
    touched = []
    for p in sorted((bundled_copy / "tests").rglob("*.asl")):
        text = p.read_text()
        if prefix in text:
            p.write_text(text.replace(prefix + "{", prefix + '{"suite":"x",', 1))
            touched.append(p.relative_to(bundled_copy).as_posix())
    spec = load_spec(bundled_copy, cache=False)
    about = [f for f in spec.findings if f.path in touched]
    assert len(touched) >= 3 and len(about) == 1, about
    assert about[0].rule == "format-generation-unknown" and "suite" in about[0].message
    assert spec.formats["avs"] == UNKNOWN


# ---- issue 39: each generation read by its own rules


def test_a_markdown_adrs_free_text_status_is_read_not_an_error() -> None:
    """The Markdown-header generation defines no status list: 0.58.1's ADR 0062 says
    "audit complete and frozen", which is its status, not a `record-schema` error."""
    findings: list = []
    text = "# PTO mnemonic review decisions\n\n- Status: audit complete and frozen\n- Date: 2026-08-11\n\n## Review\n"
    adr = scan_adr("docs/status/decisions/0062-mnemonic-review-decisions.md", "0" * 64, text, findings)
    assert findings == []
    assert adr.front is not None and adr.front.status == "audit complete and frozen"
    lead = scan_adr("docs/status/decisions/0063-x.md", "0" * 64, "# X\n\n- Status: Accepted (frozen)\n", findings)
    assert findings == [] and lead.front is not None and lead.front.status == "accepted"


def test_a_json_front_matters_status_outside_its_list_is_an_error() -> None:
    front = {"id": "ADR-0003", "title": "T", "status": "audit complete", "authors": ["a"], "approvers": [],
             "created": "2026-01-01", "accepted": None, "rejected": None, "superseded": None,
             "baseline": "0" * 40, "target_releases": ["unassigned"], "affected_ndf": [], "affected_units": [],
             "resolves": [], "supersedes": [], "superseded_by": [], "implementation_issue": None,
             "release_impact": "not-required", "legacy_ids": []}
    findings: list = []
    scan_adr("docs/status/decisions/0003-t.md", "0" * 64, f"---\n{json.dumps(front)}\n---\n\n# ADR 0003: T\n", findings)
    assert [f.rule for f in findings] == ["record-schema"] and "status" in findings[0].message
    findings.clear()
    scan_adr("docs/status/decisions/0003-t.md", "0" * 64,
             f"---\n{json.dumps({**front, 'status': 'draft'})}\n---\n\n# ADR 0003: T\n", findings)
    assert findings == []


def test_a_catalog_of_an_unknown_shape_is_one_finding_naming_every_field(bundled_copy: Path) -> None:
    """Three fields differing in every row of tile-operations.json are one finding for the file (the kind),
    naming the three, not three findings."""
    rel = "spec/catalog/tile-operations.json"
    path = bundled_copy / rel
    data = json.loads(path.read_text())
    assert len(data["operations"]) >= 3
    for op in data["operations"]:
        op["op_kind"] = op.pop("family")
        op["unit_kind"] = op.pop("engine")
        op["legacy"] = True
    path.write_text(json.dumps(data, indent=2, sort_keys=True))
    spec = load_spec(bundled_copy, cache=False)
    about = [f for f in spec.findings if f.path == rel]
    assert [f.rule for f in about] == ["format-generation-unknown"], about
    named = sorted(re.findall(r"operations\.\*\.(\w+):", about[0].message))
    assert named == ["family", "legacy", "op_kind", "unit_kind"], about[0].message  # engine is optional


def test_a_readme_stating_one_main_per_file_runs_each_headerless_file(bundled_copy: Path) -> None:
    """0.57.1's convention: each test file has one `func main() => integer` returning 0, no header; the
    tests run (by their path), not "no convention"."""
    from specgen.asl.runner import discover, run_tests

    tests = bundled_copy / "tests"
    (tests / "README.md").write_text("# Tests\n\nEach test file has exactly one `func main() => integer`, which "
                                     "returns 0 on success. Files carry no metadata.\n")
    files = sorted((tests / "asl").rglob("*.asl"))
    for p in files:
        p.write_text(re.sub(r"^// PTO-TEST: .*\n", "", p.read_text(), flags=re.M))
    spec = load_spec(bundled_copy, cache=False)
    assert spec.test_functions is not None and spec.test_functions.per_file
    assert spec.formats["avs"] == "main-per-file"
    about = [f for f in spec.findings if f.rule == "format-generation-unknown"]
    assert [f.severity.value for f in about] == ["note"] and "no convention" not in about[0].message
    cases = discover(spec)
    assert len(cases) == len(files) >= 3 and all(c.entry == "main" and c.id == "" for c in cases)
    suite = run_tests(spec, [], jobs=1)
    assert suite.count("passed") == len(files), [(r.path, r.message) for r in suite.results if r.status != "passed"]


def test_a_call_only_specgens_generated_asl_declares_is_specgens_finding(bundled_copy: Path) -> None:
    """A tree calling a generated decoder with another arity than specgen generates follows its own
    generator: the finding is specgen's (`generated-asl`), never `asl-arity` charged to the tree."""
    from specgen.asl.static import asl_findings

    p = bundled_copy / "asl/block/attributes/B.DIM.asl"
    text = p.read_text()
    assert "DecodeCommandOperandRaw(instruction,\n        form, CommandField_RegSrc)" in text
    p.write_text(text.replace("DecodeCommandOperandRaw(instruction,\n        form, CommandField_RegSrc)",
                              "DecodeCommandOperandRaw(instruction,\n        CommandField_RegSrc)", 1))
    spec = load_spec(bundled_copy, cache=False)
    found = [f for f in asl_findings(spec) if f.path == "asl/block/attributes/B.DIM.asl"]
    assert [(f.rule, f.severity.value) for f in found] == [("generated-asl", "warning")], found
    assert "specgen" in found[0].message and "DecodeCommandOperandRaw" in found[0].message
