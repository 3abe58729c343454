"""An index of every top-level ASL definition of a loaded spec, cached on disk.

The index sees exactly the units the loader read through the confined reader
(:class:`~specgen.loader.Spec` ``units``): a file the loader refused (a link
leading outside the root, an unreadable file) is never parsed, so none of its
names can be called.

A run needs a small part of the spec's ASL, so each unit's parsed
:class:`Module` is encoded (:mod:`specgen.cache.codec`: data, never code) under
``cache_dir("asl")``, keyed by the SHA-256 of (parser version, path, content), and
the index (name -> where it is defined) is encoded under a key made of all unit
keys. A warm run loads the small index and decodes only the modules whose
definitions the program reaches; a module whose entry is gone is parsed again
from the unit's text. The units' entries are one pack per tree (one file write on
a cold run, not one per unit: the writes cost as much as the parse), and the
parse runs with the cyclic garbage collector paused, since the loaded spec's
millions of objects made each collection pass walk them all.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable

from ..memory import collector_paused
from ..workspace import current
from ..cache import cache_file, codec, prune, read_entry, write_entry
from ..loader import UNPARSED_STUB
from ..loader.tree import Spec
from ..models.located import AslUnit
from .ast import Decl, FuncDecl, GlobalDecl, Module, TypeDecl, decl_digest
from .errors import ASLError
from .indexpack import index_of, index_state, summaries_of, summaries_state
from .parse_fork import parse_many, summarise_many
from .parser import parse_source

_PARSER_FILES = ("parser.py", "descent.py", "descent_expr.py", "lark_reference.py", "ast.py", "asl1.lark")
_VERSION: str | None = None


def parser_version() -> str:
    """Digest of the parser sources: a parser change never serves a stale cached module."""
    global _VERSION
    if _VERSION is None:
        h = hashlib.sha256()
        here = Path(__file__).parent
        for name in _PARSER_FILES:
            h.update((here / name).read_bytes())
        _VERSION = h.hexdigest()[:16]
    return _VERSION


def module_key(rel: str, text: bytes) -> str:
    """The cache key of one parsed file: the same path and bytes always parse the same."""
    h = hashlib.sha256()
    h.update(parser_version().encode())
    h.update(b"\0" + rel.encode() + b"\0")
    h.update(text)
    return h.hexdigest()


def module_path(key: str) -> Path | None:
    """Where the module of ``key`` (:func:`module_key`) is stored."""
    return cache_file("asl/modules", f"{key}.entry")


def parsed_entry(key: str) -> Module | None:
    """The module stored under ``key`` (:func:`module_key`), None when absent or unusable."""
    mod = read_entry(module_path(key), Module)
    return mod if isinstance(mod, Module) else None


def parse_cached(text: bytes, rel: str) -> Module:
    """Parse one file, reusing the on-disk cache; raises ASLError on bad syntax."""
    key = module_key(rel, text)
    mod = read_entry(module_path(key), Module)
    if mod is None:
        mod = parse_source(text.decode("utf-8"), rel)
        write_entry(module_path(key), mod)
    return mod


_DECLARES = re.compile(r"^[ \t]*(?:[a-z]+[ \t]+)*?(?:func|type|constant|config|let|var)[ \t]+([A-Za-z_]\w*)",
                       re.MULTILINE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
Loc = tuple[str, int, int]  # (kind, file index, decl index)


@dataclass
class SpecIndex:
    """Where every top-level name of a spec's ASL units is defined."""

    units: list[AslUnit]
    keys: list[str]
    defs: dict[str, list[Loc]]
    refs: dict[tuple[int, int], frozenset[str]]
    parse_errors: list[tuple[str, int, int, str]] = field(default_factory=list)
    digests: dict[tuple[int, int], str] = field(default_factory=dict)  # (file, decl) -> ast.decl_digest
    _modules: dict[int, Module] = field(default_factory=dict, repr=False)
    _broken: dict[str, str] | None = field(default=None, repr=False)
    _pack: dict[str, bytes] | None = field(default=None, repr=False)

    @property
    def files(self) -> list[str]:
        """The indexed units' root-relative paths, by file index."""
        return [u.path for u in self.units]

    def module(self, file_index: int) -> Module:
        """The parsed unit (from the tree's pack, else re-parsed from the unit's text)."""
        mod = self._modules.get(file_index)
        if mod is None:
            if self._pack is None:
                self._pack = _read_pack(self.units)
            blob = self._pack.get(self.keys[file_index])
            mod = _loads(blob) if blob is not None else None
            if mod is None:
                unit = self.units[file_index]
                mod = parse_source(unit.text, unit.path)
            self._modules[file_index] = mod
        return mod

    def decl(self, loc: Loc) -> Decl:
        return self.module(loc[1]).decls[loc[2]]

    def lookup(self, name: str) -> list[Decl]:
        return [self.decl(loc) for loc in self.defs.get(name, ())]

    def name_digest(self, name: str) -> str:
        """Digest of every declaration of ``name`` in the tree ("" when nothing declares it).

        What a run that used ``name`` read of the tree: an edit of any of its declarations, a second
        declaration (an overload) or its removal changes it; comments and other names do not.
        """
        locs = self.defs.get(name)
        if not locs:
            return ""
        if len(locs) == 1:
            kind, fi, di = locs[0]
            return kind + ":" + self.digests.get((fi, di), "?")
        return "|".join(sorted(f"{kind}:{self.digests.get((fi, di), '?')}" for kind, fi, di in locs))

    def broken_declarations(self) -> dict[str, str]:
        """Top-level names that units which do not parse appear to declare -> that unit's path.

        A unit that does not parse defines nothing, so whatever uses its names would fail
        with a misleading cause ("not an operation of this spec", "needs generated code");
        its declarations, recognised textually, let those failures name the unit instead.
        """
        if self._broken is None:
            broken = {e[0] for e in self.parse_errors}
            self._broken = {}
            for unit in self.units:
                if unit.path in broken:
                    for m in _DECLARES.finditer(unit.text):
                        self._broken.setdefault(m.group(1), unit.path)
        return self._broken

    def parse_error_of(self, path: str) -> tuple[str, int, int, str] | None:
        """The parse error recorded for one unit (None: it parses)."""
        return next((e for e in self.parse_errors if e[0] == path), None)

    def _broken_stems(self) -> dict[str, str]:
        """Units that do not parse and are named after an instruction (``TAND.asl``): mnemonic -> path."""
        out = {}
        for path, *_ in self.parse_errors:
            stem = PurePosixPath(path).stem
            if stem and not any(ch.islower() for ch in stem):
                out[stem] = path
        return out

    def broken_unit_for(self, name: str) -> tuple[str, int, int, str] | None:
        """The parse error of the unit that should have defined ``name`` (None: no such unit).

        Found from the unit's text when the declaration survives, else from the naming
        convention of instruction units (``InstructionContractExecute_TAND`` in ``TAND.asl``).
        """
        if not self.parse_errors:
            return None
        path = self.broken_declarations().get(name) or self._broken_stems().get(name.rsplit("_", 1)[-1])
        return self.parse_error_of(path) if path else None

    def mentions_broken_unit(self, text: str) -> bool:
        """Whether ``text`` names a unit that does not parse, its instruction, or a name it declares."""
        if not self.parse_errors:
            return False
        names, stems = self.broken_declarations(), self._broken_stems()
        words = {w.rstrip(".") for w in _WORD.findall(text)}
        return (any(e[0] in text for e in self.parse_errors) or not words.isdisjoint(names)
                or not words.isdisjoint(stems) or any(self.broken_unit_for(w) for w in words if "_" in w))

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


def _source_units(spec: Spec) -> list[AslUnit]:
    """The units of each configured source root in turn, each root's in path-component order."""
    out: list[AslUnit] = []
    for src in spec.config.source_roots:
        prefix = src.rstrip("/") + "/"
        mine = [u for u in spec.units if u.path.startswith(prefix)]
        out.extend(sorted(mine, key=lambda u: u.path.split("/")))  # a loaded path is relative, POSIX, normalised
    return out


def build_index(spec: Spec, use_cache: bool = True) -> SpecIndex:
    """Index the ASL units of ``spec`` (parsing only units whose cache is cold); one index per loaded spec.

    Units that fail to parse are recorded in ``parse_errors`` (path, line,
    col, message) and left out; they do not stop the rest.
    """
    # new tables and trees only, no cycles: a collection pass would walk the whole loaded spec (a cold test
    # run's parent spent 0.25 s in one while it tabulated)
    with collector_paused():
        if not use_cache:
            return _build_index(spec, use_cache)
        return current().per(spec, "asl.index", lambda: _build_index(spec, use_cache), keep=4)  # a server's last loads


def _build_index(spec: Spec, use_cache: bool) -> SpecIndex:
    units = _source_units(spec)
    texts = [u.text.encode("utf-8") for u in units]
    keys = [module_key(u.path, t) for u, t in zip(units, texts)]
    top = hashlib.sha256("\n".join(keys).encode()).hexdigest()
    index_path = cache_file("asl", f"index{SUMMARY_FORMAT}-{top}.entry") if use_cache else None
    made_from = None
    if use_cache and current().long_lived:  # a server's load: the last load's tables may be this one's
        made_from, kept = _kept_tables(units, keys)
        if kept is not None:
            return SpecIndex(units, keys, *kept)
    if use_cache:
        cached = read_entry(index_path, list)
        if cached is not None:
            try:
                defs, refs, errors, digests = index_of(cached)
            except (ValueError, TypeError, IndexError):  # another shape: a miss, rebuilt below
                pass
            else:
                if made_from is not None:
                    current().table("asl.index.last").update(made_from=made_from, tables=(defs, refs, errors, digests))
                return SpecIndex(units, keys, defs, refs, errors, digests)

    modules: dict[int, Module] = {}
    blobs: dict[int, bytes] = {}
    errors: list[tuple[str, int, int, str]] = []
    defs: dict[str, list[Loc]] = {}
    refs: dict[tuple[int, int], frozenset[str]] = {}
    digests: dict[tuple[int, int], str] = {}
    # What each file declares and uses, by its content key: after a one-file edit only that
    # file is parsed (or decoded); every other file's summary comes from one pack.
    pack_path = cache_file("asl", f"summaries{SUMMARY_FORMAT}.entry") if use_cache else None
    summaries: dict[str, FileSummary] = (_held(pack_path, summaries_of) if pack_path is not None else None) or {}
    fresh = _summarise(units, keys, summaries, modules, blobs if pack_path is not None else None)
    # early cutoff (:func:`_kept_tables`): equal summaries, the last load's very tables
    made_from = (tuple(u.path for u in units), [summaries[key] for key in keys])
    last: dict = current().table("asl.index.last") if use_cache else {}
    if last.get("made_from") == made_from:
        defs, refs, errors, digests = last["tables"]
    else:
        _tabulate(units, keys, summaries, defs, refs, errors, digests)
        if use_cache:
            last.update(made_from=made_from, tables=(defs, refs, errors, digests))
    pack = None
    if pack_path is not None:
        if fresh:
            live = set(keys)
            if len(summaries) > SUMMARY_PACK_LIMIT:  # other trees' entries go first
                summaries = {k: v for k, v in summaries.items() if k in live}
            state = summaries_state(summaries)  # now: a later load adds to the held summaries
            _write_later(pack_path, lambda: state)
            _held_packs()[pack_path] = summaries
            pack = _write_pack(units, keys, modules, blobs)
        if index_path is not None:
            # one entry per revision of the units: a server writes one per edit (0.9 MB on 0.58.3)
            _write_later(index_path, lambda: index_state(defs, refs, errors, digests),  # tables never change
                         lambda: prune(index_path.parent, f"index{SUMMARY_FORMAT}-*.entry", INDEX_KEEP))
    # the pack held by the index: a helper's module is decoded from it even after a load of another tree
    # dropped it from the held packs in a server that has not written it yet
    return SpecIndex(units, keys, defs, refs, errors, digests, modules, _pack=pack)


def _kept_tables(units: list[AslUnit], keys: list[str]) -> tuple[tuple | None, tuple | None]:
    """What this load's tables are made from (None: a unit has no summary yet), and the last load's tables when
    they were made from the same (None otherwise).

    The tables are a function of the units' paths and summaries. An edit of prose, comments or a body's
    statements that declares and uses the same names leaves every summary equal, and the load keeps the last
    load's very tables: early cutoff, which the revision's answers (:class:`specgen.asl.revision.Revision`) and
    the symbol table compare by identity.
    """
    held = _held(cache_file("asl", f"summaries{SUMMARY_FORMAT}.entry"), summaries_of)
    known = [held.get(key) for key in keys]
    if not all(isinstance(x, tuple) for x in known):
        return None, None
    made_from = (tuple(u.path for u in units), known)
    last: dict = current().table("asl.index.last")
    return made_from, (last["tables"] if last.get("made_from") == made_from else None)


def _tabulate(units: list[AslUnit], keys: list[str], summaries: dict[str, FileSummary], defs: dict[str, list[Loc]],
              refs: dict[tuple[int, int], frozenset[str]], errors: list[tuple[str, int, int, str]],
              digests: dict[tuple[int, int], str]) -> None:
    """Fill the index's tables from each unit's summary."""
    for fi, (unit, key) in enumerate(zip(units, keys)):
        summary = summaries[key]
        if summary and isinstance(summary[0], int):  # a parse error: (line, col, message)
            errors.append((unit.path, summary[0], summary[1], summary[2]))  # type: ignore[arg-type]
            continue
        for di, (entries, used, digest) in enumerate(summary):  # type: ignore[misc]
            refs[(fi, di)] = used
            digests[(fi, di)] = digest
            for name, kind in entries:
                defs.setdefault(name, []).append((kind, fi, di))


def _summarise(units: list[AslUnit], keys: list[str], summaries: dict[str, FileSummary],
               modules: dict[int, Module], blobs: dict[int, bytes] | None) -> int:
    """Parse every unit without a summary; how many were parsed.

    ``blobs`` (a load that keeps the tree's module pack): every fresh module's encoding goes there, and only
    the modules this process parsed into ``modules``; a parse helper's is decoded from the pack when a run
    first needs it. ``blobs`` None: every module into ``modules``.
    """
    todo = []
    for fi, (unit, key) in enumerate(zip(units, keys)):
        if not isinstance(summaries.get(key), tuple):
            if unit.text == UNPARSED_STUB:  # an oversized unit (the loader's asl-unit-too-large)
                summaries[key] = (1, 1, "not parsed: the unit is larger than [specgen] max_unit_bytes")
                continue
            todo.append(fi)
    sources = [(units[fi].text, units[fi].path) for fi in todo]
    parsed = (summarise_many(sources, _file_summary) if blobs is not None
              else [(mod, None, None) for mod, _ in parse_many(sources)])
    for fi, (mod, blob, summary) in zip(todo, parsed):
        if isinstance(mod, ASLError):
            summary = (mod.span.line, mod.span.col, mod.message)
        else:
            if mod is not None:
                modules[fi] = mod
            if blob is not None and blobs is not None:
                blobs[fi] = blob
            if summary is None:
                summary = _file_summary(mod)  # type: ignore[arg-type]
        summaries[keys[fi]] = summary  # type: ignore[assignment]
    return len(todo)


def _file_summary(mod: Module) -> FileSummary:
    """For each declaration of a parsed unit: its (name, kind) entries, the names it uses, its digest."""
    return tuple((tuple(_decl_entries(decl)), decl.refs, decl_digest(decl)) for decl in mod.decls)


def _pack_path(units: list[AslUnit]) -> Path | None:
    """One pack per set of unit paths: the bundled spec and a corpus never evict each other."""
    digest = hashlib.sha256("\0".join(u.path for u in units).encode()).hexdigest()[:16]
    return cache_file("asl", f"modules-{digest}.entry")


def _held_packs() -> dict[Path, dict]:
    """The workspace's table: pack path -> the pack as this process last read or wrote it (it dies with the workspace)."""
    return current().table("asl.index._HELD")


def _held(path: Path | None, convert: Callable[[dict], dict] | None = None) -> dict:
    """A pack, read from disk once per process: a server's rebuilds do not decode the whole tree's summaries
    and modules again after a one-file edit (each write keeps what it wrote)."""
    if path is None:
        return {}
    held = _held_packs().get(path)
    if held is None:
        held = read_entry(path, dict) or {}
        if convert is not None:
            try:
                held = convert(held)
            except (ValueError, TypeError, IndexError):  # another shape: every file is summarised again
                held = {}
        while len(_held_packs()) >= 4:  # the bundled spec and a corpus, summaries and modules
            _held_packs().pop(next(iter(_held_packs())))
        _held_packs()[path] = held
    return held


def _read_pack(units: list[AslUnit]) -> dict[str, bytes]:
    return _held(_pack_path(units))


def _write_pack(units: list[AslUnit], keys: list[str], modules: dict[int, Module],
                blobs: dict[int, bytes]) -> dict[str, bytes]:
    """Add the freshly parsed modules to the tree's pack (each encoded once, by the process that parsed it),
    dropping entries no unit has now."""
    live = set(keys)
    fresh = blobs.keys() | modules.keys()
    pack = {k: v for k, v in _read_pack(units).items() if k in live} if len(fresh) < len(keys) else {}
    for fi in fresh:
        blob = blobs.get(fi)
        pack[keys[fi]] = blob if blob is not None else codec.encode(modules[fi])
    path = _pack_path(units)
    if path is not None:
        _write_later(path, lambda: pack)  # a new dict: a later write makes another
        _held_packs()[path] = pack
    return pack


def _write_later(path: Path, state: Callable[[], object], then: Callable[[], object] | None = None) -> None:
    """Write a pack or an index (``state()``: of nothing a later load changes) now, or when a server settles (it
    holds what it wrote in memory: its next load does not read it)."""

    def write() -> None:
        if write_entry(path, state()) and then is not None:
            then()

    current().write_later(str(path), write)


def _loads(blob: object) -> Module | None:
    if type(blob) is not bytes:
        return None
    try:
        mod = codec.decode(blob)
    except ValueError:  # a damaged entry is a miss: the unit is parsed again
        return None
    return mod if isinstance(mod, Module) else None


# per file: for each declaration, its (name, kind) entries, the names it uses and its digest; or, for a
# file that does not parse, (line, col, message)
FileSummary = tuple
SUMMARY_FORMAT = 3  # in the summary pack's and index's names: a summary of another shape is never read
SUMMARY_PACK_LIMIT = 20000
INDEX_KEEP = 8  # stored indexes: the last few revisions of a few trees (the bundled spec, corpora, variants)


__all__ = ["SpecIndex", "build_index", "parse_cached", "module_key", "parser_version"]
