"""``specgen build`` killed at any moment or run twice at once leaves a whole site; one tree builds to the same bytes.

A documentation build that a CI job cancels (SIGKILL, no cleanup) must not
leave a half site where the last good one was, nor temporary directories that
pile up; two builds of one output folder at once must not corrupt it (issue
15: the second build's clean-up removed the first one's live temporary
folder); and a site is only reviewable when two builds of one tree are
identical whatever the working directory, time zone or locale. With
SOURCE_DATE_EPOCH set a page may show that date, but builds with the same
value still agree.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "spec"
KILL_SEEDS = (1, 2, 3, 4, 5, 6)  # each picks a moment into a stage of the build (the stages in turn)
STAGES = ("config", "load", "examples", "render", "mkdocs", "swap")  # specgen.site.build.STAGES, as printed

pytestmark = pytest.mark.xdist_group("site-build")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SOURCE_DATE_EPOCH", "TZ", "LANG", "LC_ALL")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


def _cmd(out: Path, config: Path | None = None) -> list[str]:
    extra = ["--config", str(config)] if config else []
    return [sys.executable, "-m", "specgen", "build", "--root", str(BUNDLED), "--out", str(out), *extra]


def other_config(tmp: Path) -> Path:
    """The bundled mkdocs.yml with another site name: every page differs from the default build's."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("site_name: PTO ISA specification\n", "site_name: PTO ISA specification, second build\n")
    text = text.replace("docs_dir: site\n", f"docs_dir: {REPO / 'site'}\n")
    text = text.replace("custom_dir: templates/theme\n", f"custom_dir: {REPO / 'templates' / 'theme'}\n")
    assert "second build" in text and str(REPO / "templates") in text
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "mkdocs.yml").write_text(text, encoding="utf-8")
    return tmp / "mkdocs.yml"


def started(proc: subprocess.Popen, stage: str) -> list[str]:
    """Read the build's progress lines (stderr) until ``stage`` starts; the lines read."""
    lines: list[str] = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        if line.startswith(f"specgen build: {stage} ("):
            return lines
    return lines  # ended before the stage


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


@pytest.mark.slow
def test_killed_build_leaves_previous_site_and_no_temporaries(tmp_path: Path) -> None:
    """kill -9 at seeded random points (a stage, then a moment into it): the folder holds the whole previous
    site or the whole new one, never a mix, and the next build clears what the killed one left."""
    parent = tmp_path / "build"
    out = parent / "site"
    config = other_config(tmp_path / "cfg")
    build_cmd = _cmd(tmp_path / "new" / "site", config)
    proc = subprocess.run(build_cmd, cwd=tmp_path, env=_env(TZ="UTC"), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    new = snapshot(tmp_path / "new" / "site")
    build(out, tmp_path / "cwd", TZ="UTC", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    before = snapshot(out)
    assert "index.html" in before and len(before) > 50 and diff(before, new)
    sites = {"previous": (before, None), "new": (new, config)}  # each kill interrupts a build of the other one
    current = "previous"
    outcomes = []
    for seed in KILL_SEEDS:
        stage = STAGES[1 + (seed - 1) % (len(STAGES) - 1)]  # load, examples, render, mkdocs, swap, load, ...
        delay = random.Random(seed).uniform(0.0, 0.03 if stage == "swap" else 1.5)  # the swap takes milliseconds
        target = "new" if current == "previous" else "previous"
        proc = subprocess.Popen(_cmd(out, sites[target][1]), cwd=tmp_path, env=_env(TZ="UTC"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        started(proc, stage)
        time.sleep(delay)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        what = f"seed {seed} (killed {delay:.2f} s into {stage}, building the {target} site)"
        assert out.is_dir(), f"{what}: the site directory is gone"
        now = snapshot(out)
        assert now in (before, new), f"{what}: a mixed site: {diff(sites[current][0], now)[:5]} differ"
        current = "new" if now == new else "previous"
        outcomes.append((seed, stage, round(delay, 2), current))
    proc = subprocess.run(_cmd(out, config), cwd=tmp_path, env=_env(TZ="UTC"), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in parent.iterdir()) == ["site"], "a killed build's temporaries or lock survived"
    assert diff(new, snapshot(out)) == [], outcomes
    print("kill outcomes (seed, stage, delay, site left):", outcomes)


@pytest.mark.slow
def test_two_builds_at_once_leave_one_complete_site(tmp_path: Path) -> None:
    """Issue 15's probe: two ``specgen build --out DIR`` at once. The second waits for the first (one line
    says so), both exit 0, and DIR is a complete site readable by others (0755/0644 under umask 022). A
    third told not to wait (SPECGEN_BUILD_WAIT=0) fails at once with one clear line and exit 1."""
    out = tmp_path / "build" / "site"
    solo = tmp_path / "solo" / "site"
    build(solo, tmp_path / "cwd")
    expected = snapshot(solo)

    def start(**env: str) -> subprocess.Popen:
        return subprocess.Popen(_cmd(out), cwd=tmp_path, env=_env(**env), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.umask(0o022))

    first = start()
    head = started(first, "load")  # the first holds the output's lock from here on
    second = start()
    impatient = start(SPECGEN_BUILD_WAIT="0")
    _, err3 = impatient.communicate(timeout=600)
    _, err1 = first.communicate(timeout=600)
    _, err2 = second.communicate(timeout=600)
    err1 = "".join(head) + err1
    assert first.returncode == 0 and second.returncode == 0, err1 + err2
    assert "Traceback" not in err1 + err2 + err3
    waits = [ln for ln in err2.splitlines() if "waiting for another build" in ln]
    assert len(waits) == 1 and f"(pid {first.pid})" in waits[0], err2
    assert "waiting" not in err1
    assert impatient.returncode == 1, err3
    failed = [ln for ln in err3.splitlines() if "failed" in ln]
    assert len(failed) == 1 and f"another build (pid {first.pid}) is writing {out}" in failed[0], err3
    assert diff(expected, snapshot(out)) == [], "the site is not the complete site a lone build writes"
    assert {"index.html", "sitemap.xml", "assets/specgen/specgen.css"} <= set(expected)
    assert sorted(p.name for p in out.parent.iterdir()) == ["site"]
    modes = {oct(stat.S_IMODE(p.stat().st_mode)) for p in [out, *out.rglob("*")] if p.is_dir()}
    assert modes == {"0o755"}
    modes = {oct(stat.S_IMODE(p.stat().st_mode)) for p in out.rglob("*") if p.is_file()}
    assert modes == {"0o644"}


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
