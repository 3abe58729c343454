"""The dependency-tracked layer: every derived result keyed by exactly what it read.

A derived result (a worked example, an AVS test's verdict and coverage, a page) is computed by a
function that *records* what it reads while it runs: files through the confined reader (their
SHA-256), the ASL definitions it executed or asked about (the interpreter's trail,
:mod:`specgen.asl.trail`), the configuration keys it used, and other derived results. Each read is
an *input key* with a digest:

==================  ===========================================================================
``file:REL``        the file's SHA-256 as the loader read it ("" when absent)
``part:REL#WHAT``   one part of a file (an instruction's record), for results that read no more
``asl:NAME``        every declaration the interpreter resolves ``NAME`` to (tree, then generated)
``def:NAME``        only whether ``NAME`` is declared, and as what
``config:KEY``      one configuration value (``specification.toml``, a plugin or command option)
``value:FAM/KEY``   another derived result's *value digest* (early cutoff, see below)
==================  ===========================================================================

The code that computes a family of results (and the specgen version) is the family's *version*:
a store made by other code is never read.

A :class:`Store` keeps one family's entries for one spec root, each with its value, the digest of
that value, the keys it read and a *stamp* (a digest of those keys' digests when it was computed).
An entry is reused while its reads' digests are unchanged. Two ways to know that:

* cold (a new process): the stamp is recomputed from the current digests (one dictionary lookup
  per read: ~0.3 s for every AVS test of the corpus);
* warm (``specgen serve`` after an edit): :meth:`Store.advance` compares the previous and the new
  revision's digests over every key any entry read and keeps each entry that read none of the
  changed ones, without looking at its reads one by one.

*Early cutoff*: a result recomputed to the same value keeps its value digest, so a result that read
it (``value:…``) stays valid. A worked example whose ASL changed but whose output did not leaves
its page alone. A clean build and any sequence of incremental builds give the same bytes
(``tests/test_incremental_property.py``).

Stores live in ``$SPECGEN_CACHE_DIR/derived`` (never inside the spec root), one pack per
(family, root): a magic line, the family's version, the SHA-256 of the payload, then the entries
encoded by :mod:`specgen.cache.codec` (data only: each family's value classes are registered there
by their modules), written atomically. A pack another process wrote meanwhile is merged on save (its
entries are kept unless this process recomputed them). ``SPECGEN_NO_CACHE=1`` keeps stores in
memory only.
"""

from __future__ import annotations

import hashlib
import itertools
import pickle
import sys
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..workspace import current
from . import atomic_write, cache_dir, cache_enabled, codec, prune

MAGIC = b"specgen-derived 2 " + codec.FORMAT + b"\n"
KEEP = 96  # packs beyond this many (other roots, old code) are pruned, oldest first
_REVISIONS = itertools.count(1)
_PACKAGE = Path(__file__).resolve().parent.parent


def code_digest(*parts: str) -> str:
    """The version of a family: specgen's version and the source of the named modules and packages.

    ``parts`` are paths under ``specgen/`` (``"asl"``, ``"examples/worked.py"``); a package counts
    every ``.py`` file under it, a directory of templates every file.
    """
    from .. import __version__

    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:2]}\0".encode())
    for part in parts:
        p = _PACKAGE / part
        files = [p] if p.is_file() else sorted(x for x in p.rglob("*") if x.is_file() and "__pycache__" not in x.parts)
        for f in files:
            h.update(str(f.relative_to(_PACKAGE)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:32]


class Inputs:
    """The digests of one revision of the inputs, by key kind; each looked up once.

    ``resolvers`` map a key's kind (``file``, ``asl``, ``config``…) to the function giving the
    current digest of the rest of the key. ``value:`` keys are answered by the stores registered
    with :meth:`watch` (the value digest of their current entry).
    """

    def __init__(self, resolvers: Mapping[str, Callable[[str], str]]) -> None:
        self.revision = next(_REVISIONS)
        self._resolvers = dict(resolvers)
        self._digests: dict[str, str] = {}
        self._stores: dict[str, Store] = {}
        self.basis: tuple[object, ...] = ()  # the tables some answers are a function of (see :meth:`carry`)
        # from which inputs (weak: a revision does not keep the one before it alive), which keys
        self.carried: tuple[Callable[[], "Inputs | None"], frozenset[str]] = (lambda: None, frozenset())

    def carry(self, old: "Inputs", keep: Callable[[str, str], bool]) -> int:
        """Take ``old``'s answers that ``keep(key, digest)`` says are answered the same here (early cutoff: a
        revision whose ASL declarations are the very tables of the last one answers every ``asl:`` key of the
        tree as it did); how many were taken. The caller vouches for ``keep`` through :attr:`basis`."""
        taken = {k: d for k, d in old._digests.items() if keep(k, d)}
        self._digests.update(taken)
        self.carried = (weakref.ref(old), frozenset(taken))
        return len(taken)

    def digest(self, key: str) -> str:
        hit = self._digests.get(key)
        if hit is None:
            kind, _, rest = key.partition(":")
            if kind == "value":
                family, _, name = rest.partition("/")
                store = self._stores.get(family)
                entry = store.entries.get(name) if store is not None else None
                return entry.value_digest if entry is not None else ""
            resolve = self._resolvers.get(kind)
            hit = self._digests[key] = resolve(rest) if resolve is not None else "?"
        return hit

    def watch(self, store: "Store") -> None:
        """Answer ``value:<family>/…`` keys from ``store``."""
        self._stores[store.family] = store


@dataclass(slots=True)
class StoredResult:
    """One derived result and what it was computed from."""

    value: Any
    value_digest: str
    reads: frozenset[str]  # input keys (file, part, asl, config)
    stamp: str  # digest of the reads' digests when it was computed
    values: tuple[tuple[str, str], ...] = ()  # (value:… key, its digest then): derived results it read
    _verified: int = field(default=0, compare=False, repr=False)  # the revision it is known valid under


def stamp_of(reads: Iterable[str], inputs: Inputs) -> str:
    """One digest of what the ``reads`` are in ``inputs`` (sorted: independent of the order they were read)."""
    digest = inputs.digest
    text = "\n".join(f"{k}\0{digest(k)}" for k in sorted(reads))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def value_digest(value: Any) -> str:
    """The digest dependents compare (early cutoff): the encoded value, the same bytes in every process
    (sets sorted); a value of a class the codec does not know is digested as its pickle, never read back."""
    try:
        data = codec.encode(value)
    except TypeError:
        data = pickle.dumps(value, protocol=4)
    return hashlib.blake2b(data, digest_size=16).hexdigest()


codec.register(StoredResult)


def _encodable(entry: StoredResult) -> bool:
    try:
        codec.encode(entry)
    except TypeError:
        return False
    return True


class Reads:
    """What one computation read, collected while it runs (:meth:`Store.compute` hands one in)."""

    __slots__ = ("keys", "values")

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.values: dict[str, str] = {}

    def add(self, key: str) -> None:
        self.keys.add(sys.intern(key))

    def update(self, keys: Iterable[str]) -> None:
        for k in keys:
            self.keys.add(sys.intern(k))

    def file(self, rel: str) -> None:
        self.add("file:" + rel)

    def asl(self, names: Iterable[str]) -> None:
        self.update("asl:" + n for n in names)

    def config(self, key: str) -> None:
        self.add("config:" + key)

    def value(self, family: str, key: str, digest: str) -> None:
        self.values[f"value:{family}/{key}"] = digest


class Store:
    """One family of derived results of one spec root; see the module docstring."""

    def __init__(self, family: str, root: Path | str, version: str, *, persist: bool = True) -> None:
        self.family = family
        self.version = version
        self.entries: dict[str, StoredResult] = {}
        self._mine: set[str] = set()  # keys this process computed or dropped: they win over the disk's
        self._dropped: set[str] = set()
        self._inputs: Inputs | None = None  # the revision the entries were last advanced to
        self._keys: set[str] | None = None  # every key an entry read (kept up to date by put, rebuilt after drop)
        self.computed = 0  # results recomputed since the last reset_counts()
        self.reused = 0
        rootkey = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:20]
        folder = cache_dir("derived") if persist and cache_enabled() else None
        self.path: Path | None = folder / f"{family}-{rootkey}.pack" if folder is not None else None
        if self.path is not None:
            self.entries = self._read()

    # -- validity ------------------------------------------------------------------------
    def valid(self, key: str, inputs: Inputs) -> StoredResult | None:
        """The stored entry for ``key`` when nothing it read has changed in ``inputs``, else None."""
        e = self.entries.get(key)
        if e is None:
            return None
        if e._verified != inputs.revision:
            if stamp_of(e.reads, inputs) != e.stamp:
                return None
            e._verified = inputs.revision
        for k, d in e.values:
            if inputs.digest(k) != d:
                return None
        return e

    def advance(self, inputs: Inputs) -> int:
        """Move every entry valid under the previous revision to ``inputs`` unless it read a changed key.

        For a long-lived process: one comparison per key any entry read, instead of a stamp per
        entry. Returns how many entries read a changed key (they are verified again on use).
        """
        old, self._inputs = self._inputs, inputs
        if old is None:
            return 0
        if self._keys is None:
            self._keys = set().union(*(e.reads for e in self.entries.values())) if self.entries else set()
        source, carried = inputs.carried
        keys = self._keys - carried if carried and source() is old else self._keys  # a carried answer is the same
        changed = {k for k in keys if old.digest(k) != inputs.digest(k)}
        stale = 0
        for e in self.entries.values():
            if e._verified == old.revision:
                if e.reads.isdisjoint(changed):
                    e._verified = inputs.revision
                else:
                    stale += 1
        return stale

    # -- computing -----------------------------------------------------------------------
    def get(self, key: str, inputs: Inputs, compute: Callable[[Reads], Any]) -> Any:
        """The value for ``key``: reused while valid, else ``compute(reads)`` recorded with what it read."""
        e = self.valid(key, inputs)
        if e is not None:
            self.reused += 1
            return e.value
        reads = Reads()
        value = compute(reads)
        self.put(key, value, reads, inputs)
        return value

    def put(self, key: str, value: Any, reads: Reads, inputs: Inputs) -> StoredResult:
        """Record ``value`` as computed from ``reads`` in ``inputs`` (the value digest kept when equal)."""
        digest = value_digest(value)
        keys = frozenset(reads.keys)
        e = StoredResult(value, digest, keys, stamp_of(keys, inputs), tuple(sorted(reads.values.items())),
                  inputs.revision)
        self.entries[key] = e
        if self._keys is not None:
            self._keys |= keys
        self._mine.add(key)
        self._dropped.discard(key)
        self.computed += 1
        return e

    def adopt(self, key: str, entry: StoredResult) -> None:
        """Keep an entry another process computed (a server's background run); verified by its stamp on use."""
        entry._verified = 0
        self.entries[key] = entry
        if self._keys is not None:
            self._keys |= entry.reads
        self._mine.add(key)
        self._dropped.discard(key)
        self.computed += 1

    def drop(self, keep: Callable[[str], bool]) -> None:
        """Forget the entries whose key ``keep`` refuses (tests and pages the tree no longer has)."""
        for k in [k for k in self.entries if not keep(k)]:
            del self.entries[k]
            self._dropped.add(k)
            self._mine.discard(k)
            self._keys = None

    def reset_counts(self) -> None:
        self.computed = self.reused = 0

    # -- the pack --------------------------------------------------------------------------
    def _head(self) -> bytes:
        return MAGIC + self.family.encode() + b" " + self.version.encode() + b"\n"

    def _read(self) -> dict[str, StoredResult]:
        assert self.path is not None
        try:
            blob = self.path.read_bytes()
        except OSError:
            return {}
        head = self._head()
        if not blob.startswith(head):
            return {}
        digest, _, payload = blob[len(head):].partition(b"\n")
        if hashlib.sha256(payload).hexdigest().encode() != digest:
            return {}
        try:
            table = codec.decode(payload)
        except ValueError:  # a damaged or foreign pack is a miss: every entry is recomputed
            return {}
        if not isinstance(table, dict):
            return {}
        out = {k: e for k, e in table.items() if isinstance(k, str) and isinstance(e, StoredResult)}
        for e in out.values():
            e._verified = 0  # revisions are this process's: an entry read from disk is verified by its stamp
        return out

    def save(self) -> bool:
        """Write the entries (merged with what another process saved meanwhile); False when not written."""
        if self.path is None or not (self._mine or self._dropped):
            return False
        merged = {k: e for k, e in self._read().items() if k not in self._mine and k not in self._dropped}
        merged.update({k: self.entries[k] for k in self._mine if k in self.entries})
        for k, e in merged.items():
            if k not in self.entries:
                self.entries[k] = e
                self._keys = None
        try:
            payload = codec.encode(merged)
        except TypeError:  # a value of a class nobody registered stays in memory only
            payload = codec.encode({k: e for k, e in merged.items() if _encodable(e)})
        if not atomic_write(self.path, self._head() + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload):
            return False
        self._mine.clear()
        self._dropped.clear()
        prune(self.path.parent, "*.pack", KEEP)
        return True




class Layer:
    """Every store of one spec root, moved to each new revision together (one per root and process)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self.stores: dict[str, Store] = {}
        self.inputs: Inputs | None = None

    def store(self, family: str, version: str, *, persist: bool = True) -> Store:
        """The family's store (read from disk the first time; a new version starts empty)."""
        s = self.stores.get(family)
        if s is None or s.version != version:
            s = self.stores[family] = Store(family, self.root, version, persist=persist)
            s._inputs = None
        if self.inputs is not None:
            if s._inputs is not self.inputs:
                s.advance(self.inputs)
            self.inputs.watch(s)
        return s

    def begin(self, inputs: Inputs) -> None:
        """A new revision: every store advances to it (entries that read a changed input are re-verified)."""
        self.inputs = inputs
        for s in list(self.stores.values()):  # advancing may open a store (the generated ASL's table)
            s.advance(inputs)
            inputs.watch(s)

    def save(self) -> None:
        for s in self.stores.values():
            s.save()


def layer_for(root: Path | str) -> Layer:
    """The layer of ``root`` in the current workspace: the one result store every command, the plugin and a
    server read and write (a server's workspace keeps it across rebuilds)."""
    key = Path(root).resolve()
    layers: dict[Path, Layer] = current().table("cache.layers")
    layer = layers.get(key)
    if layer is None:
        layer = layers[key] = Layer(key)
    return layer

__all__ = ["StoredResult", "Inputs", "Layer", "Reads", "Store", "code_digest", "layer_for", "stamp_of", "value_digest"]
