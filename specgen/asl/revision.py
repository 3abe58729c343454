"""One revision of a loaded spec as the dependency-tracked layer reads it (:mod:`specgen.cache.layer`).

:class:`Revision` answers the digest of every input key a derived result can read:

* ``file:REL``: the SHA-256 the loader recorded for the file ("" when the tree has none);
* ``asl:NAME``: what the interpreter resolves the name to, the tree's declarations first
  (:meth:`~specgen.asl.index.SpecIndex.name_digest`), else the ASL specgen generates from the
  catalogs (:class:`Generated`, itself a derived result that reads the catalogs);
* ``def:NAME``: only whether the name is declared, and as what (``has_function``: the fast path asks
  whether ``ExecuteTileBinary`` exists before it stands in for it, not what it says);
* ``config:KEY``: a ``[specgen]`` value of ``specification.toml`` or an option the caller passes
  (a command's ``--max-steps``, the profile);
* ``part:PATH#WHAT``: one part of a file or a fact read from many, by the resolvers in :data:`PARTS`
  (an instruction's record lines; the Validate* names the tests call; the vocabulary; everything the
  generated ASL is made from, ``part:#generation``).

One revision per loaded graph (:data:`REVISION`); creating it moves the root's layer to it, so a
server's stores keep every entry whose reads did not change.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..cache.layer import Inputs, Layer, Reads, code_digest, layer_for
from ..catalog_asl.sources import validation_calls, vocabulary_digest
from ..graph import Derived, SpecGraph
from ..loader.tree import Spec
from .ast import FuncDecl, Module, TypeDecl, decl_digest
from .catalog_modules import generated_modules
from .index import SpecIndex, build_index
from ..cache import codec
from ..workspace import current

# part resolvers by the text after "#": (graph, path before "#") -> digest; packages add their own
PARTS: dict[str, Callable[[SpecGraph, str], str]] = {}


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def record_part(graph: SpecGraph, path: str) -> str:
    """A unit's record lines (``// PTO-…:``): what a result that reads the record, not the ASL, depends on."""
    unit = graph.units_by_path.get(path)
    if unit is None:
        return ""
    if not unit.sha256:
        return _record_lines(unit.text)
    return _record_part(path, unit.sha256, unit.text)


def _record_lines(text: str) -> str:
    return _digest("\n".join(line for line in text.splitlines() if line.startswith("// PTO-")))


def _record_part(path: str, sha256: str, text: str) -> str:
    """(path, file SHA-256) -> its record part, kept in the workspace (a server's rebuilds)."""
    table: dict = current().table("asl.revision.records")
    hit = table.get((path, sha256))
    if hit is None:
        if len(table) > 50_000:
            table.clear()
        hit = table[(path, sha256)] = _record_lines(text)
    return hit


def _calls_part(graph: SpecGraph, _path: str) -> str:
    return _digest("\n".join(sorted(validation_calls(graph.spec))))


def _vocabulary_part(graph: SpecGraph, _path: str) -> str:
    return vocabulary_digest(graph)


def _generation_part(graph: SpecGraph, _path: str) -> str:
    """Everything the generated ASL is made from (:func:`generation_reads`) as one digest: what a run read
    when it asked why a name is not derivable (the answer quotes the catalogs' rows)."""
    reads = Reads()
    generation_reads(graph.spec, reads)
    files = graph.spec.files
    return _digest("\n".join(f"{k}\0{files.get(k[5:]) or ''}" if k.startswith("file:") else
                             f"{k}\0{PARTS[k.partition('#')[2]](graph, '')}" for k in sorted(reads.keys)))


PARTS.update({"record": record_part, "validation-calls": _calls_part, "vocabulary": _vocabulary_part,
              "generation": _generation_part})


@dataclass(frozen=True)
class Generated:
    """What the generated ASL declares: each name's digest, and the non-function names it refers to."""

    digests: dict[str, str]
    refs: dict[str, frozenset[str]]
    data: frozenset[str]  # names that are not functions (bound when a body compiles)


def generated_table(modules: list[Module]) -> Generated:
    """The table of ``modules`` (specgen's generated ASL)."""
    by_name: dict[str, list[Any]] = {}
    for m in modules:
        for d in m.decls:
            by_name.setdefault(d.name, []).append(d)
            if isinstance(d, TypeDecl) and d.form == "enum":
                for member in d.payload:  # type: ignore[union-attr]
                    by_name.setdefault(member, []).append(d)
    digests = {n: "|".join(sorted(decl_digest(d) for d in ds)) for n, ds in by_name.items()}
    refs = {n: frozenset().union(*(d.refs for d in ds)) for n, ds in by_name.items()}
    data = frozenset(n for n, ds in by_name.items() if any(not isinstance(d, FuncDecl) for d in ds))
    return Generated(digests, refs, data)


def generation_reads(spec: Spec, reads: Reads) -> None:
    """What the generated ASL is made from: the catalogs, the tests' Validate* calls, the vocabulary."""
    reads.update(current().per(spec, "asl.revision.generation_reads", lambda: _generation_keys(spec)))


def _generation_keys(spec: Spec) -> tuple[str, ...]:
    """The keys once per loaded spec: every example and worked example records them, and scanning the
    5,193 files of 0.58.3 for each of 930 examples was a tenth of a cold check."""
    prefix = f"{spec.config.json_root}/catalog/"
    return (*(f"file:{rel}" for rel in spec.files if rel.startswith(prefix)),
            "file:specification.toml", "part:#validation-calls", "part:#vocabulary")


GENERATED_VERSION = code_digest("asl", "catalog_asl", "vocabulary.py", "encoding")


class Revision:
    """The digests of one graph's inputs (see the module docstring)."""

    def __init__(self, graph: SpecGraph, options: Mapping[str, str] | None = None) -> None:
        self.graph = graph
        self.spec = graph.spec
        self.index: SpecIndex = build_index(graph.spec)
        self.options = dict(options or {})
        self.layer: Layer = layer_for(graph.spec.root)
        self._generated: Generated | None = None
        previous = self.layer.inputs
        self.inputs = Inputs({"file": self._file, "asl": self._asl, "def": self._declared, "config": self._config,
                              "part": self._part})
        # a tree name's answer is a function of the index's declarations and digests alone; when this load's
        # index kept the last one's tables (an edit of prose or comments: specgen.asl.index), the answers carry
        # over and moving the stores to this revision compares nothing it need not
        self.inputs.basis = (self.index.defs, self.index.digests)
        if previous is not None and len(previous.basis) == 2 and all(
                a is b for a, b in zip(previous.basis, self.inputs.basis)):
            self.inputs.carry(previous, _tree_answer)
        self.layer.begin(self.inputs)

    def _file(self, rel: str) -> str:
        return self.spec.files.get(rel) or ""

    def _config(self, key: str) -> str:
        if key in self.options:
            return self.options[key]
        return repr(getattr(self.spec.config, key, None))

    def _part(self, what: str) -> str:
        path, _, kind = what.partition("#")
        resolve = PARTS.get(kind)
        return resolve(self.graph, path) if resolve is not None else "?"

    def _asl(self, name: str) -> str:
        tree = self.index.name_digest(name)
        if tree:
            return "tree:" + tree
        gen = self.generated().digests.get(name)
        return "gen:" + gen if gen else ""

    def _declared(self, name: str) -> str:
        """Whether ``name`` is declared, and as what (``def:NAME``: a run asked only that)."""
        tree = sorted({kind for kind, _fi, _di in self.index.defs.get(name, ())})
        if tree:
            return "tree:" + ",".join(tree)
        return "gen" if name in self.generated().digests else ""

    def declared_in(self, rel: str) -> frozenset[str]:
        """The input keys of the definitions file ``rel`` holds: the tree's names it declares, and for a file
        the generated ASL is made from (a catalog, ``specification.toml``), every generated name."""
        fi = {path: i for i, path in enumerate(self.index.files)}.get(rel)
        out = {"asl:" + name for name, locs in self.index.defs.items() if any(f == fi for _k, f, _d in locs)} \
            if fi is not None else set()
        reads = Reads()
        generation_reads(self.spec, reads)
        if "file:" + rel in reads.keys:
            out.add("part:#generation")
            out.update("asl:" + name for name in self.generated().digests)
        return frozenset(out)

    def generated(self) -> Generated:
        """The generated ASL's table: reused while the catalogs, the tests' calls and the vocabulary are unchanged."""
        if self._generated is None:
            store = self.layer.store("generated", GENERATED_VERSION)

            def compute(reads: Reads) -> Generated:
                generation_reads(self.spec, reads)
                return generated_table(generated_modules(self.spec))

            self._generated = store.get("table", self.inputs, compute)
            store.save()
        return self._generated


def _tree_answer(key: str, digest: str) -> bool:
    """Whether ``key``'s answer came from the tree's declarations alone (not the generated ASL)."""
    return key.startswith(("asl:", "def:")) and digest.startswith("tree:")


def _revision(graph: SpecGraph) -> Revision:
    return Revision(graph)


REVISION = Derived(_revision)


def asl_keys(names: frozenset[str] | set[str]) -> list[str]:
    """Input keys of a trail: ``asl:`` for a definition, as-is for what was noted with a kind (``file:…``)."""
    return [n if ":" in n else "asl:" + n for n in names]


__all__ = ["PARTS", "REVISION", "Generated", "Revision", "asl_keys", "generated_table", "generation_reads",
           "record_part"]


# what the dependency-tracked layer may hold of this module (specgen.cache.codec)
codec.register(Generated)
