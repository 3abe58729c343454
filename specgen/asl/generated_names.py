"""Names that belong to the ASL the upstream build generates.

The upstream build splices generated decoder and validation shards into the
model (e.g. ``DecodeTileOperation``, the ``TileOperation`` enumeration and
its ``TileOperation_TMUL`` members); the spec tree itself does not contain
them. A name the tree's own ASL uses but never defines can only come from
there, so the interpreter treats such names specially:

* ``CamelCase_Suffix`` value names (``TileOperation_TMUL``,
  ``TileHandler_ExecuteTileBinary``) are members of generated
  enumerations. Enumeration members only ever take part in equality tests
  and case selection, so the interpreter gives each its own name as value;
  this is exact for everything except ordinals, which nothing generated
  exposes without a generated function.
* every other such name that specgen's generators (``synth.py``, ``gen_*.py``)
  do not define either raises :class:`~specgen.asl.errors.MissingFunction`
  when a run reaches it: the test fails with reason
  ``missing-function:<name>``, at the file and line of the use, with the ASL
  stack.
"""

from __future__ import annotations

import re

from .index import SpecIndex
from .stdlib import BUILTINS

_MEMBER = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*_[A-Za-z0-9_]+$")


def undefined_in_tree(index: SpecIndex) -> frozenset[str]:
    """Identifiers the tree's ASL refers to and nothing in the tree defines."""
    cached = getattr(index, "_undefined_cache", None)
    if cached is not None:
        return cached
    refs: set[str] = set()
    for r in index.refs.values():
        refs.update(r)
    out = frozenset(n for n in refs if n not in index.defs and n not in BUILTINS and n[:1].isupper())
    object.__setattr__(index, "_undefined_cache", out)
    return out


def looks_like_member(name: str) -> bool:
    """``Prefix_Suffix`` with a mixed-case prefix (not an ALL_CAPS constant)."""
    return bool(_MEMBER.match(name)) and not name.isupper()


class GeneratedNames:
    """The generated-name policy for one spec tree."""

    def __init__(self, index: SpecIndex | None) -> None:
        self.undefined = undefined_in_tree(index) if index is not None else frozenset()

    def is_generated(self, name: str) -> bool:
        """True for names the tree uses but lacks, and (in a tree that relies on
        generated code at all) for any name nothing defines: upstream tests call
        generated validation shards (``ValidateCanonicalDecoders``) directly."""
        return name in self.undefined or bool(self.undefined)

    def is_member(self, name: str) -> bool:
        return name in self.undefined and looks_like_member(name)

    def is_type(self, name: str) -> bool:
        return name in self.undefined and "_" not in name
