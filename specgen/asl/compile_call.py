"""Calls and constant folding for the expression and statement compilers.

A call site binds its callee at compile time: a built-in directly (folded
when every argument is a constant), anything else through the
interpreter's function table, compiled on first call. Folding also serves
``case`` tables and fill loops (see :mod:`.compile_stmt`).
"""

from __future__ import annotations

from specgen.diagnostics import Span

from .ast import Node
from .budget import MAX_DEPTH, DepthBudgetExceeded
from .compile_base import NOCONST, Compiler, Expr, Scope, Undefined
from .errors import ASLError
from .ops import BINOPS
from .stdlib import BUILTINS
from .values import Bits


def call_expr(c: Compiler, name: str, params: tuple, args: tuple, ctx: Scope, span: Span) -> Expr:
    """A call as an expression (a call statement discards its value).

    A built-in that no user function shadows is bound directly, and folded
    when every argument is constant; anything else goes through the
    function table, compiled on first call, with the call site pushed on
    the ASL stack for error reports.
    """
    pc = tuple(c._expr(p, ctx) for p in params)
    ac = tuple(c._expr(x, ctx) for x in args)
    if params or (name in BUILTINS and not c.has_function(name)):
        return _builtin_call(c, name, params, args, pc, ac, ctx, span)
    fn = c._function(name, len(args), span)
    stack = c.stack
    frame_entry = (name, span)
    compile_func = c._compile_func
    nargs = len(ac)
    depth = MAX_DEPTH  # a closure's own cell: cheaper than the module global on every call

    if nargs == 0:
        def call0(fr):
            impl = fn.impl
            if impl is None:
                compile_func(fn)
                impl = fn.impl
            stack.append(frame_entry)
            if len(stack) > depth:
                raise DepthBudgetExceeded(len(stack))
            r = impl()
            stack.pop()
            return r
        return call0
    if nargs == 1:
        a0 = ac[0]

        def call1(fr):
            impl = fn.impl
            if impl is None:
                compile_func(fn)
                impl = fn.impl
            v0 = a0(fr)
            stack.append(frame_entry)
            if len(stack) > depth:
                raise DepthBudgetExceeded(len(stack))
            r = impl(v0)
            stack.pop()
            return r
        return call1
    if nargs == 2:
        a0, a1 = ac

        def call2(fr):
            impl = fn.impl
            if impl is None:
                compile_func(fn)
                impl = fn.impl
            v0 = a0(fr)
            v1 = a1(fr)
            stack.append(frame_entry)
            if len(stack) > depth:
                raise DepthBudgetExceeded(len(stack))
            r = impl(v0, v1)
            stack.pop()
            return r
        return call2

    def calln(fr):
        impl = fn.impl
        if impl is None:
            compile_func(fn)
            impl = fn.impl
        vals = [x(fr) for x in ac]
        stack.append(frame_entry)
        if len(stack) > depth:
            raise DepthBudgetExceeded(len(stack))
        r = impl(*vals)
        stack.pop()
        return r
    return calln


def _builtin_call(c: Compiler, name: str, params: tuple, args: tuple, pc: tuple, ac: tuple,
                  ctx: Scope, span: Span) -> Expr:
    b = BUILTINS.get(name)
    if b is None or c.has_function(name):
        raise ASLError(f"call of '{name}' with {{…}} parameters: parameterised user "
                       "functions are not supported", span, "unsupported")
    folded = builtin_folded(c, b, params, args, ctx)
    if folded is not NOCONST:
        return lambda fr: folded
    if len(pc) == 1 and len(ac) == 0:
        p0 = pc[0]
        return lambda fr: b((p0(fr),), ())
    if len(pc) == 1 and len(ac) == 1:
        p0 = pc[0]
        a0 = ac[0]
        return lambda fr: b((p0(fr),), (a0(fr),))
    if len(pc) == 0 and len(ac) == 1:
        a0 = ac[0]
        return lambda fr: b((), (a0(fr),))
    return lambda fr: b(tuple(p(fr) for p in pc), tuple(x(fr) for x in ac))


def var_kind(c: Compiler, name: str, ctx: Scope) -> tuple[str, object]:
    """What a name in an expression is: ``("local", None)``, ``("const", value)`` (a constant's
    value, an enumeration member or a generated member: its own name) or ``("global", decl)`` (a
    global variable, read when the run reaches it); Undefined when nothing defines it. The expression
    compiler and its fused form (:mod:`.fuse_rules`) both resolve through here."""
    if name in ctx.locals:
        return ("local", None)
    if name in c._consts:
        return ("const", c._consts[name])
    if c._enum_member(name) is not None:
        return ("const", name)
    g = c._global_decl(name)
    if g is not None:
        if g.kind in ("constant", "config", "let"):
            return ("const", c._global_value(name, None))
        return ("global", g)
    if c._is_generated_member(name):
        return ("const", name)
    raise Undefined(name)


def builtin_folded(c: Compiler, b, params: tuple, args: tuple, ctx: Scope) -> object:
    """The value of built-in ``b`` on constant parameters and arguments (not a container: a call
    makes a fresh one), else NOCONST (a failure is reported when, if, the call is reached)."""
    consts = [fold(c, x, ctx) for x in (*params, *args)]
    if all(k is not NOCONST for k in consts):
        try:
            folded = b(tuple(consts[:len(params)]), tuple(consts[len(params):]))
        except Exception:  # noqa: BLE001 - report it when (if) the call is reached
            folded = NOCONST
        if folded is not NOCONST and not isinstance(folded, (list, dict)):
            return folded
    return NOCONST


def fold(c: Compiler, e: Node, ctx: Scope) -> object:
    """The compile-time value of a literal, constant or constant arithmetic, else NOCONST."""
    k = e.kind
    if k == "e_lit":
        return e.args[0]
    if k == "e_bitlit":
        return Bits(e.args[0], e.args[1])
    if k == "e_var":
        name = e.args[0]
        if name in ctx.locals:
            return NOCONST
        if name in c._consts:
            return c._consts[name]
        g = c._global_decl(name)
        if g is not None and g.kind in ("constant", "config", "let"):
            try:
                return c._global_value(name, None)
            except Exception:  # noqa: BLE001
                return NOCONST
        return NOCONST
    if k == "e_bin" and e.args[0] in ("+", "-", "*"):
        left = fold(c, e.args[1], ctx)
        right = fold(c, e.args[2], ctx)
        if left is NOCONST or right is NOCONST:
            return NOCONST
        try:
            return BINOPS[e.args[0]](left, right)
        except Exception:  # noqa: BLE001
            return NOCONST
    return NOCONST


def const_value(c: Compiler, e: Node, ctx: Scope) -> object:
    """The value of a literal / enum member / constant pattern, else NOCONST."""
    if e.kind == "e_lit":
        return e.args[0]
    if e.kind == "e_bitlit":
        return Bits(e.args[0], e.args[1])
    if e.kind == "e_var" and e.args[0] not in ctx.locals:
        name = e.args[0]
        if c._enum_member(name) is not None:
            return name
        g = c._global_decl(name)
        if g is not None and g.kind in ("constant",):
            return c._global_value(name, None)
        if c._is_generated_member(name):
            return name
    return NOCONST
