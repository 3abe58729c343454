"""AVS tests under a running server: the results a rebuild found missing are measured in the background.

A server's build does not wait for the suite (:class:`~specgen.site.prepare.SuitePlan` ``background``): the
tests without a result valid for the tree as it is now are *pending* and their pages say "running".
:meth:`LiveResults.schedule` runs them in a background thread (itself waiting on forked worker
processes that inherit the loaded spec, one fewer than the CPUs so the foreground rebuild keeps a
core); when they are done the thread asks the server for a rebuild (:attr:`LiveResults.trigger`), and
that rebuild, on the server's own thread, records the results in the layer (:meth:`drain`) before it
renders: the pages showing those tests change and nothing else. Tests found pending while a batch
runs (a later edit) are scheduled by the rebuild that batch's end triggers; a result is recorded
with the revision it was measured on, so one measured on a tree that changed meanwhile is never
shown.

The worked examples an edit made invalid are pending the same way (the server's build does not run them:
:func:`specgen.worked.pending.valid_only`; their sections say "running"): the
batch computes them in one forked process (it inherits the loaded spec and the compiled interpreter, and
shares nothing with the server's next rebuild) while the tests run, and hands back each entry with what it
read; :meth:`LiveResults.drain` records them against the revision they were computed on.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # types only: the run itself imports the runner lazily, in the worker thread
    from ..cache.layer import StoredResult
    from ..asl.conformance import Conformance
    from ..asl.runner import TestCase, TestRunReport
    from ..graph import SpecGraph

log = logging.getLogger("mkdocs.plugins.specgen")


@dataclass
class _Batch:
    graph: SpecGraph  # the SpecGraph the tests were measured on (its revision stamps the results)
    cases: list[TestCase]
    profile: str
    max_steps: int
    max_value_bits: int
    max_memory: int
    worked: tuple[str, ...] = ()  # mnemonics whose worked example is computed in this batch
    report: TestRunReport | None = None
    entries: list[tuple[str, StoredResult]] | None = None  # the worked examples' entries, with their reads
    seconds: float = 0.0
    worked_seconds: float = 0.0
    error: str = ""  # the tests' run stopped
    worked_error: str = ""  # the worked examples' run stopped

    def tree(self) -> str:
        """The tree the batch ran on (what a failed run must wait for to change before it is tried again)."""
        return tree_digest(self.graph)


def tree_digest(graph: SpecGraph) -> str:
    import hashlib
    return hashlib.blake2b(repr(sorted(graph.spec.files.items())).encode(), digest_size=16).hexdigest()


_FORKED: SpecGraph | None = None  # the graph a forked worked-example process inherits


def _run_worked(mnemonics: tuple[str, ...]) -> tuple[list[tuple[str, StoredResult]], float]:
    """The entries of ``mnemonics`` and the seconds they took (in the forked process)."""
    from ..worked.pending import run_pending
    assert _FORKED is not None
    t0 = time.perf_counter()
    entries = run_pending(_FORKED, list(mnemonics))
    return entries, time.perf_counter() - t0


class LiveResults:
    """Pending AVS tests of a server, run in the background one batch at a time."""

    def __init__(self) -> None:
        self.trigger: Callable[[], None] = lambda: None  # set by the plugin's on_serve: ask for a rebuild
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._running: _Batch | None = None
        self._done: list[_Batch] = []
        self._failed: tuple[str, bool, bool] | None = None  # (tree, tests stopped, worked examples stopped)
        self._stopped = False  # the server stops: no batch starts, no process is forked

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._running is not None

    def running_paths(self) -> set[str]:
        with self._lock:
            return {c.path for c in self._running.cases} if self._running is not None else set()

    def schedule(self, graph: SpecGraph, conformance: Conformance, jobs: int, worked: tuple[str, ...] = ()) -> None:
        """Run ``conformance``'s pending tests and the pending worked examples ``worked`` (of ``graph``)
        unless a batch is running (the rebuild its end triggers schedules what is still pending)."""
        pending = list(conformance.pending)
        if self._failed is not None and self._failed[0] == tree_digest(graph):
            # what stopped on this very tree is not tried again (each try would trigger a rebuild and the next)
            tests_failed, worked_failed = self._failed[1:]
            pending = [] if tests_failed else pending
            worked = () if worked_failed else worked
        if not pending and not worked:
            return
        batch = _Batch(graph, pending, conformance.profile, conformance.max_steps, conformance.max_value_bits,
                       conformance.max_memory, tuple(worked))
        with self._lock:
            if self._running is not None or self._stopped:
                return
            self._running = batch
        self._start(batch, jobs)

    def _start(self, batch: _Batch, jobs: int) -> None:
        def work() -> None:
            from concurrent.futures import ProcessPoolExecutor

            from ..asl.runner import run_cases
            from ..workers import forked_worker
            global _FORKED
            t0 = time.perf_counter()
            pool = future = None
            try:
                if self._stopped:
                    raise RuntimeError("the server stopped")
                if batch.worked:  # one process beside the tests; it inherits the spec as loaded now
                    _FORKED = batch.graph
                    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"),
                                               initializer=forked_worker)
                    future = pool.submit(_run_worked, batch.worked)
                if batch.cases and not self._stopped:
                    batch.report = run_cases(batch.graph.spec, batch.cases, jobs, batch.profile, batch.max_steps,
                                             coverage=True, max_value_bits=batch.max_value_bits,
                                             max_memory=batch.max_memory)
                batch.seconds = time.perf_counter() - t0
            except Exception as e:  # noqa: BLE001 - said in the log; the pages keep saying "running"
                batch.error = f"{type(e).__name__}: {e}"
            try:
                if future is not None:
                    batch.entries, batch.worked_seconds = future.result()
            except Exception as e:  # noqa: BLE001 - said in the log; the sections keep saying "running"
                batch.worked_error = f"{type(e).__name__}: {e}"
            finally:
                _FORKED = None
                if pool is not None:
                    pool.shutdown(wait=True, cancel_futures=True)
            with self._lock:
                self._done.append(batch)
                self._running = None
            self.trigger()

        self._thread = threading.Thread(target=work, name="specgen-avs", daemon=True)
        self._thread.start()

    def drain(self) -> int:
        """Record every finished batch in the layer (on the server's build thread); how many results."""
        from ..asl.conformance import record, tests_store
        from ..asl.revision import REVISION
        from ..worked.pending import adopt
        with self._lock:
            done, self._done = self._done, []
        n = 0
        for b in done:
            self._failed = (b.tree(), bool(b.error), bool(b.worked_error)) if b.error or b.worked_error else None
            if b.worked_error:
                log.warning("specgen: the worked examples running in the background stopped: %s (their sections "
                            "keep saying \"running\"; not tried again until the tree changes)", b.worked_error)
            if b.error:
                log.warning("specgen: the AVS tests running in the background stopped: %s (not tried again until "
                            "the tree changes)", b.error)
            if b.entries is not None:
                adopt(b.graph, b.entries)
                n += len(b.entries)
                log.info("specgen: worked examples re-ran in the background: %d in %.1f s", len(b.entries),
                         b.worked_seconds)
            if b.report is None or b.error:
                continue
            revision = REVISION(b.graph)
            store = tests_store(revision)
            record(store, revision, b.report, b.max_steps, b.max_value_bits, b.max_memory)
            store.save()
            n += len(b.report.results)
            c = b.report.counts
            log.info("specgen: AVS tests re-ran in the background: %d (%d passed, %d failed, %d error) in %.1f s",
                     len(b.report.results), c["passed"], c["failed"], c["error"], b.seconds)
        return n

    def stop(self, seconds: float = 5.0) -> None:
        """The server stops: no batch starts again and the running one's processes are ended, not waited
        for (:func:`specgen.workers.stop_children`). Tests running in this process (one job) end with it."""
        from ..workers import stop_children
        self._stopped = True
        self.trigger = lambda: None
        deadline = time.monotonic() + seconds
        thread = self._thread
        while thread is not None and thread.is_alive() and time.monotonic() < deadline:
            if not stop_children(0.5):  # nothing forked: the thread runs in-process work, or is ending
                thread.join(0.2)
                if not multiprocessing.active_children():
                    break

    def wait(self, timeout: float = 600.0) -> bool:
        """Block until nothing runs (tests and benchmarks); False on timeout."""
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timeout:
            with self._lock:
                if self._running is None:
                    return True
            time.sleep(0.05)
        return False


def background_jobs(configured: int) -> int:
    """Workers for background tests: one fewer than the CPUs (the rebuild keeps a core), at least one."""
    cpus = configured or os.cpu_count() or 1
    return max(1, cpus - 1)


__all__ = ["LiveResults", "background_jobs"]
