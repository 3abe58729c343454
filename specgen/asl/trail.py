"""What a run read of the spec's ASL: the definitions it executed or asked about, recorded while it runs.

A derived result (a test's verdict, a worked example) is reused while nothing it read has changed
(:mod:`specgen.cache`). Of the ASL, a run reads

* every function it executed: each compiled function notes its name in the current :class:`Trail`
  the first time it runs in a recording (one comparison per call otherwise); a Python hook notes the
  ASL function it stands in for (the fast path's ``ExecuteTileBinary`` is valid for that definition
  only); a replayed reset notes what its recording executed (:mod:`specgen.asl.memo`);
* every name Python asked the interpreter about (``call``, ``has_function``, ``enum_members``,
  ``get_global``) and every name that was undefined when a statement needed it;
* the non-function definitions (types, enumerations and their members, constants, configs, globals
  with their initialisers) those functions' bodies refer to, the run's own module's (a test's
  ``main`` is not in the tree's index: its references are read from the module the run loaded),
  and everything those refer to in turn, functions included: they are
  bound when a body compiles and a constant is initialised when first read, both once per
  interpreter, so whatever they ran belongs to every run that uses them, not just to the run that
  happened to come first (a worker's history must not change what a result records). What
  compiling a function ran is noted with the function. A function a body names but never called
  is not a read: an edit of it cannot change this run;
* a name a body refers to that nothing declares and the interpreter stands in for (a member or type of
  the ASL the upstream build generates, :mod:`specgen.asl.generated_names`): declaring it later is a
  change.

:class:`Definitions` turns a set of names into digests: a name's digest covers every declaration the
interpreter would resolve it to (the tree's, else specgen's generated ASL), with positions
(:func:`specgen.asl.ast.decl_digest`), so an overload added elsewhere or a definition moved by an
inserted line is a change, and an NDF comment edited in place is not.
"""

from __future__ import annotations

import itertools
from typing import Callable, Iterable, Mapping

from .ast import Decl, FuncDecl, Module, decl_digest
from .generated_names import looks_like_member, undefined_in_tree
from .index import SpecIndex
from .lazy_decls import by_name

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

    def __init__(self, index: SpecIndex | None, generated: Iterable[Module] | Mapping[str, list[Decl]] = ()) -> None:
        self.index = index
        self.generated: Mapping[str, list[Decl]] = by_name(generated)
        self._refs: dict[str, frozenset[str]] = {}
        self._digests: dict[str, str] = {}
        # names the tree uses and nothing declares: the interpreter binds the generated ones itself
        self._stood_in = undefined_in_tree(index) if index is not None else frozenset()

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
        """Whether ``name`` resolves to something other than a function (bound when a body compiles),
        or to nothing the interpreter stands in for (a generated enumeration's member or type)."""
        tree = self._tree(name)
        if tree:
            return any(kind != "func" for kind, _fi, _di in tree)
        gen = self.generated.get(name)
        if gen:
            return any(not isinstance(d, FuncDecl) for d in gen)
        return name in self._stood_in and (looks_like_member(name) or "_" not in name)

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

    def reads(self, noted: Iterable[str], overlay: Mapping[str, list[Decl]] | None = None) -> frozenset[str]:
        """The names a run read: those it noted and the data their definitions refer to.

        ``overlay``: the declarations of the module the run loaded over the tree (a test's), by name:
        the data its definitions that ran refer to are read too.
        """
        out = set(noted)
        if overlay:
            out |= self._overlay_refs(out, overlay)
        for name in list(out):
            out |= self.data_refs(name)
        return frozenset(out)

    def _overlay_refs(self, noted: set[str], overlay: Mapping[str, list[Decl]]) -> set[str]:
        """The tree's data the overlay's definitions that ran refer to, directly or through the overlay's own
        constants and types (re-initialised for each run, as the overlay is; a function that ran noted itself)."""
        out: set[str] = set()
        todo = [n for n in noted if n in overlay]
        seen = set(todo)
        while todo:
            for d in overlay[todo.pop()]:
                for r in d.refs:
                    if r in seen:
                        continue
                    if r in overlay:
                        if any(not isinstance(x, FuncDecl) for x in overlay[r]):
                            seen.add(r)
                            todo.append(r)
                    elif self._is_data(r):
                        seen.add(r)
                        out.add(r)
        return out


def noting(trail: Trail, name: str, hook: Callable) -> Callable:
    """``hook`` that notes ``name`` in the trail: a run through a hook read the definition it stands in for."""
    current = trail.current

    def noted(*args: object) -> object:
        current[0].add(name)
        return hook(*args)
    return noted


__all__ = ["Definitions", "Trail", "noting"]
