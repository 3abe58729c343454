"""asl-duplicate: a name the spec's ASL declares twice is one finding at the second declaration, not a
Python ``TypeError`` from the interpreter's overload dispatch (seen on a synthetic clone: a traceback)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from specgen.cli import main

UNIT = "asl/tile/model/state/allocation.asl"


def _check(root: Path, *extra: str) -> tuple[int, dict, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", "--root", str(root), "--no-cache", "--format", "json", *extra], out=out, err=err)
    return code, json.loads(out.getvalue()), err.getvalue()


def test_a_function_declared_twice_is_one_finding_and_the_examples_do_not_crash(bundled_copy: Path,
                                                                               tmp_path: Path,
                                                                               monkeypatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    src = bundled_copy / UNIT
    text = src.read_text(encoding="utf-8")
    copy = bundled_copy / UNIT.replace("allocation.asl", "allocation_copy.asl")
    copy.write_text(text, encoding="utf-8")  # every declaration of the unit a second time
    code, report, err = _check(bundled_copy)
    assert code == 1 and "Traceback" not in err, err[-2000:]
    dups = [f for f in report["findings"] if f["rule"] == "asl-duplicate"]
    assert dups and all(f["path"] == copy.relative_to(bundled_copy).as_posix() for f in dups), dups[:3]
    first = next(f for f in dups if f["subject"] == "TileCapacityIsLegal")
    assert first["line"] == 6 and f"first at {UNIT}:6" in first["message"], first


def test_an_overload_with_other_parameter_types_is_no_duplicate(bundled_copy: Path, tmp_path: Path,
                                                               monkeypatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    src = bundled_copy / UNIT
    src.write_text(src.read_text(encoding="utf-8") + "\npure func TileCapacityIsLegal(capacity_bytes: bits(8)) => boolean\n"
                   "begin\n    return TileCapacityIsLegal(UInt(capacity_bytes));\nend;\n", encoding="utf-8")
    _code, report, err = _check(bundled_copy, "--only", "asl-duplicate")
    assert "Traceback" not in err and not [f for f in report["findings"] if f["rule"] == "asl-duplicate"], report
