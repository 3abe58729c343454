"""Issue 38 item 2: one result store for every command, each a separate process as a user runs them.

``tests/test_complete_reads.py`` holds ``specgen test`` then ``specgen build`` (0 run) and ``build`` then
``test --changed`` (none changed). Here the same store is read by the plugin under a plain ``mkdocs build``
of a user's project (``mkdocs new`` and the one plugin line): after ``specgen test`` it runs no test, and
after it ``specgen test --changed`` runs none; an edit in between reruns exactly the tests that read it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _run(cache: Path, *args: str, cwd: Path | None = None) -> str:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, cwd=cwd, timeout=600)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return r.stdout + r.stderr


def _project(tmp: Path, root: Path, cache: Path) -> Path:
    proj = tmp / "proj"
    _run(cache, "-m", "mkdocs", "new", str(proj))
    cfg = proj / "mkdocs.yml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + f"plugins: [{{specgen: {{root: '{root}', jobs: 1}}}}]\n",
                   encoding="utf-8")
    return proj


def _avs(text: str) -> tuple[int, int]:
    """(run, reused) of the plugin's summary line."""
    m = re.search(r"AVS tests: \d+ passed(?:, \d+ failed)?(?:, \d+ error)? \((\d+) run, (\d+) reused", text)
    assert m is not None, text[-1500:]
    return int(m.group(1)), int(m.group(2))


def test_specgen_test_then_a_plain_mkdocs_build_runs_no_test_and_test_changed_none(bundled_copy: Path,
                                                                                   tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    proj = _project(tmp_path, bundled_copy, cache)
    out = _run(cache, "-m", "specgen", "test", "--root", str(bundled_copy), "--jobs", "1")
    m = re.search(r"\b(\d+) passed, 0 failed", out)
    assert m is not None, out[-1000:]
    total = int(m.group(1))
    run, reused = _avs(_run(cache, "-m", "mkdocs", "build", cwd=proj))
    assert (run, reused) == (0, total)  # the test command's results, read by the plugin
    out = _run(cache, "-m", "specgen", "test", "--root", str(bundled_copy), "--jobs", "1", "--changed")
    assert "no test changed since its last recorded result" in out, out[-800:]

    # an edit between them: the plugin reruns only what read it, and test --changed then runs nothing
    test_file = next(p for p in sorted((bundled_copy / "tests").rglob("*.asl")))
    test_file.write_text(test_file.read_text(encoding="utf-8") + "\n// an edited comment line\n", encoding="utf-8")
    run, reused = _avs(_run(cache, "-m", "mkdocs", "build", cwd=proj))
    assert run >= 1 and run + reused == total and reused >= 1, (run, reused)
    out = _run(cache, "-m", "specgen", "test", "--root", str(bundled_copy), "--jobs", "1", "--changed")
    assert "no test changed since its last recorded result" in out, out[-800:]


def test_a_plain_mkdocs_build_then_specgen_build_runs_no_test(bundled_copy: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    proj = _project(tmp_path, bundled_copy, cache)
    run, reused = _avs(_run(cache, "-m", "mkdocs", "build", cwd=proj))
    assert run > 0 and reused == 0  # a cold store: every test ran once
    out = _run(cache, "-m", "specgen", "build", "--root", str(bundled_copy), "--out", str(tmp_path / "site"),
               "--jobs", "1")
    assert f"AVS tests: {run} passed (0 run, {run} reused)" in out, out[-1000:]
