"""The interpreter against the real corpus and the bundled sample spec.

Parses every ASL unit and AVS test of the corpus, runs the elementwise
tile-tile family and a fixed sample of every surface, and checks
legality-from-ASL and the hardware-ieee profile against the corpus's own
hardware vectors.
"""

from __future__ import annotations

from specgen.workspace import fresh

import io
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

import shutil

from specgen.asl import ASLError, Interpreter, interpreter_for
from specgen.asl.index import build_index, parse_cached
from specgen.asl.legality import admitted_datatypes, admitted_datatypes_all
from specgen.asl.profiles import get_profile
from specgen.asl.runner import discover, run_tests, select
from specgen.cli import main
from specgen.loader import load_spec

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
pytestmark = pytest.mark.corpus

# Full-suite figures (reference profile); see docs-internal/asl-interpreter.md: every AVS test passes
EXPECTED_0583 = {"passed": 3352, "failed": 0, "error": 0, "not-derivable": 0}
EXPECTED_0580 = {"passed": 909, "failed": 0, "error": 0, "not-derivable": 0}


@pytest.fixture(scope="module")
def corpus_spec(corpus_root):
    return load_spec(corpus_root)


@pytest.fixture(scope="module")
def corpus_index(corpus_spec):
    return build_index(corpus_spec)


def test_every_corpus_unit_and_test_parses(corpus_root, corpus_spec, corpus_index):
    assert corpus_index.parse_errors == []
    assert len(corpus_index.files) == len(list((corpus_root / "asl").rglob("*.asl")))
    failures = []
    for t in corpus_spec.tests:
        try:
            parse_cached(t.text.encode("utf-8"), t.path)
        except ASLError as exc:
            failures.append(str(exc))
    assert failures == []
    assert len(corpus_spec.tests) == len(list((corpus_root / "tests" / "asl").rglob("*.asl"))) > 3000


def test_elementwise_tile_tile_family(corpus_spec):
    report = run_tests(corpus_spec, ["tile/elementwise-tile-tile"], jobs=2)
    assert len(report.results) == 211
    not_passed = [(r.path, r.status, r.reason, r.message) for r in report.results if r.status != "passed"]
    # the generated command decoder and tile dispatch (specgen.asl.gen_*) close the family
    assert not_passed == []
    assert report.count("passed") == 211


def _not_passed(report) -> list[tuple[str, str, str, str]]:
    """Every non-passing test with its reason, location and message (what the assertion shows)."""
    return [(r.path, r.reason, r.location, r.message) for r in report.results if r.status != "passed"]


# The two full suites each run on the runner's own two worker processes; the group keeps them on
# one xdist worker (``--dist loadgroup``) so they never run side by side with each other.
@pytest.mark.slow
@pytest.mark.xdist_group("full-corpus")
def test_full_suite_0583(corpus_spec):
    report = run_tests(corpus_spec, [], jobs=2)
    assert len(report.results) == 3352
    assert _not_passed(report) == []
    assert report.counts == EXPECTED_0583


@pytest.fixture(scope="module")
def corpus_0580(corpus_root):
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the 0.58.0 corpus must be at {root} under CI")
        pytest.skip(f"corpus 0.58.0 not found at {root}")
    return load_spec(root)


@pytest.mark.slow
@pytest.mark.xdist_group("full-corpus")
def test_full_suite_0580(corpus_0580):
    report = run_tests(corpus_0580, [], jobs=2)
    assert len(report.results) == 909
    assert _not_passed(report) == []
    assert report.counts == EXPECTED_0580


def test_jobs_do_not_change_results(corpus_spec):
    sel = ["TMAX/", "TSHR/"]
    one = run_tests(corpus_spec, sel, jobs=1)
    two = run_tests(corpus_spec, sel, jobs=2)
    strip = lambda rep: [(r.path, r.status, r.message, r.location) for r in rep.results]  # noqa: E731
    assert strip(one) == strip(two) and len(one.results) > 5


def _test_cmd(root, selectors, fmt, out):
    return main(["test", "--root", str(root), *selectors, "--jobs", "1", "--format", fmt], out, io.StringIO())


def test_specgen_test_formats_and_exit_codes(corpus_root, tmp_path):
    out = io.StringIO()
    assert _test_cmd(corpus_root, ["TSUB/tile-exec-tsub-order-001"], "json", out) == 0
    doc = json.loads(out.getvalue())
    assert doc["summary"]["passed"] == 1 and doc["tests"][0]["seconds"] > 0
    out = io.StringIO()
    code = _test_cmd(corpus_root, ["TMUL/tile-static-tmul-contract-001", "FCVTP/scalar-exec-fcvtp-direct-001"],
                     "junit", out)
    assert code == 0  # the FSU conversion test runs specgen's generated shard
    assert "<testsuite" in out.getvalue() and "<failure" not in out.getvalue()
    out = io.StringIO()
    assert _test_cmd(corpus_root, ["no-such-test-anywhere"], "text", out) == 2
    assert _test_cmd(tmp_path, [], "text", io.StringIO()) == 2


def test_failing_test_reports_assert_location_and_stack(corpus_root, tmp_path):
    root = tmp_path / "tree"
    (root / "tests" / "asl" / "x").mkdir(parents=True)
    shutil.copytree(corpus_root / "asl", root / "asl")  # not a link: the loader reads nothing outside the root
    shutil.copytree(corpus_root / "spec" / "catalog", root / "spec" / "catalog")
    (root / "tests" / "asl" / "x" / "bad.asl").write_text(
        '// PTO-TEST: {"id":"X-1"}\nfunc main() => integer\nbegin\n    ResetProfileState();\n'
        "    ConfigureTile(0, 128, 4, 4, 1, 2, TileDataType_U64, TileLayout_RowMajor, TileLocation_Any);\n"
        "    let v = ReadTileElement(0, 0, 0);\n    return 0;\nend;\n"
    )
    out = io.StringIO()
    # the header fails validation (six keys missing): the test still runs, selected by path
    assert _test_cmd(root, ["x/bad.asl"], "text", out) == 1
    text = out.getvalue()
    assert "FAILED: tests/asl/x/bad.asl ()" in text
    assert "in main at tests/asl/x/bad.asl:6" in text
    assert "in ReadTileElement at asl/tile/model/definedness/elements.asl:" in text
    assert "0 passed, 1 failed" in text


def test_missing_function_fails_at_file_and_line(corpus_root, tmp_path):
    root = tmp_path / "tree"
    (root / "tests" / "asl" / "x").mkdir(parents=True)
    shutil.copytree(corpus_root / "asl", root / "asl")
    shutil.copytree(corpus_root / "spec" / "catalog", root / "spec" / "catalog")
    (root / "tests" / "asl" / "x" / "shard.asl").write_text(
        '// PTO-TEST: {"id":"X-2"}\nfunc main() => integer\nbegin\n    ResetProfileState();\n'
        "    ValidateCanonicalScalarNoSuchShard();\n    return 0;\nend;\n")
    out = io.StringIO()
    assert _test_cmd(root, ["x/shard.asl"], "junit", out) == 1
    assert 'type="missing-function:ValidateCanonicalScalarNoSuchShard"' in out.getvalue()
    assert "tests/asl/x/shard.asl:5" in out.getvalue()
    assert "needs-generated" not in out.getvalue()


def test_tmul_legality_from_asl(corpus_spec):
    tmul = admitted_datatypes(corpus_spec, "TMUL")
    assert tmul is not None and len(tmul) == 16
    assert {"U64", "S8", "FP16", "BF16", "FP64"} <= tmul
    assert "U4X2" not in tmul and "HiF8" not in tmul
    everything = admitted_datatypes_all(corpus_spec)
    assert everything["TMUL"] == tmul
    assert everything["TAND"] == frozenset({"S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8"})
    assert len(everything) >= 80
    assert admitted_datatypes(corpus_spec, "NOSUCH") is None


# ------------------------------------------------------------------ hardware-ieee profile
def _tile_op(it: Interpreter, op: str, dtype: str, left: int, right: int) -> int:
    it.reset()
    it.call("ResetProfileState")
    for i in (0, 1, 2):
        it.call("ConfigureTile", i, 128, 4, 4, 1, 1, f"TileDataType_{dtype}",
                "TileLayout_RowMajor", "TileLocation_Any")
    it.call("WriteTileElement", 0, 0, 0, left)
    it.call("WriteTileElement", 1, 0, 0, right)
    assert it.call(f"InstructionContractOperandsLegal_{op}", 2, 0, 1)
    it.call(f"InstructionContractExecute_{op}", 2, 0, 1)
    return it.call("ReadTileElement", 2, 0, 0).v


@pytest.fixture(scope="module")
def hardware(corpus_spec):
    it = interpreter_for(corpus_spec)
    get_profile("hardware-ieee").install(it)
    return it


@pytest.fixture(scope="module")
def vectors(corpus_root):
    path = corpus_root / "spec" / "evidence" / "pto-isa-0583-hardware-numeric-vectors.json"
    return json.loads(path.read_text())["vector_groups"]


_ONE = {"FP64": 0x3FF0000000000000, "FP32": 0x3F800000, "FP16": 0x3C00, "BF16": 0x3F80}
_INF = {"FP64": 0x7FF0000000000000, "FP32": 0x7F800000, "FP16": 0x7C00, "BF16": 0x7F80}
_FP32 = {"+0": 0x0, "-0": 0x80000000, "+1": 0x3F800000, "-1": 0xBF800000, "2": 0x40000000}
_OPNAME = {"multiply": "TMUL", "add": "TADD", "minimum": "TMIN", "maximum": "TMAX"}


def test_hardware_canonical_nan(hardware, vectors):
    group = [v for v in vectors["canonical_nan"] if v["data_type"] in _INF]
    assert len(group) == 4
    for v in group:
        dt = v["data_type"]
        # inf - inf and NaN-propagating arithmetic both produce the canonical NaN
        assert _tile_op(hardware, "TSUB", dt, _INF[dt], _INF[dt]) == int(v["expected"], 16), dt
        payload_nan = _INF[dt] | 1
        assert _tile_op(hardware, "TADD", dt, payload_nan, _ONE[dt]) == int(v["expected"], 16), dt


def test_hardware_signed_zero(hardware, vectors):
    for v in vectors["signed_zero"]:
        a, b = (_FP32[x] for x in v["inputs"])
        assert _tile_op(hardware, _OPNAME[v["operation"]], "FP32", a, b) == int(v["expected"], 16), v["id"]


def test_hardware_subnormals_are_preserved_with_gradual_underflow(hardware, vectors):
    raws = {v["id"]: int(v["raw"], 16) for v in vectors["subnormal_policy"] if "raw" in v}
    tiny = raws["fp32-minimum-subnormal"]
    assert _tile_op(hardware, "TMUL", "FP32", tiny, _ONE["FP32"]) == tiny  # no DAZ
    assert _tile_op(hardware, "TADD", "FP32", tiny, tiny) == 2  # subnormal sum stays exact
    half = 0x3F000000
    assert _tile_op(hardware, "TMUL", "FP32", raws["fp32-minimum-normal"], half) == 0x00400000  # no FTZ
    assert _tile_op(hardware, "TADD", "FP32", raws["fp32-maximum-subnormal"], tiny) == raws["fp32-minimum-normal"]


def test_reference_profile_keeps_raw_carrier_arithmetic(corpus_spec):
    it = interpreter_for(corpus_spec)
    # FP16 1.0 x 2.0 as modular 64-bit integer product of the carriers
    assert _tile_op(it, "TMUL", "FP16", 0x3C00, 0x4000) == 0x3C00 * 0x4000
    hw = interpreter_for(corpus_spec)
    get_profile("hardware-ieee").install(hw)
    assert _tile_op(hw, "TMUL", "FP16", 0x3C00, 0x4000) == 0x4000
    assert _tile_op(hw, "TMUL", "BF16", 0x3F80, 0x4000) == 0x4000
    assert _tile_op(hw, "TADD", "FP64", _ONE["FP64"], _ONE["FP64"]) == 0x4000000000000000


# ------------------------------------------------------------------ the bundled sample spec
def test_bundled_spec_tests_all_pass(bundled_root):
    assert (bundled_root / "tests" / "asl").is_dir()
    report = run_tests(load_spec(bundled_root), [], jobs=1)
    bad = [(r.path, r.status, r.location, r.message) for r in report.results if r.status != "passed"]
    assert bad == [] and report.results


def test_a_cold_index_parsed_by_helpers_is_the_serial_one(corpus_spec, tmp_path, monkeypatch):
    """A helper's units are summarised where they were parsed and decoded only when used: the tables and every
    module equal a serial parse's."""
    from specgen.asl import parse_fork
    from specgen.cache import codec
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "serial"))
    monkeypatch.setenv("SPECGEN_PARSE_JOBS", "1")
    fresh()
    serial = build_index(corpus_spec)
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "helpers"))
    monkeypatch.setenv("SPECGEN_PARSE_JOBS", "2")
    monkeypatch.setattr(parse_fork.threading, "active_count", lambda: 1)  # pytest's threads: fork anyway
    fresh()
    forked = build_index(corpus_spec)
    assert len(serial.files) > 400
    assert 0 < forked.loaded_module_count < len(forked.files)  # the helper's share is not decoded yet
    assert (forked.defs, forked.refs, forked.digests, forked.parse_errors) == \
        (serial.defs, serial.refs, serial.digests, serial.parse_errors)
    assert all(codec.encode(forked.module(i)) == codec.encode(serial.module(i)) for i in range(len(serial.files)))


def test_selector_matches_path_substring_or_id(corpus_spec):
    cases = discover(corpus_spec)
    by_path = select(cases, ["tile/elementwise-tile-tile"])
    assert len(by_path) == 211
    by_id = select(cases, ["PTO-AVS-TILE-TMUL-ALIAS-001"])
    assert [c.rel for c in by_id] == ["tile/elementwise-tile-tile/arithmetic/TMUL/tile-state-tmul-alias-001.asl"]


def test_index_cache_is_outside_the_spec_root(corpus_spec, tmp_path, monkeypatch):
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    fresh()  # an index this process kept for the spec would write nothing
    idx = build_index(corpus_spec)
    assert "TileDataType" in idx.defs
    assert any((tmp_path / "cache" / "asl").glob("index*-*.entry"))  # index<summary format>-<key>.entry
    fresh()  # from the disk cache, not the index this process kept
    again = build_index(corpus_spec)
    assert again.defs.keys() == idx.defs.keys()
    assert again.loaded_module_count == 0  # warm: nothing decoded until used
    it = Interpreter(again)
    assert it.call("TileVecArithmeticDataTypeSupported", "TileDataType_U64") is True
    assert 0 < again.loaded_module_count < len(again.files) // 4
