"""A bounded fuzz run per input kind, part of CI: damaged bytes in each kind of file, through the loader.

``tests/test_fuzz.py`` fuzzes each parser on its own; here hypothesis damages one file of a small
but complete tree (an ASL unit, an AVS test, a catalog, a checked example, an ADR, the manifest,
``specification.toml``) with the damage the issue found (invalid UTF-8, NUL bytes, deep nesting, a
truncation, random bytes) and runs the loader and every check rule over the tree: never an
exception, every finding well formed and, when it is about the damaged file, inside it. Plus the
parsers the other file does not cover: checked examples, the configuration, ``specgen run``'s
reader, and the nesting-depth scan against the real nesting. Each test is bounded by
``max_examples`` (a few seconds each on the 2-core reference machine).
"""

from __future__ import annotations

import io
import json
import shutil
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.diagnostics import Finding
from specgen.files import MAX_JSON_DEPTH, json_too_deep
from specgen.loader.config import load_config

from test_fuzz import RULE_ID, assert_findings, lines_of

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
TREE = settings(max_examples=8, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
REPO = Path(__file__).resolve().parent.parent

# one file of each kind the loader reads, in the bundled spec
KINDS = {
    "unit": "asl/tile/elementwise-tile-tile/logical/TAND.asl",
    "test": "tests/asl/tile/elementwise-tile-tile/logical/TAND/tile-exec-tand-widths-001.asl",
    "catalog": "spec/catalog/tile-operations.json",
    "example": "examples/tile/elementwise-tile-tile/logical/TAND/u8.json",
    "adr": "docs/status/decisions/0001-executable-datatype-sets.md",
    "manifest": "spec/release-manifest.json",
    "config": "specification.toml",
}


def _damage() -> st.SearchStrategy[tuple[str, Any]]:
    """(how, argument): what to do to the file's bytes."""
    return st.one_of(
        st.tuples(st.just("insert"), st.tuples(st.floats(0, 1), st.sampled_from(
            [b"\xff", b"\xc3", b"\x00", b"\x00\x00", b"\r", b"\xef\xbb\xbf", b"[" * 3000, b"{" * 300,
             b'"', b"}", b"\n// NDF-BEGIN: PTO-X\n", b"\t", b"\xed\xa0\x80"]))),
        st.tuples(st.just("truncate"), st.floats(0, 1)),
        st.tuples(st.just("replace"), st.binary(max_size=400)),
        st.tuples(st.just("deep"), st.integers(MAX_JSON_DEPTH - 2, 20_000)),
    )


def _apply(data: bytes, how: str, arg: Any) -> bytes:
    if how == "insert":
        at, what = arg
        i = int(at * len(data))
        return data[:i] + what + data[i:]
    if how == "truncate":
        return data[:int(arg * len(data))]
    if how == "replace":
        return arg
    return b"[" * arg + b"]" * arg


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz-tree") / "spec"
    shutil.copytree(REPO / "spec", root)
    return root


@pytest.mark.parametrize("kind", sorted(KINDS))
@TREE
@given(damage=_damage())
def test_damaged_file_of_each_kind_through_load_and_check(tree: Path, kind: str, damage: tuple[str, Any]) -> None:
    from specgen.check import run_checks
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec

    rel = KINDS[kind]
    path = tree / rel
    original = path.read_bytes()
    data = _apply(original, *damage)
    path.write_bytes(data)
    try:
        spec = load_spec(tree)
        findings, _ = run_checks(SpecGraph.build(spec), disable=["example-mismatch", "example-fault",
                                                                 "example-sketch", "example-legality"])
    finally:
        path.write_bytes(original)
    nlines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
    for f in findings:
        assert RULE_ID.match(f.rule) and f.line >= 0 and f.col >= 0 and f.message, f
        json.dumps(f.to_json(), allow_nan=False)
        if f.path == rel:
            assert f.line <= nlines, (f.format(), nlines)
    if data != original and b"\x00" in data and kind != "config":
        assert any(f.rule == "file-nul" and f.path == rel for f in spec.findings)


@FAST
@given(text=st.one_of(st.text(max_size=300), st.builds(json.dumps, st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)), st.sampled_from(["[" * 100_000, '{"program": ' + "[" * 5000, '{"a": ' + "9" * 5000 + "}",
                                      '{"program": "BSTOP", "expect": {"fault": null}}'])))
def test_example_file_parser(text: str, bundled_vocabulary: Any) -> None:
    """A malformed checked example is an ExampleFormatError at a line of the file, never another exception."""
    from specgen.examples.model import ExampleFormatError, parse_example
    try:
        parse_example(text, bundled_vocabulary)
    except ExampleFormatError as e:
        assert 1 <= e.line <= lines_of(text) and e.col >= 1 and e.message
        assert "\n" not in e.message


TOML_PIECES = st.sampled_from([
    "[specification]", "[specgen]", "[release]", "[profile]", "source_roots = ['asl']", "source_roots = 3",
    "max_steps = 0", "max_steps = true", "max_unit_bytes = -1", "max_unit_bytes = 'x'", "name = 1",
    "conformance_test_root = 'tests/asl'", "adr_dir = []", "x = [", "= 1", '"', "[[a]]", "a.b.c = 1",
])


@FAST
@given(st.one_of(st.lists(st.one_of(TOML_PIECES, st.text(string.printable, max_size=20)), max_size=10)
                 .map("\n".join), st.text(max_size=200)))
def test_config_parser(text: str) -> None:
    findings: list[Finding] = []
    cfg = load_config(text, "specification.toml", findings)
    assert cfg.max_steps >= 1 and cfg.max_unit_bytes >= 1
    assert_findings(findings, "specification.toml", lines_of(text))


def _depth(v: Any) -> int:
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    return 0


@FAST
@given(st.recursive(st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.text(alphabet='[]{}"\\ab', max_size=4), inner, max_size=3), max_leaves=40),
       st.integers(1, 12))
def test_depth_scan_matches_the_real_nesting(value: Any, limit: int) -> None:
    """Brackets inside strings (escaped quotes too) never count; the first bracket past the limit is found."""
    text = json.dumps(value)
    at = json_too_deep(text, limit)
    assert (at >= 0) == (_depth(value) > limit), (text, limit)
    if at >= 0:
        assert text[at] in "[{"


@FAST
@given(st.binary(max_size=600), st.sampled_from(["x.s", "x.json"]))
def test_run_reads_any_bytes_as_one_line_or_text(tmp_path_factory: pytest.TempPathFactory, data: bytes,
                                                 name: str) -> None:
    from specgen.cli.run import read_input
    path = tmp_path_factory.mktemp("run") / name
    path.write_bytes(data)
    err = io.StringIO()
    text = read_input(str(path), name, err)
    if text is None:
        assert err.getvalue().count("\n") == 1 and err.getvalue().startswith(f"{name}:")
    else:
        assert "\x00" not in text and err.getvalue() == ""
