"""Caches hold data, never code (issue 37, item 1).

specgen used to fall back to ``$TMPDIR/specgen-cache`` (shared, predictable) when its cache base could not
be created, and read its packs with ``pickle.loads``: a pack another local user planted there ran code as
the victim. These probes plant a pickle that would create a marker file into every place a cache is read
from, then run ``validate``, ``check`` and ``test``; they refuse cache folders that are not private, and run
without a cache (one warning line) when none can be had. ``docs-internal/robustness.md`` has the table.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from specgen.cache import cache_dir, codec, trust
from specgen.cache.layer import value_digest
from specgen.cli import main

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "spec"
COMMANDS = (["validate"], ["check"], ["test", "--jobs", "1"])
WARNING = "specgen: warning: cache "


class _Plant:
    """A pickle that creates ``marker`` when it is loaded: what a planted pack would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (open, (str(self.marker), "w"))


def _payload(marker: Path) -> bytes:
    return pickle.dumps(_Plant(marker), protocol=pickle.HIGHEST_PROTOCOL)


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "specgen", *args, "--root", str(BUNDLED)], env=env,
                          capture_output=True, text=True, timeout=600)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SPECGEN_CACHE_DIR", "SPECGEN_NO_CACHE")}
    (tmp_path / "tmpdir").mkdir(exist_ok=True)
    env["TMPDIR"] = str(tmp_path / "tmpdir")
    env.update(extra)
    return env


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(WARNING)]


def test_the_payload_runs_code_when_unpickled(tmp_path: Path) -> None:
    """The probe's planted pack is a real attack: unpickling it creates the marker."""
    marker = tmp_path / "marker"
    pickle.loads(_payload(marker))
    assert marker.exists()


def test_planted_pack_in_the_former_fallback_does_not_run(tmp_path: Path) -> None:
    """A base that cannot be created (SPECGEN_CACHE_DIR naming a file) no longer falls back to $TMPDIR:
    the packs planted at the former fallback's predictable names are never read."""
    marker = tmp_path / "marker"
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file\n")
    env = _env(tmp_path, SPECGEN_CACHE_DIR=str(blocker))
    former = Path(env["TMPDIR"]) / "specgen-cache"
    names = ["asl/summaries2.pickle", "asl/symbols.pickle", "asl/index2-x.pickle", "check/x.pickle",
             "loader/x.pack", "derived/tests-x.pack"]
    digest = hashlib.sha256("\0".join(sorted(str(p.relative_to(BUNDLED)) for p in BUNDLED.rglob("*.asl"))).encode())
    names.append(f"asl/modules-{digest.hexdigest()[:16]}.pack")
    for name in names:
        (former / name).parent.mkdir(parents=True, exist_ok=True)
        (former / name).write_bytes(_payload(marker))
    before = sorted(p.relative_to(former) for p in former.rglob("*"))
    for args in COMMANDS:
        run = _run(args, env)
        assert run.returncode == 0, run.stderr
        assert len(_warnings(run.stderr)) == 1, run.stderr
        assert "is not a directory" in _warnings(run.stderr)[0]
        assert not marker.exists(), f"{args}: a planted pickle ran"
    assert sorted(p.relative_to(former) for p in former.rglob("*")) == before  # nothing read, nothing written


def _plant_everywhere(cache: Path, marker: Path) -> int:
    """Replace the payload of every cache file (its header kept, its checksum made to match) with the pickle;
    in a pack of encoded entries, every entry. Returns how many files were planted."""
    bad = _payload(marker)
    count = 0
    for path in sorted(p for p in cache.rglob("*") if p.is_file()):
        blob = path.read_bytes()
        if blob.startswith(b"specgen-check-result"):
            head, sep, _ = blob.partition(b"\n--------\n")
            magic = head.split(b"\n")[0] + b"\n"
            path.write_bytes(magic + hashlib.sha256(bad).hexdigest().encode() + sep + bad)
        elif blob.startswith((b"specgen-loader-cache", b"specgen-derived")):
            magic, version, _, payload = blob.split(b"\n", 3)
            try:
                table = codec.decode(payload)
            except ValueError:
                table = None
            if isinstance(table, dict) and table and all(type(v) is bytes for v in table.values()):
                payload = codec.encode({k: bad for k in table})
            else:
                payload = bad
            path.write_bytes(b"\n".join([magic, version, hashlib.sha256(payload).hexdigest().encode(), payload]))
        elif blob.startswith(b"specgen-cache-entry"):
            head, _, payload = blob.partition(b"\n")
            try:
                value = codec.decode(payload)
            except ValueError:  # a class this test process has not imported
                value = None
            if isinstance(value, dict) and value and all(type(v) is bytes for v in value.values()):
                path.write_bytes(head + b"\n" + codec.encode({k: bad for k in value}))
            else:
                path.write_bytes(head + b"\n" + bad)
        else:
            path.write_bytes(bad)
        count += 1
    return count


def test_planted_pickles_in_the_cache_itself_do_not_run(tmp_path: Path) -> None:
    """Every file the cache holds after validate, check and test, its payload swapped for the pickle
    (headers and checksums kept valid): the runs treat each as a miss and succeed."""
    marker = tmp_path / "marker"
    cache = tmp_path / "cache"
    env = _env(tmp_path, SPECGEN_CACHE_DIR=str(cache))
    for args in COMMANDS:
        assert _run(args, env).returncode == 0
    kinds = {p.relative_to(cache).parts[0] for p in cache.rglob("*") if p.is_file()}
    assert {"loader", "asl", "check", "derived"} <= kinds
    assert _plant_everywhere(cache, marker) >= 6
    for args in COMMANDS:
        run = _run(args, env)
        assert run.returncode == 0, run.stderr
        assert not _warnings(run.stderr), run.stderr
        assert not marker.exists(), f"{args}: a planted pickle ran"


def test_cache_folders_are_created_private(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = _env(tmp_path, SPECGEN_CACHE_DIR=str(cache))
    assert _run(["check"], env).returncode == 0
    folders = [cache, *(p for p in cache.rglob("*") if p.is_dir())]
    assert len(folders) >= 4
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in folders} == {p.name: 0o700 for p in folders}


@pytest.mark.parametrize("where", ["base", "subfolder"])
@pytest.mark.parametrize("mode", [0o777, 0o770])
def test_a_cache_others_can_write_is_refused(tmp_path: Path, where: str, mode: int) -> None:
    """A world- or group-writable cache folder: one warning, the run goes on without a cache."""
    marker = tmp_path / "marker"
    cache = tmp_path / "cache"
    target = cache / "asl" if where == "subfolder" else cache
    target.mkdir(parents=True)
    os.chmod(cache, 0o700)
    os.chmod(target, mode)
    (target / "summaries2.entry").write_bytes(_payload(marker))
    env = _env(tmp_path, SPECGEN_CACHE_DIR=str(cache))
    run = _run(["validate"], env)
    assert run.returncode == 0, run.stderr
    lines = _warnings(run.stderr)
    assert len(lines) == 1 and f"mode {mode:04o}" in lines[0] and "running without a cache" in lines[0], run.stderr
    assert not marker.exists()
    if where == "base":
        assert [p.name for p in cache.iterdir()] == ["summaries2.entry"]  # nothing written beside what was planted


def test_a_cache_owned_by_another_user_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Owner simulated: the process runs as another uid than the folder's owner."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    owner = cache.stat().st_uid
    assert trust.why_not_private(cache, owner) is None
    assert "owned by uid" in (trust.why_not_private(cache, owner + 1) or "")
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(cache))
    monkeypatch.setattr(trust, "_WARNED", [])
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    assert cache_dir("asl") is None
    assert main(["validate", "--root", str(BUNDLED)]) == 0
    lines = _warnings(capsys.readouterr().err)
    assert len(lines) == 1 and f"owned by uid {owner}" in lines[0], lines
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_cache_dir_naming_a_file(tmp_path: Path, args: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x\n")
    env = _env(tmp_path, SPECGEN_CACHE_DIR=str(blocker))
    run = _run(args, env)
    assert run.returncode == 0, run.stderr
    assert len(_warnings(run.stderr)) == 1, run.stderr
    assert blocker.read_text() == "x\n"
    assert not (Path(env["TMPDIR"]) / "specgen-cache").exists()


def test_read_only_home_runs_without_a_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """No SPECGEN_CACHE_DIR and a home that cannot be written: one warning, no folder in $TMPDIR, success.

    The home is made read-only (0555); a process running as root writes there anyway, so creating a
    folder under it is refused as a read-only file system would refuse it."""
    home = tmp_path / "home"
    home.mkdir()
    os.chmod(home, 0o555)
    real_mkdir = Path.mkdir

    def read_only(self: Path, *a: object, **k: object) -> None:
        if self == home or home in self.parents:
            raise PermissionError(13, "Permission denied", str(self))
        real_mkdir(self, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", read_only)
    monkeypatch.delenv("SPECGEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "tmpdir").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmpdir"))
    monkeypatch.setattr(trust, "_WARNED", [])
    try:
        for args in COMMANDS:
            assert main([*args, "--root", str(BUNDLED)]) == 0
    finally:
        os.chmod(home, 0o755)
    lines = _warnings(capsys.readouterr().err)
    assert len(lines) == 1 and str(home) in lines[0] and "cannot be created" in lines[0], lines
    assert list(home.iterdir()) == []
    assert not (tmp_path / "tmpdir" / "specgen-cache").exists()


# -- the codec --------------------------------------------------------------------------------

def test_codec_refuses_pickles_and_unknown_classes(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    with pytest.raises(ValueError):
        codec.decode(_payload(marker))
    assert not marker.exists()
    foreign = codec.encode(codec.msgpack.ExtType(5, codec.msgpack.packb(["os.system", ["true"]])))
    with pytest.raises(ValueError, match="unknown class"):
        codec.decode(foreign)
    with pytest.raises(TypeError, match="not registered"):
        codec.encode(_Plant(marker))
    from specgen.diagnostics import Finding, Severity
    blob = codec.encode(Finding("r", Severity.ERROR, "p", 1, "m"))
    tag = next(t for t in codec._BY_TAG if t.startswith("specgen.diagnostics.Finding/")).encode()
    assert tag in blob  # a class stored by position: its field names' digest is in the tag
    with pytest.raises(ValueError, match="unknown class"):  # as if Finding's fields had changed since
        codec.decode(blob.replace(tag, tag[:-8] + b"00000000"))


def test_codec_round_trips_the_spec_and_a_deep_tree() -> None:
    from specgen.asl.ast import Node, decl_digest
    from specgen.asl.index import build_index
    from specgen.diagnostics import Finding, Severity, Sentence
    from specgen.loader import load_spec

    index = build_index(load_spec(BUNDLED), use_cache=False)
    for fi in range(len(index.units)):
        mod = index.module(fi)
        back = codec.decode(codec.encode(mod))
        assert [decl_digest(d) for d in back.decls] == [decl_digest(d) for d in mod.decls]
        assert [d.refs for d in back.decls] == [d.refs for d in mod.decls]
    deep = Node("lit", 1, 1, (1,))
    for i in range(50_000):  # deeper than any recursion limit
        deep = Node("binop", 1, i, ("+", deep, Node("lit", 1, 1, (2**70 + i,))))
    back = codec.decode(codec.encode(deep))
    assert back.col == 49_999 and back.args[2].args == (2**70 + 49_999,)
    value = {("a", 1): [Finding("r", Severity.ERROR, "p", 1, Sentence("k", "text", n=1))], "s": frozenset({"x"})}
    back = codec.decode(codec.encode(value))
    assert back == value and isinstance(back[("a", 1)][0].message, Sentence)
    assert back[("a", 1)][0].message.params == {"n": 1}


def test_value_digest_is_the_same_in_every_process() -> None:
    """Sets are encoded sorted: an early cutoff holds across processes whatever the hash seed."""
    code = ("from specgen.cache.layer import value_digest; "
            "print(value_digest({'k': frozenset(f'name{i}' for i in range(50)), 't': (1, 'x')}))")
    outs = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                           capture_output=True, text=True, check=True).stdout for seed in (1, 2, 3)}
    assert len(outs) == 1
    assert value_digest({"k": frozenset(f"name{i}" for i in range(50)), "t": (1, "x")}) + "\n" in outs


_WATCH = """
import sys
from specgen.cache import codec
from specgen.cli import main
refused = []
encode_default = codec._default
def watching(obj):
    try:
        return encode_default(obj)
    except TypeError as exc:
        refused.append(str(exc))
        raise
codec._default = watching
for args in ({commands}):
    assert main([*args, "--root", {root!r}]) == 0, args
print("refused:", sorted(set(refused)))
"""


def test_every_value_the_commands_cache_is_registered(tmp_path: Path) -> None:
    """No cached value of validate, check or test is of a class the codec refuses (it would silently not be
    cached: only speed would tell). A fresh process: a process's own memos would hide a store."""
    cache = tmp_path / "cache"
    script = _WATCH.format(commands=", ".join(map(repr, COMMANDS)), root=str(BUNDLED))
    run = subprocess.run([sys.executable, "-c", script], env=_env(tmp_path, SPECGEN_CACHE_DIR=str(cache)),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "refused: []" in run.stdout.splitlines(), run.stdout[-2000:]
    assert any((cache / "derived").glob("tests-*.pack"))
    assert any((cache / "derived").glob("examples-*.pack"))
