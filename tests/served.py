"""A dev server under test (``specgen serve``, ``mkdocs serve``): a free port, polling a page until it
answers as the test needs, and a stop that always collects the server's log.

One module because four tests started servers and each polled its own way; a server that dies early
ends the wait at once instead of after the deadline.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import Callable


def free_port() -> int:
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str, timeout: float = 10) -> tuple[int, str]:
    """The status and body of ``url``; an HTTP error is its status, not an exception (OSError when
    nothing answers)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def wait_for(server: subprocess.Popen, url: str, seconds: float,
             until: Callable[[int, str], bool] = lambda code, body: code == 200) -> tuple[int, str]:
    """Poll ``url`` once a second until ``until(code, body)`` holds, the server exits or ``seconds``
    pass; the last answer, ``(0, "")`` if none came."""
    deadline = time.monotonic() + seconds
    code, body = 0, ""
    while time.monotonic() < deadline and server.poll() is None:
        try:
            code, body = fetch(url)
            if until(code, body):
                break
        except OSError:
            pass
        time.sleep(1)
    return code, body


def stop(server: subprocess.Popen, sig: signal.Signals = signal.SIGINT, seconds: float = 60) -> str:
    """Send ``sig``, wait up to ``seconds`` (then kill) and return what the server printed."""
    server.send_signal(sig)
    try:
        log, _ = server.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()
        log, _ = server.communicate()
    return log or ""
