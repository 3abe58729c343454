"""The site a ``specgen serve`` leaves behind, so the next one answers at once (issue 38: a restart).

A first build of a corpus takes a minute (mostly MkDocs writing thousands of pages); an author who stops
and starts the server again with nothing changed should not wait for it. When a serve ends after a good
build, its site folder is moved into the cache (``serve/<key>``), keyed by what shapes its bytes: the
config file, the spec root, the address it was served on (pages hold absolute URLs) and specgen's own
code. The next serve with the same key answers from that folder, under a banner saying so, while its own
first build runs; then it serves the fresh build and open pages reload. Nothing is taken on trust: the
stored pages are only shown, never read back as results, and the fresh build replaces them.

The folder lives in specgen's private cache (0700, :func:`specgen.cache.cache_dir`); with no cache there
is no stored site and serve starts as before. A folder is complete when it has its marker (written last,
after the move); the three most recent are kept.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from ..cache import cache_dir, cache_enabled, package_digest

MARKER = ".specgen-stored-site"
KEEP = 3


def place(config_file: Path, root: str, serve_url: str) -> Path | None:
    """Where the site of this config, root and address is stored (None: no private cache)."""
    base = cache_dir("serve") if cache_enabled() else None
    if base is None:
        return None
    key = "\0".join([str(Path(config_file).resolve()), str(Path(root).resolve()) if root else "", serve_url,
                     package_digest()])
    return base / hashlib.sha256(key.encode()).hexdigest()[:20]


def complete(stored: Path) -> bool:
    """Whether ``stored`` holds a whole site (its marker is written after everything else)."""
    return (stored / MARKER).is_file()


def store(site_dir: Path, stored: Path) -> bool:
    """Move ``site_dir`` to ``stored`` (replacing what is there); False when it was copied or not stored at
    all (the caller removes ``site_dir``)."""
    old = stored.with_name(stored.name + f".old-{os.getpid()}")
    moved = True
    try:
        if stored.exists():
            os.replace(stored, old)
        try:
            os.replace(site_dir, stored)
        except OSError:  # another file system: copy, then the caller's removal of site_dir
            shutil.copytree(site_dir, stored)
            moved = False
        (stored / MARKER).write_text("", encoding="utf-8")
    except OSError:
        shutil.rmtree(stored, ignore_errors=True)
        return False
    finally:
        shutil.rmtree(old, ignore_errors=True)
    _prune(stored.parent)
    return moved


def _prune(base: Path) -> None:
    """Keep the :data:`KEEP` most recently stored sites (and nothing half-moved)."""
    try:
        sites = sorted((p for p in base.iterdir() if p.is_dir() and (p / MARKER).is_file()),
                       key=lambda p: (p / MARKER).stat().st_mtime, reverse=True)
        for p in sites[KEEP:]:
            shutil.rmtree(p, ignore_errors=True)
        for p in base.iterdir():
            if ".old-" in p.name or (p.is_dir() and not (p / MARKER).is_file()):
                shutil.rmtree(p, ignore_errors=True)
    except OSError:
        pass
