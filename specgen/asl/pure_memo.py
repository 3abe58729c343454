"""Calls of state-free ASL functions answered from an earlier call with the same arguments.

A profile of every tenth AVS test of pto-spec-0.58.3 found most calls going to small functions of
enumeration members and integers: ``TileElementBits(dtype)`` 880,000 times with 15 distinct
arguments, ``TileLayoutIsCube(layout)`` 874,000 times with 7, ``PTOPEMaskBitOfPEIdentity`` 393,000
times with 4. Their result depends only on their arguments, so the interpreter remembers it, per
interpreter and per function, the way a compiler of a pure language would.

Which calls may be answered is decided in two steps, never assumed:

* **the function's own body** (:func:`state_free`, when it compiles): every name it reads is a
  parameter, a local, a constant (``constant``, ``config``, ``let``: folded into compiled code) or an
  enumeration member; it assigns no global and prints nothing;
* **everything one call ran** (measured on the call that computes a result): the call runs inside its
  own recording of the run's trail (:mod:`.trail`), so its noted names are every function it executed
  and every definition compiling them read. The result is kept only when each noted function is a
  tree function whose body is state-free (no Python hook, no test's own function), each other name a
  type or constant, the call charged nothing for big values (:mod:`.budget`), and the arguments and
  result are scalars: integers, booleans, bitvectors, enumeration members or strings, reals, and tuples
  of these. A call that raises keeps nothing.

An answered call is the call as the run observes it: the result is the same object (scalars are never
changed in place), the steps it took are charged to the budget (a call whose steps would run out runs,
and fails where it fails), the names it noted are noted in the current recording (so a test's reads are
the same), and a call nested deeper than the one that computed the result runs (so the depth budget
fails where it fails). Arguments are compared with their Python type fixed by the first call, so ``1``
and ``True`` never share a result. Coverage, return tracing and a test whose own functions the result
ran through take the ordinary path; :func:`specgen.asl.carry.carry_over` drops every result when a
body changes. A function called with ever new arguments stops recording at :data:`LIMIT` results.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any, Callable, Iterator, NamedTuple

from . import budget as _budget
from .ast import FuncDecl, GlobalDecl, Node, TypeDecl
from .compile_base import Function, Scope
from .compile_call import var_kind
from .values import Bits

Interpreter = Any  # specgen.asl.interp.Interpreter, which imports compile_func, which imports this module

SCALARS = frozenset({int, bool, str, Bits, Fraction})
_CONSTANT_KINDS = ("constant", "config", "let")
#: results kept per function; past it a new argument runs without being recorded (a function called with
#: ever new arguments, an index say, would otherwise cost a table entry and a recording per call)
LIMIT = 1024
#: ``SPECGEN_NO_PURE=1``: every call runs (the bench's A/B, debugging), as ``SPECGEN_NO_REPLAY`` for memo.py
ENABLED = os.environ.get("SPECGEN_NO_PURE", "") in ("", "0")


class Answers(NamedTuple):
    """A function's answering implementation and what it answers from (the budget, stack, trail and
    overlay version it checks are the interpreter's): a caller compiled after it answers the common case
    inline (``fuse_rules._answered``) while ``implementation`` is still the function's."""

    implementation: Callable
    table: dict
    types: list


def _nodes(body: object) -> Iterator[Node]:
    """Every node under ``body`` (statements, expressions, targets, types)."""
    todo = [body]
    while todo:
        x = todo.pop()
        if type(x) is Node:
            yield x
            todo.extend(x.args)
        elif isinstance(x, (list, tuple)):
            todo.extend(x)


def state_free(c: Interpreter, decl: FuncDecl, ctx: Scope) -> bool:
    """Whether ``decl``'s body reads and writes nothing but its parameters, locals and constants and
    prints nothing (what it calls is judged by the calls that run, see the module docstring)."""
    for node in _nodes(decl.body):
        kind = node.kind
        if kind == "s_print":
            return False
        if kind == "l_var" and node.args[0] not in ctx.locals:
            return False
        if kind == "e_var" and node.args[0] not in ctx.locals:
            try:
                what, _value = var_kind(c, node.args[0], ctx)
            except Exception:  # noqa: BLE001 - a name nothing defines fails when reached: not a pure read
                return False
            if what != "const":
                return False
    return True


_SCALAR_TYPES = frozenset({"t_int", "t_int_c", "t_bool", "t_bits", "t_real", "t_string"})
_SCALAR_KINDS = frozenset({"int", "bool", "bits", "real", "string", "enum"})


def scalar_parameters(c: Interpreter, decl: FuncDecl) -> bool:
    """Whether every parameter of ``decl`` is declared a scalar (a record or array argument is a
    container: equal contents, another object, so never a key)."""
    for _name, ty in decl.params:
        if ty is None:
            return False
        if ty.kind in _SCALAR_TYPES:
            continue
        if ty.kind != "t_named":
            return False
        try:
            kind = c._type_of(ty, decl.path).kind
        except Exception:  # noqa: BLE001 - a type that does not resolve fails when the call is reached
            return False
        if kind not in _SCALAR_KINDS:
            return False
    return True


def _safe_name(c: Interpreter, name: str) -> bool:
    """Whether a name a call noted leaves its result a function of its arguments."""
    if name.startswith("def:"):  # whether a name is declared (a built-in not shadowed): fixed for the tree
        return True
    arities = c.state_free.get(name)
    if arities is not None:
        return name not in c._hooks and all(arities.values())
    decls, from_overlay = c._decls(name)
    return bool(decls) and not from_overlay and all(
        isinstance(d, TypeDecl) or (isinstance(d, GlobalDecl) and d.kind in _CONSTANT_KINDS) for d in decls)


def _scalar(r: object) -> bool:
    t = type(r)
    if t is tuple:
        return all(_scalar(x) for x in r)  # type: ignore[union-attr]
    if t is Bits:
        return r.n <= _budget.FREE_BITS  # type: ignore[union-attr]
    if t is int:
        return -(1 << _budget.FREE_BITS) < r < (1 << _budget.FREE_BITS)  # type: ignore[operator]
    return t in SCALARS


def remembering(c: Interpreter, fn: Function, inner: list[Callable]) -> Callable:
    """The implementation of ``fn`` (a state-free tree function of one or more parameters) that answers
    a repeated call from its table; ``inner[0]`` is the implementation that computes (the caller may
    swap in the function's fused form)."""
    table: dict[object, list] = {}
    budget, stack, trail, overlay = c.budget, c.stack, c.trail, c._overlay
    epoch, current, version = trail.epoch, trail.current, c.overlay_version
    nparams = len(fn.decl.params)  # type: ignore[union-attr]
    types: list[type | None] = [None] * nparams
    free = _budget.FREE_BITS  # a bigger bitvector is charged for being hashed: it is never a key

    def compute(key: object, args: tuple) -> object:
        """Run the call and keep its result when everything it ran allows (module docstring)."""
        if len(table) >= LIMIT:
            return inner[0](*args)
        if types[0] is None:
            if not all(type(a) in SCALARS and (type(a) is not Bits or a.n <= free) for a in args):
                return inner[0](*args)
            types[:] = [type(a) for a in args]
        before, charged, account, depth = budget[0] + budget[1], c.charged[0], _budget.ACTIVE.account, len(stack)
        trail.push()
        try:
            r = inner[0](*args)
        finally:
            names = trail.pop()
        if (c.charged[0] == charged and _budget.ACTIVE.account == account and _scalar(r)
                and all(_safe_name(c, n) for n in names) and (not overlay or names.isdisjoint(overlay))):
            table[key] = [r, before - budget[0] - budget[1], names, depth, epoch[0], version[0]]
        return r

    def answer(e: list, args: tuple) -> object:
        """A kept result as the call would have made it, or the call run when it could not be."""
        steps = e[1]
        if budget[0] + budget[1] < steps:
            return inner[0](*args)
        if len(stack) > e[3]:  # deeper than any call that computed it: run, and answer at this depth from now on
            r = inner[0](*args)
            e[3] = len(stack)
            return r
        if e[4] != epoch[0] or e[5] != version[0]:  # first use in this recording or with this overlay
            if overlay and not e[2].isdisjoint(overlay):
                return inner[0](*args)
            current[0].update(e[2])
            e[4], e[5] = epoch[0], version[0]
        budget[0] -= steps
        return e[0]

    def one(a0):
        t0 = type(a0)
        if t0 is types[0] and (t0 is not Bits or a0.n <= free):
            e = table.get(a0)
            if e is not None:
                if e[4] == epoch[0] and e[5] == version[0] and budget[0] >= e[1] and len(stack) <= e[3]:
                    budget[0] -= e[1]  # the common case of answer(), inline: the hottest path of a run
                    return e[0]
                return answer(e, (a0,))
        elif types[0] is not None:
            return inner[0](a0)
        return compute(a0, (a0,))

    def two(a0, a1):
        t0, t1 = type(a0), type(a1)
        if (t0 is types[0] and t1 is types[1] and (t0 is not Bits or a0.n <= free)
                and (t1 is not Bits or a1.n <= free)):
            e = table.get((a0, a1))
            if e is not None:
                if e[4] == epoch[0] and e[5] == version[0] and budget[0] >= e[1] and len(stack) <= e[3]:
                    budget[0] -= e[1]
                    return e[0]
                return answer(e, (a0, a1))
        elif types[0] is not None:
            return inner[0](a0, a1)
        return compute((a0, a1), (a0, a1))

    def many(*args):
        if types[0] is None:  # nothing hashed before compute() has seen the arguments are scalars
            return compute(args, args)
        if any(type(a) is not t or (t is Bits and a.n > free) for a, t in zip(args, types)):
            return inner[0](*args)
        e = table.get(args)
        if e is not None:
            return answer(e, args)
        return compute(args, args)

    impl = one if nparams == 1 else two if nparams == 2 else many
    # one per function: a recompiled body's replaces its old one (carry.py clears the tables)
    c.answering[id(fn)] = Answers(impl, table, types)
    return impl


__all__ = ["Answers", "ENABLED", "LIMIT", "SCALARS", "remembering", "scalar_parameters", "state_free"]
