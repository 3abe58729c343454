"""One test per check rule on a copy of the bundled spec with one change, asserting rule, path and line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from specgen.check import run_checks
from specgen.graph import SpecGraph
from specgen.hashing import content_sha256
from specgen.loader import load_spec

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_TESTS = "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL"
MANIFEST = "spec/release-manifest.json"


def found(root: Path) -> set[tuple[str, str, int]]:
    findings, _ = run_checks(SpecGraph.build(load_spec(root)))
    return {(f.rule, f.path, f.line) for f in findings}


def rules(root: Path) -> set[str]:
    return {r for r, _, _ in found(root)}


def edit(root: Path, rel: str, old: str, new: str) -> int:
    """Replace the first ``old`` in a file; return the line it was on."""
    p = root / rel
    text = p.read_text()
    i = text.index(old)
    p.write_text(text[:i] + new + text[i + len(old):])
    return text.count("\n", 0, i) + 1


def edit_manifest(root: Path, change) -> str:  # type: ignore[no-untyped-def]
    p = root / MANIFEST
    man = json.loads(p.read_text())
    change(man)
    man["canonical_inputs"].sort(key=lambda r: r["path"])
    man["content_sha256"] = content_sha256([(r["path"], r["sha256"]) for r in man["canonical_inputs"]])
    text = json.dumps(man, indent=2, sort_keys=True) + "\n"
    p.write_text(text)
    return text


def line_in(text: str, needle: str) -> int:
    return text.count("\n", 0, text.index(needle)) + 1


def test_baseline_is_clean(bundled_copy: Path) -> None:
    assert found(bundled_copy) == set()


def test_manifest_missing_file(bundled_copy: Path) -> None:
    text = edit_manifest(bundled_copy, lambda m: m["canonical_inputs"].append(
        {"path": "spec/evidence/absent.json", "sha256": "0" * 64}))
    assert found(bundled_copy) == {("manifest-missing-file", MANIFEST, line_in(text, '"spec/evidence/absent.json"'))}


def test_manifest_hash_mismatch(bundled_copy: Path) -> None:
    edit(bundled_copy, TMUL, "// NDF-END", "//\n// NDF-END")
    assert found(bundled_copy) == {("manifest-hash-mismatch", TMUL, 0)}


def test_manifest_content_hash(bundled_copy: Path) -> None:
    p = bundled_copy / MANIFEST
    man = json.loads(p.read_text())
    man["content_sha256"] = "f" * 64
    text = json.dumps(man, indent=2, sort_keys=True) + "\n"
    p.write_text(text)
    assert found(bundled_copy) == {("manifest-content-hash", MANIFEST, line_in(text, '"content_sha256"'))}


def test_manifest_unlisted_file(bundled_copy: Path) -> None:
    (bundled_copy / "asl/tile/NOTES.txt").write_text("notes\n")
    assert found(bundled_copy) == {("manifest-unlisted-file", "asl/tile/NOTES.txt", 0)}


@pytest.mark.parametrize("bad", ["/etc/passwd", "../outside.asl", "asl/../../x.asl"])
def test_manifest_unsafe_path(bundled_copy: Path, bad: str) -> None:
    text = edit_manifest(bundled_copy, lambda m: m["canonical_inputs"].append({"path": bad, "sha256": "0" * 64}))
    assert found(bundled_copy) == {("manifest-unsafe-path", MANIFEST, line_in(text, json.dumps(bad)))}


def test_ndf_duplicate_id(bundled_copy: Path) -> None:
    tadd = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
    text = (bundled_copy / tadd).read_text()
    cid = text.split("// NDF-BEGIN: ", 1)[1].split("\n", 1)[0]
    line = line_in(text, "// NDF-BEGIN: ")
    (bundled_copy / tadd).write_text(text.replace(cid, "PTO-TMUL-CONTRACT-001"))
    assert ("ndf-duplicate-id", tadd, line) in found(bundled_copy)


@pytest.mark.parametrize("old, new, rule, line", [
    ("// NDF-END: PTO-TMUL-CONTRACT-001", "// end", "ndf-unterminated", 3),
    ("// NDF-END: PTO-TMUL-CONTRACT-001", "// NDF-END: PTO-TMUL-CONTRACT-002", "ndf-mismatched-end", 10),
    ("level=L1", "level=L2", "ndf-bad-attribute", 4),
    ("// NDF-END", "// see [[PTO-NOPE-001]]\n// NDF-END", "ndf-dangling-reference", 10),
])
def test_ndf_structure_rules(bundled_copy: Path, old: str, new: str, rule: str, line: int) -> None:
    edit(bundled_copy, TMUL, old, new)
    assert (rule, TMUL, line) in found(bundled_copy)


def test_ndf_hash(bundled_copy: Path) -> None:
    p = bundled_copy / MANIFEST
    man = json.loads(p.read_text())
    for row in man["release_selection"]["expanded_ndf"]:
        if row["id"] == "PTO-TMUL-CONTRACT-001":
            row["sha256"] = "0" * 64
    p.write_text(json.dumps(man, indent=2, sort_keys=True) + "\n")
    assert found(bundled_copy) == {("ndf-hash", TMUL, 3)}


def _first_test(root: Path) -> str:
    return sorted(p.relative_to(root).as_posix() for p in (root / TMUL_TESTS).glob("*.asl"))[0]


def test_test_missing_source(bundled_copy: Path) -> None:
    rel = _first_test(bundled_copy)
    edit(bundled_copy, rel, f'"source":"{TMUL}"', '"source":"asl/tile/NOPE.asl"')
    assert ("test-missing-source", rel, 1) in found(bundled_copy)


def test_test_dangling_requirement(bundled_copy: Path) -> None:
    rel = _first_test(bundled_copy)
    edit(bundled_copy, rel, '"PTO-INST-TILE-TMUL"', '"PTO-INST-TILE-NOPE"')
    assert ("test-dangling-requirement", rel, 1) in found(bundled_copy)


def test_test_path_mismatch(bundled_copy: Path) -> None:
    rel = _first_test(bundled_copy)
    moved = "tests/asl/tile/" + rel.rsplit("/", 1)[1]
    shutil.move(bundled_copy / rel, bundled_copy / moved)
    assert ("test-path-mismatch", moved, 1) in found(bundled_copy)


def test_test_duplicate_id(bundled_copy: Path) -> None:
    rel = _first_test(bundled_copy)
    copy = rel.replace("-001.asl", "-099.asl")
    shutil.copy(bundled_copy / rel, bundled_copy / copy)
    hits = {f for f in found(bundled_copy) if f[0] == "test-duplicate-id"}
    assert len(hits) == 1 and next(iter(hits))[1] in (rel, copy) and next(iter(hits))[2] == 1


def test_instruction_untested(bundled_copy: Path) -> None:
    for p in (bundled_copy / TMUL_TESTS).glob("*.asl"):
        if '"kind":"static-invariant"' not in p.read_text():
            p.unlink()
    assert ("instruction-untested", TMUL, 1) in found(bundled_copy)


def test_instruction_dangling_dependency(bundled_copy: Path) -> None:
    edit(bundled_copy, TMUL, '"depends_on":["', '"depends_on":["PTO-TILE-NOPE","')
    assert ("instruction-dangling-dependency", TMUL, 1) in found(bundled_copy)


def test_adr_missing(bundled_copy: Path) -> None:
    adr = next((bundled_copy / "docs/status/decisions").glob("0002-*.md"))
    adr.unlink()
    hits = [f for f in found(bundled_copy) if f[0] == "adr-missing"]
    assert len(hits) == 1


def test_adr_bad_status(bundled_copy: Path) -> None:
    p = next((bundled_copy / "docs/status/decisions").glob("0003-*.md"))
    data = p.read_text()
    p.write_text(data.replace('"supersedes": [\n    "ADR-0002"\n  ]', '"supersedes": []'))
    assert p.read_text() != data
    old = next((bundled_copy / "docs/status/decisions").glob("0002-*.md")).relative_to(bundled_copy).as_posix()
    assert ("adr-bad-status", old, 2) in found(bundled_copy)


def test_adr_dangling_affected(bundled_copy: Path) -> None:
    p = next((bundled_copy / "docs/status/decisions").glob("0001-*.md"))
    p.write_text(p.read_text().replace('"affected_ndf": [', '"affected_ndf": [\n    "PTO-NOPE-001",', 1))
    assert ("adr-dangling-affected", p.relative_to(bundled_copy).as_posix(), 2) in found(bundled_copy)


def test_evidence_stale(bundled_copy: Path) -> None:
    rel = _first_test(bundled_copy)
    (bundled_copy / rel).unlink()
    view = "spec/evidence/release-traceability-readiness.json"
    hits = [f for f in found(bundled_copy) if f[0] == "evidence-stale"]
    assert [(r, p) for r, p, _ in hits] == [("evidence-stale", view)]


def test_doc_case_collision(bundled_copy: Path) -> None:
    """Issue 37: two documents whose paths differ only in case are one page (and one file) on macOS and
    Windows: a warning at the later one, naming the other; the site build says so too."""
    from specgen.site.prepare import site_warnings
    docs = bundled_copy / "docs" / "development"
    (docs / "Reading-The-Spec.md").write_text("# Reading, again\n")
    (docs / "Other.md").write_text("# Other\n")  # no twin: no finding
    assert found(bundled_copy) == {("doc-case-collision", "docs/development/reading-the-spec.md", 1)}
    findings, _ = run_checks(SpecGraph.build(load_spec(bundled_copy)))
    f = next(x for x in findings if x.rule == "doc-case-collision")
    assert f.severity == "warning" and f.related == ("docs/development/Reading-The-Spec.md",)
    lines = site_warnings(SpecGraph.build(load_spec(bundled_copy)))
    assert lines == [f"warning: {f.format()}"]
    import io
    from specgen.cli import main
    out = io.StringIO()  # issue 41: JUnit says the warning --min-severity hid, not "no findings"
    assert main(["check", "--root", str(bundled_copy), "--no-cache", "--format", "junit", "--min-severity", "error"],
                out, io.StringIO()) == 0
    assert 'classname="doc-case-collision" name="no findings shown (1 finding hidden by --min-severity)"' \
        in out.getvalue()


def test_build_warns_of_a_doc_link_leaving_the_root(bundled_copy: Path, tmp_path: Path) -> None:
    """Issue 37: a symbolic link in docs/ to a file outside the root is not read; check reports it as
    ``path-outside-root`` and the build's summary carries the same line."""
    from specgen.site.prepare import not_rendered
    outside = tmp_path / "outside.md"
    outside.write_text("# Not part of the tree\n")
    (bundled_copy / "docs" / "development" / "leak.md").symlink_to(outside)
    assert ("path-outside-root", "docs/development/leak.md", 0) in found(bundled_copy)
    lines = not_rendered(SpecGraph.build(load_spec(bundled_copy)))
    assert [x for x in lines if "path-outside-root" in x] == [
        "warning: docs/development/leak.md:0:0: path-outside-root: symbolic link leads outside the spec root; "
        "it is not read"]


def test_adr_link_schemes(bundled_copy: Path) -> None:
    p = next((bundled_copy / "docs/status/decisions").glob("0001-*.md"))
    text = p.read_text() + "\nSee [x](javascript:alert(1)) and [y](missing-file.md).\n"
    p.write_text(text)
    line = text.count("\n")
    rel = p.relative_to(bundled_copy).as_posix()
    findings, _ = run_checks(SpecGraph.build(load_spec(bundled_copy)), only=["adr-dangling-link"])
    got = sorted((f.line, f.message.split(";")[0]) for f in findings if f.path == rel)
    assert got == [(line, "link target missing-file.md does not exist in the tree"),
                   (line, "link uses the javascript: scheme")]
