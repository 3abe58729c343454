"""A server's persistent background pool (issue 38, item 5): fresh worker processes, never forks of the threaded
server, at the lowest priority, stopped while a rebuild runs, holding their spec across tasks, and work a newer
edit supersedes cancelled (a worker stuck in a superseded test is replaced)."""

from __future__ import annotations

import os
import queue
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from specgen.asl.conformance import Conformance, conformance
from specgen.asl import runner
from specgen.asl.runner import discover
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.site import liveresults
from specgen.site.bgpool import BackgroundPool
from specgen.site.bgworker import Task, tree_digest

HELPER = "asl/tile/model/execution/elementwise.asl"
LOOP = "var slow_work : integer = 0; for slow_i = 0 to 40000000 do slow_work = slow_work + 1; end;"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))


def _stat(pid: int) -> list[str]:
    """``/proc/PID/stat`` after the command name: [state, ppid, ...] (Linux)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _alive(pid: int) -> bool:
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def _states(pids: list[int], until: Any, seconds: float = 30.0) -> list[str]:
    """The processes' states once ``until(states)`` holds or ``seconds`` passed (a signal takes effect when the
    process is next scheduled)."""
    deadline = time.monotonic() + seconds
    while True:
        states = [_stat(p)[0] for p in pids]
        if until(states) or time.monotonic() > deadline:
            return states
        time.sleep(0.02)


def _body_statement(path: Path, func: str, statement: str) -> None:
    """Put ``statement`` on the ``begin`` line of ``func``'s body (no other declaration moves)."""
    text = path.read_text(encoding="utf-8")
    begin = text.index("\nbegin", text.index(func)) + 1
    path.write_text(text[:begin] + "begin " + statement + text[begin + len("begin"):], encoding="utf-8")


def _task(root: Path, kind: str, items: tuple[str, ...], steps: int = 0) -> Task:
    return Task(str(root), tree_digest(load_spec(root).files), kind, items, max_steps=steps)


def _answer(answers: queue.Queue[tuple[Any, ...]]) -> tuple[Any, ...]:
    return answers.get(timeout=300)


def test_a_worker_is_a_fresh_low_priority_process_holding_no_socket(bundled_copy: Path) -> None:
    """The worker is started, not forked: its command is the worker module (a fork would be this process), it runs
    at nice 19, and no socket of the server (here, a listening one opened first) reaches it."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    answers: queue.Queue[tuple[Any, ...]] = queue.Queue()
    pool = BackgroundPool(1, lambda task_id, msg: answers.put(msg))
    keys = tuple(runner.test_key(c.path, c.id) for c in discover(load_spec(bundled_copy))[:2])
    try:
        pool.submit([(1, _task(bundled_copy, "tests", keys))])
        msg = _answer(answers)
        assert msg[0] == "done" and [r.status for r, _reads, _hits in msg[3]] == ["passed", "passed"]
        [pid] = pool.pids
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"specgen.site.bgworker" in cmdline
        assert int(_stat(pid)[1]) == os.getpid() and int(_stat(pid)[16]) == 19  # ppid, nice
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        assert not [x for x in links if x.startswith("socket:")], links
    finally:
        pool.stop()
        listening.close()
    assert not _alive(pid)


def test_a_worker_keeps_its_spec_across_tasks_and_carries_its_interpreter_over_a_body_edit(
        bundled_copy: Path) -> None:
    answers: queue.Queue[tuple[Any, ...]] = queue.Queue()
    pool = BackgroundPool(1, lambda task_id, msg: answers.put(msg))
    cases = discover(load_spec(bundled_copy))
    key = runner.test_key(cases[0].path, cases[0].id)
    try:
        pool.submit([(1, _task(bundled_copy, "tests", (key,))), (2, _task(bundled_copy, "worked", ("TADD",)))])
        first, second = _answer(answers), _answer(answers)
        assert first[0] == second[0] == "done" and second[3] and second[3][0][0]
        assert first[6]["loads"] == second[6]["loads"] == 1  # the second task found its tree held
        _body_statement(bundled_copy / HELPER, "func ExecuteTileBinary(", "let body_edit = 1;")
        pool.submit([(3, _task(bundled_copy, "tests", (key,)))])
        third = _answer(answers)
        assert third[0] == "done" and third[6] == {"loads": 2, "carried": 1}
        assert pool.started == 1
    finally:
        pool.stop()


def test_a_task_on_a_tree_no_longer_on_disk_is_stale_not_run_on_other_content(bundled_copy: Path) -> None:
    answers: queue.Queue[tuple[Any, ...]] = queue.Queue()
    pool = BackgroundPool(1, lambda task_id, msg: answers.put(msg))
    task = _task(bundled_copy, "worked", ("TADD",))
    _body_statement(bundled_copy / HELPER, "func ExecuteTileBinary(", "let later_edit = 1;")
    try:
        pool.submit([(1, task)])
        assert _answer(answers) == ("stale", 1)
    finally:
        pool.stop()


def test_workers_are_stopped_while_a_rebuild_runs_and_a_stopped_pool_still_ends(bundled_copy: Path) -> None:
    answers: queue.Queue[tuple[Any, ...]] = queue.Queue()
    pool = BackgroundPool(2, lambda task_id, msg: answers.put(msg))
    pool.submit([(1, _task(bundled_copy, "worked", ("TADD",))), (2, _task(bundled_copy, "worked", ("TSUB",)))])
    pids: list[int] = []
    try:
        _answer(answers)
        pids = pool.pids
        assert len(pids) == 2
        with pool.paused():
            assert _states(pids, lambda s: s == ["T", "T"]) == ["T", "T"]
            with pool.paused():  # nested (a rebuild inside a rebuild's fallback): still stopped after the inner one
                pass
            assert _states(pids, lambda s: s != ["T", "T"], 1.0) == ["T", "T"]
        assert "T" not in _states(pids, lambda s: "T" not in s)
        with pool.paused():
            pool.stop()  # the server stops in the middle of a rebuild: stopped workers end too
    finally:
        pool.stop()
    assert not [p for p in pids if _alive(p)]


def _slow_test(root: Path) -> tuple[SpecGraph, runner.TestCase, runner.TestCase]:
    """A tree whose first test loops for hours (under a step budget that lets it), and a second, quick test."""
    first, second = discover(load_spec(root))[:2]
    _body_statement(root / first.path, "func main()", LOOP)
    graph = SpecGraph.build(load_spec(root))
    cases = {runner.test_key(c.path, c.id): c for c in discover(graph.spec)}
    return graph, cases[runner.test_key(first.path, first.id)], cases[runner.test_key(second.path, second.id)]


def test_work_a_newer_edit_supersedes_is_cancelled_and_a_stuck_worker_replaced(
        bundled_copy: Path, caplog: pytest.LogCaptureFixture) -> None:
    original = {p: p.read_bytes() for p in (bundled_copy / "tests").rglob("*.asl")}
    graph, slow, quick = _slow_test(bundled_copy)
    live = liveresults.LiveResults()
    live.schedule(graph, Conformance("running", {}, "reference", 10 ** 12, 64, [quick, slow]), 1)
    try:
        for _ in range(3000):  # the quick test's result is in: the worker has gone on into the endless one
            if live.drain():
                break
            time.sleep(0.1)
        else:
            pytest.fail("the quick test never came back")
        time.sleep(1.0)
        assert live.busy
        for p, data in original.items():  # the edit that supersedes it: the loop is gone again
            p.write_bytes(data)
        edited = SpecGraph.build(load_spec(bundled_copy))
        now = conformance(edited, run=False)
        assert now.pending
        live.schedule(edited, now, 1)
        assert live.wait(300), "the superseded test still holds the worker"
        assert live.pool is not None and live.pool.started == 2  # the stuck worker was killed and replaced
        import logging
        with caplog.at_level(logging.INFO, logger="mkdocs.plugins.specgen"):
            live.drain()
        assert "background work superseded by an edit: 1 test(s)" in caplog.text
        assert not conformance(SpecGraph.build(load_spec(bundled_copy)), run=False).pending  # all recorded
    finally:
        live.stop()


@pytest.mark.parametrize("killed", [False, True])
def test_stop_ends_every_worker_even_in_the_middle_of_a_test(bundled_copy: Path, killed: bool) -> None:
    """Also a worker that died on its own just before the pool stops is reaped, with no exception."""
    graph, slow, _quick = _slow_test(bundled_copy)
    live = liveresults.LiveResults()
    live.schedule(graph, Conformance("running", {}, "reference", 10 ** 12, 64, [slow]), 1)
    pool = live.pool
    assert pool is not None
    for _ in range(3000):
        if pool.pids:
            break
        time.sleep(0.1)
    pids = pool.pids
    if killed:
        os.kill(pids[0], signal.SIGKILL)
    live.stop()
    assert not [p for p in pids if _alive(p)] and not pool.pids
