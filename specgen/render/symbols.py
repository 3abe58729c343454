"""Linked pseudocode: who defines each name of the spec's ASL, and which declarations use each function.

Both tables come from the ASL index the executor and the static checks already
build (:func:`specgen.asl.index.build_index`, cached on disk): the index names
the unit and declaration defining each top-level name and, per declaration,
the names its body uses. Only the defining units' parsed modules are read
(for the declaration's line), and the signature is the declaration's own
text, as the spec writes it. Computed once per graph (:data:`SYMBOLS`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from ..workspace import current, memoised
from ..asl.ast import FuncDecl, GlobalDecl, TypeDecl
from ..asl.index import SpecIndex, build_index
from ..cache import cache_file, read_entry, write_entry
from ..graph import Derived, SpecGraph

SIGNATURE_MAX = 200  # characters of a declaration shown on hover (long enumerations are cut)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Definition:
    """One top-level definition: a function, type, enumeration member or global."""

    name: str
    kind: str  # func | type | enum_member | constant | config | let | var
    path: str
    line: int
    signature: str


@dataclass(frozen=True, slots=True)
class Use:
    """A declaration whose body names a function (the "used by" entry of that function)."""

    name: str
    path: str
    line: int


@dataclass
class SymbolTable:
    """The definition table (name -> its definitions, overloads in source order) and the uses table."""

    defs: dict[str, tuple[Definition, ...]] = field(default_factory=dict)
    used_by: dict[str, tuple[Use, ...]] = field(default_factory=dict)  # function name -> users
    by_unit: dict[str, tuple[Definition, ...]] = field(default_factory=dict)  # unit path -> its definitions
    names_of_unit: dict[str, frozenset[str]] = field(default_factory=dict)  # unit path -> names it uses
    digest_of_unit: dict[str, str] = field(default_factory=dict)

    def definers(self, names: frozenset[str] | set[str]) -> set[str]:
        """Paths of the units defining any of ``names``."""
        return {d.path for n in names for d in self.defs.get(n, ())}


def _signature(lines: list[str], line: int, col: int, kind: str) -> str:
    """The declaration's text from its first token to ``begin`` / ``=`` / ``;``, comments dropped."""
    chunk = "\n".join(lines[line - 1: line + 40])[max(col - 1, 0):]
    chunk = _COMMENT.sub(" ", chunk)
    if kind == "func":
        m = re.search(r"\bbegin\b|;", chunk)
    elif kind == "type":
        m = re.search(r";", chunk)
    else:  # a global: its type, not its initial value
        m = re.search(r"=(?!=)|;", chunk)
    text = _SPACE.sub(" ", chunk[: m.start() if m else len(chunk)]).strip()
    return text if len(text) <= SIGNATURE_MAX else text[: SIGNATURE_MAX - 1].rstrip() + "…"


def _member_line(lines: list[str], start: int, member: str) -> int:
    pat = re.compile(rf"\b{re.escape(member)}\b")
    for i in range(start - 1, min(len(lines), start + 400)):
        if pat.search(_COMMENT.sub("", lines[i])):
            return i + 1
    return start


Entry = tuple[str, str, int, int, str]  # (name, kind, declaration index, line, signature)


def _unit_entries(index: SpecIndex, fi: int, wanted: list[tuple[str, str, int]]) -> tuple[Entry, ...]:
    """One unit's definitions with their lines and signatures (reads the unit's parsed module)."""
    lines = index.units[fi].text.split("\n")
    out: list[Entry] = []
    for name, kind, di in wanted:
        decl = index.decl((kind, fi, di))
        if kind == "enum_member" and isinstance(decl, TypeDecl):
            out.append((name, kind, di, _member_line(lines, decl.line, name), f"{name} : {decl.name}"))
            continue
        k = decl.kind if isinstance(decl, GlobalDecl) else ("func" if isinstance(decl, FuncDecl) else "type")
        out.append((name, k, di, decl.line, _signature(lines, decl.line, decl.col, kind)))
    return tuple(out)


def _entries(index: SpecIndex, use_cache: bool) -> dict[int, tuple[Entry, ...]]:
    """Per unit, its entries: from the on-disk pack (by the unit's content key), else derived.

    Decoding every defining unit's module costs ~1.7 s on the corpus, so the
    derived entries are kept by content: after a one-unit edit only that unit
    is read again (what ``specgen serve`` needs).
    """
    wanted: dict[int, list[tuple[str, str, int]]] = {}
    for name, locs in index.defs.items():
        for kind, fi, di in locs:
            wanted.setdefault(fi, []).append((name, kind, di))
    path = cache_file("asl", "symbols.entry") if use_cache else None
    held: dict = current().table("render.symbols.pack")  # read once per process, kept as last written
    if path is not None and path not in held:
        held[path] = read_entry(path, dict) or {}
    pack: dict[str, tuple[Entry, ...]] = held.get(path, {}) if path is not None else {}
    out: dict[int, tuple[Entry, ...]] = {}
    fresh = False
    for fi, names in wanted.items():
        key = index.keys[fi]
        got = pack.get(key)
        if got is None or len(got) != len(names):
            got = pack[key] = _unit_entries(index, fi, sorted(names))
            fresh = True
        out[fi] = got
    if path is not None and fresh:
        live = set(index.keys)
        if len(pack) > PACK_LIMIT:
            pack = held[path] = {k: v for k, v in pack.items() if k in live}
        snapshot = dict(pack)  # the held pack grows with later loads
        current().write_later(str(path), lambda: write_entry(path, snapshot))
    return out


PACK_LIMIT = 20000


def build_symbols(graph: SpecGraph, use_cache: bool = True) -> SymbolTable:
    """Every definition of the spec's source units, and per function the declarations that use it."""
    index = build_index(graph.spec, use_cache=use_cache)
    entries = _entries(index, use_cache)
    # early cutoff: the table is a function of each unit's entries and its declarations' used names; an edit of
    # prose or a body that declares and uses the same names at the same lines leaves it equal, and the last
    # table is the answer (a tenth of a prose rebuild under serve on 0.58.3)
    made_from = (tuple(index.files), list(entries.items()), index.refs)
    last: dict = current().table("render.symbols.last")
    if use_cache and last.get("made_from") == made_from:
        return last["table"]  # type: ignore[no-any-return]
    table = _assemble(index, entries)
    if use_cache:
        last.update(made_from=made_from, table=table)
    return table


def _assemble(index: SpecIndex, entries: dict[int, tuple[Entry, ...]]) -> SymbolTable:
    table = SymbolTable()
    defs: dict[str, list[Definition]] = {}
    decl_at: dict[tuple[int, int], Definition] = {}
    for fi, unit_entries in entries.items():
        path = index.units[fi].path
        for name, kind, di, line, sig in unit_entries:
            d = Definition(name, kind, path, line, sig)
            if kind != "enum_member":
                decl_at[(fi, di)] = d
            defs.setdefault(name, []).append(d)
    for name, ds in defs.items():
        table.defs[name] = tuple(sorted(ds, key=lambda d: (d.path, d.line)))
    by_unit: dict[str, list[Definition]] = {}
    for ds in table.defs.values():
        for d in ds:
            by_unit.setdefault(d.path, []).append(d)
    table.by_unit = {p: tuple(sorted(ds, key=lambda d: (d.line, d.name))) for p, ds in by_unit.items()}
    used_by: dict[str, set[Use]] = {}
    names_of_unit: dict[str, set[str]] = {}
    functions = {n for n, ds in table.defs.items() if any(d.kind == "func" for d in ds)}
    for (fi, di), used in index.refs.items():
        path = index.units[fi].path
        names_of_unit.setdefault(path, set()).update(used)
        user = decl_at.get((fi, di))
        if user is None:
            continue
        for n in used & functions:
            if n != user.name:
                used_by.setdefault(n, set()).add(Use(user.name, user.path, user.line))
    table.used_by = {n: tuple(sorted(us, key=lambda u: (u.path, u.line))) for n, us in used_by.items()}
    table.names_of_unit = {p: frozenset(ns) for p, ns in names_of_unit.items()}
    table.digest_of_unit = {p: _digest(ds, table.names_of_unit.get(p, frozenset())) for p, ds in table.by_unit.items()}
    return table


def _digest(ds: tuple[Definition, ...], used: frozenset[str]) -> str:
    """What other pages show of a unit through its symbols: its definitions' names, lines and signatures, and
    the names its declarations use (a page's "used by" list)."""
    return hashlib.sha256(repr(([(d.name, d.kind, d.line, d.signature) for d in ds], sorted(used))).encode()
                          ).hexdigest()


SYMBOLS: Derived[SymbolTable] = Derived(build_symbols)


@memoised(maxsize=16384)
def words(text: str) -> frozenset[str]:
    """The identifiers of a text (what a listing of it may link)."""
    return frozenset(_WORD.findall(text))


__all__ = ["Definition", "Use", "SymbolTable", "SYMBOLS", "build_symbols", "words", "SIGNATURE_MAX"]
