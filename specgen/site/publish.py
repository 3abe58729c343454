"""Publishing a built site into its output folder: one build at a time, its own temporary folder, one swap.

A build writes into a fresh temporary folder beside the output and swaps it
into place only when it succeeded, so a failed or killed build leaves the
previous site; what a killed build left behind is removed by the next one.
Three things make that hold when builds overlap or die at any instant:

- An exclusive lock per output folder (``flock`` on ``.NAME.specgen-lock``
  beside it) held for the whole build: a second build of the same folder
  waits for the first, saying so once, up to ``SPECGEN_BUILD_WAIT`` seconds
  (default 1800; ``0`` fails at once). Builds of one folder therefore run one
  after the other and the last one started is the site left behind.
- Each build's temporary folder carries its own ``flock`` while the build
  lives; clean-up removes only folders nobody holds, so it can never delete
  another live build's work (a second path to the same folder, an output of
  a similar name).
- The swap is one ``renameat2(RENAME_EXCHANGE)`` where Linux offers it: at
  every instant the output is either the whole previous site or the whole
  new one. Elsewhere two renames, and a kill between them is repaired by the
  next build (the previous site is moved back).

The folder gets the modes the umask gives (0755 under umask 022, like
``mkdir``), not ``mkdtemp``'s 0700, so a web server running as another user
can read it. Any OSError on the output (not writable, not a directory, disk
full) is one :class:`PublishError` naming the path and the reason.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import functools
import os
import re
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

TMP_PREFIX = ".specgen-build-"
OLD_PREFIX = ".specgen-old-"
LOCK_SUFFIX = ".specgen-lock"
WAIT_ENV = "SPECGEN_BUILD_WAIT"
DEFAULT_WAIT_S = 1800.0
POLL_S = 0.25
_SUFFIX = "[a-z0-9_]{8}"  # what mkdtemp appends
Notice = Callable[[str], None]


class PublishError(Exception):
    """The output folder cannot be locked, written or swapped; the previous site is unchanged."""


def describe(e: OSError, fallback: Path | str) -> str:
    """One line for an OSError: the path it concerns and the system's reason, without errno noise."""
    where = e.filename if e.filename else fallback
    return f"cannot write {where}: {e.strerror or e}"


def lock_path(out: Path) -> Path:
    """The lock file beside ``out`` (a dot file, so directory listings and web servers skip it)."""
    return out.parent / f".{out.name}{LOCK_SUFFIX}"


def wait_seconds() -> float:
    """How long a build waits for another build of its output (``SPECGEN_BUILD_WAIT``)."""
    text = os.environ.get(WAIT_ENV, "").strip()
    if not text:
        return DEFAULT_WAIT_S
    try:
        value = float(text)
    except ValueError:
        raise PublishError(f"{WAIT_ENV}={text!r} is not a number of seconds") from None
    if value != value or value < 0:  # NaN or negative
        raise PublishError(f"{WAIT_ENV}={text!r} is not a number of seconds")
    return value


@contextmanager
def claim(out: Path, notice: Notice | None = None) -> Iterator[Path]:
    """Lock ``out``, clear what dead builds left, and yield this build's own empty temporary folder.

    On exit the temporary folder is gone (swapped in by :func:`swap_in`, or
    removed) and the lock released. ``out`` must be absolute.
    """
    try:
        _not_a_directory(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        with _locked(out, wait_seconds(), notice or (lambda line: None)):
            sweep_stale(out)
            tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{out.name}-", dir=out.parent))
            fd = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # "alive": sweep_stale leaves a held folder alone
                yield tmp
            finally:
                shutil.rmtree(tmp, ignore_errors=True)  # a failed build's work, or the previous site after an exchange
                os.close(fd)
    except OSError as e:  # the folder, its lock file or the temporary folder cannot be made
        raise PublishError(f"cannot write the site to {out}: {describe(e, out).removeprefix('cannot write ')}") from e


def _not_a_directory(out: Path) -> None:
    """Refuse an output, or the nearest existing folder above it, that is a file (mkdir would say "File exists")."""
    if out.exists() and not out.is_dir():
        raise PublishError(f"cannot write the site to {out}: it exists and is not a directory")
    for above in out.parents:
        if above.exists():
            if not above.is_dir():
                raise PublishError(f"cannot write the site to {out}: {above} is not a directory")
            return


@contextmanager
def _locked(out: Path, wait_s: float, notice: Notice) -> Iterator[None]:
    """Hold the output's lock file; wait for another holder (one notice) up to ``wait_s`` seconds.

    The holder deletes the file on release, so nothing is left beside the
    output; a waiter that then gets the lock on the deleted file sees that
    the path no longer names it and tries again (the usual flock + unlink
    protocol, race-free).
    """
    path = lock_path(out)
    started = time.monotonic()
    told = False
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            waited = time.monotonic() - started
            if waited >= wait_s:
                raise PublishError(f"another build{holder} is writing {out} (lock {path}); gave up after "
                                   f"{waited:.0f} s ({WAIT_ENV}={wait_s:g}); the site is unchanged") from None
            if not told:
                notice(f"waiting for another build{holder} of {out} to finish (up to {wait_s:g} s, "
                       f"{WAIT_ENV} sets it; lock {path})")
                told = True
            time.sleep(POLL_S)
            continue
        if _same_file(fd, path):
            break
        os.close(fd)  # the previous holder deleted it after we opened it: take the new one
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {pid})" if pid.isdigit() else ""


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _held(d: Path) -> bool:
    """Whether a live build holds ``d`` (its temporary folder); unreadable counts as held (leave it)."""
    try:
        fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def sweep_stale(out: Path) -> list[Path]:
    """Remove the temporary folders dead builds left beside ``out``; put a moved-aside site back first.

    Called under ``out``'s lock. A temporary folder is removed only when no
    live build holds it; a previous site moved aside (a kill between the two
    renames of the fallback swap) is recognised by its exact name.
    """
    removed: list[Path] = []
    parent = out.parent
    if not parent.is_dir():
        return removed
    olds = re.compile(re.escape(f"{OLD_PREFIX}{out.name}-") + _SUFFIX)
    if not out.exists():
        aside = sorted((p for p in parent.iterdir() if olds.fullmatch(p.name) and p.is_dir()),
                       key=lambda p: p.stat().st_mtime)
        if aside:
            os.rename(aside[-1], out)
    for p in sorted(parent.iterdir()):
        ours = p.name.startswith(f"{TMP_PREFIX}{out.name}-") or olds.fullmatch(p.name)
        if ours and p.is_dir() and not p.is_symlink() and not _held(p):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def public_modes(tmp: Path) -> None:
    """Give the new site's top folder the mode ``mkdir`` would (mkdtemp made it 0700); the rest already has it."""
    mask = os.umask(0o022)
    os.umask(mask)
    os.chmod(tmp, 0o777 & ~mask)


def swap_in(tmp: Path, out: Path) -> None:
    """Put ``tmp`` where ``out`` is: one exchange where possible, else renames only; the old tree is deleted."""
    public_modes(tmp)
    if out.exists() and _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # tmp is now the previous site
        return
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f"{OLD_PREFIX}{out.name}-", dir=out.parent))
        os.rmdir(old)
        os.rename(out, old)
    try:
        os.rename(tmp, out)
    except OSError:
        if old is not None:
            os.rename(old, out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@functools.cache
def _renameat2() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # glibc before 2.28, musl without it
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False where the kernel or the file system cannot (the caller renames)."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))
