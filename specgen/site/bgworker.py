"""One worker of a server's background pool (:mod:`.bgpool`): ``python -m specgen.site.bgworker PARENT RFD WFD``.

A worker is a fresh interpreter, never a fork of the server: it inherits none of the server's threads,
locks, sockets or heap. It gets plain data only (the spec root, the tree's digest, test keys or
mnemonics, the budgets) over a pipe, loads the spec itself and keeps it across tasks: a task on the
tree it holds starts at once, a task on an edited tree reloads through a record cache that keeps the
unchanged files' records (only changed files are parsed again), and the tests' interpreter is carried
over when only function bodies changed (:func:`specgen.asl.carry.carry_over`), as the server's own is.

It runs at the lowest priority (``os.nice``), so a rebuild in the server always wins the CPU; the server
also stops it outright (SIGSTOP) while a rebuild runs. Between two tests, and before a task of worked
examples, it looks for a ``cancel`` of its task (a newer edit superseded it) and then returns what it
finished. It never writes the stores: results go back to the server, which records them against the
revision they were measured on. A task whose tree is not the one the worker finds on disk (an edit landed
after the server loaded it) is answered ``stale``, never run on other content.

Messages (pickled, :class:`multiprocessing.connection.Connection`): in, ``("task", id, Task)`` and
``("cancel", id)``; out, ``("done", id, kind, results, seconds, cancelled, {"loads": n, "carried": n})``,
``("stale", id)`` and ``("error", id, message)``. End of input ends the worker.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..workspace import current

NICE = 19  # the lowest priority: a rebuild of the server always goes first


@dataclass(frozen=True)
class Task:
    """What a worker is asked to compute: plain data only."""

    root: str  # the spec root, as the server loaded it
    tree: str  # the digest of the tree the server loaded (:func:`tree_digest`); another tree is "stale"
    kind: str  # "tests" or "worked"
    items: tuple[str, ...]  # test keys (:func:`specgen.asl.runner.test_key`) or mnemonics
    profile: str = "reference"
    max_steps: int = 0
    max_value_bits: int = 0
    max_memory: int = 0


def tree_digest(files: dict[str, str]) -> str:
    """The digest of a loaded tree's files and their hashes (``Spec.files``): server and worker compare it."""
    import hashlib
    return hashlib.blake2b(repr(sorted(files.items())).encode(), digest_size=16).hexdigest()


class Held:
    """The spec a worker holds across tasks, reloaded only when the tree changed."""

    def __init__(self) -> None:
        self.spec: Any = None
        self.tree = ""
        self.records: Any = None  # the record cache, keeping decoded records of unchanged files
        self.graph: Any = None  # built on the first worked-example task of a tree
        self.cases: dict[str, Any] = {}  # test key -> TestCase of the tree held
        self.units: frozenset[str] = frozenset()
        self.interp: tuple[tuple[Any, ...], Any] | None = None  # (settings, interpreter)
        self.loads = 0  # trees loaded (one per edit that reached the worker, not one per task)
        self.carried = 0  # interpreters carried over to an edited tree instead of built again

    def load(self, root: str) -> str:
        """(Re)load the tree at ``root``; its digest."""
        from ..cache import RecordCache, cache_enabled
        from ..loader import load_spec
        path = Path(root)
        if cache_enabled():
            if self.records is None or self.records.root != path.resolve():
                self.records = RecordCache(path, keep_objects=True)
            else:
                self.records.next_load()
        spec = load_spec(path, cache=self.records if self.records is not None and self.records.enabled else None)
        self.loads += 1
        if self.spec is not None and tree_digest(spec.files) == self.tree:
            return self.tree  # nothing changed since the last load: keep what was built on it
        old, self.spec, self.tree, self.graph, self.cases = self.spec, spec, tree_digest(spec.files), None, {}
        if self.interp is not None:
            if _carried(old, spec, self.interp[1]):
                self.carried += 1
            else:
                self.interp = None
        return self.tree

    def ensure(self, task: Task) -> bool:
        """Hold the task's tree; False when the tree on disk is another one (the task is stale)."""
        if self.spec is not None and self.tree == task.tree and str(self.spec.root) == str(Path(task.root)):
            return True
        gc.unfreeze()
        same = self.load(task.root) == task.tree
        gc.collect()
        gc.freeze()  # the held spec is not garbage: collections during the tests walk only what they make
        return same

    def interpreter(self, task: Task) -> Any:
        from ..asl.runner import _make_interpreter, _source_paths
        settings = (task.profile, task.max_steps, task.max_value_bits, task.max_memory)
        if self.interp is None or self.interp[0] != settings:
            self.interp = (settings, _make_interpreter(self.spec, task.profile, task.max_steps or None, True,
                                                       task.max_value_bits or None, task.max_memory or None))
        self.units = _source_paths(self.spec)
        return self.interp[1]

    def case(self, key: str) -> Any:
        if not self.cases:
            from ..asl.runner import discover, test_key
            self.cases = {test_key(c.path, c.id): c for c in discover(self.spec)}
        return self.cases.get(key)


def _carried(old: Any, new: Any, interp: Any) -> bool:
    """Whether the tests' interpreter of ``old`` now serves ``new`` (only function bodies changed)."""
    from ..asl.carry import carry_over
    from ..asl.index import build_index
    from ..catalog_asl.sources import generation_key
    if old is None or str(old.root) != str(new.root) or generation_key(old) != generation_key(new):
        return False
    interp.reset()  # the last test's own module is not part of the tree (every test resets first anyway)
    return carry_over(interp, build_index(new))


def _cancelled(conn: Connection, task_id: int) -> bool:
    """Whether the server cancelled the task (checked between two items; nothing else arrives meanwhile)."""
    while conn.poll():
        msg = conn.recv()
        if msg[0] == "cancel" and msg[1] == task_id:
            return True
    return False


def run_tests(held: Held, task: Task, conn: Connection, task_id: int) -> tuple[list[Any], bool]:
    """Each test of the task with what it read and ran; whether the task was cancelled part way."""
    from ..asl.runner import run_recorded
    interp = held.interpreter(task)
    out = []
    for key in task.items:
        if _cancelled(conn, task_id):
            return out, True
        case = held.case(key)
        if case is not None:  # a test the tree no longer has: the server's next schedule drops it too
            out.append(run_recorded(interp, case, held.units))
    return out, False


def run_worked(held: Held, task: Task, conn: Connection, task_id: int) -> tuple[list[Any], bool]:
    """The worked-example entries of the task's mnemonics, each with what it read; whether cancelled (before
    they started: a task of worked examples is short, and one that is not stops with its worker)."""
    from ..graph import SpecGraph
    from ..worked.pending import run_pending
    if held.graph is None:
        held.graph = SpecGraph.build(held.spec)
    if _cancelled(conn, task_id):
        return [], True
    # one generator for the task's few mnemonics: they share its executor, admitted sets and facts
    return run_pending(held.graph, list(task.items)), False


def serve_tasks(conn: Connection) -> None:
    """Answer tasks until the server closes the pipe."""
    held = Held()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] != "task":
            continue  # a cancel of a task already answered
        task_id, task = msg[1], msg[2]
        t0 = time.perf_counter()
        try:
            if not held.ensure(task):
                conn.send(("stale", task_id))
                continue
            run = run_tests if task.kind == "tests" else run_worked
            results, cancelled = run(held, task, conn, task_id)
        except Exception as e:  # noqa: BLE001 - the server says it in its log; the pages keep saying "running"
            conn.send(("error", task_id, f"{type(e).__name__}: {e}"))
            continue
        conn.send(("done", task_id, task.kind, results, time.perf_counter() - t0, cancelled,
                   {"loads": held.loads, "carried": held.carried}))


def main(argv: list[str]) -> int:
    """Become a worker of the server ``argv[0]``, talking over the pipe ends ``argv[1]`` (in), ``argv[2]`` (out)."""
    from ..workers import die_with_parent
    parent, rfd, wfd = (int(x) for x in argv[:3])
    die_with_parent(parent)  # a server killed outright takes its workers with it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the terminal is the server's to handle
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)  # ended quietly, no traceback
    try:
        os.nice(NICE)
    except OSError:
        pass
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    current().long_lived = True  # it loads the tree again after every edit (specgen.files keeps reads)
    conn_in, conn_out = Connection(rfd, writable=False), Connection(wfd, readable=False)

    class Duplex:  # one object for the loop: receive from the server, send to it
        recv, poll, send = conn_in.recv, conn_in.poll, conn_out.send

    try:
        serve_tasks(Duplex())  # type: ignore[arg-type]
    except (BrokenPipeError, EOFError):
        pass  # the server stopped while a result was on its way
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
