"""The loader on the bundled spec, on the whole corpus, and on broken copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.loader import RootError, load_spec


def test_corpus_loads_whole_without_error(corpus_root: Path) -> None:
    spec = load_spec(corpus_root)
    assert spec.findings == []
    counts = spec.counts()
    assert counts["asl_units"] == 840
    assert counts["instruction_records"] == 634
    assert counts["unit_records"] == 206
    assert counts["review_records"] == 634
    assert counts["ndf_clauses"] == 369
    assert counts["doc_regions"] == 1287
    assert counts["avs_tests"] == 3352
    assert counts["adr_files"] == 92
    assert counts["manifest_inputs"] == 858
    # the current generation of every artifact kind (issue 18; labels in specgen.models.generations)
    assert spec.formats == {"instruction": "contract", "unit": "v1", "review": "review-records", "ndf": "v1",
                            "adr": "json-front-matter", "avs": "kind-named", "manifest": "release-selection",
                            "evidence": "readiness-subjects", "engine": "record", "catalog": "extension-reservations"}
    tmul = next(u for u in spec.units if u.instruction and u.instruction.mnemonic == "TMUL")
    assert tmul.sha256 == "add330416d6c9b3308d6a5ebc508a1bee9a509307af5b693fef9f3f32ae21ebd"
    assert [c.id for c in tmul.clauses] == ["PTO-TMUL-CONTRACT-001"]
    assert tmul.clauses[0].span.line == 3
    assert tmul.doc("decode").span.line == 12


def test_review_at_end_of_file_and_prose_lookalikes(corpus_root: Path) -> None:
    spec = load_spec(corpus_root)
    fentry = next(u for u in spec.units if u.path == "asl/block/lifecycle/FENTRY.asl")
    assert fentry.review is not None and fentry.review_span.line == 38
    reset = next(u for u in spec.units if u.path == "asl/arch/profile/reset.asl")
    assert reset.unit is not None and reset.instruction is None  # '// PTO-REQ-PROFILE-001:' is prose


def test_bundled_spec_loads_without_error(bundled_root: Path) -> None:
    spec = load_spec(bundled_root)
    assert [f.format() for f in spec.errors] == []
    mnemonics = {u.instruction.mnemonic for u in spec.instructions}
    assert {"TADD", "TSUB", "TMUL", "TMAX", "TMIN", "TAND", "TOR", "TXOR"} <= mnemonics
    assert len(spec.adrs) >= 3
    assert spec.manifest is not None


def test_unreadable_root(tmp_path: Path) -> None:
    with pytest.raises(RootError):
        load_spec(tmp_path / "absent")
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(RootError):
        load_spec(f)


def _first(spec, rule):
    return [f for f in spec.findings if f.rule == rule]


def test_broken_header_line_is_located(corpus_copy: Path) -> None:
    p = corpus_copy / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    lines = p.read_text().split("\n")
    lines[0] = lines[0][:200]  # truncated JSON
    p.write_text("\n".join(lines))
    spec = load_spec(corpus_copy)
    assert [(f.rule, f.path, f.line) for f in spec.errors] == [
        ("record-json", "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl", 1)]
    from specgen.cli import main
    import io
    out = io.StringIO()
    assert main(["validate", "--root", str(corpus_copy)], out=out) == 1
    first = out.getvalue().splitlines()[0]
    assert first.startswith("asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl:1:") and "record-json" in first


def test_validate_cli_on_the_corpus(corpus_root: Path) -> None:
    import io
    from specgen.cli import main
    out = io.StringIO()
    assert main(["validate", "--root", str(corpus_root)], out=out) == 0
    text = out.getvalue()
    assert ("840 asl units, 634 instruction records" in text and "3352 avs tests, 92 adr files" in text
            and "0 error(s)" in text)
    out = io.StringIO()
    assert main(["validate", "--root", str(corpus_root), "--format", "json"], out=out) == 0
    import json
    doc = json.loads(out.getvalue())
    assert doc["counts"]["instruction_records"] == 634 and doc["errors"] == 0


@pytest.mark.parametrize("text, rule, line", [
    ("// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n// body\n", "ndf-unterminated", 2),
    ("// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n// body\n// NDF-END: PTO-Y-001\n",
     "ndf-mismatched-end", 5),
    ("// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L2 layer=tile status=accepted\n// body\n// NDF-END: PTO-X-001\n",
     "ndf-bad-attribute", 3),
    ("// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted color=red\n// b\n// NDF-END: PTO-X-001\n",
     "ndf-bad-attribute", 3),
    ("// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n// NDF-END: PTO-X-001\n",
     "ndf-empty", 2),
    ("// DOC-BEGIN: operation\nfunc F()\nbegin\nend;\n", "doc-unterminated", 2),
])
def test_unit_structure_errors(tmp_path: Path, text: str, rule: str, line: int) -> None:
    d = tmp_path / "asl/tile/model"
    d.mkdir(parents=True)
    header = '// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model","x"],"depends_on":[]}\n'
    (d / "x.asl").write_text(header + text)
    spec = load_spec(tmp_path)
    found = [(f.rule, f.line) for f in spec.findings if f.path == "asl/tile/model/x.asl"]
    assert (rule, line) in found, found


@pytest.mark.parametrize("payload, rule, col", [
    ('{"id":"PTO-TILE-X","id":"PTO-TILE-Y","surface":"tile","classification":["m"],"depends_on":[]}',
     "record-duplicate-key", '"id"'),
    ('{"id":"PTO-TILE-X","surface":"tile","classification":["m"],"depends_on":[],"colour":1}', "record-schema",
     '"colour"'),
    ('[1,2]', None, None),
])
def test_header_json_errors(tmp_path: Path, payload: str, rule, col) -> None:
    d = tmp_path / "asl/tile/model"
    d.mkdir(parents=True)
    (d / "x.asl").write_text(f"// PTO-UNIT: {payload}\n")
    spec = load_spec(tmp_path)
    errs = [f for f in spec.findings if f.path == "asl/tile/model/x.asl"]
    assert errs, "broken header must be reported"
    if rule:
        # the column points at the offending key (the second "id" for the duplicate)
        want = len("// PTO-UNIT: ") + payload.rindex(col) + 1
        assert (errs[0].rule, errs[0].line, errs[0].col) == (rule, 1, want)


def test_bytes_level_errors(tmp_path: Path) -> None:
    d = tmp_path / "asl/tile/model"
    d.mkdir(parents=True)
    hdr = b'// PTO-UNIT: {"id":"PTO-TILE-A","surface":"tile","classification":["m"],"depends_on":[]}\n'
    (d / "bom.asl").write_bytes(b"\xef\xbb\xbf" + hdr)
    (d / "crlf.asl").write_bytes(hdr.replace(b"\n", b"\r\n"))
    (d / "latin1.asl").write_bytes(hdr + b"// caf\xe9\n")
    (d / "empty.asl").write_bytes(b"")
    spec = load_spec(tmp_path)
    got = {(f.path.rsplit("/", 1)[-1], f.rule, f.line) for f in spec.findings}
    assert ("bom.asl", "file-bom", 1) in got
    assert ("crlf.asl", "file-line-ending", 1) in got
    assert ("latin1.asl", "file-encoding", 2) in got
    assert ("empty.asl", "file-empty", 0) in got


def test_symlink_outside_root_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.asl"
    outside.write_text('// PTO-UNIT: {"id":"PTO-TILE-A","surface":"tile","classification":["m"],"depends_on":[]}\n')
    root = tmp_path / "root"
    (root / "asl/tile").mkdir(parents=True)
    (root / "asl/tile/link.asl").symlink_to(outside)
    (root / "asl/tile/loop").symlink_to(root / "asl/tile/loop")
    spec = load_spec(root)
    rules = {(f.rule, f.path) for f in spec.findings}
    assert ("path-outside-root", "asl/tile/link.asl") in rules
    assert ("path-symlink-loop", "asl/tile/loop") in rules
    assert spec.units == []


def test_a_program_load_reads_the_units_and_catalogs_and_no_tests(corpus_root: Path) -> None:
    """``load_spec(program=True)`` (``specgen run``): the units, configuration and JSON artifacts of a full
    load, no AVS test, ADR or document read, and the spec says it is partial."""
    full, prog = load_spec(corpus_root), load_spec(corpus_root, program=True)
    assert prog.program_only and not full.program_only
    assert [(u.path, u.text) for u in prog.units] == [(u.path, u.text) for u in full.units]
    assert prog.artifacts.keys() == full.artifacts.keys() and prog.config == full.config
    assert full.tests and full.adrs and not prog.tests and not prog.adrs and not prog.docs
    assert not any(p.startswith(full.config.test_root + "/") for p in prog.files)  # not even read


def test_a_program_load_keeps_the_records_a_whole_load_reuses(corpus_root: Path, tmp_path: Path) -> None:
    """A ``specgen run`` between two checks: the ADR and document records it did not read stay stored, so the
    next whole load misses nothing (a program load that rewrote the pack with its own records dropped them)."""
    from specgen.cache import RecordCache
    load_spec(corpus_root, cache=RecordCache(corpus_root, tmp_path))
    load_spec(corpus_root, cache=RecordCache(corpus_root, tmp_path), program=True)
    again = RecordCache(corpus_root, tmp_path)
    load_spec(corpus_root, cache=again)
    assert again.hits > 0 and again.misses == 0
