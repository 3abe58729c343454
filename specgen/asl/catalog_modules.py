"""The ASL specgen derives from a spec's catalogs (:mod:`specgen.catalog_asl`), parsed for the interpreter.

:mod:`specgen.catalog_asl` writes the text and never imports the interpreter; this module is the one
place the interpreter turns that text into modules (through the content-keyed module cache) and says
when specgen's own generated ASL does not parse.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ..cache import cache_file, package_digest, read_entry, write_encoded, write_entry
from ..workspace import current
from ..catalog_asl.sources import generated_sources, generation_key
from ..diagnostics import Finding, Severity
from ..loader.tree import Spec
from .ast import Module
from .errors import ASLError
from .headers import scan_headers
from .index import module_key, module_path, parse_cached, parsed_entry
from .lazy_decls import LazyDecls, Load, declared
from .parse_fork import parse_many


def generated_modules(spec: Spec, *, tile_only: bool = False, shards: bool = True) -> list[Module]:
    """Parsed generated ASL for ``spec`` (empty when the tile catalog is absent or unreadable).

    The catalogs are the JSON artifacts the loader read under the configured JSON root.
    ``tile_only`` leaves out the command, scalar and system-register modules: what
    a tile predicate (the legality sets) reaches, without unpickling the large shards.
    A catalog value that makes the generated text unparsable (a name with a stray byte)
    leaves no generated ASL at all, never an exception; :func:`generation_findings` says why.
    ``shards=False`` leaves out the validation shards (only tests call them: a program run that no unit
    could lead into one does without decoding their megabytes).
    """
    return generated_declarations(spec, tile_only=tile_only, shards=shards).load_all()


def generated_declarations(spec: Spec, *, tile_only: bool = False, shards: bool = True) -> LazyDecls:
    """The same modules' declarations by name, each module parsed (or decoded) when a name of it is first
    asked for (:mod:`.lazy_decls`): a program run reaches a few of them. What each module declares is read
    from its header lines (:mod:`.headers`); a module whose lines the scan does not know is parsed here."""
    key = generation_key(spec, tile_only, shards)
    kept = _modules().get(key)
    if kept is not None:
        table, keys = kept
        table.rebind(_loader(spec, tile_only, shards, keys))
        return table
    listing = _listing(key)
    parts = _stored(listing)
    sources: list[tuple[str, str]] | None = None
    if parts is None:
        sources = generated_sources(spec, tile_only=tile_only, shards=shards)
        parts = _described(sources)
        write_entry(listing, [[k, list(names)] for k, names in parts])
    keys = [k for k, _names in parts]
    table = LazyDecls([names for _k, names in parts], _loader(spec, tile_only, shards, keys, sources))
    while len(_modules()) >= 4:  # a server keeps the last few; a build has one or two (tile only)
        _modules().pop(next(iter(_modules())))
    _modules()[key] = (table, keys)
    return table


def release_shards(spec: Spec) -> None:
    """Forget the full generated set of ``spec`` (with the validation shards, about 120 MB parsed on 0.58.3): only
    tests run it, and a build holds it from the suite's run to its last page written otherwise (a tenth of the
    build's peak memory). A later caller decodes it again from the module cache."""
    _modules().pop(generation_key(spec, False, True), None)


def _modules() -> dict[str, tuple[LazyDecls, list[str]]]:
    """The workspace's table: generation key -> the generated declarations and their modules' cache keys (it
    dies with the workspace)."""
    return current().table("asl.catalog_modules._MODULES")


def _listing(key: str) -> Path | None:
    """Where one generation's module cache keys and declared names are stored: generating the text to find
    them costs time a warm ``specgen run`` must not spend. The key holds specgen's code (the generators)."""
    return cache_file("asl/generated", hashlib.sha256(f"{key}\0{package_digest()}".encode()).hexdigest() + ".entry")


def _stored(listing: Path | None) -> list[tuple[str, tuple[str, ...]]] | None:
    """A stored generation: each module's cache key and the names it declares; None when absent or foreign."""
    got = read_entry(listing, list)
    if got is None or not all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
                              and isinstance(x[1], list) and all(isinstance(n, str) for n in x[1]) for x in got):
        return None
    return [(k, tuple(names)) for k, names in got]


def _described(sources: list[tuple[str, str]]) -> list[tuple[str, tuple[str, ...]]]:
    """Each source's module cache key and declared names, from its header lines; a module the scan cannot
    read is parsed (and stored) to name them, and one that does not parse declares nothing."""
    out: list[tuple[str, tuple[str, ...]]] = []
    unread: list[int] = []
    for i, (text, path) in enumerate(sources):
        heads = scan_headers(text)
        if heads is None:
            unread.append(i)
        names = [] if heads is None else [n for h in heads for n in (h.name, *h.members)]
        out.append((module_key(path, text.encode("utf-8")), tuple(names)))
    for i, mod in zip(unread, _parse_all([sources[i] for i in unread], [out[i][0] for i in unread])):
        out[i] = (out[i][0], tuple(declared(mod)) if mod is not None else ())
    return out


def _loader(spec: Spec, tile_only: bool, shards: bool, keys: list[str],
            sources: list[tuple[str, str]] | None = None) -> Load:
    """Loads modules by index: each from the module cache, the rest generated again (only when one is
    missing: a warm run never makes the text) and parsed on every core."""
    held = sources  # the texts, kept only while a module may still need parsing
    pending = set(range(len(keys)))

    def load(indices: list[int]) -> list[Module | None]:
        nonlocal held
        pending.difference_update(indices)
        found: list[Module | None] = [parsed_entry(keys[i]) for i in indices]
        todo = [j for j, m in enumerate(found) if m is None]
        if todo:
            if held is None:
                held = generated_sources(spec, tile_only=tile_only, shards=shards)
            parsed = _parse_all([held[indices[j]] for j in todo], [keys[indices[j]] for j in todo])
            for j, mod in zip(todo, parsed):
                found[j] = mod
        if not pending:
            held = None
        return found

    return load


def generation_findings(spec: Spec) -> list[Finding]:
    """One finding at the tile catalog when the tile ASL generated from the catalogs does not parse.

    Only the tile modules are parsed here (the legality rule parses them anyway): a cold check
    must not parse the megabytes of validation shards, which only tests run. A shard module that
    does not parse is said on stderr when a run needs it, and its tests fail naming its functions.
    """
    for text, path in generated_sources(spec, tile_only=True):
        try:
            _parse(text, path)
        except ASLError as e:
            rel = f"{spec.config.json_root}/catalog/tile-operations.json"
            return [Finding("asl-syntax", Severity.ERROR, rel, 0,
                            f"the ASL specgen generates from the catalogs does not parse ({e.span.path}:{e.span.line}:"
                            f"{e.span.col}: {e.message}); a catalog value spliced into ASL is not an ASL name or "
                            "expression", subject=rel)]
    return []


def _parse_all(sources: list[tuple[str, str]], keys: list[str]) -> list[Module | None]:
    """The modules of ``sources`` (``keys`` their module-cache keys), parsed on every core
    (:mod:`.parse_fork`) and stored. A text that does not parse is said on stderr and is None: specgen's
    own generator wrote bad ASL, and the tests that need it fail naming its functions."""
    out: list[Module | None] = []
    for (_text, path), key, (mod, blob) in zip(sources, keys, parse_many(sources)):
        if isinstance(mod, ASLError):
            sys.stderr.write(f"specgen: generated {path} does not parse: {mod}\n")
            out.append(None)
            continue
        out.append(mod)
        if blob is not None:
            write_encoded(module_path(key), blob)
        else:
            write_entry(module_path(key), mod)
    return out


def _parse(text: str, path: str) -> Module:
    """Generated text is large (the scalar shards): reuse the content-keyed module cache."""
    return parse_cached(text.encode("utf-8"), path)
