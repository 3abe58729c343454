"""Property tests: every parser of untrusted text returns findings, never an exception.

Bounded on purpose (small ``max_examples``, no deadline) so the file stays a
quick part of the suite; the long runs are the atheris harnesses in ``fuzz/``
(docs-internal/robustness.md). Each property also checks the findings are well
formed: a rule id, the path given, a line inside the input (0 = whole file),
and a message that serialises as strict JSON.
"""

from __future__ import annotations

import json
import os
import re
import string
from pathlib import Path
from typing import Any, Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.diagnostics import Finding, Severity
from specgen.files import SpecFiles
from specgen.loader.adrs import scan_adr
from specgen.loader.asl_units import scan_unit
from specgen.loader.avs import scan_test
from specgen.loader.jsonrec import parse_json, validate
from specgen.models.adr import AdrFrontMatter
from specgen.models.catalog import CATALOG_MODELS
from specgen.models.evidence import TraceabilityView
from specgen.models.instruction import InstructionHeader
from specgen.models.manifest import ReleaseManifest
from specgen.models.test import TestHeader
from specgen.models.unit import ReviewRecord, StateRecord, UnitHeader
from specgen.vocabulary import Vocabulary

RULE_ID = re.compile(r"^[a-z][a-z0-9-]*$")
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
UNIT_PATH = "asl/tile/model/x.asl"
TEST_PATH = "tests/asl/tile/model/x/tile-exec-x-001.asl"
ADR_PATH = "docs/status/decisions/0001-x.md"
HDR = '// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}'


def assert_findings(findings: Iterable[Finding], path: str, nlines: int) -> None:
    for f in findings:
        assert isinstance(f, Finding) and isinstance(f.severity, Severity)
        assert RULE_ID.match(f.rule), f.rule
        assert f.path == path, f
        assert 0 <= f.line <= max(nlines, 1), (f.format(), nlines)
        assert f.col >= 0 and f.message, f
        json.dumps(f.to_json(), allow_nan=False)


def lines_of(text: str) -> int:
    return text.count("\n") + 1


# Text that looks like ASL often enough to reach the parsers' inner states.
PIECES = st.sampled_from([
    HDR, "// PTO-UNIT: ", "// PTO-INSTRUCTION: {", "// PTO-REVIEW: {}", "// PTO-STATE: []", "// PTO-TEST: ",
    "// NDF-BEGIN: PTO-X-001", "// NDF-BEGIN: PTO-Y-002", "// NDF-BEGIN: bad id", "// NDF-END: PTO-X-001",
    "// NDF-END: PTO-Y-002", "// ndf: kind=contract level=L1 layer=tile status=accepted", "// ndf: kind",
    "// ndf: kind=intent level=L3 layer=x status=open extra=1", "// DOC-BEGIN: decode", "// DOC-END: decode",
    "// DOC-BEGIN: Bad", "// DOC-END: other", "// a rule", "func X() => integer", "", "//", "---", "# T",
    '{"a": NaN}', "[" * 50, '"\\ud800"', "1" * 5000,
])
LINES = st.lists(st.one_of(PIECES, st.text(string.printable, max_size=40)), max_size=30)


@FAST
@given(st.binary(max_size=2000))
def test_decode_and_scan_unit_on_bytes(data: bytes) -> None:
    fs = SpecFiles(Path("/nonexistent-hypothesis-root"))
    text = fs.decode(UNIT_PATH, data, ascii_only=True)
    normalised = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    assert_findings(fs.findings, UNIT_PATH, normalised.count(b"\n") + 1)
    if text is not None:
        findings: list[Finding] = []
        scan_unit(UNIT_PATH, "0" * 64, text, findings)
        assert_findings(findings, UNIT_PATH, lines_of(text))


@FAST
@given(LINES, st.booleans())
def test_scan_unit_structured(lines: list[str], newline: bool) -> None:
    """Headers, NDF clauses and DOC regions in any order, nesting and crossing."""
    text = "\n".join(lines) + ("\n" if newline else "")
    findings: list[Finding] = []
    unit = scan_unit(UNIT_PATH, "0" * 64, text, findings)
    assert_findings(findings, UNIT_PATH, lines_of(text))
    assert len(unit.clauses) <= text.count("// NDF-BEGIN: ")
    for c in unit.clauses:
        assert 1 <= c.span.line <= lines_of(text)
    if unit.header_span is None:
        assert any(f.rule == "header-missing" for f in findings)


NDF_LINE = st.one_of(
    st.builds(lambda i: f"// NDF-BEGIN: {i}", st.sampled_from(["PTO-A-001", "PTO-B-002", "x", ""])),
    st.builds(lambda i: f"// NDF-END: {i}", st.sampled_from(["PTO-A-001", "PTO-B-002", "x", ""])),
    st.builds(lambda kv: "// ndf: " + " ".join(kv), st.lists(st.sampled_from(
        ["kind=contract", "level=L1", "layer=tile", "status=accepted", "kind=intent", "level=L0", "status=open",
         "color=red", "kind", "=", "level=L1=L2"]), max_size=6)),
    st.sampled_from(["// body", "body without comment", "// DOC-BEGIN: notes", "// DOC-END: notes", ""]),
)


@FAST
@given(st.lists(NDF_LINE, max_size=25))
def test_ndf_state_machine(lines: list[str]) -> None:
    """Every clause that opens is closed, reported unterminated, or both; findings stay on real lines."""
    text = HDR + "\n" + "\n".join(lines) + "\n"
    findings: list[Finding] = []
    unit = scan_unit(UNIT_PATH, "0" * 64, text, findings)
    assert_findings(findings, UNIT_PATH, lines_of(text))
    rules = {f.rule for f in findings}
    opened = sum(1 for ln in lines if ln.startswith("// NDF-BEGIN: "))
    closed = sum(1 for ln in lines if ln.startswith("// NDF-END: "))
    if opened > closed and "// DOC-BEGIN: notes" not in lines:
        assert "ndf-unterminated" in rules
    if closed > opened and "// DOC-BEGIN: notes" not in lines:
        assert "ndf-mismatched-end" in rules
    for c in unit.clauses:
        assert c.span.line <= c.span.end_line


@FAST
@given(st.one_of(st.binary(max_size=1500),
                 st.builds(lambda ls: "\n".join(ls).encode(), LINES)))
def test_scan_test_header(data: bytes) -> None:
    fs = SpecFiles(Path("/nonexistent-hypothesis-root"))
    text = fs.decode(TEST_PATH, data, ascii_only=True)
    if text is None:
        return
    findings: list[Finding] = []
    test = scan_test(TEST_PATH, "0" * 64, text, findings)
    assert_findings(findings, TEST_PATH, lines_of(text))
    assert (test.header is None) == any(f.rule in ("header-missing", "record-json", "record-schema",
                                                   "record-duplicate-key", "line-too-long") for f in findings)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20)


def adr_text(front: Any, title: str, raw: str | None) -> str:
    fm = raw if raw is not None else json.dumps(front, indent=2)
    return f"---\n{fm}\n---\n{title}\n\nBody.\n"


@FAST
@given(JSON_VALUES, st.sampled_from(["# ADR 0001: T", "# ", "## Not a title", "", "# ADR-0001 — T"]),
       st.one_of(st.none(), st.text(max_size=80)))
def test_scan_adr(front: Any, title: str, raw: str | None) -> None:
    text = adr_text(front, title, raw)
    findings: list[Finding] = []
    adr = scan_adr(ADR_PATH, "0" * 64, text, findings)
    assert_findings(findings, ADR_PATH, lines_of(text))
    assert isinstance(adr.title, str)


MODELS = [UnitHeader, InstructionHeader, ReviewRecord, StateRecord, TestHeader, AdrFrontMatter,
          ReleaseManifest, TraceabilityView, *CATALOG_MODELS.values()]


@FAST
@given(st.sampled_from(MODELS), st.one_of(
    st.text(max_size=300),
    st.builds(lambda v: json.dumps(v), JSON_VALUES),
    st.sampled_from(['{"a": NaN}', '{"a": Infinity}', '{"a": ' + "9" * 5000 + "}", "[" * 100000,
                     '{"a": 1, "a": 2}', '{"id": "\\ud800"}', '{"id": 1e999}', "{" * 3000])))
def test_json_record_path(model: Any, text: str) -> None:
    findings: list[Finding] = []
    data = parse_json(text, "spec/x.json", 1, 0, "record", findings)
    if data is not None:
        validate(model, data, text, "spec/x.json", 1, 0, "record", findings)
    else:
        assert findings
    assert_findings(findings, "spec/x.json", lines_of(text))


# --------------------------------------------------------------------------- manifest + check on a tiny tree

MANIFEST_OK: dict[str, Any] = {
    "schema_version": 1, "release": "0.0.1", "specification_status": "draft", "encoding_abi": "x",
    "content_sha256": "0" * 64,
    "release_selection": {"architecture_version": "0.0.1", "baseline_commit": "0" * 40, "blockers": [],
                          "excluded_draft_adrs": [], "expanded_ndf": [], "included_ndf_statuses": ["accepted"],
                          "policy_sha256": "0" * 64, "required_readiness_floor": "executable",
                          "selected_adr_ids": []},
    "hash_contract": {"algorithm": "SHA-256", "content_projection": "x", "json_encoding": "x"},
    "catalog_counts": {}, "canonical_inputs": [], "owned_artifacts": [],
}
PATHS = st.sampled_from(["asl/tile/model/x.asl", "/etc/passwd", "../secret.txt", "asl/../../secret.txt",
                         "spec/link.txt", "asl\\x.asl", "C:/x", "asl//x.asl", "./asl/tile/model/x.asl",
                         "asl/tile/model/absent.asl", "", "asl/tile/model", "spec/release-manifest.json"])
ROWS = st.lists(st.fixed_dictionaries({"path": PATHS, "sha256": st.sampled_from(["0" * 64, "zz", "A" * 64])}),
                max_size=5)


@pytest.fixture(scope="module")
def tiny_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("tiny")
    root = base / "root"
    (root / "asl/tile/model").mkdir(parents=True)
    (root / "spec").mkdir()
    (root / "asl/tile/model/x.asl").write_text(
        HDR + "\n// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n"
        "// A rule.\n// NDF-END: PTO-X-001\n", encoding="utf-8")
    (base / "secret.txt").write_text("HYPOTHESIS-SECRET", encoding="utf-8")
    os.symlink("../../secret.txt", root / "spec/link.txt")
    return root


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(rows=ROWS, owned=ROWS, mutate=st.dictionaries(st.sampled_from(sorted(MANIFEST_OK)), JSON_VALUES, max_size=2),
       raw=st.one_of(st.none(), st.text(max_size=60)))
def test_manifest_model_and_check(tiny_tree: Path, rows: list[dict[str, str]], owned: list[dict[str, str]],
                                  mutate: dict[str, Any], raw: str | None) -> None:
    from specgen.check import run_checks
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec

    data = {**MANIFEST_OK, "canonical_inputs": rows,
            "owned_artifacts": [dict(r, kind="generated-evidence") for r in owned], **mutate}
    text = raw if raw is not None else json.dumps(data, indent=2)
    (tiny_tree / "spec/release-manifest.json").write_text(text, encoding="utf-8")
    spec = load_spec(tiny_tree)
    findings, _ = run_checks(SpecGraph.build(spec))
    for f in findings:
        assert RULE_ID.match(f.rule) and f.line >= 0 and f.col >= 0
        assert "HYPOTHESIS-SECRET" not in f.message + f.subject
        json.dumps(f.to_json(), allow_nan=False)
    if spec.manifest is not None:
        unsafe = {f.subject for f in findings if f.rule == "manifest-unsafe-path"}
        for r in spec.manifest.canonical_inputs:
            if r.path.startswith("/") or ".." in r.path.split("/") or r.path == "spec/link.txt":
                assert r.path in unsafe, (r.path, unsafe)


# --------------------------------------------------------------------------- block programs (examples)

PROGRAM_PIECES = st.sampled_from([
    "BSTART.VEC TADD, S32", "BSTART.VEC TMUL, FP16", "BSTART.TEPL 0, 2, FP16", "BSTART.SFU X, 99",
    "B.DIM LB0=4", "B.DIM LB1=", "B.DIM zero, 64, ->LB0", "B.DATR PadValue=Max", "B.DATR {NORM, 1, 2}",
    "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>", "B.IOT T99, , ->Q<9>", "BSTOP", ";", "# c", "// c",
    "(optional)", "<", "->", "0x", "0b2", "99999999999999999999999", "{", "}", "ValidCol", "DstTile<TSize>",
])


@FAST
@given(text=st.one_of(st.lists(st.one_of(PROGRAM_PIECES, st.text(string.printable, max_size=15)), max_size=12)
                      .map(lambda p: "\n".join(p)), st.text(max_size=200)))
def test_block_program_parser(text: str, bundled_vocabulary: Vocabulary) -> None:
    """A malformed program is a located ProgramError, never another exception."""
    program_mod = pytest.importorskip("specgen.program.reader")
    try:
        program = program_mod.parse_program(text, bundled_vocabulary, "examples/x.json")
    except program_mod.ProgramError as e:
        assert e.line >= 0 and e.col >= 0 and e.message
        assert e.line <= lines_of(text) + 1, (e.line, text)
    else:
        assert program is not None
