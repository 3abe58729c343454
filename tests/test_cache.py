"""The loader's record cache and parallel scans change speed, never results."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from specgen.cache import RecordCache
from specgen.check import run_checks
from specgen.graph import SpecGraph
from specgen.loader import load_spec

from treecopy import copy_tree


def dump(spec: object) -> tuple[str, ...]:
    """Everything a later stage can see of a loaded spec, as text."""
    s = spec  # type: ignore[assignment]
    arts = sorted((k, repr(v.data), repr(v.model), v.sha256) for k, v in s.artifacts.items())  # type: ignore[attr-defined]
    return (repr(s.units), repr(s.tests), repr(s.adrs), repr(arts), repr(s.findings),  # type: ignore[attr-defined]
            repr(sorted(s.files.items())), repr(s.counts()))  # type: ignore[attr-defined]


def findings(spec: object) -> str:
    return repr(run_checks(SpecGraph.build(spec), disable=["example-mismatch", "example-fault",  # type: ignore[arg-type]
                                                           "example-sketch", "example-legality"])[0])


@pytest.fixture()
def tree(tmp_path: Path, bundled_root: Path) -> Path:
    return copy_tree(bundled_root, tmp_path / "spec")


def test_second_load_is_served_from_the_cache_and_identical(tree: Path, tmp_path: Path) -> None:
    fresh = load_spec(tree, cache=False)
    first_cache = RecordCache(tree, tmp_path / "c")
    first = load_spec(tree, cache=first_cache)
    assert first_cache.misses > 0 and first_cache.hits == 0
    second_cache = RecordCache(tree, tmp_path / "c")
    second = load_spec(tree, cache=second_cache)
    assert second_cache.misses == 0 and second_cache.hits == first_cache.misses
    assert dump(second) == dump(first) == dump(fresh)
    assert findings(second) == findings(fresh)


def test_a_changed_file_is_parsed_again(tree: Path, tmp_path: Path) -> None:
    load_spec(tree, cache=RecordCache(tree, tmp_path / "c"))
    unit = sorted((tree / "asl").rglob("*.asl"))[0]
    text = unit.read_text()
    header = next(line for line in text.split("\n") if line.startswith("// PTO-"))
    unit.write_text(text.replace(header, header + "   // trailing prose breaks the JSON", 1))
    c = RecordCache(tree, tmp_path / "c")
    cached = load_spec(tree, cache=c)
    assert c.misses == 1
    assert dump(cached) == dump(load_spec(tree, cache=False))
    assert any(f.path == unit.relative_to(tree).as_posix() for f in cached.findings)


def test_a_corrupted_cache_file_is_ignored_and_rewritten(tree: Path, tmp_path: Path) -> None:
    c = RecordCache(tree, tmp_path / "c")
    load_spec(tree, cache=c)
    data = bytearray(c.path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte in the payload
    c.path.write_bytes(bytes(data))
    again = RecordCache(tree, tmp_path / "c")
    assert again.rejected == 1
    assert dump(load_spec(tree, cache=again)) == dump(load_spec(tree, cache=False))
    healed = RecordCache(tree, tmp_path / "c")
    assert healed.rejected == 0 and load_spec(tree, cache=healed) is not None and healed.misses == 0


def test_a_bad_entry_is_ignored_alone(tree: Path, tmp_path: Path) -> None:
    c = RecordCache(tree, tmp_path / "c")
    load_spec(tree, cache=c)
    key = next(k for k in c._new if k.startswith("unit\0"))
    c._new[key] = b"not an encoded value"
    c.misses = 1  # force the write
    c.save()
    bad = RecordCache(tree, tmp_path / "c")
    assert dump(load_spec(tree, cache=bad)) == dump(load_spec(tree, cache=False))
    assert bad.rejected == 1 and bad.misses == 1


def test_cache_never_lives_inside_the_spec_root(tree: Path) -> None:
    c = RecordCache(tree, tree / ".cache")
    assert not c.enabled
    load_spec(tree, cache=c)
    assert not (tree / ".cache").exists()


@pytest.mark.corpus
def test_parallel_scan_equals_serial_on_the_corpus(corpus_root: Path) -> None:
    serial = load_spec(corpus_root, jobs=1, cache=False)
    parallel = load_spec(corpus_root, jobs=2, cache=False)
    if threading.active_count() == 1:
        assert parallel.timings["workers"] == 2  # really forked, not silently serial
    assert serial.counts() == parallel.counts()
    assert dump(parallel) == dump(serial)
    assert findings(parallel) == findings(serial)


def test_a_deferred_save_is_written_between_loads_never_during_one(tree: Path, tmp_path: Path) -> None:
    """A server's cache (``defer_save``) writes its pack when flushed, not inside a rebuild's load; a flush
    while a load is under way waits for that load, and what it writes serves a fresh process in full."""
    c = RecordCache(tree, tmp_path / "c", keep_objects=True, defer_save=True)
    load_spec(tree, cache=c)
    assert c.misses > 0 and not c.path.exists()  # due, not written
    c.next_load()  # the next rebuild's load begins
    assert not c.flush() and not c.path.exists()  # its entries are not all in yet
    load_spec(tree, cache=c)
    assert c.flush() and c.path.exists()
    assert not c.flush()  # nothing due any more
    again = RecordCache(tree, tmp_path / "c")
    load_spec(tree, cache=again)
    assert again.misses == 0 and again.hits > 0
