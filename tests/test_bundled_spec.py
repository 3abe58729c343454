"""The bundled sample spec stays self-consistent, original and runnable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from specgen.cli import main

REPO = Path(__file__).resolve().parent.parent


def test_derived_files_are_current_and_nothing_is_copied(bundled_root: Path, corpus_root: Path) -> None:
    r = subprocess.run([sys.executable, str(REPO / "tools/bundled_spec.py"), "--check", "--root", str(bundled_root),
                        "--corpus", str(corpus_root)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_validate_check_and_manifest_are_clean(bundled_root: Path, capsys) -> None:
    assert main(["validate", "--root", str(bundled_root)]) == 0
    assert main(["check", "--root", str(bundled_root), "--strict"]) == 0
    assert main(["manifest", "--check", "--root", str(bundled_root)]) == 0
    out = capsys.readouterr().out
    assert "0 error(s)" in out


def test_every_bundled_avs_test_passes(bundled_root: Path, capsys) -> None:
    assert main(["test", "--root", str(bundled_root), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert " 0 failed" in out or "failed: 0" in out or "0 failed" in out, out[-2000:]
