"""The examples' on-disk results: one pack per spec root, holding the results of its last run.

A result depends only on the example's text, the files the ASL run reads (the
ASL, the catalogs the ASL is generated from, the hardware profile, the
examples, the configuration) and the code that runs it. The pack keys each
result by the SHA-256 of those, so a warm build does not start the
interpreter at all, and an edit to anything else (tests, ADRs, prose in
evidence) keeps every entry.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Callable, TypeVar

from ..cache import cache_dir, prune, read_pickle, write_pickle
from ..loader import Spec
from ..loader.config import SpecConfig

CACHE_VERSION = "2"
KEEP_PACKS = 16
_PACKAGE = Path(__file__).resolve().parent.parent
T = TypeVar("T")


@functools.cache
def _code_digest() -> str:
    """The code a result depends on (the checked examples, the program language and executor, the
    worked-example generator, the interpreter and the ASL it derives from the catalogs, the encodings the
    executor assembles each statement's word with, the vocabulary, and the reader and loader that turn a
    file's bytes into the text the ASL runs on), read once per process."""
    h = hashlib.sha256()
    packages = ("examples", "program", "executor", "worked", "asl", "catalog_asl", "encoding", "loader")
    files = ([p for pkg in packages for p in sorted((_PACKAGE / pkg).glob("*.py"))]
             + [_PACKAGE / "vocabulary.py", _PACKAGE / "prose.py", _PACKAGE / "files.py"])
    for p in files:
        h.update(p.read_bytes())
    return h.hexdigest()


def _runs_on(config: SpecConfig) -> Callable[[str], bool]:
    """Which files an example's result can depend on: the ASL, the catalogs ASL is generated from,
    the hardware profile, the examples and the configuration (not tests, ADRs, evidence)."""
    files = {"specification.toml", config.hardware_profile}
    prefixes = tuple([r.rstrip("/") + "/" for r in config.source_roots]
                     + [f"{config.json_root}/catalog/", f"{config.example_root}/"])
    return lambda rel: rel in files or rel.startswith(prefixes)


class ResultPack:
    """The pack of one spec root: reuse the results whose key still matches, keep what this run used."""

    def __init__(self, spec: Spec, name: str = "examples") -> None:
        h = hashlib.sha256(CACHE_VERSION.encode())
        runs_on = _runs_on(spec.config)
        for rel, sha in sorted(spec.files.items()):
            if runs_on(rel):
                h.update(f"{rel}\0{sha}\n".encode())
        h.update(_code_digest().encode())
        self.tree_key = h.hexdigest()
        root_key = hashlib.sha256(str(Path(spec.root).resolve()).encode()).hexdigest()
        self.path = cache_dir(name) / f"{root_key}.pack"
        self._pack: dict[str, object] = read_pickle(self.path, dict) or {}
        self._used: dict[str, object] = {}

    def get(self, text: str, compute: Callable[[], T]) -> T:
        """The result stored for ``text`` under this tree, else ``compute()`` (kept for the next run)."""
        key = hashlib.sha256((self.tree_key + "\0" + text).encode()).hexdigest()
        value = self._pack.get(key)
        if not (isinstance(value, tuple) and len(value) == 2):
            value = compute()
        self._used[key] = value
        return value  # type: ignore[return-value]

    def save(self) -> None:
        """Write the entries this run used (when they differ from the pack read), pruning other roots' packs."""
        if self._used.keys() == self._pack.keys():
            return
        if write_pickle(self.path, self._used):
            prune(self.path.parent, "*.pack", KEEP_PACKS)
