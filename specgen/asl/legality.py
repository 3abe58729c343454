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

from ..workspace import current
from .. import speccontract as contract
from ..cache import package_digest
from ..cache.layer import Reads
from ..graph import Derived, SpecGraph
from ..loader.tree import Spec
from .ast import FuncDecl
from .catalog_modules import generated_modules
from .errors import ASLError
from .interp import Interpreter
from .session import interpreter_for

PREFIX = contract.DATATYPE_LEGAL.of("")
ENUM = contract.DATATYPE_ENUM.name


# id(spec) -> (spec, interpreter); the spec is held so its id cannot be reused while cached
def _interpreters() -> dict[int, tuple[Spec, Interpreter]]:
    """The workspace's table (it dies with the workspace)."""
    return current().table("asl.legality._INTERPRETERS")


_KEEP = 2


def legality_interpreter(spec: Spec) -> Interpreter:
    """The interpreter that evaluates ``spec``'s predicates (its trail records what they read)."""
    return _interpreter(spec)


def _interpreter(spec: Spec) -> Interpreter:
    """One interpreter per loaded spec serves every mnemonic (functions compile once)."""
    hit = _interpreters().get(id(spec))
    if hit is not None and hit[0] is spec:
        return hit[1]
    interp = _carried(spec) or interpreter_for(spec, generated=generated_modules(spec, tile_only=True))
    while len(_interpreters()) >= _KEEP:
        _interpreters().pop(next(iter(_interpreters())))
    _interpreters()[id(spec)] = (spec, interp)
    return interp


def _carried(spec: Spec) -> Interpreter | None:
    """The interpreter of an earlier load of the same root when only function bodies changed (carry.py)."""
    from .carry import carry_over
    from .index import build_index
    from ..catalog_asl.sources import generation_key
    for key, (old, interp) in reversed(list(_interpreters().items())):
        if str(old.root) == str(spec.root) and generation_key(old, True) == generation_key(spec, True) \
                and carry_over(interp, build_index(spec)):
            del _interpreters()[key]
            return interp
    return None


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


VERSION = package_digest()  # a set computed by other code is never read (issue 24)


def _admitted_by_graph(graph: SpecGraph) -> dict[str, frozenset[str]]:
    """Admitted sets for every mnemonic, each a derived result of the layer (:mod:`specgen.cache.layer`):
    reused while the ASL definitions its evaluation read are unchanged, so an edit of one predicate
    re-evaluates that one."""
    from .revision import REVISION, asl_keys
    revision = REVISION(graph)
    store = revision.layer.store("admitted", VERSION)
    names = sorted(n[len(PREFIX):] for n in revision.index.defs if n.startswith(PREFIX))
    out: dict[str, frozenset[str]] = {}

    def compute(reads: Reads, mnemonic: str) -> tuple[str, frozenset[str] | None]:
        interp = _interpreter(graph.spec)
        interp.trail.push()
        try:
            return "ok", _admitted(interp, mnemonic, interp.enum_members(ENUM))
        except ASLError as exc:
            if exc.kind == "budget":
                raise
            return "error", None
        finally:
            reads.update(asl_keys(interp.definitions.reads(interp.trail.pop())))
            reads.update(("config:max_steps", "config:max_value_bits", "config:max_memory_bytes"))

    for mn in names:
        status, got = store.get(mn, revision.inputs, lambda reads, mn=mn: compute(reads, mn))
        if status == "ok" and got is not None:
            out[mn] = got
    store.drop(lambda k: k in set(names))
    store.save()
    return out


ADMITTED = Derived(_admitted_by_graph)
