"""AVS tests and worked examples under a running server: what a rebuild found pending is measured in the background.

A server's build does not wait for the suite (:class:`~specgen.site.prepare.SuitePlan` ``background``): the
tests without a result valid for the tree as it is now are *pending* and their pages say "running"; so are
the worked examples an edit made invalid (:func:`specgen.worked.pending.valid_only`). :meth:`LiveResults.schedule`
hands them, as plain data (the root, the tree's digest, test keys, mnemonics), to the server's persistent
worker pool (:mod:`.bgpool`: started once, never a fork of the server, niced and stopped while a rebuild
runs). Results stream back as each task ends; the next build records whatever arrived (:meth:`drain`, on
the server's build thread, before it renders) against the revision the batch was scheduled on, so a result
measured on a tree that changed meanwhile is only shown while what it read is unchanged. When a batch's
last task ends, the pool's thread asks the server for a rebuild (:attr:`LiveResults.trigger`).

An edit that changes the tree while a batch runs supersedes it: its queued tasks are dropped, its running
ones stop at their next test and return what they finished (still valid for every test the edit did not
touch), and the new batch runs first what the edit made pending.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ContextManager

from ..cores import usable_cores
from .bgpool import BackgroundPool
from .bgworker import Task, tree_digest as _files_digest

if TYPE_CHECKING:  # types only
    from ..asl.conformance import Conformance
    from ..asl.runner import TestCase
    from ..graph import SpecGraph

log = logging.getLogger("mkdocs.plugins.specgen")

_TESTS_PER_TASK = 16  # fewer when there are few tests: a slow test delays only its own task
_WORKED_PER_TASK = 4


@dataclass
class _Batch:
    graph: SpecGraph  # the SpecGraph the work was scheduled on (its revision stamps the results)
    tree: str
    cases: list[TestCase]
    profile: str
    max_steps: int
    max_value_bits: int
    max_memory: int
    worked: tuple[str, ...] = ()
    tasks: dict[int, str] = field(default_factory=dict)  # outstanding task id -> kind
    tests: list[Any] = field(default_factory=list)  # arrived, not yet recorded: (TestResult, reads, hits)
    entries: list[Any] = field(default_factory=list)  # arrived worked-example entries: (layer key, entry)
    ran: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # status -> tests
    worked_ran: int = 0
    t0: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0
    error: str = ""  # a tests' task stopped
    worked_error: str = ""  # a worked examples' task stopped
    stale: bool = False  # a worker found another tree on disk than the one scheduled
    superseded: bool = False  # a newer tree's batch replaced it
    said: bool = False  # its end was logged

    @property
    def finished(self) -> bool:
        return not self.tasks


def tree_digest(graph: SpecGraph) -> str:
    """The tree a graph was loaded from (what a worker must hold to run the graph's work)."""
    return _files_digest(graph.spec.files)


class LiveResults:
    """Pending AVS tests and worked examples of a server, run in its background pool."""

    def __init__(self) -> None:
        self.trigger: Callable[[], None] = lambda: None  # set by the plugin's on_serve: ask for a rebuild
        self._lock = threading.Lock()
        self._pool: BackgroundPool | None = None
        self._ids = itertools.count(1)
        self._running: _Batch | None = None
        self._batches: list[_Batch] = []  # running, or with results not yet recorded
        self._owner: dict[int, _Batch] = {}
        self._failed: tuple[str, bool, bool] | None = None  # (tree, tests stopped, worked examples stopped)
        self._stale: dict[str, int] = {}  # tree -> times a worker found another one on disk
        self._stopped = False  # the server stops: nothing starts again

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._running is not None

    @property
    def pool(self) -> BackgroundPool | None:
        return self._pool

    def running_paths(self) -> set[str]:
        with self._lock:
            return {c.path for c in self._running.cases} if self._running is not None else set()

    def paused(self) -> ContextManager[None]:
        """The background work is stopped for the duration (a rebuild runs)."""
        pool = self._pool
        return pool.paused() if pool is not None else nullcontext()

    def schedule(self, graph: SpecGraph, conformance: Conformance, jobs: int, worked: tuple[str, ...] = ()) -> None:
        """Run ``conformance``'s pending tests and the pending worked examples ``worked`` (of ``graph``).

        A batch running on the same tree already covers them; one running on another tree is superseded
        (cancelled) and this one runs what the edit made pending first."""
        tree = tree_digest(graph)
        pending = list(conformance.pending)
        if self._failed is not None and self._failed[0] == tree:
            # what stopped on this very tree is not tried again (each try would trigger a rebuild and the next)
            tests_failed, worked_failed = self._failed[1:]
            pending = [] if tests_failed else pending
            worked = () if worked_failed else worked
        if self._stale.get(tree, 0) >= 2:
            return  # said once in drain: the workers read another tree than the server, twice
        with self._lock:
            if self._stopped:
                return
            current = self._running
            if current is not None:
                if current.tree == tree:
                    return
                before = self._supersede(current)
            else:
                before = set()
            if not pending and not worked:
                return
            batch = _Batch(graph, tree, pending, conformance.profile, conformance.max_steps,
                           conformance.max_value_bits, conformance.max_memory, tuple(worked))
            tasks = self._tasks(batch, graph, jobs, before)
            self._running = batch
            self._batches.append(batch)
            if self._pool is None:
                self._pool = BackgroundPool(jobs, self._answer)
            pool = self._pool
        pool.submit(tasks)

    def _supersede(self, batch: _Batch) -> set[str]:
        """Cancel ``batch`` (a newer tree replaces it; lock held): the keys of the tests it was to run."""
        from ..asl.runner import test_key
        batch.superseded = True
        self._running = None
        if self._pool is not None:
            for task_id in self._pool.cancel(set(batch.tasks)):
                batch.tasks.pop(task_id, None)
                self._owner.pop(task_id, None)
        return {test_key(c.path, c.id) for c in batch.cases}

    def _tasks(self, batch: _Batch, graph: SpecGraph, jobs: int, before: set[str]) -> list[tuple[int, Task]]:
        """The batch in tasks: the tests a newer edit made pending first (those the superseded batch did not
        have, ``before``), then the worked examples, then the other tests."""
        from ..asl.runner import test_key
        root = str(graph.spec.root)
        size = max(1, min(_TESTS_PER_TASK, len(batch.cases) // (max(1, jobs) * 4)))
        first = [c for c in batch.cases if test_key(c.path, c.id) not in before] if before else []
        rest = [c for c in batch.cases if test_key(c.path, c.id) in before] if before else batch.cases
        out: list[tuple[int, Task]] = []

        def add(kind: str, items: list[str]) -> None:
            task_id = next(self._ids)
            batch.tasks[task_id] = kind
            self._owner[task_id] = batch
            out.append((task_id, Task(root, batch.tree, kind, tuple(items), batch.profile, batch.max_steps,
                                      batch.max_value_bits, batch.max_memory)))

        for i in range(0, len(first), size):
            add("tests", [test_key(c.path, c.id) for c in first[i:i + size]])
        for i in range(0, len(batch.worked), _WORKED_PER_TASK):
            add("worked", list(batch.worked[i:i + _WORKED_PER_TASK]))
        for i in range(0, len(rest), size):
            add("tests", [test_key(c.path, c.id) for c in rest[i:i + size]])
        return out

    def _answer(self, task_id: int, msg: tuple[Any, ...]) -> None:
        """A task's answer (on the pool's thread)."""
        with self._lock:
            batch = self._owner.pop(task_id, None)
            if batch is None:
                return
            kind = batch.tasks.pop(task_id, "tests")
            if msg[0] == "done":
                if kind == "tests":
                    batch.tests.extend(msg[3])
                    batch.ran += len(msg[3])
                    for r, _reads, _hits in msg[3]:
                        batch.counts[r.status] = batch.counts.get(r.status, 0) + 1
                else:
                    batch.entries.extend(msg[3])
                    batch.worked_ran += len(msg[3])
            elif msg[0] == "stale":
                batch.stale = True
            elif msg[0] == "cancelled":
                pass  # its worker was replaced; what it had finished is lost with it
            elif kind == "tests":
                batch.error = batch.error or str(msg[2])
            else:
                batch.worked_error = batch.worked_error or str(msg[2])
            if not batch.finished:
                return
            batch.seconds = time.perf_counter() - batch.t0
            if self._running is batch:
                self._running = None
            ask = not batch.superseded and not self._stopped
        if ask:
            self.trigger()

    def drain(self) -> int:
        """Record every result that arrived in the layer (on the server's build thread); how many."""
        with self._lock:
            taken = []
            for b in self._batches:
                taken.append((b, b.tests, b.entries, b.finished))
                b.tests, b.entries = [], []
            self._batches = [b for b in self._batches if not b.finished]
        n = 0
        for b, tests, entries, finished in taken:
            n += self._record(b, tests, entries)
            if finished and not b.said:
                b.said = True
                self._finished(b)
        return n

    def _record(self, b: _Batch, tests: list[Any], entries: list[Any]) -> int:
        from ..asl.conformance import record, tests_store
        from ..asl.revision import REVISION
        from ..asl.runner import TestRunReport, test_key
        from ..worked.pending import adopt
        if entries:
            adopt(b.graph, entries)
        if not tests:
            return len(entries)
        revision = REVISION(b.graph)
        store = tests_store(revision)
        report = TestRunReport([r for r, _, _ in tests], b.seconds, 0.0, b.profile, 1, set(),
                               {test_key(r.path, r.id): reads for r, reads, _ in tests},
                               {test_key(r.path, r.id): h for r, _, h in tests})
        record(store, revision, report, b.max_steps, b.max_value_bits, b.max_memory)
        store.save()
        return len(entries) + len(tests)

    def _finished(self, b: _Batch) -> None:
        """Say how a batch ended; remember a tree whose work stopped, so it is not tried again."""
        if b.superseded:
            log.info("specgen: background work superseded by an edit: %d test(s) and %d worked example(s) kept of "
                     "%d and %d", b.ran, b.worked_ran, len(b.cases), len(b.worked))
            return
        if b.stale:
            self._stale[b.tree] = self._stale.get(b.tree, 0) + 1
            if self._stale[b.tree] >= 2:
                log.warning("specgen: the background workers found another tree on disk than the server loaded, "
                            "twice; the results of this tree stay \"running\"")
            return
        self._stale.pop(b.tree, None)
        self._failed = (b.tree, bool(b.error), bool(b.worked_error)) if b.error or b.worked_error else None
        if b.worked_error:
            log.warning("specgen: the worked examples running in the background stopped: %s (their sections "
                        "keep saying \"running\"; not tried again until the tree changes)", b.worked_error)
        if b.error:
            log.warning("specgen: the AVS tests running in the background stopped: %s (not tried again until "
                        "the tree changes)", b.error)
        if b.worked:
            log.info("specgen: worked examples re-ran in the background: %d in %.1f s", b.worked_ran, b.seconds)
        if b.cases:
            log.info("specgen: AVS tests re-ran in the background: %d (%d passed, %d failed, %d error) in %.1f s",
                     b.ran, b.counts.get("passed", 0), b.counts.get("failed", 0), b.counts.get("error", 0), b.seconds)

    def stop(self, seconds: float = 5.0) -> None:
        """The server stops: nothing starts again and the pool's processes end (within ``seconds``)."""
        with self._lock:
            self._stopped = True
            self.trigger = lambda: None
            pool = self._pool
        if pool is not None:
            pool.stop(seconds)

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
    """Workers for background work: one fewer than the CPUs (the rebuild keeps a core), at least one."""
    cpus = configured or usable_cores()
    return max(1, cpus - 1)


__all__ = ["LiveResults", "background_jobs"]
