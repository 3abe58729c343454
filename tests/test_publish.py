"""Publishing a site into its output folder: the lock, each build's own temporary folder, modes, clear errors.

Fast, in-process checks of :mod:`specgen.site.publish`; whole builds that run
at once or are killed are in tests/test_build_robustness.py.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from specgen.site import publish
from specgen.site.build import BuildFailed, _atomic
from specgen.site.publish import OLD_PREFIX, TMP_PREFIX, PublishError, claim, lock_path, swap_in, sweep_stale

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def umask():
    """Set the process umask for one test and put the old one back."""
    old = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(old)


def _publish(out: Path, text: str, notice=None) -> None:
    with claim(out, notice) as tmp:
        (tmp / "index.html").write_text(text)
        (tmp / "assets").mkdir()
        (tmp / "assets" / "a.css").write_text(text)
        swap_in(tmp, out)


def _modes(out: Path) -> dict[str, str]:
    found = {".": oct(stat.S_IMODE(out.stat().st_mode))}
    for p in out.rglob("*"):
        found[p.relative_to(out).as_posix()] = oct(stat.S_IMODE(p.stat().st_mode))
    return found


@pytest.mark.parametrize(("mask", "dirs", "files"), [(0o022, "0o755", "0o644"), (0o027, "0o750", "0o640"),
                                                     (0o002, "0o775", "0o664")])
def test_site_modes_follow_the_umask(tmp_path: Path, umask, mask: int, dirs: str, files: str) -> None:
    umask(mask)
    out = tmp_path / "build" / "site"
    _publish(out, "one")
    _publish(out, "two")  # the second publish replaces an existing site (the exchange path)
    modes = _modes(out)
    assert modes == {".": dirs, "index.html": files, "assets": dirs, "assets/a.css": files}
    assert oct(stat.S_IMODE(out.parent.stat().st_mode)) == dirs  # a parent the build created, too
    assert (out / "index.html").read_text() == "two"


def test_nothing_is_left_beside_the_output(tmp_path: Path) -> None:
    out = tmp_path / "site"
    _publish(out, "one")
    _publish(out, "two")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"], "a lock file or temporary folder remained"


def test_each_build_gets_its_own_temporary_folder(tmp_path: Path) -> None:
    out = tmp_path / "site"
    seen = []
    for _ in range(3):
        with claim(out) as tmp:
            assert tmp.parent == tmp_path and tmp.name.startswith(f"{TMP_PREFIX}site-")
            assert list(tmp.iterdir()) == []
            seen.append(tmp.name)
        assert not tmp.exists(), "a build that published nothing must remove its folder"
    assert len(set(seen)) == 3


def test_a_second_build_fails_clearly_when_it_may_not_wait(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "site"
    monkeypatch.setenv(publish.WAIT_ENV, "0")
    with claim(out):
        assert lock_path(out).read_text().strip() == str(os.getpid())
        with pytest.raises(PublishError) as e:
            with claim(out):
                pytest.fail("two builds of one folder at once")
    msg = str(e.value)
    assert f"(pid {os.getpid()})" in msg and str(out) in msg and "unchanged" in msg and publish.WAIT_ENV in msg


def test_a_second_build_waits_with_one_notice_then_runs(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "site"
    monkeypatch.setenv(publish.WAIT_ENV, "20")
    held = threading.Event()
    order: list[str] = []

    def first() -> None:
        with claim(out):
            held.set()
            time.sleep(1.0)
            order.append("first done")

    t = threading.Thread(target=first)
    t.start()
    held.wait(10)
    notices: list[str] = []
    with claim(out, notices.append):
        order.append("second runs")
    t.join()
    assert order == ["first done", "second runs"]
    assert len(notices) == 1 and "waiting for another build" in notices[0] and str(out) in notices[0]


def test_a_wait_that_runs_out_says_so(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "site"
    monkeypatch.setenv(publish.WAIT_ENV, "0.6")
    notices: list[str] = []
    with claim(out):
        t0 = time.monotonic()
        with pytest.raises(PublishError, match="gave up after"):
            with claim(out, notices.append):
                pass
        assert time.monotonic() - t0 >= 0.5
    assert len(notices) == 1


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_wait_setting_is_a_clear_error(tmp_path: Path, monkeypatch, value: str) -> None:
    monkeypatch.setenv(publish.WAIT_ENV, value)
    with pytest.raises(PublishError, match="is not a number of seconds"):
        with claim(tmp_path / "site"):
            pass


def test_the_lock_holder_of_a_killed_build_does_not_block(tmp_path: Path, monkeypatch) -> None:
    """A killed holder's lock file stays behind; the kernel dropped its lock, so the next build goes on."""
    out = tmp_path / "site"
    monkeypatch.setenv(publish.WAIT_ENV, "0")
    code = ("import sys, os, signal; from pathlib import Path; from specgen.site.publish import claim\n"
            "cm = claim(Path(sys.argv[1])); cm.__enter__(); os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(out)], env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == -9
    assert lock_path(out).exists() and [p for p in tmp_path.iterdir() if p.name.startswith(TMP_PREFIX)]
    _publish(out, "after")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_clean_up_spares_a_live_build_and_other_outputs(tmp_path: Path) -> None:
    """The bug of issue 15: the second build's clean-up removed the first one's live temporary folder."""
    out = tmp_path / "site"
    dead = tmp_path / f"{TMP_PREFIX}site-deadbeef"
    with claim(tmp_path / "site") as live:  # a live build of the same folder reached another way
        (live / "page.html").write_text("in progress")
        dead.mkdir()  # what a killed build left
        assert sweep_stale(out) == [dead]
        assert (live / "page.html").is_file()
    other = tmp_path / f"{OLD_PREFIX}site-x-ab12cd_3"  # output "site-x"'s moved-aside site
    other.mkdir()
    sweep_stale(out)
    assert other.is_dir() and not out.exists()


def test_the_fallback_swap_works_without_renameat2(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(publish, "_exchange", lambda a, b: False)
    out = tmp_path / "site"
    _publish(out, "one")
    _publish(out, "two")
    assert (out / "index.html").read_text() == "two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_the_exchange_is_used_on_linux(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("renameat2 is Linux's")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    assert publish._exchange(a, b)
    assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"


def test_an_output_that_cannot_be_written_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(PublishError, match=r"cannot write the site to .*file/site: .*file is not a directory"):
        with claim(blocker / "site"):
            pass
    with pytest.raises(PublishError, match="exists and is not a directory"):
        with claim(blocker):
            pass


def test_a_folder_without_write_permission_is_one_clear_error(tmp_path: Path, monkeypatch) -> None:
    """Permission denied where the temporary folder goes (as root, simulated: root may write anywhere)."""
    parent = tmp_path / "ro"
    parent.mkdir()
    if os.geteuid() == 0:
        def denied(*args, **kwargs):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(parent / ".specgen-build-site-x"))
        monkeypatch.setattr(publish.tempfile, "mkdtemp", denied)
    else:
        parent.chmod(0o555)
    try:
        with pytest.raises(PublishError, match=rf"cannot write the site to {parent / 'site'}: .*Permission denied"):
            with claim(parent / "site"):
                pass
    finally:
        parent.chmod(0o755)
    assert not (parent / "site").exists()


def test_disk_full_while_writing_fails_the_build_and_keeps_the_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    _publish(out, "previous")

    def full(tmp: Path) -> dict:
        (tmp / "half.html").write_text("half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp / "half.html"))

    with pytest.raises(BuildFailed) as e:
        _atomic(out.resolve(), full, lambda stage: None)
    assert "No space left on device" in str(e.value) and "half.html" in str(e.value)
    assert (out / "index.html").read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_cli_build_into_a_folder_that_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    proc = subprocess.run([sys.executable, "-m", "specgen", "build", "--root", "sample", "--out", str(blocker / "site")],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "failed" in ln]
    assert lines == [f"specgen build: error: the build failed: cannot write the site to {blocker / 'site'}: {blocker} is not a directory"], \
        proc.stderr
