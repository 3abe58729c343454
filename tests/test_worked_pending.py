"""A server's background pool hands back every worked example it was asked for.

A worker whose own store already held a valid entry (a pool forked from a process that had computed it,
or a worker with another cache than the server's) computed nothing; it handed back only what it computed,
so the server's page said "running" for ever (tests/test_incremental_property.py never settled).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator
from specgen.worked.pending import run_pending


def test_run_pending_hands_back_an_entry_its_store_already_held(bundled_root: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    graph = SpecGraph.build(load_spec(bundled_root))
    gen = Generator(graph)
    key, unit, _lines = next(gen.targets())
    mnemonic = unit.instruction.mnemonic  # type: ignore[union-attr]
    first = run_pending(graph, [mnemonic])
    assert [k for k, _ in first] == [key]
    Generator(graph).run(only=frozenset([mnemonic]))  # saved: the next generator finds it valid
    again = Generator(graph)
    again.run(only=frozenset([mnemonic]), save=False)
    assert again.computed == []  # the premise: nothing is computed a second time
    handed = run_pending(graph, [mnemonic])
    assert [k for k, _ in handed] == [key]
    assert handed[0][1].value == first[0][1].value
