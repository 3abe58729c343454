"""The loop statements (``for``, ``while``, ``repeat``): each iteration spends one step of the run's
budget, so spec code that never ends stops with a located ``StepBudgetExceeded`` instead of hanging.

Registered in the statement table by :mod:`specgen.asl.compile_stmt` (:data:`LOOPS`); kept apart because
the loop forms share the budget and ``looplimit`` handling and ``for`` has its one-store fast path.
"""

from __future__ import annotations

from sys import getrefcount

from .ast import Node
from .budget import hold, refill
from .compile_base import NOCONST, Compiler, LoopLimit, Scope, Stmt, guard
from .compile_call import fold
from .compile_fuse_stmt import fused, tiered


def s_for(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``for i = a to|downto b [looplimit n] do``: bounds evaluated once; a loop that only
    stores one constant into ``X[[i]]`` runs as a single slice store (see _fill_loop)."""
    var, start, direction, stop, limit, body = node.args
    s0 = c._expr(start, ctx)
    s1 = c._expr(stop, ctx)
    lim = c._expr(limit, ctx) if limit is not None else None
    blk = c._block(body, ctx)

    def install(f: Stmt) -> None:  # run once per iteration: fused once hot
        nonlocal blk
        blk = fused(c, f)
    blk = tiered(c, blk, install)
    down = direction == "downto"
    fill = _fill_loop(c, var, body, ctx) if not down else None
    span = ctx.span(node)
    budget = c.budget
    max_steps = c.max_steps_of
    if fill is not None:
        def s_for_fill(fr):
            lo = s0(fr)
            hi = s1(fr)
            if lim is not None and hi - lo + 1 > lim(fr):
                raise LoopLimit(f"for loop of {hi - lo + 1} iterations exceeds looplimit {lim(fr)}")
            if hi >= lo:
                budget[0] -= hi - lo + 1
                if budget[0] < 0:
                    refill(budget, max_steps())
                fill(fr, lo, hi)
                fr[var] = hi
        return guard(c, s_for_fill, span)

    def s_for(fr):
        lo = s0(fr)
        hi = s1(fr)
        rng = range(lo, hi - 1, -1) if down else range(lo, hi + 1)
        if lim is not None:
            n = lim(fr)
            if len(rng) > n:
                raise LoopLimit(f"for loop of {len(rng)} iterations exceeds looplimit {n}")
        for i in rng:
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            fr[var] = i
            r = blk(fr)
            if r is not None:
                return r
    c.tiers[s_for] = install  # kept while the loop lives (compile_fuse_stmt.tiered)
    return guard(c, s_for, span)


def _fill_loop(c: Compiler, var: str, body: tuple, ctx: Scope):
    """``for i = a to b do X[[i]] = <constant>; end;`` as one slice store.

    Same effect as the loop (in-range indices are checked first), but one
    list operation instead of one interpreted assignment per element.
    """
    if len(body) != 1 or body[0].kind != "s_assign":
        return None
    lhs, rhs = body[0].args
    if lhs.kind != "l_index" or lhs.args[0].kind != "l_var":
        return None
    if lhs.args[1].kind != "e_var" or lhs.args[1].args[0] != var:
        return None
    value = fold(c, rhs, ctx)
    if value is NOCONST or isinstance(value, (list, dict)):
        return None
    name = lhs.args[0].args[0]
    is_local = name in ctx.locals
    if name == var:
        return None
    if not is_local:
        g = c._global_decl(name)
        if g is None or g.kind != "var":
            return None
    G = c.globals
    gv = c._global_value

    def fill(fr, lo, hi):
        store = fr if is_local else G
        if not is_local and name not in G:
            gv(name, None)
        arr = store[name]
        if lo < 0 or hi >= len(arr):
            raise IndexError(f"array index {hi if hi >= len(arr) else lo} outside 0..{len(arr) - 1}")
        if getrefcount(arr) > 3:
            if len(arr) > 1024:
                hold(len(arr) << 3, f"a copy of an array of {len(arr):,} elements")
            arr = arr.copy()
            store[name] = arr
        arr[lo:hi + 1] = [value] * (hi - lo + 1)
    return fill


def s_while(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``while c [looplimit n] do``: the condition is tested before each iteration."""
    cond = c._expr(node.args[0], ctx)
    lim = c._expr(node.args[1], ctx) if node.args[1] is not None else None
    blk = c._block(node.args[2], ctx)

    def install(f: Stmt) -> None:  # run once per iteration: fused once hot
        nonlocal blk
        blk = fused(c, f)
    blk = tiered(c, blk, install)
    budget = c.budget
    max_steps = c.max_steps_of

    def s_while(fr):
        n = lim(fr) if lim is not None else None
        count = 0
        while cond(fr):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            count += 1
            if n is not None and count > n:
                raise LoopLimit(f"while loop exceeds looplimit {n}")
            r = blk(fr)
            if r is not None:
                return r
    c.tiers[s_while] = install  # kept while the loop lives (compile_fuse_stmt.tiered)
    return guard(c, s_while, ctx.span(node))


def s_repeat(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``repeat ... until c [looplimit n];``: the body runs at least once."""
    blk = c._block(node.args[0], ctx)

    def install(f: Stmt) -> None:  # run once per iteration: fused once hot
        nonlocal blk
        blk = fused(c, f)
    blk = tiered(c, blk, install)
    cond = c._expr(node.args[1], ctx)
    lim = c._expr(node.args[2], ctx) if node.args[2] is not None else None
    budget = c.budget
    max_steps = c.max_steps_of

    def s_repeat(fr):
        n = lim(fr) if lim is not None else None
        count = 0
        while True:
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            count += 1
            if n is not None and count > n:
                raise LoopLimit(f"repeat loop exceeds looplimit {n}")
            r = blk(fr)
            if r is not None:
                return r
            if cond(fr):
                return None
    c.tiers[s_repeat] = install  # kept while the loop lives (compile_fuse_stmt.tiered)
    return guard(c, s_repeat, ctx.span(node))


LOOPS = {"s_for": s_for, "s_while": s_while, "s_repeat": s_repeat}
