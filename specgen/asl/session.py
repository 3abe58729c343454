"""An interpreter over a loaded spec: the one way specgen builds one.

The interpreter sees the spec's ASL units as the loader read them (through
the confined reader) and the ASL generated from the spec's catalogs; it never
reads the tree itself.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..catalog_asl.sources import SHARD_PREFIXES
from ..loader.tree import Spec
from .ast import Module
from .catalog_modules import generated_declarations
from .contract_check import absence_resolver
from .index import build_index
from .interp import Interpreter
from .lazy_decls import LazyDecls


def interpreter_for(spec: Spec, *, generated: Iterable[Module] | LazyDecls | None = None, programs_only: bool = False,
                    **kw: Any) -> Interpreter:
    """An interpreter over ``spec``'s units plus the ASL generated from its catalogs.

    ``generated`` replaces the generated modules (e.g. the tile-only set the legality
    sets need: the full shards cost seconds to unpickle); other keywords go to
    :class:`Interpreter`. ``programs_only``: the interpreter runs programs, never an AVS test, so the
    validation shards (every name in them starts with ``SHARD_PREFIXES``) are left out unless a unit of the
    spec names such a name.
    """
    index = build_index(spec)
    if generated is None:  # each module parsed when a name of it is first resolved (a run reaches few)
        generated = generated_declarations(spec, shards=not programs_only or _names_shards(index))
    kw.setdefault("max_steps", spec.config.max_steps)
    kw.setdefault("max_value_bits", spec.config.max_value_bits)
    kw.setdefault("max_memory", spec.config.max_memory_bytes)
    interp = Interpreter(index, generated=generated, **kw)
    interp.absence_reason = _noted(interp, absence_resolver(spec))  # a name the generated ASL needs, the tree lacks
    return interp


def _names_shards(index: Any) -> bool:
    """Whether any unit refers to a name only a validation shard declares (then a program may reach one)."""
    return any(name.startswith(SHARD_PREFIXES) for used in index.refs.values() for name in used)


def _noted(interp: Interpreter, why: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """``why`` that notes its inputs in the run's trail: the answer is read from the catalogs and the tests'
    calls (``part:#generation``, :mod:`specgen.asl.revision`), so a run that asked read them."""
    current = interp.trail.current

    def asked(name: str) -> str | None:
        current[0].add("part:#generation")
        return why(name)
    return asked


__all__ = ["interpreter_for"]
