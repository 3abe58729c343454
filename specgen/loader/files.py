"""Confined, bounded file access under a spec root.

Everything the tool reads goes through here, so three promises hold in one
place: nothing outside the root is read (symlinks are resolved and checked),
no file is larger than a fixed bound, and bytes become text only through a
strict decoder whose failures are located findings.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Finding, Severity

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_LINE_CHARS = 1024 * 1024
_UNSEEN = object()


@dataclass(slots=True)
class FileText:
    """A file's bytes hash and its text (None when it is not valid UTF-8)."""

    path: str
    sha256: str
    text: str | None
    size: int


def _err(rule: str, path: str, line: int, message: str, col: int = 0) -> Finding:
    return Finding(rule=rule, severity=Severity.ERROR, path=path, line=line, col=col, message=message)


class SpecFiles:
    """A view of one spec root; collects findings about files instead of raising."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.findings: list[Finding] = []
        self._root_s = str(self.root)
        self._prefix = self._root_s if self._root_s.endswith("/") else self._root_s + "/"
        self._dirs: dict[str, str | None] = {}  # root-relative directory -> resolved path (None: unusable)

    def rel(self, p: Path) -> str:
        return p.relative_to(self.root).as_posix()

    def safe(self, rel: str) -> Path | None:
        """Resolve a root-relative path, refusing anything that leaves the root."""
        s = self._safe_str(rel)
        return None if s is None else Path(s)

    def _safe_str(self, rel: str) -> str | None:
        if not rel or rel.startswith("/") or "\\" in rel or ".." in rel.split("/"):
            return None
        head, _, name = rel.rpartition("/")
        if not name or name == "." or "//" in rel or "/./" in f"/{head}/":
            return self._slow(rel)
        # Fast path, same answer as Path.resolve: each directory is resolved once per load (from
        # its resolved parent), and a plain (non-link) name inside it costs one lstat.
        d = self._dir(head)
        if d is None:
            return self._slow(rel)
        cand = d + name if d.endswith("/") else d + "/" + name
        try:
            if stat.S_ISLNK(os.lstat(cand).st_mode):
                return self._slow(rel)
        except OSError:
            pass  # absent or unreadable: resolve(strict=False) keeps the name as written
        if cand == self._root_s or cand.startswith(self._prefix):
            return cand
        return None

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
        """Read, hash and strictly decode one file; None (with a finding) when it cannot be used."""
        p = self._safe_str(rel)
        if p is None:
            self.findings.append(_err("path-outside-root", rel, 0, "path leaves the spec root; it is not read"))
            return None
        try:
            size = os.stat(p).st_size
            if size > MAX_FILE_BYTES:
                self.findings.append(_err("file-too-large", rel, 0,
                                          f"file is {size} bytes; the limit is {MAX_FILE_BYTES}"))
                return None
            with open(p, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            return None
        except OSError as e:
            self.findings.append(_err("path-unreadable", rel, 0, f"cannot read file: {e.strerror}"))
            return None
        digest = hashlib.sha256(data).hexdigest()
        return FileText(rel, digest, self.decode(rel, data, ascii_only=ascii_only), len(data))

    def decode(self, rel: str, data: bytes, *, ascii_only: bool = False) -> str | None:
        if data.startswith(b"\xef\xbb\xbf"):
            self.findings.append(_err("file-bom", rel, 1, "file starts with a UTF-8 byte-order mark; remove it", 1))
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
            self.findings.append(_err("file-encoding", rel, line,
                                      f"invalid UTF-8 byte 0x{data[e.start]:02x}; save the file as UTF-8", col))
            return None
        cr = text.find("\r")
        if cr >= 0:
            line = text.count("\n", 0, cr) + 1
            self.findings.append(_err("file-line-ending", rel, line,
                                      "CR line ending; use LF line endings only", cr - text.rfind("\n", 0, cr)))
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if ascii_only and not text.isascii():
            i = next(i for i, ch in enumerate(text) if ord(ch) > 127)
            line = text.count("\n", 0, i) + 1
            self.findings.append(_err("file-non-ascii", rel, line,
                                      f"non-ASCII character {text[i]!r} (U+{ord(text[i]):04X}); ASL sources are ASCII",
                                      i - text.rfind("\n", 0, i)))
        return text

    def exists(self, rel: str) -> bool:
        p = self.safe(rel)
        return p is not None and p.is_file()
