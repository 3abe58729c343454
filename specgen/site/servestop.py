"""How a dev server stops: on Ctrl-C, SIGTERM or SIGHUP, within seconds, leaving no process and no port behind.

mkdocs unwinds its serve loop on ``KeyboardInterrupt`` (Ctrl-C) only; SIGTERM and SIGHUP killed the
process before the temporary site was removed. :func:`stop_on_signals` turns them into the same
unwinding, for ``specgen serve`` around its whole run and, through the plugin's ``on_serve``
(:func:`install_stop_signals`), for a plain ``mkdocs serve`` too (when nothing else handles them).
A second signal during the clean-up is ignored: it would interrupt the clean-up itself and leave the
server's thread running and the process hanging at exit.

The unwinding ends with the plugin's ``on_shutdown``, which stops the background pool
(:meth:`specgen.site.liveresults.LiveResults.stop`, :mod:`specgen.site.bgpool`): its workers are ended,
not waited for. Before, a stop in the middle of a background batch hung the process at exit
(``concurrent.futures`` joins its pools' threads, which wait for the running work) and the workers,
holding the listening socket, outlived it; later the executor's management thread raced with the
killed workers (``InvalidStateError``). The pool has no executor and its workers no inherited socket.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator


class Stop(KeyboardInterrupt):
    """A terminating signal, unwound like Ctrl-C."""


def _wanted() -> list[signal.Signals]:
    return [s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
            if s is not None]


def _handlers(signals: list[signal.Signals]) -> Callable[[], None]:
    """Install the once-only stop handler for ``signals``; the function that restores the previous ones."""
    stopping: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        if stopping:  # a second signal (``timeout`` forwards its own) must not interrupt the clean-up
            return
        stopping.append(signum)
        raise Stop(signal.Signals(signum).name)

    before = {s: signal.signal(s, stop) for s in signals}

    def restore() -> None:
        for s, handler in before.items():
            signal.signal(s, handler)
    return restore


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While serving, SIGINT, SIGTERM and SIGHUP unwind once, like Ctrl-C (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    restore = _handlers(_wanted())
    try:
        yield
    finally:
        restore()


def install_stop_signals() -> Callable[[], None]:
    """Under a plain ``mkdocs serve``: SIGTERM and SIGHUP unwind like Ctrl-C, so mkdocs shuts the server
    down and the plugin's ``on_shutdown`` runs. Only signals still at their default action are taken
    (``specgen serve`` has taken them already; an embedding program keeps its own); the function that
    gives them back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    default = [s for s in _wanted() if s is not signal.SIGINT and signal.getsignal(s) is signal.SIG_DFL]
    return _handlers(default) if default else (lambda: None)


__all__ = ["Stop", "install_stop_signals", "stop_on_signals"]
