"""Fused blocks: a hot function body (and a loop body, a ``case`` arm) becomes one Python function.

The statement compiler (:mod:`.compile_stmt`) turns each statement into a closure and a block into a
loop over them, so a run pays a Python call per statement and per nested block. A statement closure
that has a *source form* registers it in the compiler's ``forms`` (weakly keyed by the closure): a
tuple ``(kind, *parts)`` of the parts it already compiled (its expressions, its setter, its span).
Each form kind registers an emitter in :data:`FUSE_STMT` (one per kind, like the other tables) that
writes the statement as Python lines: its expressions inline as their fused text (:mod:`.compile_fuse`),
nested ``if`` arms inline, a covered statement's hit as one line, a ``return`` a Python ``return`` of
the 1-tuple. A statement without a form (a loop, a ``case``, a traced ``return``, one that raises a
compile-time error when reached) is called as its closure, as the block would have called it.

Tiers: a block runs as its closures until it has run :data:`HOT` times (:func:`tiered`); most of a
test's own code runs once, and compiling its text would cost more than it saves.

Exactness (nothing a run observes changes): the forms are made of the closures' own compiled parts,
so compilation, its order and its errors are the statement compiler's; each statement keeps its own
``try`` (free in CPython 3.11 until something raises) that locates a Python failure at its span,
nested exactly as the closures nested; operands are evaluated in the same order, once. Budget
charges are per call and per loop iteration, which fusing does not move.

Texts name their bindings by position (``_b0``...), so blocks of one shape share one compiled code
object (in the workspace table of the fused expressions); an instance is that code with its bindings
as its globals (not closure cells, which would be slots of every frame).
"""

from __future__ import annotations

import re
import weakref
from types import FunctionType
from typing import Any, Callable

from .compile_base import Compiler, DispatchTable, Stmt
from .compile_fuse import _ENV, _factories
from .errors import ASLAssertionError, ASLError
from .ops import hkey
from .values import Bits

FUSE_STMT: DispatchTable = DispatchTable("fused statement")
_MAX_NEST = 8  # Python allows 20 statically nested blocks; each inlined level adds a try (and a loop none)
_BIND = re.compile(r"\b_b(\d+)\b")


class Writer:
    """The lines and bindings of one fused block being written."""

    __slots__ = ("binds", "ids", "lines", "c", "unwrap")

    def __init__(self, c: Compiler, unwrap: bool = False) -> None:
        self.c = c  # its forms, and its _fail: a Python failure as the located ASLError
        self.unwrap = unwrap  # writing a whole function (fused_run): a return gives the value, not (value,)
        self.binds: list[object] = []
        self.ids: dict[int, str] = {}
        self.lines: list[str] = []

    def bind(self, obj: object) -> str:
        """The name the text uses for ``obj``; one name per object."""
        name = self.ids.get(id(obj))
        if name is None:
            self.binds.append(obj)
            name = self.ids[id(obj)] = f"_b{len(self.binds) - 1}"
        return name

    def expr(self, e: Callable) -> str:
        """``e`` as Python source: its fused text, its bindings shared with the block's (one name per
        object) and its temporaries from ``_t1`` again (an expression's temporaries are dead once its
        statement moves on), else a call."""
        src = form_of(self.c, e)
        if src is None or src[0] != "expr":
            return f"{self.bind(e)}(fr)"
        _k, text, binds = src
        names = [self.bind(b) for b in binds]
        return _BIND.sub(lambda m: names[int(m.group(1))], text)

    def result(self, r: str) -> str:
        """The return of a block's result ``r`` (a 1-tuple): as it is, or its value in a whole function."""
        return f"return {r}[0]" if self.unwrap else f"return {r}"

    def emit(self, indent: int, line: str) -> None:
        """One line at ``indent`` levels."""
        self.lines.append("    " * indent + line)

    def located(self, indent: int, span: object, body: Callable[[int], None]) -> None:
        """``body``'s lines in the statement's ``try``: a Python failure becomes an ASLError at ``span``
        (an ASLError from inside passes unchanged), as :func:`~.compile_base.guard` does."""
        self.emit(indent, "try:")
        body(indent + 1)
        self.emit(indent, "except _ASLError:")
        self.emit(indent + 1, "raise")
        self.emit(indent, "except Exception as _exc:")
        self.emit(indent + 1, f"raise {self.bind(self.c._fail)}(_exc, {self.bind(span)}) from None")


def form_of(c: Compiler, f: Callable) -> tuple | None:
    """``f``'s source form, if it registered one (a callable that cannot be weakly referenced has none)."""
    try:
        return c.forms.get(f)
    except TypeError:
        return None


def statement(w: Writer, s: Stmt, indent: int, nest: int) -> None:
    """``s`` written at ``indent``: its form's emitter, else its closure called (a result returned)."""
    form = form_of(w.c, s)
    if form is not None and nest <= _MAX_NEST:
        em = FUSE_STMT.get(form[0])
        if em is not None:
            em(w, form, indent, nest)
            return
    if form is not None and form[0] == "block":  # too deep to inline: its own fused function
        s = fused(w.c, s)
    w.emit(indent, f"if (_r := {w.bind(s)}(fr)) is not None:")
    w.emit(indent + 1, w.result("_r"))


def fused(c: Compiler, blk: Stmt) -> Stmt:
    """``blk`` (a compiled block or statement) as one Python function; ``blk`` itself when it has no
    form (nothing to gain; a fused function has none)."""
    if form_of(c, blk) is None:
        return blk
    w = Writer(c)
    block_lines(w, blk, 1, 1)
    return _function(w, "fused_block(fr)")


def fused_run(c: Compiler, blk: Stmt, names: tuple[str, ...], budget: list, refill: Callable,
              max_steps: Callable, trail: tuple) -> Callable:
    """A whole ASL function as one Python function of its parameters: the run's prologue (a budget step,
    the trail's note, ``compile_func.compile_function``'s ``run``), its frame, then ``blk`` with each ``return``
    giving the value: no frame and no 1-tuple between a call and the body."""
    epoch, current, mark, notes = trail
    w = Writer(c, unwrap=True)
    b, m, e = w.bind(budget), w.bind(mark), w.bind(epoch)
    w.emit(1, f"{b}[0] -= 1")
    w.emit(1, f"if {b}[0] < 0:")
    w.emit(2, f"{w.bind(refill)}({b}, {w.bind(max_steps)}())")
    w.emit(1, f"if {m}[0] != {e}[0]:")
    w.emit(2, f"{m}[0] = {e}[0]")
    w.emit(2, f"{w.bind(current)}[0].update({w.bind(notes)})")
    params = [f"_p{i}" for i in range(len(names))]
    w.emit(1, "fr = {" + ", ".join(f"{w.bind(n)}: {p}" for n, p in zip(names, params)) + "}")
    block_lines(w, blk, 1, 1)
    return _function(w, f"fused_run({', '.join(params)})")


def _function(w: Writer, signature: str) -> Callable:
    """The function ``def <signature>:`` over ``w``'s lines, its code shared by every text like it."""
    text = "\n".join(w.lines)
    key = (signature, text)
    code = _factories().get(key)
    if code is None:
        scope: dict[str, Any] = {}
        exec(compile(f"def {signature}:\n{text}\n", "<fused ASL block>", "exec"), _ENV, scope)  # noqa: S102
        code = _factories()[key] = scope[signature.split("(")[0]].__code__
    # the bindings are the function's globals, not closure cells: a cell is a slot of every frame, and a
    # frame of hundreds of slots makes CPython's frame stack map and unmap a chunk on calls at its edge
    glob = dict(_ENV)
    glob.update((f"_b{i}", b) for i, b in enumerate(w.binds))
    return FunctionType(code, glob)


HOT = 8  # runs of a block before it is fused: code run once (most of a test's own) costs less as closures


def tiered(c: Compiler, blk: Stmt, install: Callable[[Stmt], None]) -> Stmt:
    """``blk`` as its closures until it has run :data:`HOT` times, then ``install(blk)`` puts its fused
    form where the caller keeps ``blk`` (a closure cell, a table), so later runs pay nothing here.

    Compiling a block's text costs about as much as a few dozen runs of its closures, so only code that
    runs again is worth it (a tiered JIT's reasoning); a result does not depend on which tier ran it.
    The caller keeps ``install`` alive (``c.tiers[<the closure that runs blk>]``): held here only weakly,
    a test's compiled code has no cycle and is freed the moment the test ends, not by a collection."""
    if form_of(c, blk) is None:
        return blk
    left = [HOT]
    put = weakref.ref(install)

    def cold(fr):
        left[0] -= 1
        if left[0] == 0:
            to = put()
            if to is not None:
                to(blk)
        return blk(fr)
    return cold


def block_lines(w: Writer, blk: Stmt | None, indent: int, nest: int) -> None:
    """A nested block's lines (``pass`` when it writes none)."""
    n = len(w.lines)
    if blk is not None:
        statement(w, blk, indent, nest)
    if len(w.lines) == n:
        w.emit(indent, "pass")


@FUSE_STMT.rule("block")
def f_block(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """A statement sequence: each statement in turn; a ``return`` inside returns from the function."""
    for s in form[1]:
        statement(w, s, indent, nest)


@FUSE_STMT.rule("covered")
def f_covered(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """A statement while coverage is measured: its position recorded, then the statement."""
    _k, flags, i, s = form
    w.emit(indent, f"{w.bind(flags)}[{i}] = 1")
    statement(w, s, indent, nest)


@FUSE_STMT.rule("empty")
def f_empty(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """An empty block or ``pass``: no line."""


@FUSE_STMT.rule("return")
def f_return(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``return e;``: the 1-tuple."""
    _k, e, span = form
    w.located(indent, span, lambda i: w.emit(i, f"return {w.expr(e)}" if w.unwrap else f"return ({w.expr(e)},)"))


@FUSE_STMT.rule("return_none")
def f_return_none(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``return;``: the 1-tuple of None."""
    w.emit(indent, "return None" if w.unwrap else "return (None,)")


@FUSE_STMT.rule("decl")
def f_decl(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``let x = e;``: the frame's key stored."""
    _k, name, e, span = form
    w.located(indent, span, lambda i: w.emit(i, f"fr[{w.bind(name)}] = {w.expr(e)}"))


@FUSE_STMT.rule("decl_value")
def f_decl_value(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``var x : T;``: the base value made at compile time (nothing can fail)."""
    _k, name, value = form
    w.emit(indent, f"fr[{w.bind(name)}] = {w.bind(value)}")


@FUSE_STMT.rule("decl_width")
def f_decl_width(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``let x : bits(N) = e;`` with N constant: the width tested inline."""
    _k, name, e, n, what, mismatch, span = form
    v = "_v"  # the statement's own value: not an expression temporary

    def body(i: int) -> None:
        w.emit(i, f"if type({v} := {w.expr(e)}) is not _Bits or {v}.n != {w.bind(n)}:")
        w.emit(i + 1, f"raise {w.bind(mismatch)}({w.bind(what)}, {w.bind(n)}, {v})")
        w.emit(i, f"fr[{w.bind(name)}] = {v}")
    w.located(indent, span, body)


@FUSE_STMT.rule("decl_test")
def f_decl_test(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``let x : T = e;`` with a check that needs the frame: the check called, then stored."""
    _k, name, e, test, span = form
    v = "_v"

    def body(i: int) -> None:
        w.emit(i, f"{w.bind(test)}(fr, {v} := {w.expr(e)})")
        w.emit(i, f"fr[{w.bind(name)}] = {v}")
        w.emit(i, f"{v} = None")  # a record held here would be copied by the next update (refcount)
    w.located(indent, span, body)


@FUSE_STMT.rule("assign")
def f_assign(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``target = e;``: the right side, then the setter."""
    _k, setter, e, span = form
    w.located(indent, span, lambda i: w.emit(i, f"{w.bind(setter)}(fr, {w.expr(e)})"))


@FUSE_STMT.rule("call")
def f_call(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``F(args);``: the call, its result dropped."""
    _k, call, span = form
    w.located(indent, span, lambda i: w.emit(i, w.expr(call)))


@FUSE_STMT.rule("assert")
def f_assert(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``assert c;``: FALSE raises the located assertion with the ASL stack."""
    _k, cond, snapshot, span = form
    s = w.bind(span)

    def body(i: int) -> None:
        w.emit(i, f"if not {w.expr(cond)}:")
        w.emit(i + 1, f"raise _ASLAssertionError('assertion failed', {s}, 'assert', {w.bind(snapshot)}({s}))")
    w.located(indent, span, body)


@FUSE_STMT.rule("if")
def f_if(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``if/elsif/else``: one Python ``if`` chain, every arm inline, in the statement's ``try``."""
    _k, arms, els, span = form

    def body(i: int) -> None:
        for k, (cond, blk) in enumerate(arms):
            w.emit(i, f"{'if' if k == 0 else 'elif'} {w.expr(cond)}:")
            block_lines(w, blk, i + 1, nest + 1)
        if els is not None:
            w.emit(i, "else:")
            block_lines(w, els, i + 1, nest + 1)
    w.located(indent, span, body)


@FUSE_STMT.rule("case")
def f_case(w: Writer, form: tuple, indent: int, nest: int) -> None:
    """``case`` with constant patterns: one dict lookup, the arm (its own function) called."""
    _k, subject, arms, other, no_match, span = form

    def body(i: int) -> None:
        w.emit(i, f"if (_a := {w.bind(arms)}.get(_hkey(_v := {w.expr(subject)}))) is None:")
        w.emit(i + 1, f"if (_a := {w.bind(other)}[0]) is None:")
        w.emit(i + 2, f"{w.bind(no_match)}(_v)")
        w.emit(i, "if (_r := _a(fr)) is not None:")
        w.emit(i + 1, w.result("_r"))
    w.located(indent, span, body)


_ENV.update(_hkey=hkey, _ASLError=ASLError, _ASLAssertionError=ASLAssertionError, _Bits=Bits)
