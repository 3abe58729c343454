"""Keeping a dev server's watches on the trees it serves when a tree is replaced under it.

A watch follows what its path named when it was made: inotify watches a directory's inode, and
watchdog's emitter stops for good when that directory is deleted. So a spec tree deleted and made
again (a ``git checkout`` of another branch can do it) was never watched again: the server kept the
error of the rebuild that found the tree gone and never showed a later edit; and a spec root that is
a symbolic link, re-pointed to another tree, stayed watched on the old one.

:class:`Sentinel` checks, once a second, each watched path's identity (where it resolves to, and the
device and inode of it and of the link itself) and whether its emitter still runs; when either
changed it watches the path again as it is now (or, while it is missing, not at all) and asks for a
rebuild, as an edit would. A stat per watched path a second: the check costs nothing next to a rebuild.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from .engine import adapter

log = logging.getLogger("mkdocs.plugins.specgen")

Identity = tuple[str, int, int, int]


def identity(path: str) -> Identity | None:
    """What ``path`` is now (None: it is missing)."""
    try:
        st, lst = os.stat(path), os.lstat(path)
    except OSError:
        return None
    return os.path.realpath(path), st.st_dev, st.st_ino, lst.st_ino


def request_rebuild(server: Any) -> None:
    """Ask the server for a rebuild as a file change would."""
    adapter().request_rebuild(server)


class Sentinel:
    """Re-arms a ``LiveReloadServer``'s watches (through the engine adapter: they are mkdocs 1.6 internals)."""

    def __init__(self, server: Any, interval: float = 1.0) -> None:
        self.server = server
        self.interval = interval
        self.known: dict[str, Identity | None] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        for path in adapter().watched_paths(self.server):
            self.known[path] = identity(path)
        self._thread = threading.Thread(target=self._run, name="specgen-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.check()
            except Exception as e:  # noqa: BLE001 - never let the watcher die: say it and go on
                log.warning("specgen: checking the watched folders failed: %s: %s", type(e).__name__, e)

    def _emitter_stopped(self, path: str) -> bool:
        return not adapter().watch_alive(self.server, path)

    def check(self) -> list[str]:
        """Watch again every path that changed identity or lost its emitter; the paths re-armed."""
        rearmed = []
        for path in adapter().watched_paths(self.server):
            now = identity(path)
            if path not in self.known:  # watched since the last check: as it is now
                self.known[path] = now
                continue
            if now == self.known.get(path) and (now is None or not self._emitter_stopped(path)):
                continue
            self.known[path] = now if self._rearm(path, now is not None) else None
            rearmed.append(path)
        if rearmed:
            log.info("specgen: watching again (replaced or gone): %s", ", ".join(rearmed))
            request_rebuild(self.server)
        return rearmed

    def _rearm(self, path: str, present: bool) -> bool:
        """Drop the path's watch and, when it exists, watch it again; whether it is watched now."""
        server = self.server
        if not present:
            return adapter().rewatch(server, path, None)
        from watchdog.events import FileSystemEventHandler

        class Changed(FileSystemEventHandler):  # type: ignore[misc]
            def on_any_event(self, event: Any) -> None:
                if not event.is_directory:
                    request_rebuild(server)

        return adapter().rewatch(server, path, Changed())


__all__ = ["Sentinel", "identity", "request_rebuild"]
