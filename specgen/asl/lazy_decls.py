"""Declarations by name, each module made the first time one of its names is asked for.

A program run resolves a few hundred of the generated ASL's names, and on 0.58.3 none of them is in its
largest module (``scalar-forms``: 900 KB, 0.4 s to parse, 0.07 s to decode from the module cache). The
generator's header lines say what each module declares (:mod:`specgen.asl.headers`), so the interpreter can
resolve names against the whole generated set while only the modules it reaches are parsed.

The table answers exactly as a dict filled from every module in order would: a name's declarations are
those of each module that declares it, in module order, and a module that turns out not to parse
(``load`` gives None) declares nothing. A name the header lines list is looked up by loading the modules
that list it; a name none lists is absent without loading anything.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import Callable, Sequence

from .ast import Decl, Module, TypeDecl

# load(indices) -> the module of each index, None for one that does not parse (said where it failed)
Load = Callable[[list[int]], list["Module | None"]]


def declare_into(names: dict[str, list[Decl]], module: Module) -> dict[str, list[Decl]]:
    """File ``module``'s declarations by name into ``names``; an enumeration also under each member (how
    names resolve)."""
    for d in module.decls:
        names.setdefault(d.name, []).append(d)
        if isinstance(d, TypeDecl) and d.form == "enum":
            for m in d.payload:  # type: ignore[union-attr]
                names.setdefault(m, []).append(d)
    return names


def declared(module: Module) -> dict[str, list[Decl]]:
    """``module``'s declarations by name (:func:`declare_into`)."""
    return declare_into({}, module)


def by_name(generated: "Iterable[Module] | Mapping[str, list[Decl]]") -> Mapping[str, list[Decl]]:
    """Declarations by name: a table already (a :class:`LazyDecls`) as it is, else the modules filed in
    order into a dict (what the interpreter and its trail both resolve generated names through)."""
    if isinstance(generated, Mapping):
        return generated
    names: dict[str, list[Decl]] = {}
    for m in generated:
        declare_into(names, m)
    return names


class LazyDecls(Mapping[str, list[Decl]]):
    """Name -> declarations over modules loaded on demand; ``names[i]`` is what module ``i`` declares."""

    def __init__(self, names: Sequence[Sequence[str]], load: Load) -> None:
        self._load = load
        self._where: dict[str, list[int]] = {}
        for i, declares in enumerate(names):
            for name in dict.fromkeys(declares):
                self._where.setdefault(name, []).append(i)
        self._count = len(names)
        self._declared: dict[int, dict[str, list[Decl]]] = {}  # module index -> its names, once loaded
        self._modules: dict[int, Module] = {}
        self._by_name: dict[str, list[Decl]] = {}
        self._lock = threading.Lock()  # a server's threads may resolve names at once

    def rebind(self, load: Load) -> None:
        """Load what is still missing through ``load`` from now on (a newer spec of the same generation: the
        table must not hold an old one alive)."""
        self._load = load

    def _ensure(self, wanted: Sequence[int]) -> None:
        missing = [i for i in wanted if i not in self._declared]
        if not missing:
            return
        with self._lock:
            missing = [i for i in missing if i not in self._declared]
            if not missing:
                return
            for i, mod in zip(missing, self._load(missing)):
                if mod is not None:
                    self._modules[i] = mod
                self._declared[i] = declared(mod) if mod is not None else {}

    def load_all(self) -> list[Module]:
        """Every module that parses, in order (what a forked test worker shares copy-on-write)."""
        self._ensure(range(self._count))
        return [self._modules[i] for i in range(self._count) if i in self._modules]

    def loaded(self) -> list[int]:
        """The indices of the modules loaded so far (whether each parsed or not)."""
        return sorted(self._declared)

    def get(self, name: str, default: list[Decl] | None = None) -> list[Decl] | None:  # type: ignore[override]
        hit = self._by_name.get(name)
        if hit is not None:
            return hit
        where = self._where.get(name)
        if where is None:
            return default
        self._ensure(where)
        decls = [d for i in where for d in self._declared[i].get(name, ())]
        if not decls:
            return default
        self._by_name[name] = decls
        return decls

    def __getitem__(self, name: str) -> list[Decl]:
        decls = self.get(name)
        if decls is None:
            raise KeyError(name)
        return decls

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        self.load_all()
        return iter([name for name in self._where if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)


__all__ = ["LazyDecls", "by_name", "declare_into", "declared"]
