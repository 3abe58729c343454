"""``specgen build`` killed at any moment leaves the previous site; the same tree builds to the same bytes.

A documentation build that a CI job cancels (SIGKILL, no cleanup) must not
leave a half site where the last good one was, nor temporary directories that
pile up; and a site is only reviewable when two builds of one tree are
identical whatever the working directory, time zone or locale. With
SOURCE_DATE_EPOCH set a page may show that date, but builds with the same
value still agree.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "spec"
KILL_AFTER = (0.5, 1.0, 2.0, 4.0, 8.0, 12.0)  # seconds; spread over load, render, mkdocs and swap

pytestmark = pytest.mark.xdist_group("site-build")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SOURCE_DATE_EPOCH", "TZ", "LANG", "LC_ALL")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


def _cmd(out: Path) -> list[str]:
    return [sys.executable, "-m", "specgen", "build", "--root", str(BUNDLED), "--out", str(out)]


def build(out: Path, cwd: Path, **env: str) -> None:
    cwd.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(_cmd(out), cwd=cwd, env=_env(**env), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def snapshot(out: Path) -> dict[str, str]:
    """Every file under ``out``: relative path -> SHA-256 of its bytes."""
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def diff(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def test_killed_build_leaves_previous_site_and_no_temporaries(tmp_path: Path) -> None:
    parent = tmp_path / "build"
    out = parent / "site"
    build(out, tmp_path / "cwd", TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    before = snapshot(out)
    assert "index.html" in before and len(before) > 50
    for delay in KILL_AFTER:
        proc = subprocess.Popen(_cmd(out), cwd=tmp_path, env=_env(TZ="UTC"), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert out.is_dir(), f"killed after {delay} s: the site directory is gone"
        assert diff(before, snapshot(out)) == [], f"killed after {delay} s: the previous site changed"
    build(out, tmp_path / "cwd", TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    assert sorted(p.name for p in parent.iterdir()) == ["site"], "a killed build's temporaries survived"
    assert diff(before, snapshot(out)) == []


def test_builds_are_byte_identical_across_cwd_tz_and_locale(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "site", tmp_path / "elsewhere" / "deeper" / "out"
    build(a, tmp_path / "cwd-a", TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    build(b, tmp_path / "cwd-b" / "x", TZ="Pacific/Kiritimati", LANG="de_DE.UTF-8", LC_ALL="de_DE.UTF-8")
    assert diff(snapshot(a), snapshot(b)) == []


def test_builds_with_source_date_epoch_agree(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "site", tmp_path / "b" / "site"
    build(a, tmp_path / "cwd-a", SOURCE_DATE_EPOCH="1700000000", TZ="UTC", LANG="C.UTF-8")
    build(b, tmp_path / "cwd-b", SOURCE_DATE_EPOCH="1700000000", TZ="America/St_Johns", LC_ALL="fr_FR.UTF-8")
    assert diff(snapshot(a), snapshot(b)) == []


def test_kill_between_the_two_renames_is_recovered(tmp_path: Path) -> None:
    """The window of the fallback swap (no renameat2): the old site moved aside, the new one not yet in place."""
    from specgen.site.publish import OLD_PREFIX, sweep_stale
    out = tmp_path / "site"
    aside = tmp_path / f"{OLD_PREFIX}site-ab12cd_3"  # mkdtemp's 8-character suffix
    aside.mkdir()
    (aside / "index.html").write_text("previous")
    other = tmp_path / f"{OLD_PREFIX}site-x-ab12cd_3"  # the moved-aside site of the output "site-x": not ours
    other.mkdir()
    sweep_stale(out)
    assert (out / "index.html").read_text() == "previous"
    assert not aside.exists()
    assert other.is_dir()


def test_build_writes_only_its_output_cache_and_temp_dirs(tmp_path: Path) -> None:
    """Nothing is written into the spec root, the working directory or $HOME: only the output
    directory, the cache directory ($SPECGEN_CACHE_DIR) and the temporary directory ($TMPDIR)."""
    from treecopy import copy_tree
    spec = copy_tree(BUNDLED, tmp_path / "spec")
    before = snapshot(spec)
    dirs = {name: tmp_path / name for name in ("work", "home", "cache", "tmp")}
    for d in dirs.values():
        d.mkdir()
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "specgen", "build", "--root", str(spec), "--out", str(out)]
    proc = subprocess.run(cmd, cwd=dirs["work"], capture_output=True, text=True,
                          env=_env(HOME=str(dirs["home"]), SPECGEN_CACHE_DIR=str(dirs["cache"]),
                                   TMPDIR=str(dirs["tmp"]), XDG_CACHE_HOME=str(dirs["home"] / ".cache")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert snapshot(spec) == before
    assert sorted(p.name for p in dirs["work"].iterdir()) == []
    assert sorted(p.name for p in dirs["home"].rglob("*")) == []
    assert {p.name for p in tmp_path.iterdir()} <= {"spec", "out", "work", "home", "cache", "tmp"}, \
        "the build left its lock file or a temporary folder beside the output"
    assert (out / "index.html").is_file()
