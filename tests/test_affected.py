"""``specgen test --changed`` and ``--affected-by PATH|NAME``: the layer's records on the command line.

Each result ``specgen test`` records names what its run read (the test file and every ASL definition
it executed or asked about). ``--affected-by`` selects the tests whose last recorded reads include a
file or a definition; ``--changed`` those without a result valid for the tree as it is now.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from specgen.cli import main as cli

HELPER_UNIT = "asl/tile/model/execution/elementwise.asl"


def _test(root: Path, *args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = cli(["test", "--root", str(root), "--jobs", "1", *args], out=out, err=err)
    return rc, out.getvalue()


def _ran(text: str) -> int:
    m = re.search(r"(\d+) passed, (\d+) failed, (\d+) error", text)
    assert m is not None, text
    return sum(int(x) for x in m.groups())


def _edit_helper(root: Path) -> None:
    p = root / HELPER_UNIT
    text = p.read_text(encoding="utf-8")
    begin = text.index("\nbegin\n", text.index("func ExecuteTileBinary(")) + 1
    p.write_text(text[:begin] + "begin let edit_marker = 1;" + text[begin + len("begin"):], encoding="utf-8")


def test_changed_and_affected_by_follow_what_each_test_read(bundled_copy: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    rc, out = _test(bundled_copy, "--changed")  # nothing recorded yet: every test
    assert rc == 0
    total = _ran(out)
    assert total >= 20
    rc, out = _test(bundled_copy, "--changed")
    assert rc == 0 and "no test changed since its last recorded result" in out

    rc, out = _test(bundled_copy, "--affected-by", "ExecuteTileBinary")
    assert rc == 0
    readers = _ran(out)
    assert 0 < readers < total  # the tests that executed the helper, not every test

    one = sorted((bundled_copy / "tests" / "asl").rglob("*.asl"))[0]
    rc, out = _test(bundled_copy, "--affected-by", str(one))  # a file, as a path from anywhere
    assert rc == 0 and _ran(out) == 1
    rc, out = _test(bundled_copy, "--affected-by", "NoSuchDefinitionAnywhere")
    assert rc == 0 and "no test read NoSuchDefinitionAnywhere" in out

    _edit_helper(bundled_copy)  # exactly the tests that read it changed
    rc, out = _test(bundled_copy, "--changed")
    assert rc == 0 and _ran(out) == readers
    rc, out = _test(bundled_copy, "--changed")
    assert "no test changed" in out

    # a comment that moves no declaration changes nothing a test read
    unit = bundled_copy / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text(encoding="utf-8") + "// a note at the end\n", encoding="utf-8")
    rc, out = _test(bundled_copy, "--changed")
    assert "no test changed" in out


def test_changed_fails_while_a_recorded_failure_stands(bundled_copy: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37: ``--changed`` re-runs nothing whose inputs held, but a failure it recorded still stands: exit 1
    and the failure listed, until the test passes again."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    failing = bundled_copy / "tests/asl/arch/data-types/integer/arch-exec-integer-word-modulo-001.asl"
    text = failing.read_text(encoding="utf-8")
    failing.write_text(text.replace("    return 0;", "    return 1;"), encoding="utf-8")
    where = "tests/asl/arch/data-types"
    rc, out = _test(bundled_copy, where)
    assert rc == 1 and "1 failed" in out
    rc, out = _test(bundled_copy, "--changed", where)  # nothing changed: nothing runs, the failure stands
    assert rc == 1, out
    assert "no test changed since its last recorded result" in out
    assert f"FAILED (recorded, unchanged since): {where}/integer/{failing.name}" in out
    assert "main() returned 1, expected 0" in out and "1 recorded failure still stands" in out
    other = bundled_copy / "tests/asl/arch/data-types/floating-formats/arch-exec-floating-formats-classify-001.asl"
    other.write_text(other.read_text(encoding="utf-8") + "// touched\n", encoding="utf-8")
    rc, out = _test(bundled_copy, "--changed", where)  # the changed test runs and passes; the failure still stands
    assert rc == 1 and _ran(out) == 1 and "1 passed, 0 failed" in out and "1 recorded failure still stands" in out
    failing.write_text(text, encoding="utf-8")  # fixed: it runs (its file changed) and passes
    rc, out = _test(bundled_copy, "--changed", where)
    assert rc == 0 and _ran(out) == 1 and "still stand" not in out, out
    rc, out = _test(bundled_copy, "--changed", where)
    assert rc == 0 and "no test changed" in out
