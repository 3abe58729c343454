"""Issue 24's smaller probes: located recursion and ``main()`` failures, ``validate`` parses every AVS
test, an unlisted catalog is reported."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.cli import main

HEADER = ('// PTO-TEST: {"id":"PTO-AVS-SMALL-%s","source":"asl/arch/faults/architectural-faults.asl",'
          '"requirements":[],"kind":"state-transition","summary":"probe","pass_condition":"probe",'
          '"related_sources":[]}\n')


def _write_test(root: Path, name: str, body: str) -> str:
    d = root / "tests" / "asl" / "probe"
    d.mkdir(parents=True, exist_ok=True)
    rel = f"tests/asl/probe/probe-{name.lower()}-001.asl"
    (root / rel).write_text(HEADER % name + f"func main() => integer\nbegin\n{body}\n    return 0;\nend;\n",
                            encoding="utf-8")
    return rel


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def small_root(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> Path:
    root = copy_tree(bundled_root, tmp_path_factory.mktemp("small") / "spec")
    n = 100_000
    _write_test(root, "DEEP", "    let x : integer = " + "(" * n + "1" + ")" * n + ";")
    _write_test(root, "MAIN", "    if TRUE then return 3; end;")
    _write_test(root, "SYNTAX", "    let x : integer = 1 +;")
    _write_test(root, "WIDTH", "    var x : bits(8) = Zeros{8};\n    x = Zeros{16};")
    return root


def test_recursion_and_main_failures_are_located(small_root: Path) -> None:
    code, out, err = _run("test", "--root", str(small_root), "--jobs", "1", "--format", "json",
                          "PTO-AVS-SMALL-DEEP", "PTO-AVS-SMALL-MAIN")
    results = {r["id"]: r for r in json.loads(out)["tests"]}
    deep, ret = results["PTO-AVS-SMALL-DEEP"], results["PTO-AVS-SMALL-MAIN"]
    assert deep["status"] == "error" and "nested too deeply to parse" in deep["message"]
    assert deep["location"].startswith("tests/asl/probe/probe-deep-001.asl:4:")
    assert ret["status"] == "failed" and ret["message"] == "main() returned 3, expected 0"
    assert ret["location"] == "tests/asl/probe/probe-main-001.asl:2:1"
    assert "Traceback" not in err


def test_validate_parses_every_avs_test(small_root: Path) -> None:
    code, out, _ = _run("validate", "--root", str(small_root), "--format", "json")
    assert code == 1
    found = {(f["rule"], f["path"], f["line"]) for f in json.loads(out)["findings"]}
    assert ("asl-syntax", "tests/asl/probe/probe-syntax-001.asl", 4) in found
    assert ("asl-syntax", "tests/asl/probe/probe-deep-001.asl", 4) in found
    assert ("asl-type", "tests/asl/probe/probe-width-001.asl", 5) in found  # literal widths: seen statically


def test_an_unlisted_catalog_is_an_error_and_manifest_write_lists_it(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    (root / "spec" / "catalog" / "extra.json").write_text('{"x": 1}\n', encoding="utf-8")
    code, out, _ = _run("check", "--root", str(root), "--no-cache", "--format", "json", "--only",
                        "manifest-unlisted-file")
    findings = json.loads(out)["findings"]
    assert code == 1 and [(f["path"], f["severity"]) for f in findings] == [("spec/catalog/extra.json", "error")]
    assert _run("manifest", "--root", str(root), "--write")[0] == 0
    code, out, _ = _run("check", "--root", str(root), "--no-cache", "--format", "json", "--only",
                        "manifest-unlisted-file")
    assert json.loads(out)["findings"] == []
