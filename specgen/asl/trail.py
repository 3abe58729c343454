"""What a run read of the spec's ASL: the definitions it executed or asked about, recorded while it runs.

A derived result (a test's verdict, a worked example) is reused while nothing it read has changed
(:mod:`specgen.cache`). Of the ASL, a run reads

* every function it executed: each compiled function notes its name in the current :class:`Trail`
  the first time it runs in a recording (one comparison per call otherwise); a Python hook notes the
  ASL function it stands in for (the fast path's ``ExecuteTileBinary`` is valid for that definition
  only); a replayed reset notes what its recording executed (:mod:`specgen.asl.memo`);
* every name Python asked the interpreter about (``call``, ``has_function``, ``enum_members``,
  ``get_global``) and every name that was undefined when a statement needed it;
* the non-function definitions (types, enumerations and their members, constants, globals) those
  functions' bodies refer to, and everything those refer to in turn, functions included: they are
  bound when a body compiles and a constant is initialised when first read, both once per
  interpreter, so whatever they ran belongs to every run that uses them, not just to the run that
  happened to come first (a worker's history must not change what a result records). What
  compiling a function ran is noted with the function. A function a body names but never called
  is not a read: an edit of it cannot change this run.

:class:`Definitions` turns a set of names into digests: a name's digest covers every declaration the
interpreter would resolve it to (the tree's, else specgen's generated ASL), with positions
(:func:`specgen.asl.ast.decl_digest`), so an overload added elsewhere or a definition moved by an
inserted line is a change, and an NDF comment edited in place is not.
"""

from __future__ import annotations

import itertools
from typing import Callable, Iterable

from .ast import Decl, FuncDecl, Module, TypeDecl, decl_digest
from .index import SpecIndex

_EPOCHS = itertools.count(1)


class Trail:
    """The names noted since the innermost :meth:`push`; compiled closures hold ``epoch`` and ``current``.

    Nested recordings (a memoised sub-result inside a worked example) each get the names noted while
    they were innermost, and the enclosing recording gets them too.
    """

    __slots__ = ("epoch", "current", "_stack")

    def __init__(self) -> None:
        self.epoch: list[int] = [0]  # functions note their name when their mark differs from this
        self.current: list[set[str]] = [set()]  # the innermost recording's names (a scratch set outside one)
        self._stack: list[tuple[int, set[str]]] = []

    def push(self) -> None:
        """Start a recording (inside the current one, if any)."""
        self._stack.append((self.epoch[0], self.current[0]))
        self.epoch[0] = next(_EPOCHS)
        self.current[0] = set()

    def pop(self) -> frozenset[str]:
        """End the innermost recording: its names (the enclosing one gets them too)."""
        names = self.current[0]
        epoch, outer = self._stack.pop()
        outer |= names
        self.epoch[0], self.current[0] = epoch, (outer if self._stack else set())
        return frozenset(names)

    @property
    def recording(self) -> bool:
        return bool(self._stack)

    def note(self, name: str) -> None:
        self.current[0].add(name)

    def note_all(self, names: Iterable[str]) -> None:
        self.current[0].update(names)


class Definitions:
    """Digests and references of the definitions an interpreter resolves names to (tree first, then generated)."""

    def __init__(self, index: SpecIndex | None, generated: Iterable[Module] | dict[str, list[Decl]] = ()) -> None:
        self.index = index
        if isinstance(generated, dict):
            self.generated = generated
        else:
            self.generated = {}
            for m in generated:
                for d in m.decls:
                    self.generated.setdefault(d.name, []).append(d)
                    if isinstance(d, TypeDecl) and d.form == "enum":
                        for member in d.payload:  # type: ignore[union-attr]
                            self.generated.setdefault(member, []).append(d)
        self._refs: dict[str, frozenset[str]] = {}
        self._digests: dict[str, str] = {}

    def _tree(self, name: str) -> list[tuple[str, int, int]]:
        return list(self.index.defs.get(name, ())) if self.index is not None else []

    def digest(self, name: str) -> str:
        """What ``name`` resolves to now ("" when nothing declares it)."""
        hit = self._digests.get(name)
        if hit is None:
            tree = self.index.name_digest(name) if self.index is not None else ""
            if tree:
                hit = "tree:" + tree
            else:
                gen = self.generated.get(name)
                hit = ("gen:" + "|".join(sorted(decl_digest(d) for d in gen))) if gen else ""
            self._digests[name] = hit
        return hit

    def _is_data(self, name: str) -> bool:
        """Whether ``name`` resolves to something other than a function (bound when a body compiles)."""
        tree = self._tree(name)
        if tree:
            return any(kind != "func" for kind, _fi, _di in tree)
        return any(not isinstance(d, FuncDecl) for d in self.generated.get(name, ()))

    def _direct_refs(self, name: str) -> Iterable[str]:
        tree = self._tree(name)
        if tree:
            assert self.index is not None
            for _kind, fi, di in tree:
                yield from self.index.refs.get((fi, di), ())
        else:
            for d in self.generated.get(name, ()):
                yield from d.refs

    def data_refs(self, name: str) -> frozenset[str]:
        """The non-function definitions ``name``'s declarations refer to, and all that those refer to."""
        hit = self._refs.get(name)
        if hit is not None:
            return hit
        out: set[str] = set()
        todo: list[str] = []
        for r in self._direct_refs(name):
            if r not in out and self._is_data(r):
                out.add(r)
                todo.append(r)
        while todo:  # from a type or constant on, every name counts: its initialiser runs once per process
            for r in self._direct_refs(todo.pop()):
                if r not in out and self._defined(r):
                    out.add(r)
                    todo.append(r)
        self._refs[name] = frozen = frozenset(out)
        return frozen

    def _defined(self, name: str) -> bool:
        return bool(self._tree(name)) or name in self.generated

    def reads(self, noted: Iterable[str]) -> frozenset[str]:
        """The names a run read: those it noted and the data their definitions refer to."""
        out = set(noted)
        for name in list(out):
            out |= self.data_refs(name)
        return frozenset(out)


def noting(trail: Trail, name: str, hook: Callable) -> Callable:
    """``hook`` that notes ``name`` in the trail: a run through a hook read the definition it stands in for."""
    current = trail.current

    def noted(*args: object) -> object:
        current[0].add(name)
        return hook(*args)
    return noted


__all__ = ["Definitions", "Trail", "noting"]
