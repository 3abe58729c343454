"""Declared widths hold: what is stored into a ``bits(N)`` storage element has N bits.

ASLRef's type checker rejects ``var x : bits(8) = Zeros{8}; x = Zeros{16};``
and ``let x : bits(4) = Zeros{n}`` with ``n`` = 100; without these checks the
interpreter stored the wrong value and ran on. A width is read once from the
declaration: a constant when it folds (``bits(64)``, a type alias, a global
constant), else a closure over the frame (``bits(esize)`` naming a local or a
parameter), evaluated when the value is stored. The checks, each a
``type`` error at the statement that stores:

- a local declared with a bitvector type: its initial value and every
  assignment to it (:func:`remember` notes the width in the compile context);
- a global ``var`` of a bitvector type: every assignment;
- a parameter of a bitvector type: the argument, on entry (the error is at
  the call);
- a function declared to return a bitvector: every ``return``.

Not checked (docs-internal/asl-interpreter.md, "Width checks"): a local
declared without a type, record fields and array elements (their container's
type is not known where they are assigned), and widths of implicit ``{N}``
parameters, which the interpreter does not support.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .ast import FuncDecl, Node
from .compile_base import Compiler, Scope, Undefined
from .compile_call import fold
from .compile_types import bits_width
from .errors import ASLError
from .values import Bits, show

Width = int | Callable[[dict], object]


class Check(NamedTuple):
    """A declared width's check: ``test(fr, v)`` raises a ``TypeError`` naming ``what`` unless ``v`` is a
    bits of the width; ``width`` is the width when it is a constant (None: read from the frame), so the
    hottest callers (a call's arguments, a ``return``, a local's store) test it inline instead."""

    test: Callable[[dict, object], None]
    width: int | None
    what: str


def declared_width(c: Compiler, ty: Node | None, ctx: Scope) -> Width | None:
    """The width a declared type demands (an int, or a closure over the frame); None when it is not a
    bitvector, or when the width cannot be compiled here (the declaration reports that itself)."""
    if ty is None:
        return None
    if ty.kind == "t_bits":
        k = fold(c, ty.args[0], ctx)
        if type(k) is int:
            return k
        try:
            return c._expr(ty.args[0], ctx)
        except (Undefined, ASLError):
            return None
    if ty.kind == "t_named":
        try:
            ti = c._named_type(ty.args[0], ctx.span(ty))
            if ti.kind == "bits":
                n = ti.width({})
                return n if type(n) is int else None
        except Exception:  # noqa: BLE001 - an alias whose width needs a frame: left unchecked
            return None
    return None


def _given(v: object) -> str:
    return f"a bits({v.n})" if type(v) is Bits else show(v)


def mismatch(what: str, n: int, v: object) -> TypeError:
    """The error for a value ``v`` stored where ``what`` is declared ``bits(n)``."""
    return TypeError(f"{what} is declared bits({n}), given {_given(v)}")


def check(width: Width, what: str) -> Check:
    """The :class:`Check` that a stored value has the declared ``width``."""
    if type(width) is int:
        n = width

        def check_const(fr: dict, v: object) -> None:
            if type(v) is not Bits or v.n != n:
                raise mismatch(what, n, v)
        return Check(check_const, n, what)
    w = width

    def check_frame(fr: dict, v: object) -> None:
        n = bits_width(w(fr))  # type: ignore[operator]
        if type(v) is not Bits or v.n != n:
            raise mismatch(what, n, v)
    return Check(check_frame, None, what)


def remember(c: Compiler, name: str, ty: Node | None, ctx: Scope) -> Check | None:
    """Note a local's declared width for the assignments compiled after it; its check, or None."""
    width = declared_width(c, ty, ctx)
    if width is None:
        ctx.widths.pop(name, None)
        return None
    found = check(width, f"'{name}'")
    ctx.widths[name] = found
    return found


def global_check(c: Compiler, name: str) -> Check | None:
    """The check of an assignment to the global ``var name``, when it is declared a bitvector."""
    g = c._global_decl(name)
    if g is None:
        return None
    width = declared_width(c, g.ty, Scope(g.path, set(), f"<global {name}>"))
    return check(width, f"global '{name}'") if width is not None else None


class Entry(NamedTuple):
    """A function's parameter checks: constant widths by argument position (tested inline by the
    call), and the checks whose width needs the frame."""

    consts: tuple[tuple[int, int, str], ...]  # (argument index, width, what)
    frame: Callable[[dict], None] | None


def entry(c: Compiler, decl: FuncDecl, ctx: Scope) -> Entry | None:
    """The checks of a function's bitvector parameters on entry (and note their widths and the declared
    result's for its body); None when it has none, so such a function pays nothing."""
    consts: list[tuple[int, int, str]] = []
    dynamic: list[tuple[str, Callable[[dict, object], None]]] = []
    for i, (name, ty) in enumerate(decl.params):
        if remember(c, name, ty, ctx) is None:
            continue
        found = check(declared_width(c, ty, ctx), f"argument '{name}' of {decl.name}")  # type: ignore[arg-type]
        if found.width is not None:
            consts.append((i, found.width, found.what))
        else:
            dynamic.append((name, found.test))
    ret = declared_width(c, decl.ret, ctx)
    ctx.returns = check(ret, f"the result of {decl.name}") if ret is not None else None
    if not consts and not dynamic:
        return None
    frame = None
    if dynamic:
        items = tuple(dynamic)

        def frame(fr: dict) -> None:
            for p, chk in items:
                chk(fr, fr[p])
    return Entry(tuple(consts), frame)


__all__ = ["Entry", "check", "declared_width", "entry", "global_check", "mismatch", "remember"]
