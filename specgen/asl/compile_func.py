"""A declared ASL function compiled to the callable that runs it: the entry a call goes through.

The entry spends one step of the run's budget, notes the function in a recording's trail the first time
it runs there (:mod:`.trail`), checks the declared widths of its ``bits(N)`` parameters, and runs the body
(tiered: fused into one Python function once it runs hot, :mod:`.compile_fuse_stmt`). A function of no
parameters and no check may be replaced whole by its fused form; a tree function of no parameters is
memoised when its effect does not depend on the state it starts from (:mod:`.memo`). One entry shape per
parameter form, because the entry is the hottest code of every run.
"""

from __future__ import annotations

from typing import Any

from .budget import refill
from .compile_base import Function, Scope, Stmt
from .compile_fuse_stmt import fused, fused_run, tiered
from .compile_stmt import collect_locals, covering
from .memo import memoizing
from .pure_memo import ENABLED as PURE, remembering, scalar_parameters, state_free
from .values import Bits
from .widths import entry, mismatch

Interpreter = Any  # specgen.asl.interp.Interpreter, which imports this module (memo.py does the same)


def compile_function(it: Interpreter, fn: Function) -> None:
    """Give ``fn`` (a declared function) its ``impl``: its body compiled behind its entry."""
    decl = fn.decl
    assert decl is not None
    names = tuple(p[0] for p in decl.params)
    ctx = Scope(decl.path, set(names), decl.name)
    collect_locals(decl.body, ctx.locals)  # every let/var/for/tuple name in the body
    # what compiling it ran (a constant a type width names, say) happens once per interpreter: every
    # run of the function notes it, not just the run that happened to compile it (trail.py)
    nparams = len(names)
    tree = it._funcs.get((decl.name, nparams)) is fn  # a tree function, not a test's
    it.trail.push()
    try:
        checks = entry(it, decl, ctx)  # declared bitvector widths of the parameters and result
        body = it._block(decl.body, ctx)
        if tree:  # what a call of it may run and whether its calls can be answered (pure_memo.py), decided
            # in every mode and here, so that what deciding reads is read alike with answers or without
            pure = state_free(it, decl, ctx)
            it.state_free.setdefault(decl.name, {})[nparams] = pure
            answerable = pure and nparams > 0 and scalar_parameters(it, decl)
    finally:
        compiled_notes = tuple(it.trail.pop())
    if it.coverage is not None:  # the declaration (column 0) recorded as the body's first line
        body = covering(it, body, (decl.path, decl.line, 0))
    if checks is not None and checks.frame is not None:  # widths that need the frame: a wrapper
        unchecked, on_entry = body, checks.frame

        def body(fr):
            on_entry(fr)
            return unchecked(fr)

        def install(blk: Stmt) -> None:
            nonlocal unchecked
            unchecked = fused(it, blk)
        unchecked = tiered(it, unchecked, install)  # one Python function once hot (compile_fuse_stmt)
    else:
        def install(blk: Stmt) -> None:
            nonlocal body
            if plain is not None and fn.impl is plain:  # nothing wraps or swapped it: the whole function
                fn.impl = fused_run(it, blk, names, budget, refill, max_steps, (epoch, current, mark, notes))
            elif plain is not None and remembered[0] is plain:  # what answers repeated calls computes with it
                remembered[0] = fused_run(it, blk, names, budget, refill, max_steps, (epoch, current, mark, notes))
            else:
                body = fused(it, blk)
        body = tiered(it, body, install)
    consts = checks.consts if checks is not None else ()
    budget = it.budget
    max_steps = it.max_steps_of
    # the trail: a function notes its name the first time it runs in a recording (trail.py)
    epoch, current, mark = it.trail.epoch, it.trail.current, [-1]
    notes = (decl.name, *compiled_notes)
    fn.compiled_notes = compiled_notes

    if consts and nparams == 1:  # one bits(N) parameter of constant N: tested inline (a hot path)
        p0 = names[0]
        (_, w0, what0), = consts

        def run(a0):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            if mark[0] != epoch[0]:
                mark[0] = epoch[0]
                current[0].update(notes)
            if type(a0) is not Bits or a0.n != w0:
                raise mismatch(what0, w0, a0)
            r = body({p0: a0})
            return r[0] if r is not None else None
    elif consts:
        def run(*args):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            if mark[0] != epoch[0]:
                mark[0] = epoch[0]
                current[0].update(notes)
            for i, w, what in consts:
                a = args[i]
                if type(a) is not Bits or a.n != w:
                    raise mismatch(what, w, a)
            r = body(dict(zip(names, args)))
            return r[0] if r is not None else None
    elif nparams == 0:
        def run(*args):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            if mark[0] != epoch[0]:
                mark[0] = epoch[0]
                current[0].update(notes)
            r = body({})
            return r[0] if r is not None else None
    elif nparams == 1:
        p0 = names[0]

        def run(a0):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            if mark[0] != epoch[0]:
                mark[0] = epoch[0]
                current[0].update(notes)
            r = body({p0: a0})
            return r[0] if r is not None else None
    else:
        def run(*args):
            budget[0] -= 1
            if budget[0] < 0:
                refill(budget, max_steps())
            if mark[0] != epoch[0]:
                mark[0] = epoch[0]
                current[0].update(notes)
            r = body(dict(zip(names, args)))
            return r[0] if r is not None else None
    it.tiers[run] = install  # the tiered body's way to its fused form, kept while the run lives
    plain = run if not consts else None  # a run fused_run can stand for: no parameter check of its own
    remembered: list = [None]  # the implementation an answering run computes with (pure_memo.py)
    if nparams == 0 and it.memoize and it.trace is None and tree:
        run = memoizing(it, fn, run)  # see memo.py
    elif tree and answerable and PURE and it.memoize and it.trace is None and it.coverage is None:
        remembered[0] = run
        run = remembering(it, fn, remembered)

    fn.impl = run
    it.compiled[id(fn)] = fn
    it.compiled_functions += 1
