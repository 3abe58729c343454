"""``specgen check`` on the corpus, the bundled spec and copies with one change each.

Each mutation test asserts the exact rule, path and line of the cause, and
that nothing else (besides the corpus' one known missing file) is reported.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from specgen.check import run_checks
from specgen.cli import main
from specgen.diagnostics import Severity
from specgen.graph import SpecGraph
from specgen.hashing import content_sha256
from specgen.loader import load_spec

CLOSURE = "spec/evidence/instruction-contract-closure.json"
TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TADD = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"


def errors(root: Path) -> list[tuple[str, str, int, str]]:
    findings, _ = run_checks(SpecGraph.build(load_spec(root)))
    return [(f.rule, f.path, f.line, f.subject) for f in findings if f.severity is Severity.ERROR]


def without_closure(errs: list[tuple[str, str, int, str]]) -> list[tuple[str, str, int, str]]:
    return [e for e in errs if e[3] != CLOSURE]


def test_corpus_has_exactly_the_one_missing_file(corpus_root: Path, capsys) -> None:
    errs = errors(corpus_root)
    assert errs == [("manifest-missing-file", "spec/release-manifest.json", 3400, CLOSURE)]
    rc = main(["check", "--root", str(corpus_root)])
    out = capsys.readouterr().out
    assert rc == 1
    assert "634 instruction records" in out
    assert "manifest_entries_verified: 1700" in out


def test_corpus_content_hash_recomputes(corpus_root: Path) -> None:
    man = json.loads((corpus_root / "spec/release-manifest.json").read_text())
    got = content_sha256([(r["path"], r["sha256"]) for r in man["canonical_inputs"]])
    assert got == "f299fe3d256c5d071e57bb4aaa2be2de2e4a386ae090048df1f73ae92d392678" == man["content_sha256"]


def test_bundled_spec_passes(bundled_root: Path) -> None:
    assert main(["check", "--root", str(bundled_root), "--strict"]) == 0


def test_changed_byte_in_unit(corpus_copy: Path) -> None:
    p = corpus_copy / TMUL
    text = p.read_text()
    p.write_text(text.replace("TMUL MUST select", "TMUL MUST selekt", 1))
    assert without_closure(errors(corpus_copy)) == [("manifest-hash-mismatch", TMUL, 0, TMUL)]


def test_deleted_test_file(corpus_copy: Path) -> None:
    rel = "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL/tile-state-tmul-alias-001.asl"
    (corpus_copy / rel).unlink()
    errs = without_closure(errors(corpus_copy))
    assert [(r, p, s) for r, p, _, s in errs] == [
        ("evidence-stale", "spec/evidence/release-traceability-readiness.json", rel)]


def test_duplicated_ndf_id(corpus_copy: Path) -> None:
    p = corpus_copy / TADD
    text = p.read_text()
    assert "PTO-TADD-CONTRACT-001" in text
    p.write_text(text.replace("PTO-TADD-CONTRACT-001", "PTO-TMUL-CONTRACT-001"))
    line = next(i for i, ln in enumerate(p.read_text().split("\n"), 1) if ln.startswith("// NDF-BEGIN:"))
    errs = without_closure(errors(corpus_copy))
    assert ("ndf-duplicate-id", TADD, line, "PTO-TMUL-CONTRACT-001") in errs
    # the edit also changed the file after the release: that is the only other finding
    assert sorted(e[0] for e in errs) == ["manifest-hash-mismatch", "ndf-duplicate-id"]


def test_removed_adr(corpus_copy: Path) -> None:
    (corpus_copy / "docs/status/decisions/0035-vec-sfu-carrier-totality.md").unlink()
    errs = without_closure(errors(corpus_copy))
    assert [(r, s) for r, _, _, s in errs] == [("adr-missing", "ADR-0035")]


def test_dotdot_path_in_manifest(corpus_copy: Path) -> None:
    mp = corpus_copy / "spec/release-manifest.json"
    man = json.loads(mp.read_text())
    man["canonical_inputs"].append({"path": "../outside.asl", "sha256": "0" * 64})
    man["canonical_inputs"].sort(key=lambda r: r["path"])
    man["content_sha256"] = content_sha256([(r["path"], r["sha256"]) for r in man["canonical_inputs"]])
    text = json.dumps(man, indent=2, sort_keys=True) + "\n"
    mp.write_text(text)
    line = text[:text.index('"../outside.asl"')].count("\n") + 1
    errs = without_closure(errors(corpus_copy))
    assert errs == [("manifest-unsafe-path", "spec/release-manifest.json", line, "../outside.asl")]


def test_symlink_in_manifest_is_not_followed(corpus_copy: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("outside")
    (corpus_copy / "asl/leak.asl").symlink_to(secret)
    mp = corpus_copy / "spec/release-manifest.json"
    man = json.loads(mp.read_text())
    man["canonical_inputs"].append({"path": "asl/leak.asl", "sha256": "0" * 64})
    man["content_sha256"] = content_sha256([(r["path"], r["sha256"]) for r in man["canonical_inputs"]])
    mp.write_text(json.dumps(man, indent=2, sort_keys=True) + "\n")
    rules = {(r, s) for r, _, _, s in without_closure(errors(corpus_copy))}
    assert ("manifest-unsafe-path", "asl/leak.asl") in rules
    assert not any(r == "manifest-hash-mismatch" for r, _ in rules)


def test_unlisted_file_and_content_hash(corpus_copy: Path) -> None:
    (corpus_copy / "asl/tile/extra.asl").write_text(
        '// PTO-UNIT: {"id":"PTO-TILE-EXTRA","surface":"tile","classification":["extra"],"depends_on":[]}\n')
    errs = without_closure(errors(corpus_copy))
    assert ("manifest-unlisted-file", "asl/tile/extra.asl", 0, "asl/tile/extra.asl") in errs
    mp = corpus_copy / "spec/release-manifest.json"
    mp.write_text(re.sub(r'"content_sha256": "[0-9a-f]+"', '"content_sha256": "' + "1" * 64 + '"', mp.read_text()))
    assert any(e[0] == "manifest-content-hash" for e in errors(corpus_copy))


def test_dangling_requirement_and_missing_source(corpus_copy: Path) -> None:
    rel = "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL/tile-bound-tmul-types-001.asl"
    p = corpus_copy / rel
    p.write_text(p.read_text().replace('"requirements":["PTO-INST-TILE-TMUL"]',
                                       '"requirements":["PTO-INST-TILE-NOPE"]', 1))
    errs = errors(corpus_copy)
    assert ("test-dangling-requirement", rel, 1, "PTO-AVS-TILE-TMUL-TYPES-001") in errs


def test_formats_and_exit_codes(corpus_root: Path, tmp_path: Path, capsys) -> None:
    for fmt in ("json", "junit", "sarif", "github"):
        out = tmp_path / f"report.{fmt}"
        assert main(["check", "--root", str(corpus_root), "--format", fmt, "--output", str(out)]) == 1
        assert CLOSURE in out.read_text()
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["summary"]["errors"] == 1
    assert main(["check", "--root", str(tmp_path / "nope")]) == 2
    assert main(["check", "--root", str(corpus_root), "--only", "no-such-rule"]) == 2
    assert main(["check", "--root", str(corpus_root), "--disable", "manifest-missing-file"]) == 0


def test_legality_prose_mismatch_names_u64_for_tmul(corpus_root: Path) -> None:
    findings, _ = run_checks(SpecGraph.build(load_spec(corpus_root)), only=["legality-prose-mismatch"])
    tmul = [f for f in findings if f.subject == "PTO-TILE-TMUL"]
    assert len(tmul) == 1
    assert tmul[0].severity is Severity.WARNING
    assert tmul[0].path == TMUL
    assert "admitted by the ASL only:" in tmul[0].message and "U64" in tmul[0].message.split("ASL only:")[1]
