"""Which data types a tile instruction's own ASL admits.

The prose of an instruction record lists data types; the executable
predicate ``InstructionContractDataTypeLegal_<MN>(data_type: TileDataType)``
is what the model enforces. This module runs that predicate for every
``TileDataType`` member and returns the admitted short names (``U64``,
``FP16``…, the member name without its ``TileDataType_`` prefix), so a
check can compare prose against ASL. One interpreter serves every mnemonic
of a loaded spec (functions are compiled once).
"""

from __future__ import annotations

import json

from ..cache import atomic_write, cache_dir
from ..graph import Derived, SpecGraph
from ..loader.tree import Spec
from .ast import FuncDecl
from .catalog_modules import generated_modules
from .errors import ASLError
from .interp import Interpreter
from .session import interpreter_for
from .runkey import run_key

PREFIX = "InstructionContractDataTypeLegal_"
ENUM = "TileDataType"


# id(spec) -> (spec, interpreter); the spec is held so its id cannot be reused while cached
_INTERPRETERS: dict[int, tuple[Spec, Interpreter]] = {}
_KEEP = 2


def _interpreter(spec: Spec) -> Interpreter:
    """One interpreter per loaded spec serves every mnemonic (functions compile once)."""
    hit = _INTERPRETERS.get(id(spec))
    if hit is not None and hit[0] is spec:
        return hit[1]
    interp = interpreter_for(spec, generated=generated_modules(spec, tile_only=True))
    while len(_INTERPRETERS) >= _KEEP:
        _INTERPRETERS.pop(next(iter(_INTERPRETERS)))
    _INTERPRETERS[id(spec)] = (spec, interp)
    return interp


def _predicate_mnemonics(interp: Interpreter) -> list[str]:
    index = interp.index
    if index is None:
        return []
    return sorted(n[len(PREFIX):] for n in index.defs if n.startswith(PREFIX))


def _admitted(interp: Interpreter, mnemonic: str, members: tuple[str, ...]) -> frozenset[str] | None:
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


def admitted_datatypes_all(spec: Spec) -> dict[str, frozenset[str]]:
    """Every mnemonic with a one-argument ``TileDataType`` predicate -> admitted short names.

    A predicate whose evaluation fails (an ASLError) is left out; use
    :func:`admitted_datatypes` to see the error for one mnemonic. A predicate
    that exceeds the step budget is raised instead: an endless loop in the
    spec's ASL must be reported, not mistaken for "no opinion".
    """
    interp = _interpreter(spec)
    members = interp.enum_members(ENUM)
    out: dict[str, frozenset[str]] = {}
    for mn in _predicate_mnemonics(interp):
        try:
            got = _admitted(interp, mn, members)
        except ASLError as exc:
            if exc.kind == "budget":
                raise
            continue
        if got is not None:
            out[mn] = got
    return out


def admitted_datatypes(spec: Spec, mnemonic: str) -> frozenset[str] | None:
    """Admitted short type names for ``mnemonic``; None when it has no such predicate.

    Raises :class:`ASLError` when the predicate exists but cannot be evaluated.
    """
    interp = _interpreter(spec)
    return _admitted(interp, mnemonic, interp.enum_members(ENUM))


def _admitted_by_graph(graph: SpecGraph) -> dict[str, frozenset[str]]:
    """Admitted sets for every mnemonic, cached on disk under the key of everything they depend on
    (the tree's ASL, catalogs and configuration, specgen's code: :func:`specgen.asl.runkey.run_key`)."""
    key = run_key(graph.spec, "legality")
    path = cache_dir("asl") / f"admitted-{key}.json"
    try:
        return {k: frozenset(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        pass
    result = admitted_datatypes_all(graph.spec)
    atomic_write(path, json.dumps({k: sorted(v) for k, v in sorted(result.items())}).encode())
    return result


ADMITTED = Derived(_admitted_by_graph)
