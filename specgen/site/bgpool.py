"""A server's persistent background pool: started once per serve, never a fork of the threaded server.

The AVS tests and worked examples a rebuild leaves pending run here (:mod:`.liveresults` says what to run
and records what comes back). Before, each background batch forked the server: a ~1.5 GB process with
the HTTP, watcher and timer threads running, whose children inherited its locks, sockets and signal
handlers, were handed the loaded spec through module globals, and stayed cheap only because the heap was
frozen (``gc.freeze``) so that copy-on-write pages were not touched. The pool of ``concurrent.futures``
that drove them also raced at shutdown (CPython 3.11: a future cancelled, then given the exception of
its killed worker: ``InvalidStateError`` from its management thread, a traceback at exit).

Here, and why:

- **Workers are fresh interpreters** (``python -m specgen.site.bgworker``, the ``spawn`` way; not
  ``forkserver``, whose server process would be one more process to stop and would itself start from the
  server's state). They inherit no thread, lock or heap, and no descriptor but their two pipe ends
  (``close_fds``): never the listening socket. They get plain data (root, tree digest, test keys,
  mnemonics, budgets), load the spec themselves once and keep it across tasks, reloading only what an
  edit changed (:class:`~specgen.site.bgworker.Held`).
- **One thread owns every process.** :class:`BackgroundPool` starts its workers from its own manager
  thread, which alone sends, receives, restarts a worker that died and, at :meth:`BackgroundPool.stop`,
  ends them (EOF, SIGCONT, SIGTERM, then SIGKILL, each reaped). No future, no executor, no second thread
  touching a process: the shutdown race cannot happen. The workers ask the kernel to kill them when that
  thread ends (``PR_SET_PDEATHSIG`` follows the thread that started a process), so a server killed
  outright leaves nothing either.
- **Lower priority than rebuilds.** Workers run at nice 19, and :meth:`BackgroundPool.paused` stops them
  (SIGSTOP) while a rebuild runs and continues them after (SIGCONT): a test in the middle of a loop stops
  at once, not at its end, and no lock is shared with the server (each worker has its own pipes), so a
  stopped worker holds nothing the rebuild needs.
- **Superseded work is cancelled.** :meth:`BackgroundPool.cancel` drops the queued tasks of a batch and
  asks the running ones to stop at their next test (they return what they finished, which stays valid for
  every test whose reads the edit did not touch). A worker still in the same test :data:`GRACE` seconds
  later (not counting pauses) is killed and replaced: the new one loads the edited tree, from the record
  cache, in a few seconds, less than a long test would hold the core.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Iterator

from .bgworker import Task

log = logging.getLogger("mkdocs.plugins.specgen")

_RESTARTS = 3  # workers that die before answering a task, in a row, before the pool gives up
GRACE = 2.0  # seconds (not paused) a worker has to give up a cancelled task before it is killed and replaced
_POOLS: set[BackgroundPool] = set()


@dataclass
class _Worker:
    proc: subprocess.Popen[bytes]
    send: Connection
    recv: Connection
    task: int | None = None  # the id of the task it runs
    answered: bool = False  # it finished a task (a worker dying at start-up counts towards giving up)
    cancelled: set[int] = field(default_factory=set)
    deadline: float = 0.0  # when a cancelled task still running gets its worker killed (0: none)


class BackgroundPool:
    """``size`` worker processes at low priority, fed tasks in order; ``on_message(task_id, message)`` is called on
    the manager thread with every answer (``done``, ``stale``, ``error``: :mod:`.bgworker`)."""

    def __init__(self, size: int, on_message: Callable[[int, tuple[Any, ...]], None]) -> None:
        self.size = max(1, size)
        self.on_message = on_message
        self._lock = threading.Lock()
        self._queue: deque[tuple[int, Task]] = deque()
        self._cancel: set[int] = set()
        self._workers: list[_Worker] = []
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)  # a full pipe already wakes the thread
        self._closed = False  # the wake pipe is closed (its numbers may be reused: never written again)
        self._stopping = False
        self._paused = 0
        self._paused_at = 0.0
        self._deaths = 0  # workers that died before answering anything, in a row
        self.started = 0  # worker processes started (a test counts restarts)

    @property
    def pids(self) -> list[int]:
        with self._lock:
            return [w.proc.pid for w in self._workers]

    def submit(self, tasks: list[tuple[int, Task]]) -> None:
        """Queue ``tasks`` behind what is queued; the pool (its thread and workers) starts on the first call."""
        with self._lock:
            if self._stopping:
                return
            self._queue.extend(tasks)
            if self._thread is None:
                _POOLS.add(self)
                self._thread = threading.Thread(target=self._manage, name="specgen-background-pool", daemon=True)
                self._thread.start()
        self._wake()

    def cancel(self, ids: set[int]) -> list[int]:
        """Drop the queued tasks among ``ids`` (returned) and ask the running ones to stop at their next item."""
        with self._lock:
            dropped = [i for i, _t in self._queue if i in ids]
            self._queue = deque((i, t) for i, t in self._queue if i not in ids)
            self._cancel |= {w.task for w in self._workers if w.task in ids}  # type: ignore[misc]
        self._wake()
        return dropped

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The workers are stopped (SIGSTOP) for the duration (a rebuild runs): it gets the CPUs to itself."""
        with self._lock:
            self._paused += 1
            if self._paused == 1:
                self._paused_at = time.monotonic()
                self._signal_all(signal.SIGSTOP)
        try:
            yield
        finally:
            with self._lock:
                self._paused -= 1
                if self._paused == 0:
                    self._signal_all(signal.SIGCONT)
                    for w in self._workers:  # a stopped worker could not give up its task meanwhile
                        if w.deadline:
                            w.deadline += time.monotonic() - self._paused_at

    def stop(self, seconds: float = 5.0) -> None:
        """End every worker (within ``seconds``, then they are killed) and the manager thread; idempotent."""
        with self._lock:
            self._stopping = True
            self._queue.clear()
            thread = self._thread
        self._wake()
        if thread is None:
            self._close_wake()
        elif thread is not threading.current_thread():
            thread.join(seconds + 3.0)
        _POOLS.discard(self)

    # ------------------------------------------------------------------ the manager thread
    def _wake(self) -> None:
        with self._lock:
            if not self._closed:
                try:
                    os.write(self._wake_w, b"x")
                except OSError:
                    pass

    def _signal_all(self, sig: int) -> None:
        for w in self._workers:
            try:
                os.kill(w.proc.pid, sig)
            except OSError:
                pass

    def _start_worker(self) -> _Worker:
        import specgen
        from_parent, to_child = os.pipe()  # the worker reads from_parent
        from_child, to_parent = os.pipe()  # the worker writes to_parent
        env = dict(os.environ)
        top = str(Path(specgen.__file__).resolve().parent.parent)  # the worker imports this very specgen
        env["PYTHONPATH"] = os.pathsep.join([top, *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
        try:
            proc = subprocess.Popen([sys.executable, "-m", "specgen.site.bgworker", str(os.getpid()),
                                     str(from_parent), str(to_parent)], pass_fds=(from_parent, to_parent),
                                    stdin=subprocess.DEVNULL, env=env)
        finally:
            os.close(from_parent)
            os.close(to_parent)
        self.started += 1
        w = _Worker(proc, Connection(to_child, readable=False), Connection(from_child, writable=False))
        if self._paused:
            os.kill(proc.pid, signal.SIGSTOP)
        return w

    def _manage(self) -> None:
        try:
            while True:
                with self._lock:
                    if self._stopping:
                        return
                    self._fill()
                    self._dispatch()
                    conns = {w.recv: w for w in self._workers}
                    timeout = self._overdue()
                ready = wait([*conns, self._wake_r], timeout=timeout)
                for r in ready:
                    if r == self._wake_r:
                        os.read(self._wake_r, 4096)
                    else:
                        self._receive(conns[r])  # type: ignore[index]
        finally:
            self._end_workers()

    def _fill(self) -> None:
        """Start workers up to the size while there is work (a dead worker is replaced, up to a point)."""
        while len(self._workers) < self.size and (self._queue or not self._workers) and self._deaths < _RESTARTS:
            self._workers.append(self._start_worker())

    def _overdue(self) -> float:
        """Kill the workers that did not give up a cancelled task in time (a test in a long loop checks for a
        cancel only when it ends); the seconds until the next such deadline (at most one)."""
        now, wait_for = time.monotonic(), 1.0
        for w in self._workers:
            if not w.deadline or self._paused:
                continue
            if now >= w.deadline:
                w.deadline = 0.0
                w.proc.kill()  # its pipe closes: _died answers its task as cancelled and a new worker starts
            else:
                wait_for = min(wait_for, w.deadline - now)
        return wait_for

    def _dispatch(self) -> None:
        for w in self._workers:
            if w.task is not None and w.task in self._cancel and w.task not in w.cancelled:
                w.cancelled.add(w.task)
                w.deadline = time.monotonic() + GRACE
                self._send(w, ("cancel", w.task))
        self._cancel = {i for i in self._cancel if any(w.task == i for w in self._workers)}
        for w in self._workers:
            if w.task is None and self._queue:
                task_id, task = self._queue.popleft()
                w.task = task_id
                self._send(w, ("task", task_id, task))
        if self._deaths >= _RESTARTS and not self._workers:  # every start failed: say so for what waits
            while self._queue:
                task_id, _task = self._queue.popleft()
                self._answer(task_id, ("error", task_id, "the background workers could not start"))

    def _send(self, w: _Worker, msg: tuple[Any, ...]) -> None:
        try:
            w.send.send(msg)
        except OSError:
            pass  # it died: its end of the pipe is read as such next

    def _receive(self, w: _Worker) -> None:
        try:
            msg = w.recv.recv()
        except (EOFError, OSError):
            self._died(w)
            return
        with self._lock:
            w.task = None
            w.deadline = 0.0
            w.answered = True
            self._deaths = 0
        self._answer(msg[1], msg)

    def _died(self, w: _Worker) -> None:
        try:
            code = w.proc.wait(5.0)
        except subprocess.TimeoutExpired:  # its pipe closed, the process still there: it is not a worker any more
            w.proc.kill()
            code = w.proc.wait()
        cancelled = w.task is not None and w.task in w.cancelled
        with self._lock:
            self._workers.remove(w)
            self._deaths = 0 if w.answered or cancelled else self._deaths + 1
            stopping = self._stopping
        for c in (w.send, w.recv):
            c.close()
        if w.task is not None and not stopping:
            self._answer(w.task, ("cancelled", w.task) if cancelled else
                         ("error", w.task, f"the background worker stopped (exit status {code})"))

    def _answer(self, task_id: int, msg: tuple[Any, ...]) -> None:
        try:
            self.on_message(task_id, msg)
        except Exception:  # noqa: BLE001 - a fault in handling one answer must not stop the pool
            log.exception("specgen: handling a background result failed")

    def _end_workers(self) -> None:
        """Stop every worker: end of input first (it exits between tasks), then SIGTERM, then SIGKILL; reap all."""
        with self._lock:
            workers, self._workers = self._workers, []
        for w in workers:
            w.send.close()
            for sig in (signal.SIGCONT, signal.SIGTERM):  # a stopped process acts on SIGTERM only once continued
                try:
                    os.kill(w.proc.pid, sig)
                except OSError:
                    pass
        deadline = time.monotonic() + 2.0
        for w in workers:
            try:
                w.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait()
            w.recv.close()
        self._close_wake()

    def _close_wake(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for fd in (self._wake_r, self._wake_w):
                os.close(fd)


def stop_pools() -> None:
    """End every background pool of this process (a server's last clean-up; also at exit)."""
    for pool in list(_POOLS):
        pool.stop()


atexit.register(stop_pools)

__all__ = ["BackgroundPool", "stop_pools"]
