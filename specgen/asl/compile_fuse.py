"""Fused expressions: a whole ASL expression tree becomes one Python function.

The expression compiler (:mod:`.compile_expr`) turns each node into a closure
``f(frame) -> value``; evaluating ``x.a == K || F(y)`` then costs a Python
call per node. Here each node kind that has a *source form* registers an
emitter in :data:`FUSE` (one per kind, like the other tables): it writes the
node as a Python expression over its children's source forms, and the root of
an expression is compiled once into one function, so an evaluation costs one
Python call plus one per ASL function it calls. A node without a source form
(or a subtree nested too deeply for one Python expression) stays the closure
its :data:`~specgen.asl.compile_expr.EXPR` handler builds and is called from
the fused text (``_b3(fr)``).

Exactness (nothing a run observes changes): an emitter resolves names, folds
constants and compiles its children in the order its ``EXPR`` handler does,
and its text evaluates the operands in the same order, exactly once. Every
check the closure makes has an inline fast path for the common case (a small
integer, a record that has the field, an index in range) and otherwise calls
the closure's own code on the values already computed (``_eq_slow``,
``_cmp_slow``, ``_no_field``, ...), so the results, the budget charges and
every error (type, message, location: the statement's ``try`` still locates
it) are those of the closure. Operands are kept in walrus temporaries
(``_t1 := ...``): locals of the fused frame, which the memory budget's count
of live state reads as it read the closures' locals.

The generated text names what it binds positionally (``_b0``, ``_b1``, ...:
constants, frame keys, callees), so expressions of one shape share one
compiled factory (:func:`_factories`, kept in the workspace); an instance is the factory applied to
its bindings (closure cells).
"""

from __future__ import annotations

from typing import Any, Callable

from .ast import Node
from .budget import FREE_BITS
from .compile_base import Compiler, DispatchTable, Expr, Scope
from .ops import _lnot, cmp_type, slice_read, touched
from .values import Bits, show
from ..workspace import current

FUSE: DispatchTable = DispatchTable("fused expression")
_MAX_DEPTH = 24  # deeper subtrees are fused apart (Python's parser bounds one expression's nesting)
_FREE = 1 << FREE_BITS


class Fuser:
    """The bindings and temporaries of one fused expression being written."""

    __slots__ = ("binds", "temps")

    def __init__(self) -> None:
        self.binds: list[object] = []
        self.temps = 0

    def bind(self, obj: object) -> str:
        """The name the text uses for ``obj`` (a constant, a callee, a frame key)."""
        self.binds.append(obj)
        return f"_b{len(self.binds) - 1}"

    def tmp(self) -> str:
        """A fresh walrus temporary."""
        self.temps += 1
        return f"_t{self.temps}"

    def closure(self, f: Expr) -> str:
        """A call of an unfused closure on the frame."""
        return f"{self.bind(f)}(fr)"


Emitter = Callable[[Compiler, Node, Scope, Fuser, int], "str | None"]


def src(c: Compiler, node: Node, ctx: Scope, fz: Fuser, depth: int) -> str:
    """``node`` as Python source over ``fr``: its emitter's text, else its closure called.

    An emitter answers None, before it compiles or resolves anything, for a node it has no source
    form of; the node is then its closure."""
    em = FUSE.get(node.kind)
    if em is not None and depth <= _MAX_DEPTH:
        text = em(c, node, ctx, fz, depth + 1)
        if text is not None:
            return text
    return fz.closure(c._expr(node, ctx))


def _factories() -> dict[tuple[str, int], Callable[..., Expr]]:
    """Each fused text's compiled factory, in the workspace's table: a server's texts die with it."""
    return current().table("asl.compile_fuse.factories")


_ENV: dict[str, Any] = {}  # the helpers every fused text may name (filled below)


def build(text: str, fz: Fuser) -> Expr:
    """The function evaluating ``text`` over ``fr`` with ``fz``'s bindings.

    A text not compiled before is compiled when the expression first runs: a function compiles every
    statement of its body, most branches of a test's code never run, and a hot statement runs its
    expressions inline in its fused block (:mod:`.compile_fuse_stmt`), not through this function;
    compiling every text with its function cost 3 % of 1,500 consecutive tests of 0.58.3 (9 % of a
    sample of every seventh)."""
    binds = fz.binds
    if text == "_b0(fr)" and len(binds) == 1:  # nothing fused: the closure itself
        return binds[0]  # type: ignore[return-value]
    key = (text, len(binds))
    make = _factories().get(key)
    if make is not None:
        return make(*binds)
    compiled: list[Expr] = []

    def first(fr):
        if not compiled:
            compiled.append(_make(key)(*binds))
        return compiled[0](fr)
    return first


def _make(key: tuple[str, int]) -> Callable[..., Expr]:
    make = _factories().get(key)
    if make is None:
        text, n = key
        params = ", ".join(f"_b{i}" for i in range(n))
        code = f"def _make({params}):\n    def fused(fr):\n        return {text}\n    return fused\n"
        scope: dict[str, Any] = {}
        exec(compile(code, "<fused ASL expression>", "exec"), _ENV, scope)  # noqa: S102 - our own text
        make = _factories()[key] = scope["_make"]
    return make


def fuse(c: Compiler, node: Node, ctx: Scope) -> Expr | None:
    """The compiled expression ``node`` as one fused function; None when its kind has no source form
    (then its ``EXPR`` closure is the compiled expression)."""
    em = FUSE.get(node.kind)
    if em is None:
        return None
    fz = Fuser()
    text = em(c, node, ctx, fz, 1)
    if text is None:
        return None
    f = build(text, fz)
    if f is not fz.binds[0]:
        c.forms[f] = ("expr", text, fz.binds)  # a fused block inlines the text (compile_fuse_stmt)
    return f


# ------------------------------------------------------------ the closures' own code, on values
def _eq_slow(x: object, y: object) -> bool:
    touched(x)
    return x == y


def _ne_slow(x: object, y: object) -> bool:
    touched(x)
    return x != y


def _cmp_slow(f: Callable, x: object, y: object) -> object:
    if type(x) is Bits or type(y) is Bits:
        cmp_type(x, y)
    if type(x) is int and not -_FREE < x < _FREE:
        touched(x)
    return f(x, y)


def _no_field(r: object, fname: str) -> object:
    try:
        return r[fname]  # type: ignore[index]
    except (KeyError, TypeError):
        raise TypeError(f"{show(r)} has no field '{fname}'") from None


_ENV.update(_F=_FREE, _Bits=Bits, _eq_slow=_eq_slow, _ne_slow=_ne_slow, _cmp_slow=_cmp_slow,
            _no_field=_no_field, _lnot=_lnot, _slice_read=slice_read)
