"""An interpreter over a loaded spec: the one way specgen builds one.

The interpreter sees the spec's ASL units as the loader read them (through
the confined reader) and the ASL generated from the spec's catalogs; it never
reads the tree itself.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..loader.tree import Spec
from .ast import Module
from .catalog_modules import generated_modules
from .contract_check import absence_resolver
from .index import build_index
from .interp import Interpreter


def interpreter_for(spec: Spec, *, generated: Iterable[Module] | None = None, **kw: Any) -> Interpreter:
    """An interpreter over ``spec``'s units plus the ASL generated from its catalogs.

    ``generated`` replaces the generated modules (e.g. the tile-only set the legality
    sets need: the full shards cost seconds to unpickle); other keywords go to
    :class:`Interpreter`.
    """
    if generated is None:
        generated = generated_modules(spec)
    kw.setdefault("max_steps", spec.config.max_steps)
    kw.setdefault("max_value_bits", spec.config.max_value_bits)
    kw.setdefault("max_memory", spec.config.max_memory_bytes)
    interp = Interpreter(build_index(spec), generated=generated, **kw)
    interp.absence_reason = _noted(interp, absence_resolver(spec))  # a name the generated ASL needs, the tree lacks
    return interp


def _noted(interp: Interpreter, why: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """``why`` that notes its inputs in the run's trail: the answer is read from the catalogs and the tests'
    calls (``part:#generation``, :mod:`specgen.asl.revision`), so a run that asked read them."""
    current = interp.trail.current

    def asked(name: str) -> str | None:
        current[0].add("part:#generation")
        return why(name)
    return asked


__all__ = ["interpreter_for"]
