"""The statement compiler: each ASL statement becomes a closure ``s(frame) -> None | (value,)``.

A 1-tuple result signals ``return`` and unwinds every enclosing block.
One handler per statement kind, registered in :data:`STMT`. Any Python
failure while a statement runs becomes an :class:`ASLError` located at
that statement: the handlers that need it wrap their closure in
:func:`guard`; the hottest (call, assignment, declaration) inline the same
``try``. A name nothing defines does not stop compilation: the statement
compiles to one that raises when reached (the upstream build may splice
the name in).
"""

from __future__ import annotations

from typing import Iterable

from . import printing
from .ast import Node
from .compile_base import Compiler, DispatchTable, Scope, Stmt, Undefined, guard
from .compile_call import call_expr
from .compile_branch import BRANCHES
from .compile_loop import LOOPS
from .compile_types import bits_width, default
from .errors import ASLAssertionError, ASLError
from .values import Bits, show
from .widths import declared_width, mismatch, remember

STMT: DispatchTable = DispatchTable("statement")
for _kind, _handler in {**LOOPS, **BRANCHES}.items():  # for, while, repeat (compile_loop.py); if, case (compile_branch.py)
    STMT.rule(_kind)(_handler)


def compile_stmt(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """The closure running ``node``; a statement naming something undefined raises when run.

    When the interpreter measures coverage the closure first records
    ``(path, line, col)``; otherwise nothing is added, so coverage costs
    nothing when it is off.
    """
    s = _compile_stmt(c, node, ctx)
    if c.coverage is None:
        return s
    return covering(c, s, (ctx.path, node.line, node.col))


def covering(c: Compiler, s: Stmt, key: tuple[str, int, int]) -> Stmt:
    """``s`` that first records ``key`` as executed (a statement, or a function's entry: its body)."""
    flags, i = c.coverage.flags, c.coverage.slot(key)  # type: ignore[union-attr]

    def covered(fr):
        flags[i] = 1
        return s(fr)
    c.forms[covered] = ("covered", flags, i, s)
    return covered


def _compile_stmt(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    try:
        return STMT.lookup(node, ctx)(c, node, ctx)
    except Undefined as exc:
        missing = str(exc)
        span = ctx.span(node)
        undefined_error = c._undefined_error

        def raise_undefined(fr):
            raise undefined_error(missing, span)
        return raise_undefined
    except ASLError:
        raise
    except Exception as exc:  # noqa: BLE001 - a value made while compiling failed (a declaration's base
        # value over the value budget, a negative width): the statement raises it, located, when it runs
        failure, span, fail = exc, ctx.span(node), c._fail

        def raise_failure(fr):
            raise fail(failure, span) from None
        return raise_failure


def compile_block(c: Compiler, stmts: Iterable[Node], ctx: Scope) -> Stmt:
    """A statement sequence; it stops at the first ``return``."""
    compiled = [c._stmt(s, ctx) for s in stmts]
    if not compiled:
        return _empty(c)
    if len(compiled) == 1:
        return compiled[0]
    if len(compiled) == 2:
        s0, s1 = compiled

        def block2(fr):
            r = s0(fr)
            if r is not None:
                return r
            return s1(fr)
        c.forms[block2] = ("block", (s0, s1))
        return block2
    seq = tuple(compiled)

    def block(fr):
        for s in seq:
            r = s(fr)
            if r is not None:
                return r
        return None
    c.forms[block] = ("block", seq)
    return block


def _empty(c: Compiler) -> Stmt:
    def empty(fr):
        return None
    c.forms[empty] = ("empty",)
    return empty


@STMT.rule("s_call")
def s_call(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``F(args);``: a call whose result (if any) is discarded."""
    span = ctx.span(node)
    call = call_expr(c, node.args[0], node.args[1], node.args[2], ctx, span)
    fail = c._fail

    def s_call(fr):
        try:
            call(fr)
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise fail(exc, span) from None
    c.forms[s_call] = ("call", call, span)
    return s_call


@STMT.rule("s_assign")
def s_assign(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``target = e;``: the right side is evaluated first, then stored (see compile_lvalue)."""
    span = ctx.span(node)
    setter = c._lvalue(node.args[0], ctx)
    rhs = c._expr(node.args[1], ctx)
    fail = c._fail

    def s_assign(fr):
        try:
            setter(fr, rhs(fr))
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise fail(exc, span) from None
    c.forms[s_assign] = ("assign", setter, rhs, span)
    return s_assign


@STMT.rule("s_decl")
def s_decl(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``let/var/constant x [: T] [= e];``: bind a local; without ``= e`` to ``T``'s base value."""
    _kind, name, ty, init = node.args
    checked = remember(c, name, ty, ctx)  # a declared bitvector width holds (widths.py)
    if init is None:
        width = declared_width(c, ty, ctx) if checked is not None else None
        if width is not None and type(width) is not int:  # bits(N) of a local or parameter N
            span = ctx.span(node)
            return guard(c, lambda fr: fr.__setitem__(name, Bits(0, bits_width(width(fr)))), span)
        value = default(c._type_of(ty, ctx.path))

        def s_decl_default(fr):
            fr[name] = value
        c.forms[s_decl_default] = ("decl_value", name, value)
        return s_decl_default
    span = ctx.span(node)
    rhs = c._expr(init, ctx)
    fail = c._fail
    if checked is not None and checked.width is not None:  # a constant bits(N): tested inline
        n, what = checked.width, checked.what

        def s_decl_width(fr):
            try:
                v = rhs(fr)
                if type(v) is not Bits or v.n != n:
                    raise mismatch(what, n, v)
                fr[name] = v
            except ASLError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise fail(exc, span) from None
        c.forms[s_decl_width] = ("decl_width", name, rhs, n, what, mismatch, span)
        return s_decl_width
    if checked is not None:
        test = checked.test

        def s_decl_checked(fr):
            try:
                v = rhs(fr)
                test(fr, v)
                fr[name] = v
            except ASLError:
                raise
            except Exception as exc:  # noqa: BLE001
                raise fail(exc, span) from None
        c.forms[s_decl_checked] = ("decl_test", name, rhs, test, span)
        return s_decl_checked

    def s_decl(fr):
        try:
            fr[name] = rhs(fr)
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise fail(exc, span) from None
    c.forms[s_decl] = ("decl", name, rhs, span)
    return s_decl


@STMT.rule("s_decl_tuple")
def s_decl_tuple(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``let (a, -, b) = e;``: bind the tuple's items to the names, ``-`` drops one."""
    names = node.args[1]
    rhs = c._expr(node.args[2], ctx)
    for n in names:
        if n is not None:
            ctx.widths.pop(n, None)

    def s_decl_tuple(fr):
        vals = rhs(fr)
        if len(vals) != len(names):
            raise TypeError(f"tuple of {len(vals)} assigned to {len(names)} names")
        for n, v in zip(names, vals):
            if n is not None:
                fr[n] = v
    return guard(c, s_decl_tuple, ctx.span(node))


@STMT.rule("s_assign_tuple")
def s_assign_tuple(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``(t1, -, t2) = e;``: store the tuple's items into the targets, ``-`` drops one."""
    setters = [None if it.kind == "l_discard" else c._lvalue(it, ctx) for it in node.args[0]]
    rhs = c._expr(node.args[1], ctx)

    def s_assign_tuple(fr):
        vals = rhs(fr)
        for st, v in zip(setters, vals):
            if st is not None:
                st(fr, v)
    return guard(c, s_assign_tuple, ctx.span(node))


@STMT.rule("s_return")
def s_return(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``return [e];``: the 1-tuple that unwinds the function's blocks."""
    if node.args[0] is None:
        def s_return_none(fr):
            return (None,)
        c.forms[s_return_none] = ("return_none",)
        return s_return_none
    e = c._expr(node.args[0], ctx)
    record = c.trace  # set only while a traced variant compiles (returntrace.py): no cost otherwise
    result = ctx.returns
    test = result.test if result is not None else None
    if record is not None:
        span = ctx.span(node)

        def s_return_traced(fr):
            v = e(fr)
            if test is not None:
                test(fr, v)
            record(span, v)
            return (v,)
        return guard(c, s_return_traced, span)
    if result is not None and result.width is not None:  # declared => bits(N), N constant: tested inline
        n, what = result.width, result.what

        def s_return_width(fr):
            v = e(fr)
            if type(v) is not Bits or v.n != n:
                raise mismatch(what, n, v)
            return (v,)
        return guard(c, s_return_width, ctx.span(node))
    if result is not None:  # => bits(N) with N from the frame
        def s_return_checked(fr):
            v = e(fr)
            test(fr, v)
            return (v,)
        return guard(c, s_return_checked, ctx.span(node))

    span, fail = ctx.span(node), c._fail

    def s_return(fr):  # guard's try inline: the hottest statement keeps one frame
        try:
            return (e(fr),)
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise fail(exc, span) from None
    c.forms[s_return] = ("return", e, span)
    return s_return


@STMT.rule("s_assert")
def s_assert(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``assert c;``: FALSE is an ``assert`` failure with the ASL stack."""
    cond = c._expr(node.args[0], ctx)
    snapshot = c._snapshot
    span = ctx.span(node)

    fail = c._fail

    def s_assert(fr):  # guard's try inline
        try:
            if not cond(fr):
                raise ASLAssertionError("assertion failed", span, "assert", snapshot(span))
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise fail(exc, span) from None
    c.forms[s_assert] = ("assert", cond, snapshot, span)
    return s_assert


@STMT.rule("s_unreachable")
def s_unreachable(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``unreachable;``: reaching it is an ``unreachable`` error."""
    snapshot = c._snapshot
    span = ctx.span(node)

    def s_unreachable(fr):
        raise ASLError("unreachable statement reached", span, "unreachable", snapshot(span))
    return s_unreachable


@STMT.rule("s_pass")
def s_pass(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``pass;``: nothing."""
    return _empty(c)


@STMT.rule("s_print")
def s_print(c: Compiler, node: Node, ctx: Scope) -> Stmt:
    """``print e, …;`` / ``println e, …;``: a debugging aid; the text goes to stderr so
    reports on stdout stay parseable (strings as written, other values as ``show`` prints them)."""
    newline, exprs = node.args
    fns = [c._expr(e, ctx) for e in exprs]
    end = "\n" if newline else ""
    if c.read_log is not None:  # output is an effect a recording cannot replay (memo.py)
        def s_print_refused(fr):
            raise RuntimeError("print while recording a function's effect")
        return s_print_refused

    def s_print(fr):
        printing.write("".join(v if isinstance(v, str) else show(v) for v in (f(fr) for f in fns)) + end)
    return s_print


_NESTED = {
    "s_for": lambda a: (a[5],),
    "s_if": lambda a: (*(b for _c, b in a[0]), a[1]),
    "s_case": lambda a: (*(b for _p, b in a[1]), a[2]),
    "s_while": lambda a: (a[2],),
    "s_repeat": lambda a: (a[0],),
}
_BINDS = {
    "s_decl": lambda a: (a[1],),
    "s_decl_tuple": lambda a: a[1],
    "s_for": lambda a: (a[0],),
}


def nested_blocks(node: Node) -> tuple:
    """The statement blocks directly inside ``node`` (``None`` for an absent ``else``)."""
    nested = _NESTED.get(node.kind)
    return nested(node.args) if nested is not None else ()


def collect_locals(stmts: Iterable[Node], out: set[str]) -> None:
    """Add every name a ``let``/``var``/tuple declaration or ``for`` binds in ``stmts``
    (nested blocks included) to ``out``: a function's locals are known before its body compiles."""
    for s in stmts:
        binds = _BINDS.get(s.kind)
        if binds is not None:
            out.update(n for n in binds(s.args) if n is not None)
        nested = _NESTED.get(s.kind)
        if nested is not None:
            for block in nested(s.args):
                if block is not None:
                    collect_locals(block, out)
