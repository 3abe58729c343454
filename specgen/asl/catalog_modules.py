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
from .index import module_key, module_path, parse_cached, parsed_entry
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
    key = generation_key(spec, tile_only, shards)
    kept = _modules().get(key)
    if kept is not None:
        return list(kept)
    listing = _listing(key)
    mods = _stored(listing)
    if mods is None:
        mods, keys = _parse_all(generated_sources(spec, tile_only=tile_only, shards=shards))
        write_entry(listing, keys)
    while len(_modules()) >= 4:  # a server keeps the last few; a build has one or two (tile only)
        _modules().pop(next(iter(_modules())))
    _modules()[key] = tuple(mods)
    return mods


def release_shards(spec: Spec) -> None:
    """Forget the full generated set of ``spec`` (with the validation shards, about 120 MB parsed on 0.58.3): only
    tests run it, and a build holds it from the suite's run to its last page written otherwise (a tenth of the
    build's peak memory). A later caller decodes it again from the module cache."""
    _modules().pop(generation_key(spec, False, True), None)


def _modules() -> dict[str, tuple[Module, ...]]:
    """The workspace's table: generation key -> parsed modules (kept in the process) (it dies with the workspace)."""
    return current().table("asl.catalog_modules._MODULES")


def _listing(key: str) -> Path | None:
    """Where the module cache keys of one generation are stored: generating the text to find them costs
    seconds a warm ``specgen run`` must not spend. The key holds specgen's code (the generators)."""
    return cache_file("asl/generated", hashlib.sha256(f"{key}\0{package_digest()}".encode()).hexdigest() + ".entry")


def _stored(listing: Path | None) -> list[Module] | None:
    """The modules of a stored generation, each from the module cache; None when any is missing."""
    keys = read_entry(listing, list)
    if keys is None or not all(isinstance(k, str) for k in keys):
        return None
    mods = [parsed_entry(k) for k in keys]
    return None if any(m is None for m in mods) else mods  # type: ignore[return-value]


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


def _parse_all(sources: list[tuple[str, str]]) -> tuple[list[Module], list[str]]:
    """The modules of ``sources`` and their module-cache keys: each from the cache, the rest parsed on
    every core (:mod:`.parse_fork`) and stored. A text that does not parse is said on stderr and left out:
    specgen's own generator wrote bad ASL, and the tests that need it fail naming its functions."""
    keys = [module_key(path, text.encode("utf-8")) for text, path in sources]
    found: list[Module | None] = [parsed_entry(k) for k in keys]
    todo = [i for i, m in enumerate(found) if m is None]
    for i, (mod, blob) in zip(todo, parse_many([sources[i] for i in todo])):
        if isinstance(mod, ASLError):
            sys.stderr.write(f"specgen: generated {sources[i][1]} does not parse: {mod}\n")
            continue
        found[i] = mod
        if blob is not None:
            write_encoded(module_path(keys[i]), blob)
        else:
            write_entry(module_path(keys[i]), mod)
    kept = [i for i, m in enumerate(found) if m is not None]
    return [found[i] for i in kept], [keys[i] for i in kept]  # type: ignore[misc]


def _parse(text: str, path: str) -> Module:
    """Generated text is large (the scalar shards): reuse the content-keyed module cache."""
    return parse_cached(text.encode("utf-8"), path)
