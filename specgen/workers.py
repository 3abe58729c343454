"""What a forked worker process does first: forget the parent's signal handlers.

A worker forked from ``specgen serve`` inherits the handler that turns SIGTERM and SIGHUP into an
exception (:mod:`specgen.site.serve_server`); a pool that is terminated (its parent stopping, or a
``with Pool()`` left by that exception) then prints a traceback from every worker. With the default
handlers a worker ends quietly, as its parent asks.
"""

from __future__ import annotations

import multiprocessing
import signal


def forked_worker() -> None:
    """The initializer of every worker pool specgen forks (rendering, loading, the AVS suite)."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def can_fork() -> bool:
    """Whether work can go to forked processes that inherit the loaded spec (a server's background runs
    need it; without it a server runs its worked examples in the build)."""
    return "fork" in multiprocessing.get_all_start_methods()


__all__ = ["can_fork", "forked_worker"]
