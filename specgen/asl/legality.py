"""Which data types a tile instruction's own ASL admits.

The prose of an instruction record lists data types; the executable
predicate ``InstructionContractDataTypeLegal_<MN>(data_type: TileDataType)``
is what the model enforces. This module runs that predicate for every
``TileDataType`` member and returns the admitted short names (``U64``,
``FP16``…, the member name without its ``TileDataType_`` prefix), so a
check can compare prose against ASL. One interpreter serves every mnemonic
of a tree (functions are compiled once).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from ..cache import atomic_write, cache_dir
from ..graph import Derived, SpecGraph

from .ast import FuncDecl
from .errors import ASLError

PREFIX = "InstructionContractDataTypeLegal_"
ENUM = "TileDataType"


@lru_cache(maxsize=4)
def _interpreter(root: str):
    from .interp import Interpreter
    from .synth import generated_modules

    return Interpreter.from_root(Path(root), generated=generated_modules(Path(root), tile_only=True))


def _predicate_mnemonics(interp) -> list[str]:
    index = interp.index
    if index is None:
        return []
    return sorted(n[len(PREFIX):] for n in index.defs if n.startswith(PREFIX))


def _admitted(interp, mnemonic: str, members: tuple[str, ...]) -> frozenset[str] | None:
    name = PREFIX + mnemonic
    decls = [d for d in interp.index.lookup(name) if isinstance(d, FuncDecl)]
    if not decls:
        return None
    params = decls[0].params
    if len(params) != 1 or params[0][1].kind != "t_named" or params[0][1].args[0] != ENUM:
        return None
    out = set()
    for m in members:
        interp.reset()
        if interp.call(name, m) is True:
            out.add(m[len(ENUM) + 1:] if m.startswith(ENUM + "_") else m)
    return frozenset(out)


def admitted_datatypes_all(root: Path) -> dict[str, frozenset[str]]:
    """Every mnemonic with a one-argument ``TileDataType`` predicate -> admitted short names.

    A predicate whose evaluation fails (an ASLError) is left out; use
    :func:`admitted_datatypes` to see the error for one mnemonic.
    """
    interp = _interpreter(str(Path(root).resolve()))
    members = interp.enum_members(ENUM)
    out: dict[str, frozenset[str]] = {}
    for mn in _predicate_mnemonics(interp):
        try:
            got = _admitted(interp, mn, members)
        except ASLError:
            continue
        if got is not None:
            out[mn] = got
    return out


def admitted_datatypes(root: Path, mnemonic: str) -> frozenset[str] | None:
    """Admitted short type names for ``mnemonic``; None when it has no such predicate.

    Raises :class:`ASLError` when the predicate exists but cannot be evaluated.
    """
    interp = _interpreter(str(Path(root).resolve()))
    return _admitted(interp, mnemonic, interp.enum_members(ENUM))


def _admitted_by_graph(graph: SpecGraph) -> dict[str, frozenset[str]]:
    """Admitted sets for every mnemonic, cached on disk by the hash of the whole ASL tree."""
    key = hashlib.sha256("".join(f"{u.path}\0{u.sha256}\n" for u in graph.spec.units).encode()).hexdigest()
    path = cache_dir("asl") / f"admitted-{key}.json"
    try:
        return {k: frozenset(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        pass
    result = admitted_datatypes_all(graph.spec.root)
    atomic_write(path, json.dumps({k: sorted(v) for k, v in sorted(result.items())}).encode())
    return result


ADMITTED = Derived(_admitted_by_graph)
