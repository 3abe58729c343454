"""The l-value compiler: an assignment target becomes a setter ``set(frame, value)``.

A target is a variable followed by a path of steps (``.field``,
``[[index]]``, a final ``[slice]``). One handler per target node kind,
registered in :data:`LVALUE`, turns its node into a step; the setter is
built from the whole path at once (a lone ``[[i]]`` or ``.f``, the common
targets, get a setter of their own rather than the general path walk). Records and arrays are values: a
setter copies each container on the path unless CPython's reference count
proves the variable is its only holder (the count seen inside a setter is
3 for an exclusively held container: the store, the local, the call's
argument).
"""

from __future__ import annotations

from sys import getrefcount

from .ast import Node
from .budget import hold, touch
from .compile_base import Compiler, DispatchTable, Scope, Setter, Undefined
from .compile_expr import compile_slices
from .errors import ASLError
from .ops import slice_write, split_slices
from .values import Bits
from .widths import global_check, mismatch

LVALUE: DispatchTable = DispatchTable("assignment target")

_VAR, _DISCARD, _FIELD, _INDEX, _SLICE = "v", "d", "f", "i", "s"


@LVALUE.rule("l_var")
def l_var(c: Compiler, node: Node, ctx: Scope) -> tuple[str, object]:
    """``x = v``: the variable at the root of every target, a local or a global ``var``."""
    return (_VAR, node.args[0])


@LVALUE.rule("l_discard")
def l_discard(c: Compiler, node: Node, ctx: Scope) -> tuple[str, object]:
    """``- = v``: the value is evaluated and dropped."""
    return (_DISCARD, None)


@LVALUE.rule("l_field")
def l_field(c: Compiler, node: Node, ctx: Scope) -> tuple[str, object]:
    """``t.f = v``: replace one field of a record."""
    return (_FIELD, node.args[1])


@LVALUE.rule("l_index")
def l_index(c: Compiler, node: Node, ctx: Scope) -> tuple[str, object]:
    """``t[[i]] = v``: replace one array element, by integer or enumeration member."""
    return (_INDEX, c._expr(node.args[1], ctx))


@LVALUE.rule("l_slice")
def l_slice(c: Compiler, node: Node, ctx: Scope) -> tuple[str, object]:
    """``t[hi:lo] = v`` (and the other slice forms): replace bits; only as the last step."""
    return (_SLICE, compile_slices(c, node.args[1], ctx))


def _discard(fr, v) -> None:
    return None


def copied(container: list | dict) -> list | dict:
    """A copy of a shared array or record; a long array's copy costs steps (budget.py: 64 bits a reference)
    and its references are charged to the memory account before they are made."""
    n = len(container)
    if n > 1024:
        hold(n << 3, f"a copy of an array of {n:,} elements")
        touch(n << 6)
    return container.copy()


def compile_lvalue(c: Compiler, node: Node, ctx: Scope) -> Setter:
    """The setter storing a value into the target ``node``."""
    steps: list[tuple[str, object]] = []
    n = node
    while True:
        kind, x = LVALUE.lookup(n, ctx)(c, n, ctx)
        if kind == _VAR:
            name = x
            break
        if kind == _DISCARD:
            return _discard
        steps.append((kind, x))
        n = n.args[0]
    steps.reverse()
    is_local = name in ctx.locals
    if not is_local:
        g = c._global_decl(name)
        if g is None:
            raise Undefined(name)
        if g.kind != "var":
            raise ASLError(f"assignment to {g.kind} '{name}'", ctx.span(node), "type")
    if not steps:
        setter = _set_variable(c, name, is_local)
        held = ctx.widths.get(name) if is_local else global_check(c, name)
        if held is None:
            return setter
        if held.width is not None and is_local:  # a constant bits(N) local: tested inline
            n, what = held.width, held.what

            def set_local_width(fr, v):
                if type(v) is not Bits or v.n != n:
                    raise mismatch(what, n, v)
                fr[name] = v
            return set_local_width

        test = held.test

        def set_checked(fr, v):  # a declared bitvector width holds (widths.py)
            test(fr, v)
            setter(fr, v)
        return set_checked
    final_slice = steps[-1][1] if steps[-1][0] == _SLICE else None
    path = steps[:-1] if final_slice is not None else steps
    if any(kind == _SLICE for kind, _ in path):
        raise ASLError("assignment through a slice of a slice is not supported",
                       ctx.span(node), "unsupported")
    kinds = tuple(kind for kind, _ in path)
    keys = tuple(x for _, x in path)
    if final_slice is None and kinds == (_INDEX,):
        return _set_index(c, name, is_local, keys[0])
    if final_slice is None and kinds == (_FIELD,):
        return _set_field(c, name, is_local, keys[0])
    return _set_path(c, name, is_local, kinds, keys, final_slice)


def _set_variable(c: Compiler, name: str, is_local: bool) -> Setter:
    if is_local:
        def set_local(fr, v):
            fr[name] = v
        return set_local
    G = c.globals

    def set_global(fr, v):
        G[name] = v
    return set_global


def _set_index(c: Compiler, name: str, is_local: bool, idx) -> Setter:
    G = c.globals
    gv = c._global_value
    enum_pos = c._enum_pos

    def set_index(fr, v):
        store = fr if is_local else G
        if not is_local and name not in G:
            gv(name, None)
        arr = store[name]
        if getrefcount(arr) > 3:
            arr = copied(arr)
            store[name] = arr
        i = idx(fr)
        if type(i) is not int:
            i = enum_pos(i)
        if i < 0 or i >= len(arr):
            raise IndexError(f"array index {i} outside 0..{len(arr) - 1}")
        arr[i] = v
    return set_index


def _set_field(c: Compiler, name: str, is_local: bool, fkey: str) -> Setter:
    G = c.globals
    gv = c._global_value

    def set_field(fr, v):
        store = fr if is_local else G
        if not is_local and name not in G:
            gv(name, None)
        rec = store[name]
        if getrefcount(rec) > 3:
            rec = copied(rec)
            store[name] = rec
        if fkey not in rec:
            raise TypeError(f"record has no field '{fkey}'")
        rec[fkey] = v
    return set_field


def _set_path(c: Compiler, name: str, is_local: bool, kinds: tuple, keys: tuple, final_slice) -> Setter:
    G = c.globals
    gv = c._global_value
    enum_pos = c._enum_pos

    def set_path(fr, v):
        store = fr if is_local else G
        if not is_local and name not in G:
            gv(name, None)
        parent = store
        pkey = name
        for kind, key in zip(kinds, keys):
            cont = parent[pkey]
            if getrefcount(cont) > 3:
                cont = copied(cont)
                parent[pkey] = cont
            if kind == _FIELD:
                if key not in cont:
                    raise TypeError(f"record has no field '{key}'")
                pkey = key
            else:
                i = key(fr)
                if type(i) is not int:
                    i = enum_pos(i)
                if i < 0 or i >= len(cont):
                    raise IndexError(f"array index {i} outside 0..{len(cont) - 1}")
                pkey = i
            parent = cont
        if final_slice is not None:
            old = parent[pkey]
            for lo, width, vpart in split_slices(final_slice, fr, v):
                old = slice_write(old, lo, width, vpart)
            parent[pkey] = old
        else:
            parent[pkey] = v
    return set_path
