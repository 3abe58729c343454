"""Baselines and suppressions (issue 41, item 2): a tree with known findings gates on new ones only, and every
format reports the known ones as known instead of dropping them."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
from treecopy import copy_tree

from specgen.baseline import read_baseline
from specgen.cli import main
from specgen.diagnostics import Finding, Severity, finding_key
from specgen.report import REPORT_SCHEMA_PATH

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
OTHER = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
ADR = "docs/status/decisions/0001-executable-datatype-sets.md"


def check(root: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(["check", "--root", str(root), "--no-cache", *argv], out, err)
    return rc, out.getvalue(), err.getvalue()


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_key_ignores_the_line_and_locations_in_the_message_but_not_the_meaning() -> None:
    a = Finding("asl-arity", Severity.ERROR, "asl/x.asl", 12, "F takes 2 arguments (declared at asl/y.asl:40:3)")
    moved = Finding("asl-arity", Severity.ERROR, "asl/x.asl", 30, "F takes 2 arguments (declared at asl/y.asl:44:3)")
    other = Finding("asl-arity", Severity.ERROR, "asl/x.asl", 12, "G takes 2 arguments (declared at asl/y.asl:40:3)")
    elsewhere = Finding("asl-arity", Severity.ERROR, "asl/z.asl", 12, a.message)
    assert finding_key(a) == finding_key(moved)
    assert len({finding_key(a), finding_key(other), finding_key(elsewhere)}) == 3


def test_a_baseline_passes_known_findings_and_fails_a_new_one(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    append(root / UNIT, "// edited after the release\n")
    assert check(root)[0] == 1
    base = tmp_path / "baseline.json"
    rc, out, _ = check(root, "--write-baseline", str(base))
    assert rc == 0 and "1 known finding: 1 in the baseline" in out, out
    assert [(e.rule, e.path) for e in read_baseline(base)] == [("manifest-hash-mismatch", UNIT)]

    rc, out, _ = check(root, "--baseline", str(base), "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, json.loads(REPORT_SCHEMA_PATH.read_text(encoding="utf-8")))
    assert rc == 0 and doc["summary"]["known"] == {"baseline": 1, "suppressed": 0}
    assert [f["baseline"] for f in doc["findings"] if f["path"] == UNIT] == [True]

    rc, out, _ = check(root, "--baseline", str(base), "--format", "junit")
    suite = ET.fromstring(out).find("testsuite")
    assert rc == 0 and suite is not None and suite.get("failures") == "0" and suite.get("skipped") == "1"

    append(root / OTHER, "// a new defect\n")  # one new finding; the known one stays known
    rc, out, _ = check(root, "--baseline", str(base), "--format", "sarif")
    assert rc == 1
    results = json.loads(out)["runs"][0]["results"]
    states = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["baselineState"] for r in results}
    assert states[UNIT] == "unchanged" and states[OTHER] == "new"
    rc, out, _ = check(root, "--baseline", str(base))
    assert rc == 1 and OTHER in out and UNIT not in out.split("manifest content_sha256")[0]


def test_a_stale_baseline_entry_is_a_note(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    original = (root / UNIT).read_text(encoding="utf-8")
    append(root / UNIT, "// edited\n")
    base = tmp_path / "baseline.json"
    check(root, "--write-baseline", str(base))
    (root / UNIT).write_text(original, encoding="utf-8")  # the defect is fixed
    rc, out, _ = check(root, "--baseline", str(base), "--format", "json")
    stale = [f for f in json.loads(out)["findings"] if f["rule"] == "baseline-stale"]
    assert rc == 0 and len(stale) == 1 and stale[0]["severity"] == "note" and stale[0]["path"] == UNIT
    # an entry of a rule that did not run says nothing
    rc, out, _ = check(root, "--baseline", str(base), "--format", "json", "--disable", "manifest-hash-mismatch")
    assert not [f for f in json.loads(out)["findings"] if f["rule"] == "baseline-stale"]


def test_comment_and_config_suppressions_are_reported_with_their_reason(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    append(root / UNIT, "// specgen: ignore[manifest-hash-mismatch] reformatted on purpose, see PR 12\n")
    lines = (root / ADR).read_text(encoding="utf-8").splitlines()
    body = len(lines)
    lines += ["", "<!-- specgen: ignore[adr-dangling-link] the appendix lands in the next release -->",
              "See [the appendix](appendix-that-does-not-exist.md)."]
    (root / ADR).write_text("\n".join(lines) + "\n", encoding="utf-8")
    append(root / "specification.toml", '\n[[specgen.suppress]]\nrule = "manifest-hash-mismatch"\n'
                                        'path = "*.toml"\nreason = "suppressions were added"\n'
                                        '\n[[specgen.suppress]]\nrule = "adr-missing"\nreason = "gone since"\n'
                                        '\n[[specgen.suppress]]\nrule = "asl-arity"\n')
    rc, out, err = check(root, "--format", "sarif")
    assert rc == 0, out + err
    results = json.loads(out)["runs"][0]["results"]
    by_rule: dict[str, list[dict[str, object]]] = {}
    for r in results:
        by_rule.setdefault(str(r["ruleId"]), []).append(r)
    link = by_rule["adr-dangling-link"][0]
    assert link["locations"][0]["physicalLocation"]["region"]["startLine"] == body + 3
    assert link["suppressions"] == [{"kind": "inSource", "status": "accepted",
                                     "justification": "the appendix lands in the next release",
                                     "properties": {"where": f"{ADR}:{body + 2}"}}]
    reasons = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["suppressions"][0]
               for r in by_rule["manifest-hash-mismatch"]}
    assert reasons[UNIT]["kind"] == "inSource" and reasons["specification.toml"]["kind"] == "external"
    assert reasons["specification.toml"]["justification"] == "suppressions were added"
    assert [r["level"] for r in by_rule["suppression-stale"]] == ["note"]  # the adr-missing one
    assert [r["level"] for r in by_rule["suppression-invalid"]] == ["warning"]  # asl-arity without a reason
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(json.loads(out))


def test_a_comment_without_a_reason_suppresses_nothing(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    append(root / UNIT, "// specgen: ignore[manifest-hash-mismatch]\n")
    rc, out, _ = check(root)
    assert rc == 1 and "suppression-invalid" in out and "manifest-hash-mismatch" in out


def test_baseline_files_are_checked(tmp_path: Path, bundled_root: Path) -> None:
    not_a_baseline = tmp_path / "notes.json"
    not_a_baseline.write_text('{"mine": true}\n', encoding="utf-8")
    rc, _, err = check(bundled_root, "--write-baseline", str(not_a_baseline))
    assert rc == 2 and "output-refused" in err and not_a_baseline.read_text(encoding="utf-8") == '{"mine": true}\n'
    rc, _, err = check(bundled_root, "--baseline", str(not_a_baseline))
    assert rc == 2 and "baseline-unreadable" in err and "Traceback" not in err
    rc, _, err = check(bundled_root, "--baseline", str(tmp_path / "absent.json"))
    assert rc == 2 and err.count("\n") == 1
