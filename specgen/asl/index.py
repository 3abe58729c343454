"""An index of every top-level ASL definition of a spec tree, cached on disk.

Parsing the corpus takes seconds; a run needs a small part of it. So each
file's parsed :class:`Module` is pickled once under the cache directory,
keyed by the SHA-256 of (parser version, path, content), and the index (name
-> where it is defined) is pickled under a key made of all file keys. A
warm run reads and hashes the sources, loads the small index, and unpickles
only the modules whose definitions the program reaches.

The cache lives in ``$SPECGEN_CACHE_DIR`` or ``~/.cache/specgen`` (never in
the spec tree, which may be read-only). Writes are atomic (temp file then
rename) so concurrent workers never read half a pickle; any unreadable
cache entry is simply rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .ast import Decl, FuncDecl, GlobalDecl, Module, TypeDecl
from .parser import GRAMMAR_PATH, parse_source

_PARSER_FILES = ("parser.py", "ast.py", "asl1.lark")


def _parser_version() -> str:
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _PARSER_FILES:
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


_VERSION: str | None = None


def parser_version() -> str:
    global _VERSION
    if _VERSION is None:
        _VERSION = _parser_version()
    return _VERSION


def cache_dir() -> Path:
    """``$SPECGEN_CACHE_DIR/asl`` or ``~/.cache/specgen/asl`` (falls back to the temp dir)."""
    base = os.environ.get("SPECGEN_CACHE_DIR")
    path = Path(base) if base else Path.home() / ".cache" / "specgen"
    path = path / "asl"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        fallback = Path(tempfile.gettempdir()) / "specgen-cache" / "asl"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback


def _atomic_write(path: Path, data: bytes) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _load_pickle(path: Path) -> object | None:
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except Exception:  # noqa: BLE001 - any broken cache entry is rebuilt
        return None


def module_key(rel: str, text: bytes) -> str:
    h = hashlib.sha256()
    h.update(parser_version().encode())
    h.update(b"\0" + rel.encode() + b"\0")
    h.update(text)
    return h.hexdigest()


def parse_cached(text: bytes, rel: str) -> Module:
    """Parse one file, reusing the on-disk cache; raises ASLError on bad syntax."""
    key = module_key(rel, text)
    path = cache_dir() / "modules" / f"{key}.pickle"
    mod = _load_pickle(path)
    if isinstance(mod, Module):
        return mod
    mod = parse_source(text.decode("utf-8"), rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, pickle.dumps(mod, protocol=pickle.HIGHEST_PROTOCOL))
    return mod


def source_roots(root: Path) -> list[Path]:
    """The ASL source folders: ``specification.toml``'s ``source_roots``, else ``asl/``."""
    toml = root / "specification.toml"
    if toml.is_file():
        try:
            spec = tomllib.loads(toml.read_text(encoding="utf-8"))
            roots = spec.get("specification", {}).get("source_roots")
            if roots:
                return [root / r for r in roots]
        except (OSError, tomllib.TOMLDecodeError):
            pass
    return [root / "asl"]


Loc = tuple[str, int, int]  # (kind, file index, decl index)


@dataclass
class SpecIndex:
    """Where every top-level name of a spec tree is defined."""

    root: Path
    files: list[str]
    keys: list[str]
    defs: dict[str, list[Loc]]
    refs: dict[tuple[int, int], frozenset[str]]
    parse_errors: list[tuple[str, int, int, str]] = field(default_factory=list)
    _modules: dict[int, Module] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ access
    def module(self, file_index: int) -> Module:
        mod = self._modules.get(file_index)
        if mod is None:
            rel = self.files[file_index]
            path = cache_dir() / "modules" / f"{self.keys[file_index]}.pickle"
            loaded = _load_pickle(path)
            if not isinstance(loaded, Module):
                loaded = parse_cached((self.root / rel).read_bytes(), rel)
            mod = loaded
            self._modules[file_index] = mod
        return mod

    def decl(self, loc: Loc) -> Decl:
        return self.module(loc[1]).decls[loc[2]]

    def lookup(self, name: str) -> list[Decl]:
        return [self.decl(loc) for loc in self.defs.get(name, ())]

    def closure(self, names: set[str] | frozenset[str]) -> set[tuple[int, int]]:
        """Declarations reachable from ``names`` through the identifiers they use."""
        seen: set[tuple[int, int]] = set()
        todo = list(names)
        visited: set[str] = set()
        while todo:
            name = todo.pop()
            if name in visited:
                continue
            visited.add(name)
            for _kind, fi, di in self.defs.get(name, ()):
                if (fi, di) not in seen:
                    seen.add((fi, di))
                    todo.extend(self.refs.get((fi, di), ()))
        return seen

    @property
    def loaded_module_count(self) -> int:
        return len(self._modules)


def _decl_entries(decl: Decl) -> list[tuple[str, str]]:
    if isinstance(decl, FuncDecl):
        return [(decl.name, "func")]
    if isinstance(decl, TypeDecl):
        out = [(decl.name, "type")]
        if decl.form == "enum":
            out.extend((m, "enum_member") for m in decl.payload)  # type: ignore[union-attr]
        return out
    if isinstance(decl, GlobalDecl):
        return [(decl.name, "global")]
    return []


def build_index(root: Path, use_cache: bool = True) -> SpecIndex:
    """Index the ASL sources of ``root`` (parsing only files whose cache is cold).

    Files that fail to parse are recorded in ``parse_errors`` (path, line,
    col, message) and left out; they do not stop the rest.
    """
    from .errors import ASLError

    root = Path(root)
    rels: list[str] = []
    texts: list[bytes] = []
    for src in source_roots(root):
        if not src.is_dir():
            continue
        for p in sorted(src.rglob("*.asl")):
            rels.append(p.relative_to(root).as_posix())
            texts.append(p.read_bytes())
    keys = [module_key(r, t) for r, t in zip(rels, texts)]
    top = hashlib.sha256("\n".join(keys).encode()).hexdigest()
    index_path = cache_dir() / f"index-{top}.pickle"
    if use_cache:
        cached = _load_pickle(index_path)
        if isinstance(cached, tuple) and len(cached) == 3:
            defs, refs, errors = cached
            return SpecIndex(root, rels, keys, defs, refs, errors)

    modules: dict[int, Module] = {}
    errors: list[tuple[str, int, int, str]] = []
    defs: dict[str, list[Loc]] = {}
    refs: dict[tuple[int, int], frozenset[str]] = {}
    # What each file declares and uses, by its content key: after a one-file edit only that
    # file is parsed (or unpickled); every other file's summary comes from one pack.
    pack_path = cache_dir() / "summaries.pickle"
    pack = _load_pickle(pack_path) if use_cache else None
    summaries: dict[str, FileSummary] = pack if isinstance(pack, dict) else {}
    fresh = 0
    for fi, (rel, text, key) in enumerate(zip(rels, texts, keys)):
        summary = summaries.get(key)
        if not isinstance(summary, tuple):
            try:
                mod = parse_cached(text, rel) if use_cache else parse_source(text.decode("utf-8"), rel)
            except ASLError as exc:
                summary = (exc.span.line, exc.span.col, exc.message)
            else:
                modules[fi] = mod
                summary = tuple((tuple(_decl_entries(decl)), decl.refs) for decl in mod.decls)
            summaries[key] = summary
            fresh += 1
        if summary and isinstance(summary[0], int):  # a parse error: (line, col, message)
            errors.append((rel, summary[0], summary[1], summary[2]))  # type: ignore[arg-type]
            continue
        for di, (entries, used) in enumerate(summary):  # type: ignore[misc]
            refs[(fi, di)] = used
            for name, kind in entries:
                defs.setdefault(name, []).append((kind, fi, di))
    if use_cache:
        if fresh:
            live = set(keys)
            if len(summaries) > SUMMARY_PACK_LIMIT:  # other trees' entries go first
                summaries = {k: v for k, v in summaries.items() if k in live}
            _atomic_write(pack_path, pickle.dumps(summaries, protocol=pickle.HIGHEST_PROTOCOL))
        _atomic_write(index_path, pickle.dumps((defs, refs, errors), protocol=pickle.HIGHEST_PROTOCOL))
    return SpecIndex(root, rels, keys, defs, refs, errors, modules)


# per file: for each declaration, its (name, kind) entries and the names it uses; or, for a
# file that does not parse, (line, col, message)
FileSummary = tuple
SUMMARY_PACK_LIMIT = 20000


__all__ = ["SpecIndex", "build_index", "parse_cached", "cache_dir", "GRAMMAR_PATH"]
