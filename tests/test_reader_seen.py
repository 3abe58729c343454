"""The confined reader does not open a file again while its stat is unchanged (a server's rebuilds).

``SpecFiles.read`` keeps, in a long-lived workspace (a server's), each file it read with the file's device, inode, size,
modification and change time; a later read in the same workspace whose ``lstat`` gives the same stat
gets the same text and findings without opening the file. These tests hold it to what a fresh read
would give after every kind of change, and to the racy rule (a file changed within ``RACY_NS`` of the
read is never kept).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import specgen.files as files_mod
from specgen.files import SpecFiles
from specgen.workspace import fresh


@pytest.fixture()
def tree(tmp_path: Path):
    fresh().long_lived = True  # a server's workspace: it loads the tree again after every edit
    root = tmp_path / "spec"
    root.mkdir()
    (root / "a.txt").write_bytes(b"alpha\r\nbeta\n")  # a CR line ending: one finding per read
    yield root
    fresh()


@pytest.fixture()
def later(monkeypatch):
    """Reads happen 10 s after now: every file written so far is old enough to be kept."""
    real = time.time_ns
    monkeypatch.setattr(files_mod.time, "time_ns", lambda: real() + 10_000_000_000)


def _reads(monkeypatch) -> list[str]:
    opened: list[str] = []
    original = SpecFiles._bytes_stat

    def counting(self, rel, *, report):
        opened.append(rel)
        return original(self, rel, report=report)

    monkeypatch.setattr(SpecFiles, "_bytes_stat", counting)
    return opened


def _rewrite(path: Path, data: bytes) -> None:
    time.sleep(0.05)  # past the file system's timestamp tick: the change is in the stat
    path.write_bytes(data)


def test_an_unchanged_file_is_not_opened_again(tree, later, monkeypatch):
    opened = _reads(monkeypatch)
    first = SpecFiles(tree)
    a = first.read("a.txt")
    second = SpecFiles(tree)
    b = second.read("a.txt")
    assert opened == ["a.txt"]
    assert b is a and b.text == "alpha\nbeta\n"
    assert [f.rule for f in second.findings] == [f.rule for f in first.findings] == ["file-line-ending"]
    assert second.log[("file", "a.txt")] == a.sha256
    assert second.digest("a.txt") == a.sha256 and opened == ["a.txt"]


@pytest.mark.parametrize("change", ["same size", "renamed over", "mtime set back", "grown"])
def test_every_change_is_read_again(tree, later, monkeypatch, change):
    path = tree / "a.txt"
    before = SpecFiles(tree).read("a.txt")
    st = path.stat()
    if change == "same size":
        _rewrite(path, b"ALPHA\r\nbeta\n")
    elif change == "renamed over":
        time.sleep(0.05)
        (tree / "b.tmp").write_bytes(b"ALPHA\r\nbeta\n")
        os.replace(tree / "b.tmp", path)
    elif change == "mtime set back":
        _rewrite(path, b"ALPHA\r\nbeta\n")
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # the change time still moves
    else:
        _rewrite(path, b"alpha\r\nbeta\ngamma\n")
    opened = _reads(monkeypatch)
    after = SpecFiles(tree).read("a.txt")
    assert opened == ["a.txt"]
    assert after is not before and after.text == path.read_bytes().decode().replace("\r\n", "\n")


def test_a_file_replaced_by_a_link_takes_the_careful_path(tree, later, monkeypatch):
    SpecFiles(tree).read("a.txt")
    (tree / "target.txt").write_bytes(b"other\n")
    (tree / "a.txt").unlink()
    (tree / "a.txt").symlink_to("target.txt")
    opened = _reads(monkeypatch)
    got = SpecFiles(tree).read("a.txt")
    assert opened == ["a.txt"] and got is not None and got.text == "other\n"


def test_a_file_read_right_after_it_changed_is_not_kept(tree, monkeypatch):
    (tree / "fresh.txt").write_bytes(b"new\n")  # changed now: within RACY_NS of the read below
    SpecFiles(tree).read("fresh.txt")
    opened = _reads(monkeypatch)
    SpecFiles(tree).read("fresh.txt")
    assert opened == ["fresh.txt"]


def test_a_missing_file_is_never_kept(tree, later, monkeypatch):
    reader = SpecFiles(tree)
    assert reader.read("absent.txt") is None
    (tree / "absent.txt").write_bytes(b"here now\n")
    opened = _reads(monkeypatch)
    got = SpecFiles(tree).read("absent.txt")
    assert opened == ["absent.txt"] and got is not None and got.text == "here now\n"


def test_a_fresh_workspace_reads_everything(tree, later, monkeypatch):
    SpecFiles(tree).read("a.txt")
    fresh().long_lived = True
    opened = _reads(monkeypatch)
    SpecFiles(tree).read("a.txt")
    assert opened == ["a.txt"]


def test_a_command_that_loads_once_keeps_nothing(tree, later, monkeypatch):
    fresh()  # a command's workspace: not long-lived
    SpecFiles(tree).read("a.txt")
    opened = _reads(monkeypatch)
    SpecFiles(tree).read("a.txt")
    assert opened == ["a.txt"]
