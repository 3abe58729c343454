"""What a forked worker process does first, and how a server ends the workers it forked.

A worker forked from ``specgen serve`` inherits the handler that turns SIGTERM and SIGHUP into an
exception (:mod:`specgen.site.servestop`); a pool that is terminated (its parent stopping, or a
``with Pool()`` left by that exception) then prints a traceback from every worker. With the default
handlers a worker ends quietly, as its parent asks.

It also inherits every open descriptor, the server's listening socket among them (also when it was
forked before the server listened: the descriptor is the same socket): a worker that outlived a
stopped server (its parent gone, blocked writing a result to a pipe whose other end it holds itself)
kept the port, and the next ``specgen serve`` on it failed with "Address already in use". So a
worker first closes every network (IPv4, IPv6) socket it inherited: it talks to its parent through
pipes only. It asks the kernel to kill it when its parent dies (Linux ``PR_SET_PDEATHSIG``; the
parent is the thread that forked it, and every pool specgen forks is shut down by that thread before
it returns), and a stopping server ends what is left (:func:`stop_children`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from concurrent.futures import InvalidStateError
from types import TracebackType
from typing import Callable

_PARENT = [os.getpid()]  # the pid that forked this process (set just before each fork)
_PR_SET_PDEATHSIG = 1


def _before_fork() -> None:
    _PARENT[0] = os.getpid()


os.register_at_fork(before=_before_fork)


def forked_worker() -> None:
    """The initializer of every worker pool specgen forks (rendering, loading, the AVS suite)."""
    _die_with_parent()
    _close_network_sockets()
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def _die_with_parent() -> None:
    """Linux: this process is killed when its parent dies (a SIGKILL of the server ends its workers too)."""
    die_with_parent(_PARENT[0])


def die_with_parent(parent: int) -> None:
    """Linux: this process is killed when its parent ``parent`` (the thread that started it) ends; a process
    whose parent is already gone ends now."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _close_network_sockets() -> None:
    """Close the IPv4 and IPv6 sockets this process inherited (a server's listening socket is not a worker's).

    The socket objects of the parent's memory keep their old numbers; a worker never uses or closes them
    (it ends with ``os._exit``), so a number reused by a pipe here is never closed by mistake."""
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):
        fds = list(range(3, 256))
    for fd in fds:
        if fd < 3:
            continue
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            sock = socket.socket(fileno=fd)
        except OSError:
            continue
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.close()
        else:
            sock.detach()


def _quiet_cancelled_race(hook: Callable[[threading.ExceptHookArgs], None]) -> Callable[
        [threading.ExceptHookArgs], None]:
    """A thread exception hook that drops the one race CPython 3.11 reports when a pool's workers are
    ended under a cancelled future (gh-107219, fixed in 3.12: the pool's manager thread sets an
    exception on a future already cancelled). Every other thread exception goes to ``hook``."""
    def hook_(args: threading.ExceptHookArgs) -> None:
        if (isinstance(args.exc_value, InvalidStateError) and args.exc_traceback is not None
                and _from_pool_manager(args.exc_traceback)):
            return
        hook(args)
    return hook_


def _from_pool_manager(tb: TracebackType) -> bool:
    return any(frame.name == "terminate_broken" and frame.filename.endswith("concurrent/futures/process.py")
               for frame in traceback.extract_tb(tb))


def stop_children(seconds: float = 2.0) -> int:
    """End every worker process this process started (terminate, then kill what is left after
    ``seconds``); how many there were."""
    if not getattr(threading.excepthook, "_specgen_quiet", False):
        quiet = _quiet_cancelled_race(threading.excepthook)
        setattr(quiet, "_specgen_quiet", True)
        threading.excepthook = quiet
    children = multiprocessing.active_children()
    for p in children:
        try:
            p.terminate()
        except OSError:
            pass
    deadline = time.monotonic() + seconds
    for p in children:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in children:
        if p.is_alive():
            try:
                p.kill()
            except OSError:
                pass
            p.join(1.0)
    return len(children)


def can_fork() -> bool:
    """Whether work can go to forked processes that inherit the loaded spec (a server's background runs
    need it; without it a server runs its worked examples in the build)."""
    return "fork" in multiprocessing.get_all_start_methods()


__all__ = ["can_fork", "die_with_parent", "forked_worker", "stop_children"]
