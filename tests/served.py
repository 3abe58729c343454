"""A dev server under test (``specgen serve``, ``mkdocs serve``): a free port, polling a page until it
answers as the test needs, and a stop that always collects the server's log.

One module because four tests started servers and each polled its own way; a server that dies early
ends the wait at once instead of after the deadline.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
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


def serve_config(tmp: Path, root: Path, extra: str = "") -> Path:
    """A small mkdocs.yml for ``root`` (English only, mkdocs' own theme: a quick first build)."""
    config = tmp / "mkdocs.yml"
    (tmp / "docs").mkdir(exist_ok=True)
    config.write_text(f"site_name: t\ndocs_dir: docs\nuse_directory_urls: false\nplugins:\n  - specgen:\n      root: {root}\n      lang: [en]\n"
                      + extra, encoding="utf-8")
    return config


def start_serve(config: Path, port: int, **env: str) -> subprocess.Popen:
    """``specgen serve --config CONFIG`` on 127.0.0.1:``port``, its output collected."""
    return subprocess.Popen([sys.executable, "-m", "specgen", "serve", "--config", str(config),
                             "--dev-addr", f"127.0.0.1:{port}"], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (Linux: read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        parents.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def port_free(port: int) -> bool:
    """Whether a server could listen on ``port`` now (as the next ``specgen serve`` would, address reuse on)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
    return True


def request(port: int, path: str, method: str = "GET", host: str | None = "127.0.0.1",
            timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the bytes after them of one raw HTTP/1.1 request to 127.0.0.1:``port``
    (``host``: the ``Host`` header, None for none); raw, so a body sent after a HEAD shows."""
    head = f"{method} {path} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall((head + "Connection: close\r\n\r\n").encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def reap(server: subprocess.Popen, started: set[int]) -> str:
    """End the server and the processes it started that are still running (a failed probe leaves them, and
    they hold the server's output pipe); what the server printed."""
    if server.poll() is None:
        server.kill()
    for pid in started:
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    try:
        log, _ = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        return ""
    return log or ""


def wait_for_workers(server: subprocess.Popen, seconds: float = 120) -> set[int]:
    """The processes below the server once there are any (its background work started), within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not descendants(server.pid) and time.monotonic() < deadline and server.poll() is None:
        time.sleep(0.5)
    return descendants(server.pid)


def wait_gone(pids: set[int], seconds: float = 10) -> list[int]:
    """Wait up to ``seconds`` for ``pids`` to end; those still running."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [p for p in pids if alive(p)]
