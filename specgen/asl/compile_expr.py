"""The expression compiler: each ASL expression node becomes a closure ``f(frame) -> value``.

One handler per expression kind, registered in :data:`EXPR`. Names are
resolved here, at compile time (local, constant, enumeration member,
global, generated member), so an evaluation reads the frame or a bound
value and nothing else. Calls and constant folding live in
:mod:`.compile_call`.
"""

from __future__ import annotations

from .ast import Node
from .compile_base import Compiler, DispatchTable, Expr, Scope
from .compile_fuse import fuse
from . import fuse_rules  # noqa: F401 - registers the source forms (FUSE)
from .compile_call import call_expr, var_kind
from .compile_types import check_as, default
from .budget import FREE_BITS
from .errors import ASLError
from .ops import BINOPS, UNOPS, cmp_type, slice_bounds, slice_read, touched
from .values import Bits, show

EXPR: DispatchTable = DispatchTable("expression")
_FREE = 1 << FREE_BITS  # an integer this large or larger costs its size when compared (budget.py)


def compile_expr(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """The function evaluating ``node`` in a frame of ``ctx``'s locals: the whole tree fused into one
    where its kinds have source forms (:mod:`.compile_fuse`), else the closure of its handler."""
    fused = fuse(c, node, ctx)
    return fused if fused is not None else EXPR.lookup(node, ctx)(c, node, ctx)


@EXPR.rule("e_lit")
def e_lit(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """An integer, real, boolean or string literal is its value."""
    v = node.args[0]
    return lambda fr: v


@EXPR.rule("e_bitlit")
def e_bitlit(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """A bitstring ``'0101'`` is a ``bits(N)`` of its digits."""
    bv = Bits(node.args[0], node.args[1])
    return lambda fr: bv


@EXPR.rule("e_var")
def e_var(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """A name: a local, else a constant's value, an enumeration member (its own name),
    a global variable, or a member of a generated enumeration; else Undefined."""
    name = node.args[0]
    kind, v = var_kind(c, name, ctx)
    if kind == "local":
        def local(fr):
            return fr[name]
        return local
    if kind == "const":
        return lambda fr: v
    G = c.globals
    gv = c._global_value
    log = c.read_log
    if log is not None:  # recording a function's effect (memo.py): every read is logged
        def glob_logged(fr):
            v = G[name] if name in G else gv(name, None)
            log.append((name, v))
            return v
        return glob_logged

    def glob(fr):
        try:
            return G[name]
        except KeyError:
            return gv(name, None)
    return glob


_SHORT_CIRCUIT = {
    "&&": lambda left, right: lambda fr: left(fr) and right(fr),
    "||": lambda left, right: lambda fr: left(fr) or right(fr),
    "-->": lambda left, right: lambda fr: (not left(fr)) or right(fr),
    "<->": lambda left, right: lambda fr: left(fr) == right(fr),
}


@EXPR.rule("e_bin")
def e_bin(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``a op b``: boolean connectives short-circuit, orderings refuse bitvectors,
    ``x + <literal>`` skips the generic operator."""
    op, l_node, r_node = node.args
    left = c._expr(l_node, ctx)
    right = c._expr(r_node, ctx)
    direct = _SHORT_CIRCUIT.get(op)
    if direct is not None:
        return direct(left, right)
    f = BINOPS.get(op)
    if f is None:
        raise ASLError(f"unsupported operator {op}", ctx.span(node), "unsupported")
    if op in ("<", "<=", ">", ">="):
        def cmp(fr, f=f):
            x = left(fr)
            y = right(fr)
            if type(x) is Bits or type(y) is Bits:
                cmp_type(x, y)
            if type(x) is int and not -_FREE < x < _FREE:  # a big integer costs its size (budget.py)
                touched(x)
            return f(x, y)
        return cmp
    if op == "==":  # a big integer costs its size (budget.py; a big bitvector in Bits.__eq__)
        def equal(fr):
            x = left(fr)
            y = right(fr)
            if type(x) is int and not -_FREE < x < _FREE:
                touched(x)
            return x == y
        return equal
    if op == "!=":
        def unequal(fr):
            x = left(fr)
            y = right(fr)
            if type(x) is int and not -_FREE < x < _FREE:
                touched(x)
            return x != y
        return unequal
    if op == "+" and r_node.kind == "e_lit" and type(r_node.args[0]) is int:
        k = r_node.args[0]

        def add_const(fr):
            x = left(fr)
            if type(x) is Bits:
                n = x.n
                if n > FREE_BITS:
                    return f(x, k)  # charged there
                return Bits((x.v + k) & ((1 << n) - 1), n)
            r = x + k
            return r if type(r) is int and -_FREE < r < _FREE else f(x, k)
        return add_const
    return lambda fr: f(left(fr), right(fr))


@EXPR.rule("e_un")
def e_un(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``NOT x``, ``-x``, ``!x``; a negated literal is folded."""
    op, operand = node.args
    e = c._expr(operand, ctx)
    if op == "-" and operand.kind == "e_lit":
        v = -operand.args[0]
        return lambda fr: v
    f = UNOPS[op]
    return lambda fr: f(e(fr))


@EXPR.rule("e_call")
def e_call(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``F{params}(args)``: a built-in, a hook or an ASL function (see :func:`call_expr`)."""
    a = node.args
    return call_expr(c, a[0], a[1], a[2], ctx, ctx.span(node))


@EXPR.rule("e_field")
def e_field(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``r.f``: a record field; anything else is a type error."""
    base = c._expr(node.args[0], ctx)
    fname = node.args[1]

    def field(fr):
        r = base(fr)
        try:
            return r[fname]
        except (KeyError, TypeError):
            raise TypeError(f"{show(r)} has no field '{fname}'") from None
    return field


@EXPR.rule("e_index")
def e_index(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``a[[i]]``: an array element, by integer or by enumeration member position."""
    base = c._expr(node.args[0], ctx)
    idx = c._expr(node.args[1], ctx)
    enum_pos = c._enum_pos

    def index(fr):
        arr = base(fr)
        i = idx(fr)
        if type(i) is not int:
            i = enum_pos(i)
        if i < 0 or i >= len(arr):
            raise IndexError(f"array index {i} outside 0..{len(arr) - 1}")
        return arr[i]
    return index


@EXPR.rule("e_slice")
def e_slice(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``x[hi:lo]``, ``x[i]``, ``x[i +: w]``, ``x[i *: w]`` and their concatenation
    ``x[a, b]``; a constant ``[hi:lo]`` on a wide enough bitvector is one mask."""
    base = c._expr(node.args[0], ctx)
    slices = compile_slices(c, node.args[1], ctx)
    if len(slices) > 1:
        def slice_multi(fr):
            v = base(fr)
            out = Bits(0, 0)
            for lo, width in slice_bounds(slices, fr):
                part = slice_read(v, lo, width)
                out = Bits((out.v << width) | part.v, out.n + width)
            return out
        return slice_multi
    kind, x, y = slices[0]
    if kind == "range":
        return _slice_range(base, node.args[1][0], x, y)
    if kind == "single":
        return lambda fr: slice_read(base(fr), x(fr), 1)
    if kind == "up":
        return lambda fr: slice_read(base(fr), x(fr), y(fr))
    return lambda fr: slice_read(base(fr), x(fr) * y(fr), y(fr))


def _slice_range(base: Expr, spec: tuple, x: Expr, y: Expr) -> Expr:
    if spec[1].kind == "e_lit" and spec[2].kind == "e_lit":
        hi_c = spec[1].args[0]
        lo_c = spec[2].args[0]
        w_c = hi_c - lo_c + 1
        small = 0 <= w_c <= FREE_BITS  # a wider slice's mask is made by slice_read, after its size is checked
        m_c = (1 << w_c) - 1 if small else 0

        def slice_const(fr):
            v = base(fr)
            if type(v) is Bits and hi_c < v.n and small:
                return Bits((v.v >> lo_c) & m_c, w_c)
            return slice_read(v, lo_c, w_c)
        return slice_const

    def slice_range(fr):
        v = base(fr)
        lo = y(fr)
        return slice_read(v, lo, x(fr) - lo + 1)
    return slice_range


def compile_slices(c: Compiler, slices: tuple, ctx: Scope) -> tuple:
    """``(kind, first, second)`` slice specs with their bounds compiled."""
    return tuple((kind, c._expr(x, ctx), c._expr(y, ctx) if y is not None else None)
                 for kind, x, y in slices)


@EXPR.rule("e_if")
def e_if(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``if c then a elsif d then b else e``: only the chosen arm is evaluated."""
    arms = [(c._expr(cond, ctx), c._expr(v, ctx)) for cond, v in node.args[0]]
    els = c._expr(node.args[1], ctx)
    if len(arms) == 1:
        c0, v0 = arms[0]
        return lambda fr: v0(fr) if c0(fr) else els(fr)

    def e_if(fr):
        for cond, v in arms:
            if cond(fr):
                return v(fr)
        return els(fr)
    return e_if


@EXPR.rule("e_as")
def e_as(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``x as T``: ``x`` when it lies in ``T``'s domain, else an assertion failure;
    a single constant integer range is tested inline."""
    e = c._expr(node.args[0], ctx)
    ti = c._type_of(node.args[1], ctx.path)
    bounds = None
    if ti.kind == "int" and ti.constraints:
        try:
            bounds = [(lo({}), hi({}) if hi is not None else lo({})) for lo, hi in ti.constraints]
        except Exception:  # noqa: BLE001 - bounds that need a frame are checked at run time
            bounds = None
    if bounds and len(bounds) == 1:
        blo, bhi = bounds[0]

        def as_range(fr):
            v = e(fr)
            if type(v) is int and blo <= v <= bhi:
                return v
            return check_as(v, ti)
        return as_range
    return lambda fr: check_as(e(fr), ti)


@EXPR.rule("e_record")
def e_record(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``T { f = e, ... }``: every field of record type ``T`` given exactly once."""
    tname = node.args[0]
    span = ctx.span(node)
    ti = c._named_type(tname, span)
    if ti.kind != "record":
        raise ASLError(f"'{tname}' is not a record type", span, "type")
    inits = {f: c._expr(e, ctx) for f, e in node.args[1]}
    known = [f for f, _ in ti.fields]
    for f in inits:
        if f not in known:
            raise ASLError(f"record {tname} has no field '{f}'", span, "type")
    missing = [f for f in known if f not in inits]
    if missing:
        raise ASLError(f"record construction of {tname} omits field(s) {', '.join(missing)}",
                       span, "type")
    order = tuple((f, inits[f]) for f in known)

    def record(fr):
        return {f: e(fr) for f, e in order}
    return record


@EXPR.rule("e_tuple")
def e_tuple(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``(a, b, ...)``: a tuple of the items' values."""
    items = tuple(c._expr(x, ctx) for x in node.args[0])
    return lambda fr: tuple(x(fr) for x in items)


@EXPR.rule("e_arbitrary")
def e_arbitrary(c: Compiler, node: Node, ctx: Scope) -> Expr:
    """``ARBITRARY : T``: the interpreter picks ``T``'s base value."""
    value = default(c._type_of(node.args[0], ctx.path))
    return lambda fr: value
