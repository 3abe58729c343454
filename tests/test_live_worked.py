"""Worked examples under a server: computed in the background, recorded for the revision they ran on.

The plugin-level behaviour (pages saying "running", then the example, equal to a clean build) is in
``tests/test_site_incremental.py``; here, what :class:`~specgen.site.liveresults.LiveResults` does with
a worked-example batch: its entries come back from the background pool and are recorded, and a run that
stopped (its worker killed) is said in the log and not tried again on the same tree (each try would trigger
a rebuild, and that rebuild the next try).
"""

from __future__ import annotations

import logging
import os
import signal
import time
from pathlib import Path

import pytest

from specgen.asl.conformance import Conformance
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.site import liveresults
from specgen.worked.pending import valid_only


def _triggered(calls: list[int], n: int) -> bool:
    """Whether the batch asked for ``n`` rebuilds by now (it asks just after it is marked done)."""
    for _ in range(200):
        if len(calls) >= n:
            return len(calls) == n
        time.sleep(0.01)
    return False


def _idle_suite() -> Conformance:
    return Conformance("complete", {}, "reference", 1000, 64)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))


def test_pending_worked_examples_are_computed_in_the_background_and_recorded(bundled_copy: Path) -> None:
    graph = SpecGraph.build(load_spec(bundled_copy))
    suite = valid_only(graph)
    assert suite.pending and not suite.entries  # an empty layer: every worked example is pending
    live = liveresults.LiveResults()
    triggered: list[int] = []
    live.trigger = lambda: triggered.append(1)
    try:
        live.schedule(graph, _idle_suite(), 1, tuple(suite.pending))
        assert live.wait(300) and _triggered(triggered, 1)
        assert live.drain() == len(suite.pending)
    finally:
        live.stop()
    again = valid_only(SpecGraph.build(load_spec(bundled_copy)))  # the next revision (nothing changed)
    assert not again.pending and sorted(again.entries) == sorted(suite.pending)


HELPER = "asl/tile/model/execution/elementwise.asl"


def _helper_body(root: Path, statement: str) -> bytes:
    """Put ``statement`` on the ``begin`` line of ExecuteTileBinary (which the worked examples run); the old bytes."""
    path = root / HELPER
    before = path.read_bytes()
    text = before.decode("utf-8")
    begin = text.index("\nbegin", text.index("func ExecuteTileBinary(")) + 1
    path.write_text(text[:begin] + "begin " + statement + text[begin + len("begin"):], encoding="utf-8")
    return before


def test_a_stopped_worked_example_run_is_said_and_not_retried_on_the_same_tree(
        bundled_copy: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The worker computing them is killed in the middle (a helper made to loop for minutes): said in the log,
    not tried again on the same tree, tried again once the tree changed."""
    before = _helper_body(bundled_copy, "var slow_work : integer = 0; for slow_i = 0 to 40000000 do "
                                        "slow_work = slow_work + 1; end;")
    graph = SpecGraph.build(load_spec(bundled_copy))
    pending = tuple(valid_only(graph).pending)[:1]  # one task: the worker that replaces the killed one has none
    live = liveresults.LiveResults()
    triggered: list[int] = []
    live.trigger = lambda: triggered.append(1)
    try:
        live.schedule(graph, _idle_suite(), 1, pending)
        pool = live.pool
        assert pool is not None
        for _ in range(3000):
            if pool.pids:
                break
            time.sleep(0.1)
        os.kill(pool.pids[0], signal.SIGKILL)
        assert live.wait(300) and _triggered(triggered, 1)
        with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.specgen"):
            assert live.drain() == 0
        assert "worked examples running in the background stopped" in caplog.text
        live.schedule(graph, _idle_suite(), 1, pending)  # the same tree: nothing runs, no rebuild is asked for
        assert not live.busy and live.wait(5) and not _triggered(triggered, 2)
        (bundled_copy / HELPER).write_bytes(before)
        changed = SpecGraph.build(load_spec(bundled_copy))
        live.schedule(changed, _idle_suite(), 1, pending)  # another tree: tried again
        assert live.wait(300) and _triggered(triggered, 2)
        assert live.drain() == 1
    finally:
        live.stop()
