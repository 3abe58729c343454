"""Cold start of ``specgen check`` (issue 17): what a fresh process spends besides the check itself.

Speed is measured in ``bench/`` (never asserted here); these tests pin the
behaviours the cold-start work relies on, each of which could silently regress.
"""

from __future__ import annotations

import gc
import io
import os
import subprocess
import sys
from pathlib import Path

from specgen.cli import main

REPO = Path(__file__).resolve().parent.parent


def test_the_process_entry_freezes_what_dies_with_it(tmp_path: Path) -> None:
    """``main()`` as the process entry freezes the heap, so neither re-enabling the collector nor the
    interpreter's exit walks the loaded spec (0.6-0.9 s of a cold check); the report is complete first."""
    code = ("import gc, sys\nfrom specgen.cli import main\n"
            "sys.argv = ['specgen', 'check', '--root', 'sample', '--no-cache', '--only', 'ndf-duplicate-id']\n"
            "rc = main()\nprint('rc', rc, 'frozen', gc.get_freeze_count() > 1000, 'enabled', gc.isenabled())\n")
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO, env=env)
    lines = res.stdout.splitlines()
    assert lines[-1] == "rc 0 frozen True enabled True", res.stdout + res.stderr
    assert "check of " in res.stdout and ": 0 errors, 0 warnings, 0 notes" in res.stdout, res.stdout


def test_a_caller_in_process_keeps_its_collector_and_nothing_frozen(tmp_path: Path, monkeypatch) -> None:
    """Tests, the bench and the mkdocs plugin call ``main(argv)`` in a long-lived process: nothing may be
    exempted from collection behind their back."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    # an earlier test of this process may have left its heap frozen, and a frozen object the check frees (a
    # workspace memo it replaces) lowers the count: start from nothing frozen, so any freeze at all shows
    gc.unfreeze()
    rc = main(["check", "--root", "sample", "--no-cache", "--only", "ndf-duplicate-id"], io.StringIO(), io.StringIO())
    assert rc == 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_cold_check_that_runs_no_program_imports_no_numpy(tmp_path: Path) -> None:
    """NumPy (≈0.15 s to import) serves programs and the canonical sweeps, neither of which a check of
    units without runnable examples needs; a generator imported at the top of ``catalog_asl.sources`` brought it back."""
    code = ("import io, sys\nfrom specgen.cli import main\n"
            "rc = main(['check', '--root', sys.argv[1], '--no-examples'], io.StringIO(), io.StringIO())\n"
            "print(rc, sorted(m for m in ('numpy', 'ml_dtypes', 'lark') if m in sys.modules))\n")
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-c", code, str(REPO / "spec")], capture_output=True, text=True,
                         check=True, env=env)
    assert res.stdout.split("\n")[0] == "0 []", res.stdout + res.stderr
