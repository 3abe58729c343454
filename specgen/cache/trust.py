"""Which cache folders specgen may use: its own, private ones, or none.

A cache file decides what a run reports without being looked at again, so a folder someone else can
write to is not a cache but an input nobody checks. Each folder specgen uses (the base and each
subfolder under it) is created with mode 0700 and then checked: it must be a directory owned by the
user running specgen and writable by nobody else. One that fails (owned by another user, group- or
world-writable, a file in its place, a base that cannot be created at all, such as under a
read-only home) is refused: the process says so once on stderr and runs without a cache. There is
no stand-in folder; a shared temporary directory is exactly what this refuses.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from ..workspace import current

_WARNED: list[str] = []
def _private() -> dict[tuple[Path, str], Path]:
    """The workspace's table: folders checked in this process (it dies with the workspace)."""
    return current().table("cache.trust._PRIVATE")




def warn_once(message: str) -> None:
    """One line on stderr for the first refused cache of this process; later ones say nothing new."""
    if not _WARNED:
        _WARNED.append(message)
        sys.stderr.write(f"specgen: warning: {message}: running without a cache\n")
        sys.stderr.flush()


def why_not_private(path: Path, uid: int | None = None) -> str | None:
    """Why ``path`` is not a folder only the user ``uid`` (default: this process's) can write; None if it is."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not hasattr(os, "getuid"):  # Windows: the user's profile folder is private by its ACL
        return None
    me = os.getuid() if uid is None else uid
    mode = stat.S_IMODE(st.st_mode)
    if st.st_uid != me:
        return f"is not private (owned by uid {st.st_uid}, not {me} / mode {mode:04o})"
    if mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is not private (mode {mode:04o}, writable by others; chmod 700 it)"
    return None


def private_dir(base: Path, name: str) -> Path | None:
    """``base/name`` (``name`` may have several parts), each folder created 0700 and checked; None when
    any is refused (after one warning per process). A folder found private before costs one ``stat``."""
    known = _private().get((base, name))
    if known is not None and why_not_private(known) is None:
        return known
    path = base
    for part in [""] + [p for p in name.split("/") if p]:
        path = path / part if part else path
        try:
            path.mkdir(mode=0o700, parents=not part, exist_ok=True)
        except OSError as exc:
            why = "is not a directory" if path.exists() and not path.is_dir() else "cannot be created"
            warn_once(f"cache {path} {why} ({exc.strerror or exc})")
            return None
        why = why_not_private(path)
        if why is not None:
            warn_once(f"cache {path} {why}")
            return None
    _private()[(base, name)] = path
    return path


__all__ = ["private_dir", "warn_once", "why_not_private"]
