"""The source forms of expression nodes (:data:`~specgen.asl.compile_fuse.FUSE`), one per kind.

Each emitter mirrors its :data:`~specgen.asl.compile_expr.EXPR` handler: the
same resolution and compile order, the same evaluation order, the same result
and the same exceptions (a fast path inline for the common case, the
closure's own code on the computed values otherwise). An emitter answers None
(before it resolves or compiles anything) where it has no source form; the
node then stays its closure.
"""

from __future__ import annotations

import re

from .ast import Node
from .budget import FREE_BITS, MAX_DEPTH, DepthBudgetExceeded
from .compile_base import NOCONST, Compiler, Scope
from .compile_call import builtin_folded, var_kind
from .compile_fuse import FUSE, Fuser, src
from .compile_types import check_as, default
from .errors import ASLError
from .ops import BINOPS, UNOPS
from .pure_memo import Answers
from .stdlib import BUILTINS
from .values import Bits

_BOUND = re.compile(r"_b\d+")  # a bare binding: a constant, nothing to evaluate
_FREE = 1 << FREE_BITS


def _add_k(f, x, k):
    """``x + k`` (k a literal integer) off the inline fast path: the closure's own code."""
    if type(x) is Bits:
        n = x.n
        if n > FREE_BITS:
            return f(x, k)  # charged there
        return Bits((x.v + k) & ((1 << n) - 1), n)
    r = x + k
    return r if type(r) is int and -_FREE < r < _FREE else f(x, k)


def _compile_and_get(compile_func):
    def get(fn):
        compile_func(fn)
        return fn.impl
    return get


@FUSE.rule("e_lit")
def e_lit(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """A literal: its value, bound."""
    return fz.bind(node.args[0])


@FUSE.rule("e_bitlit")
def e_bitlit(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """A bitstring: one ``Bits`` made at compile time, bound."""
    return fz.bind(Bits(node.args[0], node.args[1]))


@FUSE.rule("e_var")
def e_var(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """A local is ``fr[name]``, a constant its value, a global variable the dict read of ``glob``;
    while a function's effect is recorded (memo.py) every read is logged: the closure."""
    if c.read_log is not None:
        return None
    name = node.args[0]
    kind, v = var_kind(c, name, ctx)
    if kind == "local":
        return f"fr[{fz.bind(name)}]"
    if kind == "const":
        return fz.bind(v)
    g, n, gv = fz.bind(c.globals), fz.bind(name), fz.bind(c._global_value)
    return f"({g}[{n}] if {n} in {g} else {gv}({n}, None))"


_SHORT = {"&&": "({a} and {b})", "||": "({a} or {b})", "-->": "((not {a}) or {b})", "<->": "({a} == {b})"}
_INT_FAST = {"+", "-"}
_QUOTIENT = {"DIVRM": "//", "MOD": "%"}


@FUSE.rule("e_bin")
def e_bin(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``a op b``: connectives as Python's, comparisons and ``+``/``-`` of small integers inline."""
    op, l_node, r_node = node.args
    if op not in _SHORT and op not in BINOPS:
        return None  # the closure reports it
    a = src(c, l_node, ctx, fz, depth)
    b = src(c, r_node, ctx, fz, depth)
    short = _SHORT.get(op)
    if short is not None:
        return short.format(a=a, b=b)
    f = fz.bind(BINOPS[op])
    x, y = fz.tmp(), fz.tmp()
    if op in ("<", "<=", ">", ">="):
        return (f"({x} {op} {y} if (({x} := {a}), ({y} := {b})) and type({x}) is int and -_F < {x} < _F "
                f"and type({y}) is not _Bits else _cmp_slow({f}, {x}, {y}))")
    if op in ("==", "!="):  # the temporaries are cleared: a record held past its use would be copied by an
        slow = "_eq_slow" if op == "==" else "_ne_slow"  # update of a later call (compile_lvalue's refcount)
        if _BOUND.fullmatch(b):  # a constant right side: nothing to evaluate after the left
            return (f"(({x} {op} {b}, ({x} := None))[0] if type({x} := {a}) is not int or -_F < {x} < _F "
                    f"else {slow}({x}, {b}))")
        return (f"(({x} {op} {y}, ({x} := None), ({y} := None))[0] if (({x} := {a}), ({y} := {b})) "
                f"and (type({x}) is not int or -_F < {x} < _F) else {slow}({x}, {y}))")
    if op == "+" and r_node.kind == "e_lit" and type(r_node.args[0]) is int:
        r = fz.tmp()
        return (f"({r} if type({x} := {a}) is int and -_F < ({r} := {x} + {b}) < _F "
                f"else {fz.bind(_add_k)}({f}, {x}, {b}))")
    if op in _INT_FAST:
        r = fz.tmp()
        return (f"({r} if (({x} := {a}), ({y} := {b})) and type({x}) is int and type({y}) is int "
                f"and -_F < ({r} := {x} {op} {y}) < _F else {f}({x}, {y}))")
    if op == "*":  # ops._mul's small-integer branch: both factors small, the product too
        r = fz.tmp()
        return (f"({r} if (({x} := {a}), ({y} := {b})) and type({x}) is int and type({y}) is int "
                f"and -_F < {x} < _F and -_F < {y} < _F and -_F < ({r} := {x} * {y}) < _F else {f}({x}, {y}))")
    if op in _QUOTIENT:  # ops._divrm / _mod: a small dividend by a non-zero integer
        return (f"({x} {_QUOTIENT[op]} {y} if (({x} := {a}), ({y} := {b})) and type({x}) is int "
                f"and type({y}) is int and {y} and -_F < {x} < _F else {f}({x}, {y}))")
    return f"{f}({a}, {b})"


@FUSE.rule("e_slice")
def e_slice(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``x[i]``, ``x[hi:lo]`` (a constant one on a wide enough bitvector one mask inline) and ``x[i +: w]``
    as ``slice_read`` over the operands, in the closure's order; a concatenation stays its closure."""
    slices = node.args[1]
    if len(slices) != 1:
        return None
    kind, hi, lo = slices[0]
    if kind not in ("range", "single", "up"):
        return None  # before anything is compiled: the closure compiles it
    a = src(c, node.args[0], ctx, fz, depth)
    if kind == "range" and hi.kind == "e_lit" and lo.kind == "e_lit":
        hi_c, lo_c = hi.args[0], lo.args[0]
        w_c = hi_c - lo_c + 1
        lo_b, w_b = fz.bind(lo_c), fz.bind(w_c)
        if not 0 <= w_c <= FREE_BITS:  # a wider slice's mask is made by slice_read, after its size is checked
            return f"_slice_read({a}, {lo_b}, {w_b})"
        v = fz.tmp()
        return (f"(_Bits(({v}.v >> {lo_b}) & {fz.bind((1 << w_c) - 1)}, {w_b}) if type({v} := {a}) is _Bits "
                f"and {fz.bind(hi_c)} < {v}.n else _slice_read({v}, {lo_b}, {w_b}))")
    x = src(c, hi, ctx, fz, depth)
    if kind == "single":
        return f"_slice_read({a}, {x}, 1)"
    y = src(c, lo, ctx, fz, depth)
    if kind == "range":  # the low bound is evaluated before the high one, as the closure does
        t = fz.tmp()
        return f"_slice_read({a}, ({t} := {y}), {x} - {t} + 1)"
    return f"_slice_read({a}, {x}, {y})"


@FUSE.rule("e_un")
def e_un(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``NOT x``, ``-x``, ``!x`` (a boolean inline); a negated literal folded."""
    op, operand = node.args
    if op == "-" and operand.kind == "e_lit":
        return fz.bind(-operand.args[0])
    a = src(c, operand, ctx, fz, depth)
    f = UNOPS[op]
    if op == "!":
        x = fz.tmp()
        return f"(not {x} if type({x} := {a}) is bool else _lnot({x}))"
    return f"{fz.bind(f)}({a})"


@FUSE.rule("e_call")
def e_call(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """A call: a built-in (folded when constant) with its operands inline; a function through the
    table, compiled on first call, the call site pushed on the ASL stack, without a frame of its own."""
    name, params, args = node.args
    span = ctx.span(node)
    ps = [src(c, p, ctx, fz, depth) for p in params]
    xs = [src(c, x, ctx, fz, depth) for x in args]
    if params or (name in BUILTINS and not c.has_function(name)):
        b = BUILTINS.get(name)
        if b is None or c.has_function(name):
            raise ASLError(f"call of '{name}' with {{…}} parameters: parameterised user "
                           "functions are not supported", span, "unsupported")
        folded = builtin_folded(c, b, params, args, ctx)
        if folded is not NOCONST:
            return fz.bind(folded)
        return f"{fz.bind(b)}(({''.join(p + ', ' for p in ps)}), ({''.join(x + ', ' for x in xs)}))"
    target = c._function(name, len(args), span)
    fn = fz.bind(target)
    get = fz.bind(_compile_and_get(c._compile_func))
    # the callee is read (compiled on first call) before the arguments are evaluated, the call site pushed
    # after them; the arguments stay on Python's stack (no temporaries: nothing outlives the call), the
    # last one in a tuple with the push and the depth check (C calls: a Python function that pushed and
    # passed the value through was a frame per ASL call, a tenth of a call-heavy test)
    callee = f"({fn}.impl or {get}({fn}))"
    st, pop = fz.bind(c.stack), fz.bind(c.stack.pop)
    push = (f"{fz.bind(c.stack.append)}({fz.bind((name, span))}), "
            f"len({st}) > {MAX_DEPTH} and {fz.bind(_too_deep)}({st})")
    answers = c.answering.get(id(target))
    if answers is not None and answers.implementation is target.impl and len(xs) in (1, 2):
        return _answered(c, fz, answers, callee, xs, push, pop)
    if not xs:
        f = fz.tmp()
        return f"(({f} := {callee}), {push}, {f}(), {pop}())[3]"
    last = f"({xs[-1]}, {push})[0]"
    return f"({callee}({''.join(x + ', ' for x in xs[:-1])}{last}), {pop}())[0]"


def _answered(c: Compiler, fz: Fuser, answers: Answers, callee: str, xs: list[str], push: str, pop: str) -> str:
    """A call of a function whose repeated calls are answered (:mod:`.pure_memo`): the common case of its
    answer inline, where the callee is still that answering implementation and the answer is kept and may
    be given (this recording, this overlay, the steps and the depth at hand), with no frame and no push;
    else the call as :func:`e_call` makes it, on the values already computed. The callee is read before
    the arguments, the arguments once and in order, as in the call."""
    wrapper, table, types = (fz.bind(x) for x in answers)
    epoch, version = fz.bind(c.trail.epoch), fz.bind(c.overlay_version)
    budget, stack = fz.bind(c.budget), fz.bind(c.stack)
    got, ent = fz.tmp(), fz.tmp()
    args = [fz.tmp() for _ in xs]
    bits, free = fz.bind(Bits), fz.bind(FREE_BITS)
    typed = " and ".join(f"type({a}) is {types}[{i}] and (type({a}) is not {bits} or {a}.n <= {free})"
                         for i, a in enumerate(args))
    key = args[0] if len(args) == 1 else f"({args[0]}, {args[1]})"
    sequence = ", ".join([f"({got} := {callee})"] + [f"({a} := {x})" for a, x in zip(args, xs)])
    charge = fz.bind(c.budget.__setitem__)  # the budget's own store: a C call, not a frame
    fast = (f"({sequence}) and {got} is {wrapper} and {typed} and ({ent} := {table}.get({key})) is not None "
            f"and {ent}[4] == {epoch}[0] and {ent}[5] == {version}[0] and {budget}[0] >= {ent}[1] "
            f"and len({stack}) < {ent}[3] and {charge}(0, {budget}[0] - {ent}[1]) is None")
    last = f"({args[-1]}, {push})[0]"
    slow = f"({got}({''.join(a + ', ' for a in args[:-1])}{last}), {pop}())[0]"
    return f"({ent}[0] if {fast} else {slow})"


def _too_deep(stack: list) -> None:
    """A call site's depth check failing: the push just made nests deeper than the budget."""
    raise DepthBudgetExceeded(len(stack))


@FUSE.rule("e_field")
def e_field(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``r.f``: a record that has the field inline; anything else the closure's type error."""
    a = src(c, node.args[0], ctx, fz, depth)
    n, x = fz.bind(node.args[1]), fz.tmp()
    return f"(({x}[{n}], ({x} := None))[0] if type({x} := {a}) is dict and {n} in {x} else _no_field({x}, {n}))"


@FUSE.rule("e_index")
def e_index(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``a[[i]]``: an integer index in range inline (the array's temporary cleared), else the closure's
    code (an enumeration member's position, the range error)."""
    a = src(c, node.args[0], ctx, fz, depth)
    i = src(c, node.args[1], ctx, fz, depth)
    x, k = fz.tmp(), fz.tmp()
    slow = fz.bind(_index_slow(c._enum_pos))
    return (f"(({x}[{k}], ({x} := None))[0] if (({x} := {a}), ({k} := {i})) and type({k}) is int "
            f"and 0 <= {k} < len({x}) else {slow}({x}, {k}))")


def _index_slow(enum_pos):
    def index(arr, i):
        if type(i) is not int:
            i = enum_pos(i)
        if i < 0 or i >= len(arr):
            raise IndexError(f"array index {i} outside 0..{len(arr) - 1}")
        return arr[i]
    return index


@FUSE.rule("e_if")
def e_if(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``if c then a elsif ... else e``: Python's conditional expression, one arm evaluated."""
    arms = [(src(c, cond, ctx, fz, depth), src(c, v, ctx, fz, depth)) for cond, v in node.args[0]]
    out = src(c, node.args[1], ctx, fz, depth)
    for cond, v in reversed(arms):
        out = f"({v} if {cond} else {out})"
    return out


@FUSE.rule("e_as")
def e_as(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``x as T``: an integer in constant ranges, an unconstrained integer and a bitvector of a constant
    width inline (a value that passes), anything else ``check_as`` (which also reports the failure)."""
    a = src(c, node.args[0], ctx, fz, depth)
    ti = c._type_of(node.args[1], ctx.path)
    bounds = width = None
    try:
        if ti.kind == "int" and ti.constraints:
            bounds = [(lo({}), hi({}) if hi is not None else lo({})) for lo, hi in ti.constraints]
        elif ti.kind == "bits":
            width = ti.width({})
    except Exception:  # noqa: BLE001 - bounds that need a frame are checked at run time
        bounds = width = None
    chk, t, x = fz.bind(check_as), fz.bind(ti), fz.tmp()
    if bounds:
        test = " or ".join(f"{fz.bind(lo)} <= {x} <= {fz.bind(hi)}" for lo, hi in bounds)
        return f"({x} if type({x} := {a}) is int and ({test}) else {chk}({x}, {t}))"
    if ti.kind == "int" and not ti.constraints:
        return f"({x} if type({x} := {a}) is int else {chk}({x}, {t}))"
    if type(width) is int:
        return f"({x} if type({x} := {a}) is _Bits and {x}.n == {fz.bind(width)} else {chk}({x}, {t}))"
    return f"{chk}({a}, {t})"


@FUSE.rule("e_tuple")
def e_tuple(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``(a, b, ...)``: a tuple display."""
    items = [src(c, x, ctx, fz, depth) for x in node.args[0]]
    return f"({''.join(x + ', ' for x in items)})"


@FUSE.rule("e_arbitrary")
def e_arbitrary(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str | None:
    """``ARBITRARY : T``: the base value, made once."""
    return fz.bind(default(c._type_of(node.args[0], ctx.path)))
