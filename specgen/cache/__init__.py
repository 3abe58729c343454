"""specgen's one on-disk cache: its base directory, atomic writes, encoded entries and packs.

Every cache of specgen (the loader's records, parsed ASL modules and index summaries,
checked-example results, check results) lives under :func:`cache_base`
and is written through :func:`atomic_write`; nothing else computes a cache path or
hand-rolls a temp-file-and-rename.

The loader's cache: a content-hash-keyed cache of per-file results, one pack file per spec root.

Parsing and validating a record costs far more than reading and hashing its
file, so the loader keys each file's scan result (records and findings) by the
file's SHA-256 and reuses it while the hash matches: an unchanged file then
costs one read and one hash. The pack lives in ``$SPECGEN_CACHE_DIR/loader``
or the user cache directory (:func:`cache_base`) and never inside the spec root (a corpus may be
read-only, and a cache is not part of a spec).

Safety: a cache holds data, never code. Every file is encoded by :mod:`specgen.cache.codec`
(MessagePack; classes only from its registry of specgen's plain-data classes), in folders
:mod:`specgen.cache.trust` made private (0700, owned by the user) or refused. The pack is one
encoded table with a SHA-256 of its payload in the header, written atomically (temp file +
rename). A pack whose header, version or checksum does not match is ignored as a whole; an entry
that does not decode into the expected type is ignored alone; both are recomputed and rewritten.
The version covers the specgen version, the Python, pydantic and jsonschema
versions, and a digest of the model and loader sources, so a change to a model
(its schema) or to the scanner can never serve stale records. ``SPECGEN_NO_CACHE=1``
turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from . import codec
from .trust import private_dir

MAGIC = b"specgen-loader-cache " + codec.FORMAT + b"\n"
ENTRY = b"specgen-cache-entry " + codec.FORMAT + b"\n"  # the header of a one-value file
KEEP_PACKS = 16  # packs of other roots (test trees, old checkouts) beyond this many are pruned
_PACKAGE = Path(__file__).resolve().parent.parent  # specgen/


def cache_base() -> Path:
    """``$SPECGEN_CACHE_DIR``, else the platform's user cache directory for specgen (the directory the asl
    and examples caches share): ``$XDG_CACHE_HOME/specgen`` or ``~/.cache/specgen`` on Linux,
    ``~/Library/Caches/specgen`` on macOS, ``%LOCALAPPDATA%\\specgen\\Cache`` on Windows."""
    env = os.environ.get("SPECGEN_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("specgen", appauthor=False))


def cache_enabled() -> bool:
    return os.environ.get("SPECGEN_NO_CACHE", "") in ("", "0")


def cache_dir(name: str) -> Path | None:
    """``cache_base()/name``, created private (0700); None when it is not private or cannot be made
    (one warning per process; the caller runs without that cache, never from a shared folder)."""
    return private_dir(cache_base(), name)


_PACKAGE_DIGEST: list[str] = []


def package_digest() -> str:
    """Digest of specgen's version and every source file of the package, read once per process.

    A stored result of specgen's own computation (a test's verdict, a coverage measurement) is
    valid only for the code that computed it; ``__version__`` alone does not move between commits.
    """
    if not _PACKAGE_DIGEST:
        from .. import __version__
        h = hashlib.sha256(f"specgen {__version__}\0{sys.version}\n".encode())
        for dirpath, dirnames, filenames in os.walk(_PACKAGE):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "sample"))
            for name in sorted(filenames):
                if name.endswith(".py"):
                    p = os.path.join(dirpath, name)
                    with open(p, "rb") as fh:
                        h.update(b"\0" + os.path.relpath(p, _PACKAGE).encode() + b"\0" + fh.read())
        _PACKAGE_DIGEST.append(h.hexdigest())
    return _PACKAGE_DIGEST[0]


def content_key(entries: list[tuple[str, str]]) -> str:
    """One digest of (path, content digest) pairs: the key of facts about exactly this tree content."""
    return hashlib.sha256("".join(f"{p}\0{d}\n" for p, d in entries).encode()).hexdigest()


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> bool:
    """Replace ``path`` with ``data`` in one rename, so no reader ever sees half a file.

    Returns False when the directory cannot be written (for a cache that only costs
    time); the temporary file never outlives a failure. ``mode`` sets the permission
    bits (``mkstemp`` creates 0600, which a file meant for others must not keep).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            return False
        raise
    return True


def read_entry(path: Path | None, kind: type | tuple[type, ...] = object) -> Any:
    """The value encoded at ``path`` if it is a ``kind``; None for no cache, a missing, damaged or foreign entry."""
    if path is None:
        return None
    try:
        blob = path.read_bytes()
        if not blob.startswith(ENTRY):
            return None
        value = codec.decode(memoryview(blob)[len(ENTRY):])
    except (OSError, ValueError):  # any unreadable cache entry is a miss, rebuilt by the caller
        return None
    return value if isinstance(value, kind) else None


def write_entry(path: Path | None, value: Any) -> bool:
    """Encode ``value`` to ``path`` atomically; False when there is no cache or it cannot be written
    (that only costs time)."""
    if path is None:
        return False
    try:
        data = codec.encode(value)
    except TypeError:  # a class nobody registered: not cached (tests/test_cache_trust.py keeps them registered)
        return False
    return atomic_write(path, ENTRY + data)


def write_encoded(path: Path | None, data: bytes) -> bool:
    """Store bytes :func:`codec.encode` made (in this process or a helper) as an entry, like :func:`write_entry`."""
    return path is not None and atomic_write(path, ENTRY + data)


def cache_file(name: str, filename: str) -> Path | None:
    """``cache_dir(name)/filename``; None when that cache is refused."""
    d = cache_dir(name)
    return d / filename if d is not None else None


def prune(directory: Path, pattern: str, keep: int) -> None:
    """Keep the ``keep`` newest files matching ``pattern`` (packs of other roots go first)."""
    try:
        entries = sorted(directory.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for p in entries[keep:]:
            p.unlink(missing_ok=True)
    except OSError:
        pass


_VERSION: str | None = None


def cache_version() -> str:
    """What makes cached records valid: tool, interpreter and library versions, model and loader code."""
    global _VERSION
    if _VERSION is None:
        from importlib import metadata

        from .. import __version__
        h = hashlib.sha256()
        parts = [__version__, sys.version, codec.FORMAT.decode()]
        for dist in ("pydantic", "pydantic-core", "jsonschema"):
            try:
                parts.append(f"{dist}={metadata.version(dist)}")
            except metadata.PackageNotFoundError:
                parts.append(f"{dist}=absent")
        h.update("\0".join(parts).encode())
        for sub in ("models", "loader"):
            for p in sorted((_PACKAGE / sub).glob("*.py")):
                h.update(p.name.encode() + b"\0" + p.read_bytes())
        for name in ("diagnostics.py", "cache/__init__.py", "cache/codec.py", "files.py"):
            h.update(name.encode() + b"\0" + (_PACKAGE / name).read_bytes())
        _VERSION = h.hexdigest()
    return _VERSION


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


class RecordCache:
    """Per-root pack of ``key -> encoded value``; entries are decoded only when asked for."""

    def __init__(self, root: Path, directory: Path | None = None, *, keep_objects: bool = False,
                 defer_save: bool = False) -> None:
        self.root = root.resolve()
        # a server writes its pack (19 MB on 0.58.3) while the author reads the page, not inside each rebuild:
        # save() then only marks it due, and flush() writes it between loads (ServeState.settle_when_idle)
        self.defer_save = defer_save
        self._due = False
        self._loading = False
        self._lock = threading.Lock()
        # a long-lived process (``specgen serve``) reuses one cache across loads; keeping the
        # decoded records saves decoding ~4,000 of them per rebuild. Records are per-file
        # pure values (their key names the file's hash), so a kept one is what decoding gives.
        self.objects: dict[str, Any] | None = {} if keep_objects else None
        self._touched: set[str] = set()
        self._volatile: set[str] = set()  # kept as objects only: never written into the pack
        base = (directory if directory is not None else cache_base()).expanduser()
        self.dir = (base / "loader").resolve()
        self.enabled = not _inside(self.dir, self.root) and private_dir(base, "loader") is not None
        digest = hashlib.sha256(str(self.root).encode()).hexdigest()[:24]
        self.path = self.dir / f"{digest}.pack"
        self._old: dict[str, bytes] = {}
        self._new: dict[str, bytes] = {}
        self._kept: dict[str, bytes] = {}  # stored entries a partial load keeps unread (keep_unread)
        self.hits = 0
        self.misses = 0
        self.rejected = 0  # entries (or a whole pack) found unusable
        if self.enabled:
            self._old = self._read()

    # -- pack file ----------------------------------------------------------------------
    def _read(self) -> dict[str, bytes]:
        try:
            blob = self.path.read_bytes()
        except OSError:
            return {}
        head = MAGIC + cache_version().encode() + b"\n"
        if not blob.startswith(head):
            self.rejected += 1 if blob else 0
            return {}
        rest = blob[len(head):]
        digest, _, payload = rest.partition(b"\n")
        if hashlib.sha256(payload).hexdigest().encode() != digest:
            self.rejected += 1
            return {}
        try:
            table = codec.decode(payload)
        except ValueError:  # any unreadable pack is ignored and rewritten
            self.rejected += 1
            return {}
        if not isinstance(table, dict) or not all(type(v) is bytes for v in table.values()):
            self.rejected += 1
            return {}
        return table

    def keep_unread(self, kinds: tuple[str, ...]) -> None:
        """Keep the stored entries of these key kinds (``"adr"`` for ``adr\0…``) that this load did not
        read: a partial load (``load_spec(program=True)``) reads no ADRs or documents, and must not drop the
        records a whole load reuses (a ``specgen run`` between two checks made the second scan them again)."""
        prefixes = tuple(k + "\0" for k in kinds)
        self._kept = {k: v for k, v in self._old.items() if k.startswith(prefixes)}

    def save(self) -> bool:
        """Write the entries used or made by this run (atomically); False when nothing was written (or, for a
        cache that defers, when the write is left to :meth:`flush`)."""
        with self._lock:
            self._loading = False
            if not self.enabled or (not self.misses and not self.rejected
                                    and {**self._kept, **self._new}.keys() == self._old.keys()):
                return False
            if self.defer_save:
                self._due = True
                return False
            return self._write()

    def flush(self) -> bool:
        """Write a deferred save now, unless a load is under way (its entries are not all in yet)."""
        with self._lock:
            if not self._due or self._loading:
                return False
            self._due = False
            new = {**self._kept, **self._new}  # the next load may start while this is written
        return self._write(new)

    def _write(self, new: dict[str, bytes] | None = None) -> bool:
        if new is None:
            new = {**self._kept, **self._new}
        payload = codec.encode(new)
        data = (MAGIC + cache_version().encode() + b"\n" + hashlib.sha256(payload).hexdigest().encode()
                + b"\n" + payload)
        if not atomic_write(self.path, data):
            return False  # a read-only or full cache directory only costs speed
        self._prune()
        return True

    def _prune(self) -> None:
        prune(self.dir, "*.pack", KEEP_PACKS)
        try:
            for p in self.dir.glob(".*.tmp"):
                if time.time() - p.stat().st_mtime > 3600:  # left by a killed run
                    p.unlink(missing_ok=True)
        except OSError:
            pass

    # -- entries ------------------------------------------------------------------------
    def get(self, key: str, kind: type | tuple[type, ...], *, disk: bool = True) -> Any:
        """The cached value under ``key`` if it decodes to a ``kind``; None otherwise (a miss).

        ``disk=False``: a key :meth:`put` keeps as an object only; its absence is no miss of the pack.
        """
        if not self.enabled:
            return None
        if self.objects is not None:
            kept = self.objects.get(key)
            if kept is not None and isinstance(kept, kind):
                self._touched.add(key)
                if key not in self._volatile:
                    old = self._old.get(key) or _encoded(kept)
                    if old is not None:
                        self._new.setdefault(key, old)
                self.hits += 1
                return kept
        if not disk:
            return None
        blob = self._new.get(key) or self._old.get(key)
        if blob is None:
            self.misses += 1
            return None
        try:
            value = codec.decode(blob)
        except ValueError:  # a bad entry is recomputed and rewritten
            value = None
        if not isinstance(value, kind):
            self.rejected += 1
            self.misses += 1
            return None
        self._new[key] = blob
        self.hits += 1
        if self.objects is not None:
            self.objects[key] = value
            self._touched.add(key)
        return value

    def put(self, key: str, value: Any, *, disk: bool = True) -> None:
        """Keep ``value`` under ``key``; ``disk=False``: only as an object in a long-lived process.

        A record that decodes no faster than it is computed (an AVS test's header, a
        catalog's pydantic model) is not worth encoding on a cold run and reading on every
        warm one; ``specgen serve`` still keeps it between its rebuilds.
        """
        if self.enabled:
            blob = _encoded(value) if disk else None
            if blob is not None:
                self._new[key] = blob
                self._volatile.discard(key)
            else:
                self._volatile.add(key)
            if self.objects is not None:
                self.objects[key] = value
                self._touched.add(key)

    def next_load(self) -> None:
        """Start another load with this cache: what the last one used becomes the base."""
        with self._lock:
            self._loading = True  # a deferred save of the last load waits for this one's (it holds as much)
        if self.objects is not None:
            self.objects = {k: v for k, v in self.objects.items() if k in self._touched}
            self._volatile &= self.objects.keys()
        self._touched = set()
        self._old, self._new = (self._new or self._old), {}
        self._kept = {}
        self.hits = self.misses = self.rejected = 0


def _encoded(value: Any) -> bytes | None:
    """``value`` encoded for the pack; None for a value of a class nobody registered (kept in memory only)."""
    try:
        return codec.encode(value)
    except TypeError:
        return None


def open_cache(root: Path, cache: "RecordCache | bool | None" = None) -> RecordCache | None:
    """The cache ``load_spec`` should use: an explicit one, none (False), or the default (None/True)."""
    if isinstance(cache, RecordCache):
        return cache
    if cache is False or (cache is None and not cache_enabled()):
        return None
    c = RecordCache(root)
    return c if c.enabled else None
