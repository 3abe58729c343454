"""Carry a compiled interpreter over to the next revision of the tree when only function bodies changed.

A server reloads the spec after every edit. Building a new interpreter compiles, on the next run,
every function that run reaches again (the whole command path of a worked example: seconds). When
the edit changed nothing but the bodies of functions (each name still one function of the same
arity, no type, constant or enumeration changed, nothing added or removed), the compiled
interpreter stays right for everything else: callers are bound to a function's slot, not to its
body, so it is enough to give each changed slot its new declaration and compile it on its next call.

What else could hold a changed body's effect is dropped too: every memoised reset (its recording may
have run the function), every constant's cached value, the hooks' originals, and any compiled
function whose compilation ran a changed one (a width computed by a call). A function a constant's
initialiser reaches makes the edit ineligible: constants are folded into compiled code. Anything
ineligible returns False and the caller builds a new interpreter, as before.
"""

from __future__ import annotations

from typing import Any

from .ast import FuncDecl
from .generated_names import GeneratedNames
from .index import SpecIndex
from .trail import Definitions


def changed_functions(old: SpecIndex, new: SpecIndex) -> set[str] | None:
    """The names whose only change is a function body (None: something else changed)."""
    if old.defs.keys() != new.defs.keys():
        return None
    out: set[str] = set()
    for name, locs in new.defs.items():
        if old.name_digest(name) == new.name_digest(name):
            continue
        before = old.defs[name]
        if len(locs) != 1 or len(before) != 1 or locs[0][0] != "func" or before[0][0] != "func":
            return None
        a, b = old.decl(before[0]), new.decl(locs[0])
        if not isinstance(a, FuncDecl) or not isinstance(b, FuncDecl) or len(a.params) != len(b.params):
            return None
        out.add(name)
    return out


def _under_data(defs: Definitions, names: set[str]) -> bool:
    """Whether a type's or constant's definition reaches one of ``names`` (its value is folded into code)."""
    index = defs.index
    assert index is not None
    for name, locs in index.defs.items():
        if any(kind != "func" for kind, _fi, _di in locs) and not names.isdisjoint(defs.data_refs(name)):
            return True
    return False


def carry_over(interp: Any, new: SpecIndex) -> bool:
    """Point ``interp`` at ``new`` and recompile what changed; False (nothing touched) when not possible."""
    old = interp.index
    if old is None or new is old:
        return new is old
    changed = changed_functions(old, new)
    if changed is None or interp._overlay or _under_data(interp.definitions, changed):
        return False
    interp.index = new
    interp.generated = GeneratedNames(new)
    interp._definitions = None
    interp._consts.clear()
    interp.globals.clear()
    for answers in interp.answering.values():  # a kept result may have run a changed body (pure_memo.py)
        answers.table.clear()
    touched = [fn for (name, arity), fn in interp._funcs.items()
               if name in changed or (fn.decl is not None and not fn.decl.params)  # memoised resets re-record
               or not changed.isdisjoint(getattr(fn, "compiled_notes", ()))]
    touched += [fn for (name, _arity), fn in interp._hook_originals.items() if name in changed]
    for fn in touched:
        if fn.decl is not None:
            found = [d for d in new.lookup(fn.name) if isinstance(d, FuncDecl) and len(d.params) == len(fn.decl.params)]
            if len(found) == 1:
                fn.decl = found[0]
            fn.impl = None
            fn.other = None
            fn.compiled_notes = ()
            interp.compiled.pop(id(fn), None)
    return True


__all__ = ["carry_over", "changed_functions"]
