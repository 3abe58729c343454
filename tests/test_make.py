"""``make test`` that a maintainer trusts (issue 41, item 6): both tiers run whatever the other did, the last
line gives both results, the exit status is non-zero when either failed, chromium is used where it is
installed and root is asked for only to install it, with a message that says what to run.

``make`` runs for real against a scratch venv whose ``pytest`` is a stand-in that records its arguments, on a
PATH of stand-ins for ``chromium``, ``fc-list``, ``id`` and ``sudo`` (nothing is installed, nothing needs root).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _make_test(tmp_path: Path, *, chromium: bool, fail_tier: str) -> subprocess.CompletedProcess[str]:
    venv, fake = tmp_path / "venv", tmp_path / "bin"
    (venv / "bin").mkdir(parents=True)
    fake.mkdir()
    for stamp in (".specgen-runtime", ".specgen-installed"):  # installed already: make runs no pip
        (venv / stamp).touch()
    log = tmp_path / "pytest.log"
    # the stand-in pytest: records each tier and fails the one named
    _script(venv / "bin" / "pytest", f'echo "$*" >> {log}\n'
                                     f'case "$*" in *"{fail_tier}"*) exit 1;; esac\nexit 0')
    _script(fake / "id", "echo 1000")  # not root
    _script(fake / "sudo", "exit 1")  # a sudo that would ask for a password
    _script(fake / "fc-list", "echo 'WenQuanYi Micro Hei'")
    if chromium:
        _script(fake / "chromium", "exit 0")
    for tool in ("grep", "sh"):
        found = shutil.which(tool)
        assert found
        (fake / tool).symlink_to(found)
    env = {**os.environ, "PATH": str(fake)}
    return subprocess.run([shutil.which("make") or "make", "-s", "-C", str(REPO), "test", f"VENV={venv}"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_a_failing_first_tier_still_runs_the_browser_tier(tmp_path: Path) -> None:
    proc = _make_test(tmp_path, chromium=True, fail_tier="not browser")
    tiers = (tmp_path / "pytest.log").read_text(encoding="utf-8").splitlines()
    assert len(tiers) == 2 and "not browser" in tiers[0] and "-m browser" in tiers[1], tiers
    assert proc.returncode != 0
    assert "make test: tests: FAILED (exit 1); browser tests: passed" in proc.stdout, proc.stdout + proc.stderr


def test_a_failing_browser_tier_fails_make(tmp_path: Path) -> None:
    proc = _make_test(tmp_path, chromium=True, fail_tier="-m browser")
    assert proc.returncode != 0 and "tests: passed; browser tests: FAILED (exit 1)" in proc.stdout


def test_without_chromium_and_root_make_says_what_to_run(tmp_path: Path) -> None:
    proc = _make_test(tmp_path, chromium=False, fail_tier="nothing")
    tiers = (tmp_path / "pytest.log").read_text(encoding="utf-8").splitlines()
    assert len(tiers) == 1 and "not browser" in tiers[0], "the other tests still ran"
    assert "sudo apt-get install --no-install-recommends chromium" in proc.stderr, proc.stderr
    assert proc.returncode != 0 and "tests: passed; browser tests: FAILED" in proc.stdout
