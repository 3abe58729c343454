"""How a stopping server ends its workers: CPython 3.11's pool race (gh-107219) prints no traceback, and
every other thread exception still does."""

from __future__ import annotations

import threading
from concurrent.futures import Future, InvalidStateError
from typing import Any

from specgen.workers import _quiet_cancelled_race

# a function named as CPython's pool manager names it, in a file named as its module: the race as it is raised
_MANAGER = compile(
    "def terminate_broken(future):\n    future.set_exception(RuntimeError('a worker ended'))\n",
    "/usr/lib/python3.11/concurrent/futures/process.py", "exec")


def _raised_in_thread(target: Any) -> list[type[BaseException]]:
    seen: list[type[BaseException]] = []
    hook = _quiet_cancelled_race(lambda a: seen.append(a.exc_type))
    before, threading.excepthook = threading.excepthook, hook
    try:
        t = threading.Thread(target=target)
        t.start()
        t.join()
    finally:
        threading.excepthook = before
    return seen


def _cancelled() -> Future[None]:
    f: Future[None] = Future()
    f.cancel()
    return f


def test_the_pool_managers_cancelled_race_is_dropped() -> None:
    scope: dict[str, Any] = {}
    exec(_MANAGER, scope)
    assert _raised_in_thread(lambda: scope["terminate_broken"](_cancelled())) == []


def test_the_same_error_elsewhere_is_still_reported() -> None:
    def elsewhere() -> None:
        _cancelled().set_exception(RuntimeError("mine"))
    assert _raised_in_thread(elsewhere) == [InvalidStateError]


def test_other_errors_in_the_pool_manager_are_still_reported() -> None:
    scope: dict[str, Any] = {}
    exec(_MANAGER, scope)
    assert _raised_in_thread(lambda: scope["terminate_broken"](None)) == [AttributeError]
