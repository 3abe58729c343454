"""What a store writes, a later process reads back (issue 38 item 6: a restart re-ran every worked example).

A worked example's outcome holds ``TileTable``s, whose shape fields ``layout`` and ``location`` are
keyword-only; the codec encoded them and decoded them by position, so every worked-example pack failed to
decode, was read as a miss, and a server started again re-ran every example in the background.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.cache import codec
from specgen.examples.outcome import TileTable
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator
from specgen.workspace import Workspace, use


def test_a_dataclass_with_keyword_only_fields_round_trips() -> None:
    value = TileTable("t0", "f32", 1, 2, 1, 2, [["1", "2"]], [["0x1", "0x2"]], [[True, True]],
                      layout="col-major", location="matrix")
    assert codec.decode(codec.encode(value)) == value
    assert codec.decode(codec.encode([value]))[0].layout == "col-major"


def test_worked_examples_stored_by_one_process_are_valid_in_the_next(bundled_copy: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    first = Generator(SpecGraph.build(load_spec(bundled_copy)))
    first.run()
    assert first.store.entries and first.store.path is not None and first.store.path.exists()
    previous = use(Workspace())  # a new process: nothing kept in memory, the store read from its pack
    try:
        again = Generator(SpecGraph.build(load_spec(bundled_copy)))
    finally:
        use(previous)
    keys = [key for key, _unit, _lines in again.targets()]
    assert keys and set(again.store.entries) >= set(keys), "the pack did not read back"
    assert all(again.store.valid(k, again.revision.inputs) is not None for k in keys)
