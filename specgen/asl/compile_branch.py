"""The branching statements (``if``, ``case``): the first arm whose condition or pattern holds runs.

Registered in the statement table by :mod:`specgen.asl.compile_stmt` (:data:`BRANCHES`); kept apart
because both tier their arms (each arm's block is fused once it runs hot, :mod:`.compile_fuse_stmt`) and
``case`` compiles its patterns to constant tests where it can.
"""

from __future__ import annotations

from typing import Callable, NoReturn

from .ast import Node
from .compile_base import NOCONST, Compiler, NoMatch, Scope, Stmt, guard
from .compile_call import const_value
from .compile_fuse_stmt import fused, tiered
from .errors import ASLError
from .ops import hkey
from .values import show


def s_if(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``if/elsif/else``: the first arm whose condition holds runs."""
    arms = [(c._expr(cond, ctx), c._block(b, ctx)) for cond, b in node.args[0]]
    els = c._block(node.args[1], ctx) if node.args[1] is not None else None
    span = ctx.span(node)
    if len(arms) == 1:
        c0, b0 = arms[0]
        fail = c._fail
        if els is None:
            def s_if1(fr):  # guard's try inline
                try:
                    if c0(fr):
                        return b0(fr)
                except ASLError:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise fail(exc, span) from None
            c.forms[s_if1] = ("if", arms, None, span)
            return s_if1

        def s_if2(fr):  # guard's try inline
            try:
                if c0(fr):
                    return b0(fr)
                return els(fr)
            except ASLError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise fail(exc, span) from None
        c.forms[s_if2] = ("if", arms, els, span)
        return s_if2

    def s_if(fr):
        for cond, b in arms:
            if cond(fr):
                return b(fr)
        if els is not None:
            return els(fr)
    guarded = guard(c, s_if, span)
    c.forms[guarded] = ("if", arms, els, span)
    return guarded


def s_case(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``case x of when p, q => ... otherwise => ...``: the first matching ``when``;
    all-constant patterns become one hash lookup; no match and no otherwise fails."""
    subject = c._expr(node.args[0], ctx)
    alts = []
    const_map: dict = {}
    all_const = True
    for pats, body in node.args[1]:
        blk = c._block(body, ctx)
        tests = []
        for p in pats:
            test = _pattern(c, p, ctx)
            tests.append(test)
            if test[0] == "const":
                const_map.setdefault(hkey(test[1]), blk)
            else:
                all_const = False
        alts.append((tests, blk))
    otherwise = c._block(node.args[2], ctx) if node.args[2] is not None else None
    span = ctx.span(node)

    other = [otherwise]  # the otherwise arm, one holder for the closures and a fused block alike

    def install(old: Stmt, new: Stmt) -> None:  # an arm is entered by lookup: its own function once hot
        for k, b in const_map.items():
            if b is old:
                const_map[k] = new
        alts[:] = [(tests, new if b is old else b) for tests, b in alts]
        if other[0] is old:
            other[0] = new
    tiers: dict[int, Stmt] = {}  # one tier per arm, however many patterns lead to it
    keep: list = []
    for b in (*(b for _t, b in alts), otherwise):
        if b is not None and id(b) not in tiers:
            tiers[id(b)] = _tier(c, b, install, keep)
    for k, b in const_map.items():
        const_map[k] = tiers[id(b)]
    alts[:] = [(tests, tiers[id(b)]) for tests, b in alts]
    if otherwise is not None:
        other[0] = tiers[id(otherwise)]

    if all_const:
        fail = c._fail

        def s_case_fast(fr):  # guard's try inline
            try:
                v = subject(fr)
                blk = const_map.get(hkey(v))
                if blk is not None:
                    return blk(fr)
                if other[0] is not None:
                    return other[0](fr)
                _no_match(v)
            except ASLError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise fail(exc, span) from None
        c.tiers[s_case_fast] = keep  # the installers, kept while the case lives
        c.forms[s_case_fast] = ("case", subject, const_map, other, _no_match, span)
        return s_case_fast

    def s_case(fr):
        v = subject(fr)
        for tests, blk in alts:
            for kind, x, y in tests:
                if kind == "const":
                    if v == x:
                        return blk(fr)
                elif kind == "eq":
                    if v == x(fr):
                        return blk(fr)
                elif kind == "range":
                    if x(fr) <= v <= y(fr):
                        return blk(fr)
                else:
                    return blk(fr)
        if other[0] is not None:
            return other[0](fr)
        _no_match(v)
    c.tiers[s_case] = keep
    return guard(c, s_case, span)


def _no_match(v: object) -> NoReturn:
    raise NoMatch(f"no 'when' matches {show(v)} and there is no 'otherwise'")


def _tier(c: Compiler, blk: Stmt, install: Callable[[Stmt, Stmt], None], keep: list) -> Stmt:
    """``blk`` tiered (compile_fuse_stmt), its fused function installed in place of the tiered one;
    ``keep`` (held by the case closure) keeps the installer alive."""
    def put(f: Stmt) -> None:
        install(cold, fused(c, f))
    cold = tiered(c, blk, put)
    keep.append(put)
    return cold


def _pattern(c: Compiler, p: Node, ctx: Scope) -> tuple:
    """One ``when`` pattern as ``(test kind, x, y)``: any, range, const or eq."""
    if p.kind == "p_any":
        return ("any", None, None)
    if p.kind == "p_range":
        return ("range", c._expr(p.args[0], ctx), c._expr(p.args[1], ctx))
    e = p.args[0]
    cv = const_value(c, e, ctx)
    if cv is NOCONST:
        return ("eq", c._expr(e, ctx), None)
    return ("const", cv, None)


BRANCHES = {"s_if": s_if, "s_case": s_case}
