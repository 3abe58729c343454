"""Confined, bounded file access under a spec root.

Everything the tool reads goes through here, so four promises hold in one
place: nothing outside the root is read (symlinks are resolved and checked),
no file is larger than a fixed bound, bytes become text only through a
strict decoder whose failures are located findings, and every observation of
the tree (a file's hash or absence, a directory listing, a path's safety) is
logged in :attr:`SpecFiles.log`. The log is what a result computed from the
tree depends on: :func:`replay` re-observes it on the tree as it is now, so a
cached check result is reused exactly when nothing it saw has changed.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Finding, Severity
from .workspace import current

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024
REPLACEMENT = "\ufffd"  # stands for an invalid byte or a NUL, each already reported
#: Reader findings that mean the file's bytes are not usable text as written (the command fails)
BYTE_RULES = frozenset({"file-encoding", "file-nul", "file-too-large", "path-unreadable"})
_UNSEEN = object()
# non-blocking so a FIFO in the tree cannot hang a read (it is refused as "not a regular file")
_OPEN_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK


#: How long after a file last changed its stat is trusted to stand for its bytes (see :class:`_Seen`): a
#: change within the file system's timestamp granularity (coarse clocks tick every few milliseconds; FAT
#: every two seconds) leaves the same stat, so a file changed this close to when it was read is read again
RACY_NS = 3_000_000_000
_SEEN_LIMIT = 100_000

#: Deepest JSON nesting read (the spec's own files nest under 20 deep); deeper is a finding, never a
#: RecursionError, whatever recursion limit the process runs with
MAX_JSON_DEPTH = 256
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """The offset of the first ``[``/``{`` nested deeper than ``limit`` in ``text``; -1 when none is.

    Linear in the text and cheap for ordinary files: a text with no more than ``limit`` opening
    brackets in all cannot exceed it, and is answered by two counts; otherwise the brackets outside
    strings are picked out by two regex passes and only they are walked (every instruction record
    of a corpus has hundreds). The token walk that finds the offset runs only for a text too deep.
    """
    if text.count("[") + text.count("{") <= limit:
        return -1
    depth = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            if depth > limit:
                return _first_too_deep(text, limit)
        else:
            depth -= 1
    return -1


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # unrolled: one step per run of plain characters
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _first_too_deep(text: str, limit: int) -> int:
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > limit:
                return m.start()
        elif ch in "]}":
            depth -= 1
    return -1


@dataclass(slots=True)
class FileText:
    """A file's bytes hash and its text (invalid bytes and NULs replaced by U+FFFD, each reported)."""

    path: str
    sha256: str
    text: str | None
    size: int


@dataclass(frozen=True, slots=True)
class _Seen:
    """A file as a reader last read it, kept in the workspace (a server reads its tree after every edit).

    ``sig`` is the file's device, inode, size, modification and change time. A later read whose ``lstat``
    gives the same ``sig`` gets this text (and the findings its bytes gave) without opening the file:
    writing a file changes its change time, which no user process can set back, and replacing it changes
    its inode. Only reads made more than :data:`RACY_NS` after the file last changed are kept.
    """

    sig: tuple[int, int, int, int, int]
    text: FileText
    findings: tuple[Finding, ...]


def _sig(st: os.stat_result) -> tuple[int, int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


#: Names editors and merge tools leave beside a file: vim swap files, ``~`` and ``.bak`` backups,
#: Emacs lock and auto-save files, patch leftovers, macOS folder metadata
_EDITOR_FILE = re.compile(r"(^\.#|^#.*#$|~$|\.sw[a-p]$|\.(orig|rej|bak)$|^\.DS_Store$)")


def is_editor_file(name: str) -> bool:
    """Whether a file name is an editor's or a merge tool's leftover rather than part of a spec."""
    return _EDITOR_FILE.search(name) is not None


def _refused(rel: str) -> bool:
    """Paths never read, whatever the tree holds: empty, absolute, backslashed or with ``..``."""
    return not rel or rel.startswith("/") or "\\" in rel or ".." in rel.split("/")


def _err(rule: str, path: str, line: int, message: str, col: int = 0) -> Finding:
    return Finding(rule=rule, severity=Severity.ERROR, path=path, line=line, col=col, message=message)


class _RootedLog:
    """A second reader's observations, kept in the first reader's log under kinds naming its root
    (``file@/abs/root``), so one log covers both trees and :func:`replay` re-observes each."""

    __slots__ = ("shared", "root")

    def __init__(self, shared: dict[tuple[str, str], object], root: str) -> None:
        self.shared = shared
        self.root = root

    def __setitem__(self, key: tuple[str, str], value: object) -> None:
        self.shared[(f"{key[0]}@{self.root}", key[1])] = value

    def get(self, key: tuple[str, str], default: object = None) -> object:
        return self.shared.get((f"{key[0]}@{self.root}", key[1]), default)


class SpecFiles:
    """A view of one spec root; collects findings about files instead of raising.

    ``log``: the log of another reader to record this one's observations in (a folder outside the
    spec root that the spec names, e.g. its checked examples).
    """

    def __init__(self, root: Path, *, log: dict[tuple[str, str], object] | None = None) -> None:
        self.root = root.resolve()
        self.findings: list[Finding] = []
        self._root_s = str(self.root)
        self._prefix = self._root_s if self._root_s.endswith("/") else self._root_s + "/"
        self._dirs: dict[str, str | None] = {}  # root-relative directory -> resolved path (None: unusable)
        # (path, rel, ascii only; None: only hashed) -> the file as last read in this workspace (:class:`_Seen`);
        # only a long-lived workspace keeps them (a one-load command would hold every text to its end)
        ws = current()
        self._seen: dict[tuple[str, str, bool | None], _Seen] | None = (
            ws.table("files.seen") if ws.long_lived else None)
        # (kind, argument) -> what was seen; kinds: file (sha256 or None), walk, exists, present, safe
        self.log: dict[tuple[str, str], object] = {} if log is None else _RootedLog(log, self._root_s)  # type: ignore[assignment]

    def probe(self) -> None:
        """List the root once; an OSError here means the tree cannot be read at all."""
        with os.scandir(self.root) as entries:
            next(entries, None)

    def rel(self, p: Path) -> str:
        return p.relative_to(self.root).as_posix()

    def safe(self, rel: str) -> Path | None:
        """Resolve a root-relative path, refusing anything that leaves the root."""
        s = self._safe_str(rel)
        self.log[("safe", rel)] = s is not None
        return None if s is None else Path(s)

    def _safe_str(self, rel: str) -> str | None:
        if _refused(rel):
            return None
        # Fast path, same answer as Path.resolve: each directory is resolved once per load (from
        # its resolved parent), and a plain (non-link) name inside it costs one lstat.
        cand = self._plain(rel)
        if cand is None:
            return self._slow(rel)
        try:
            if stat.S_ISLNK(os.lstat(cand).st_mode):
                return self._slow(rel)
        except OSError:
            pass  # absent or unreadable: resolve(strict=False) keeps the name as written
        return cand

    def _plain(self, rel: str) -> str | None:
        """``rel`` as a plain name in its resolved directory inside the root, without a system call
        for the name itself; None when the path needs the careful resolver (odd segments, an
        unusable or outside directory)."""
        head, _, name = rel.rpartition("/")
        if not name or name == "." or "//" in rel or "/./" in f"/{head}/":
            return None
        d = self._dir(head)
        if d is None:
            return None
        cand = d + name if d.endswith("/") else d + "/" + name
        return cand if cand == self._root_s or cand.startswith(self._prefix) else None

    def _slow(self, rel: str) -> str | None:
        r = self._resolve_inside(self.root / rel)
        return None if r is None else str(r)

    def _dir(self, head: str) -> str | None:
        """The resolved path of a root-relative directory (None: it cannot be resolved)."""
        d = self._dirs.get(head, _UNSEEN)
        if d is not _UNSEEN:
            return d  # type: ignore[return-value]
        if not head:
            d = self._root_s
        else:
            parent, _, name = head.rpartition("/")
            pd = self._dir(parent)
            d = None
            if pd is not None:
                cand = pd + name if pd.endswith("/") else pd + "/" + name
                try:
                    link = stat.S_ISLNK(os.lstat(cand).st_mode)
                except OSError:
                    link = False
                if link:
                    rp = self._resolve_inside(self.root / head, inside=False)
                    d = None if rp is None else str(rp)
                else:
                    d = cand
        self._dirs[head] = d
        return d

    def _resolve_inside(self, p: Path, inside: bool = True) -> Path | None:
        try:
            r = p.resolve(strict=False)
        except (OSError, RuntimeError):
            return None
        if inside and r != self.root and self.root not in r.parents:
            return None
        return r

    def walk(self, rel_dir: str, suffix: str) -> list[str]:
        """Every file under ``rel_dir`` ending in ``suffix``, sorted, links confined to the root."""
        before = len(self.findings)
        out = self._walk(rel_dir, suffix)
        self.log[("walk", f"{rel_dir}\0{suffix}")] = (tuple(out), tuple(f.format() for f in self.findings[before:]))
        return out

    def _walk(self, rel_dir: str, suffix: str) -> list[str]:
        base = self.safe(rel_dir)
        out: list[str] = []
        if base is None or not base.is_dir():
            return out
        cut = len(self._prefix)
        # Real directories are walked before linked ones, entries in name order, so a directory
        # reachable both ways is always listed under its real path whatever order the file
        # system returns entries in (same tree, same output).
        stack = [str(base)]
        linked: list[str] = []
        seen: set[tuple[int, int]] = set()
        while stack or linked:
            d = stack.pop() if stack else linked.pop(0)
            try:
                st = os.stat(d)
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                entries = sorted(os.scandir(d), key=lambda e: e.name, reverse=True)
            except OSError as e:
                self.findings.append(_err("path-unreadable", self._relish(Path(d)), 0,
                                          f"cannot list directory: {e.strerror}"))
                continue
            for e in entries:
                if is_editor_file(e.name):
                    # what an editor leaves beside a file it edits is not part of the spec: not read,
                    # not listed (so no manifest finding, and 'manifest --write' never records it)
                    self.findings.append(Finding("file-editor-backup", Severity.NOTE, e.path[cut:], 0,
                                                 "editor swap or backup file; specgen ignores it (delete it or "
                                                 "keep it out of the tree)"))
                    continue
                if e.is_symlink():
                    p = Path(e.path)
                    target = self._check_link(p)
                    if target is None:
                        continue
                    if target.is_dir():
                        here = Path(d).resolve()
                        if target == here or target in here.parents:
                            self.findings.append(_err("path-symlink-loop", self.rel(p), 0,
                                                      "directory link points at its own ancestor (a cycle); "
                                                      "remove the link"))
                            continue
                        linked.append(e.path)
                    elif e.name.endswith(suffix):
                        out.append(self.rel(p))
                elif e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                elif e.name.endswith(suffix):
                    out.append(e.path[cut:])
        out.sort()
        return out

    def _relish(self, p: Path) -> str:
        try:
            return self.rel(p)
        except ValueError:
            return p.as_posix()

    def _check_link(self, p: Path) -> Path | None:
        rel = self._relish(p)
        try:
            target = p.resolve(strict=True)
        except RuntimeError:
            self.findings.append(_err("path-symlink-loop", rel, 0, "symbolic link loop; remove or fix the link"))
            return None
        except OSError:
            self.findings.append(_err("path-unreadable", rel, 0, "dangling symbolic link; remove or fix the link"))
            return None
        if target != self.root and self.root not in target.parents:
            self.findings.append(_err("path-outside-root", rel, 0,
                                      "symbolic link leads outside the spec root; it is not read"))
            return None
        return target

    def read(self, rel: str, *, ascii_only: bool = False) -> FileText | None:
        """Read, hash and strictly decode one file; None (with a finding) when it cannot be used.

        A file this workspace read before and whose stat is unchanged is not opened again (:class:`_Seen`):
        its text, hash and findings are what the bytes gave then.
        """
        cand = None if self._seen is None or _refused(rel) else self._plain(rel)
        key = (cand, rel, ascii_only) if cand is not None else None
        if cand is not None:
            seen = self._kept(cand, rel, (ascii_only,))
            if seen is not None:
                self.findings.extend(seen.findings)
                return seen.text
        started = time.time_ns()
        before = len(self.findings)
        data, st = self._bytes_stat(rel, report=True)
        if data is None:
            self.log[("file", rel)] = None
            return None
        digest = self.log[("file", rel)] = hashlib.sha256(data).hexdigest()
        ft = FileText(rel, digest, self.decode(rel, data, ascii_only=ascii_only), len(data))
        if key is not None:
            self._keep(key, st, started, ft, tuple(self.findings[before:]))
        return ft

    def _keep(self, key: tuple[str, str, bool | None], st: os.stat_result | None, started: int, ft: FileText,
              findings: tuple[Finding, ...]) -> None:
        """Remember a read for the next load, unless the file changed too close to it (:data:`RACY_NS`)."""
        if self._seen is None or st is None or max(st.st_mtime_ns, st.st_ctime_ns) >= started - RACY_NS:
            return
        if len(self._seen) >= _SEEN_LIMIT:  # files of trees no longer served
            self._seen.clear()
        self._seen[key] = _Seen(_sig(st), ft, findings)

    def _kept(self, cand: str, rel: str, kinds: tuple[bool | None, ...]) -> _Seen | None:
        """The kept read of ``rel`` (at ``cand``, as one of ``kinds``) whose stat is unchanged, logged as a read."""
        for kind in kinds:
            seen = self._seen.get((cand, rel, kind))  # type: ignore[union-attr]
            if seen is not None and self._unchanged(cand, seen.sig):
                self.log[("file", rel)] = seen.text.sha256
                return seen
        return None

    def _unchanged(self, cand: str, sig: tuple[int, int, int, int, int]) -> bool:
        """Whether the plain file at ``cand`` still has the stat ``sig`` (a link or anything else: no)."""
        try:
            st = os.stat(cand, follow_symlinks=False)
        except OSError:
            return False
        return stat.S_ISREG(st.st_mode) and _sig(st) == sig

    def digest(self, rel: str) -> str | None:
        """SHA-256 of one file, or None when :meth:`read` would not read it (absent, unsafe, too large);
        like :meth:`read`, not opened again while its stat is unchanged."""
        cand = None if self._seen is None or _refused(rel) else self._plain(rel)
        if cand is not None:
            seen = self._kept(cand, rel, (None, False, True))  # hashed only, or read as text either way
            if seen is not None:
                return seen.text.sha256
        started = time.time_ns()
        data, st = self._bytes_stat(rel, report=False)
        digest = None if data is None else hashlib.sha256(data).hexdigest()
        self.log[("file", rel)] = digest
        if cand is not None and digest is not None and st is not None:
            self._keep((cand, rel, None), st, started, FileText(rel, digest, None, st.st_size), ())
        return digest

    def _bytes_stat(self, rel: str, *, report: bool) -> tuple[bytes | None, os.stat_result | None]:
        """The file's bytes and, when it was opened by its plain name, its stat as read."""
        fd = self._open_plain(rel)
        plain = fd is not None
        if fd is None:  # a link, an odd path or an unusable directory: resolve it the careful way
            p = self._safe_str(rel)
            if p is None:
                if report:
                    self.findings.append(_err("path-outside-root", rel, 0,
                                              "path leaves the spec root; it is not read"))
                return None, None
            try:
                fd = os.open(p, _OPEN_FLAGS)
            except FileNotFoundError:
                return None, None
            except OSError as e:
                if report:
                    self.findings.append(_err("path-unreadable", rel, 0, f"cannot read file: {e.strerror}"))
                return None, None
        elif fd < 0:
            return None, None  # absent
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
            if not stat.S_ISREG(st.st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            if st.st_size > MAX_FILE_BYTES:
                if report:
                    self.findings.append(_err("file-too-large", rel, 0,
                                              f"file is {st.st_size} bytes; the limit is {MAX_FILE_BYTES}"))
                return None, None
            chunks = []
            while True:  # one read for a file that does not grow while we read it
                chunk = os.read(fd, max(st.st_size, 65536) + 1)
                if not chunk:
                    break
                chunks.append(chunk)
                if sum(map(len, chunks)) > MAX_FILE_BYTES:
                    raise OSError(errno.EFBIG, "file grew past the size limit while being read")
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
            return data, (st if plain and len(data) == st.st_size else None)  # grew while read: not kept
        except OSError as e:
            if report:
                self.findings.append(_err("path-unreadable", rel, 0, f"cannot read file: {e.strerror}"))
            return None, None
        finally:
            os.close(fd)

    def _open_plain(self, rel: str) -> int | None:
        """Open a plain name in a resolved directory without following a final link.

        Same answer as :meth:`_safe_str` then ``open`` for every path it accepts, one
        system call cheaper (no ``lstat``): a final link makes ``O_NOFOLLOW`` fail, and
        that case, like every unusual path, goes back to the careful resolver (None).
        -1 means the file is absent.
        """
        cand = None if _refused(rel) else self._plain(rel)
        if cand is None:
            return None
        try:
            return os.open(cand, _OPEN_FLAGS | os.O_NOFOLLOW)
        except FileNotFoundError:
            return -1
        except OSError:
            return None  # ELOOP (a final link) or anything else: let the careful path decide and report

    def decode(self, rel: str, data: bytes, *, ascii_only: bool = False) -> str | None:
        """The file's text; every byte-level problem is one located finding here, so every command
        that reads the file reports it the same way.

        Invalid UTF-8 and NUL bytes are reported once (at the first offending byte) and then
        replaced by U+FFFD, so the file's records still load and nothing downstream reports the
        consequences of a missing file (a dangling reference, a test whose source "is not a unit")
        or writes a raw NUL into a page. The finding is an error, so the command still fails.
        """
        if data.startswith(b"\xef\xbb\xbf"):
            self.findings.append(_err("file-bom", rel, 1, "file starts with a UTF-8 byte-order mark; remove it", 1))
            data = data[3:]
        replaced = False
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            self.findings.append(_err("file-encoding", rel, line,
                                      f"invalid UTF-8 byte 0x{data[e.start]:02x}; save the file as UTF-8", col))
            text = data.decode("utf-8", errors="replace")
            replaced = True
        nul = text.find("\0")
        if nul >= 0:
            line = text.count("\n", 0, nul) + 1
            self.findings.append(_err("file-nul", rel, line,
                                      f"NUL byte (U+0000) in a text file ({text.count(chr(0))} in all); remove it",
                                      nul - text.rfind("\n", 0, nul)))
            text = text.replace("\0", REPLACEMENT)
            replaced = True
        cr = text.find("\r")
        if cr >= 0:
            line = text.count("\n", 0, cr) + 1
            self.findings.append(_err("file-line-ending", rel, line,
                                      "CR line ending; use LF line endings only", cr - text.rfind("\n", 0, cr)))
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if ascii_only and not text.isascii():
            # a replacement character stands for a byte already reported: not news
            i = next((i for i, ch in enumerate(text) if ord(ch) > 127 and not (replaced and ch == REPLACEMENT)), -1)
            if i >= 0:
                line = text.count("\n", 0, i) + 1
                self.findings.append(_err("file-non-ascii", rel, line,
                                          f"non-ASCII character {text[i]!r} (U+{ord(text[i]):04X}); "
                                          "ASL sources are ASCII", i - text.rfind("\n", 0, i)))
        return text

    def exists(self, rel: str) -> bool:
        """A regular file inside the root (links followed, confined)."""
        s = self._safe_str(rel)
        found = s is not None and os.path.isfile(s)
        self.log[("exists", rel)] = found
        return found

    def present(self, rel: str) -> bool:
        """A file or directory inside the root (what a relative link may name)."""
        s = self._safe_str(rel)
        found = s is not None and os.path.exists(s)
        self.log[("present", rel)] = found
        return found


def replay(root: Path, log: dict[tuple[str, str], object]) -> bool:
    """Whether observing ``root`` now gives everything ``log`` recorded (stops at the first difference).

    Files are hashed, not decoded: a decode finding depends only on the bytes,
    which the hash covers. Costs one read and hash of each logged file plus
    the logged directory walks, which is the floor for knowing nothing changed.
    """
    readers: dict[str, tuple[SpecFiles, dict]] = {}
    for (kind, arg), seen in log.items():
        kind, _, other = kind.partition("@")  # an observation of another root (a second reader's)
        if other not in readers:
            rfs = SpecFiles(Path(other) if other else root)
            readers[other] = (rfs, {"file": rfs.digest, "exists": rfs.exists, "present": rfs.present,
                                    "safe": lambda rel, f=rfs: f.safe(rel) is not None})
        fs, look = readers[other]
        if kind == "walk":
            rel_dir, _, suffix = arg.partition("\0")
            before = len(fs.findings)
            out = fs._walk(rel_dir, suffix)
            now: object = (tuple(out), tuple(f.format() for f in fs.findings[before:]))
        elif kind in look:
            now = look[kind](arg)
        else:
            return False
        if now != seen:
            return False
    return True


#: What makes a folder a spec tree: its ``specification.toml``, or (a tree that keeps the default layout
#: without one) a folder of that layout: ASL sources, AVS tests, catalogs, the release manifest or examples
SPEC_TREE_MARKERS = ("specification.toml", "asl", "tests/asl", "spec/catalog", "spec/release-manifest.json",
                     "examples")


def not_a_spec_tree(root: Path) -> str | None:
    """Why an existing folder given as ``--root`` is not a spec tree (None when it is one, or when it does
    not exist: that is the loader's message). Asked before anything is read, so a command pointed at
    the folder above a release (or an empty one) says so instead of reporting a tree with nothing in it;
    the spec trees one level down are named, since that is the usual slip."""
    try:
        if not root.is_dir() or any((root / m).exists() for m in SPEC_TREE_MARKERS):
            return None
        below = sorted(d.name for d in root.iterdir() if d.is_dir() and (d / "specification.toml").is_file())
    except OSError:
        return None  # unreadable: the loader names it
    hint = f"; the spec trees in it: {', '.join(below[:8])}" + (" …" if len(below) > 8 else "") if below else ""
    return (f"{root}: not a spec tree: no specification.toml (nor asl/, tests/asl/, spec/catalog/ or examples/){hint}; "
            "name the folder that holds the release's specification.toml")
