"""The ASL evaluator: AST nodes compiled once to Python closures.

A function body is compiled the first time it is called; each expression
becomes a closure ``f(frame) -> value`` and each statement a closure
``s(frame) -> None | (value,)`` (a 1-tuple signals ``return``). Names are
resolved at compile time (local, global, constant, enum member, function,
built-in), so running a test does no dictionary search beyond the frame.

Definitions come lazily from a :class:`~specgen.asl.index.SpecIndex`
(only what a run reaches is unpickled and compiled) plus an overlay of
extra modules (a test file). Names that nothing defines compile to a
closure that raises when evaluated, because the upstream build splices in
generated decoders; see :mod:`specgen.asl.generated`.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Callable, Iterable

from specgen.diagnostics import Span

from .ast import Decl, FuncDecl, GlobalDecl, Module, Node, TypeDecl
from .errors import ASLAssertionError, ASLError, NeedsGenerated
from .index import SpecIndex
from .stdlib import BUILTINS, BuiltinError
from .values import Bits, show

_getrefcount = sys.getrefcount
Frame = dict
Expr = Callable[[Frame], object]
Stmt = Callable[[Frame], object]


class _Undefined(Exception):
    """Raised at compile time for a name nothing defines (turned into a lazy error)."""


# ------------------------------------------------------------ operators
def _add(a, b):
    ta = type(a)
    if ta is Bits:
        n = a.n
        return Bits((a.v + (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    if type(b) is Bits:
        n = b.n
        return Bits((a + b.v) & ((1 << n) - 1), n)
    return a + b


def _sub(a, b):
    ta = type(a)
    if ta is Bits:
        n = a.n
        return Bits((a.v - (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    if type(b) is Bits:
        n = b.n
        return Bits((a - b.v) & ((1 << n) - 1), n)
    return a - b


def _mul(a, b):
    if type(a) is Bits:
        n = a.n
        return Bits((a.v * (b.v if type(b) is Bits else b)) & ((1 << n) - 1), n)
    return a * b


def _and(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"AND of bits({a.n}) and {show(b)}")
        return Bits(a.v & b.v, a.n)
    return a & b


def _or(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"OR of bits({a.n}) and {show(b)}")
        return Bits(a.v | b.v, a.n)
    return a | b


def _xor(a, b):
    if type(a) is Bits:
        if type(b) is not Bits or a.n != b.n:
            raise TypeError(f"XOR of bits({a.n}) and {show(b)}")
        return Bits(a.v ^ b.v, a.n)
    return a ^ b


def _div(a, b):
    if b == 0:
        raise ZeroDivisionError("DIV by zero")
    q, r = divmod(a, b)
    if r:
        raise ArithmeticError(f"DIV of {a} by {b} is not exact (use DIVRM)")
    return q


def _divrm(a, b):
    if b == 0:
        raise ZeroDivisionError("DIVRM by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise ZeroDivisionError("MOD by zero")
    return a % b


def _rdiv(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return Fraction(a) / b


def _pow(a, b):
    if isinstance(a, Fraction):
        return a**b
    if b < 0:
        return Fraction(a) ** b
    return a**b


def _shl(a, b):
    return a << b


def _shr(a, b):
    return a >> b


def _cmp_type(a, b) -> None:
    if type(a) is Bits or type(b) is Bits:
        raise TypeError(f"ordering comparison of {show(a)} and {show(b)}")


def _lt(a, b):
    return a < b


def _le(a, b):
    return a <= b


def _gt(a, b):
    return a > b


def _ge(a, b):
    return a >= b


def _eq(a, b):
    return a == b


def _ne(a, b):
    return a != b


def _concat(a, b):
    if type(a) is Bits and type(b) is Bits:
        return Bits((a.v << b.n) | b.v, a.n + b.n)
    return a + b


_BINOPS: dict[str, Callable] = {
    "+": _add, "-": _sub, "*": _mul, "AND": _and, "OR": _or, "XOR": _xor,
    "DIV": _div, "DIVRM": _divrm, "MOD": _mod, "/": _rdiv, "^": _pow,
    "<<": _shl, ">>": _shr, "<": _lt, "<=": _le, ">": _gt, ">=": _ge,
    "==": _eq, "!=": _ne, "++": _concat,
}


def _not(a):
    if type(a) is Bits:
        return Bits(a.v ^ ((1 << a.n) - 1), a.n)
    raise TypeError(f"NOT of {show(a)}")


def _neg(a):
    if type(a) is Bits:
        return Bits((-a.v) & ((1 << a.n) - 1), a.n)
    return -a


def _lnot(a):
    if type(a) is not bool:
        raise TypeError(f"'!' of {show(a)}")
    return not a


_UNOPS = {"NOT": _not, "-": _neg, "!": _lnot}


def _slice_read(value, lo: int, width: int) -> Bits:
    if type(value) is Bits:
        if lo < 0 or width < 0 or lo + width > value.n:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({value.n})")
        return Bits((value.v >> lo) & ((1 << width) - 1), width)
    if type(value) is int:
        if lo < 0 or width < 0:
            raise IndexError(f"slice [{lo + width - 1}:{lo}] of an integer")
        return Bits((value >> lo) & ((1 << width) - 1), width)
    raise TypeError(f"slice of {show(value)}")


def _slice_write(old, lo: int, width: int, new) -> Bits:
    if type(old) is not Bits:
        raise TypeError(f"slice assignment into {show(old)}")
    if lo < 0 or lo + width > old.n:
        raise IndexError(f"slice [{lo + width - 1}:{lo}] out of range for bits({old.n})")
    nv = new.v if type(new) is Bits else new
    if type(new) is Bits and new.n != width:
        raise TypeError(f"assigning bits({new.n}) to a {width}-bit slice")
    mask = ((1 << width) - 1) << lo
    return Bits((old.v & ~mask) | ((nv << lo) & mask), old.n)


# ------------------------------------------------------------ types
class TypeInfo:
    """A resolved type: enough to build a default value and check ``as``."""

    __slots__ = ("kind", "width", "constraints", "elem", "size", "enum", "fields", "items", "name")

    def __init__(self, kind: str, **kw) -> None:
        self.kind = kind  # int, bool, real, string, bits, enum, record, array, tuple
        self.width = kw.get("width")  # Expr for bits
        self.constraints = kw.get("constraints")  # list[(Expr, Expr|None)]
        self.elem = kw.get("elem")
        self.size = kw.get("size")  # Expr (or enum TypeInfo)
        self.enum = kw.get("enum")  # tuple of member names
        self.fields = kw.get("fields")  # list[(name, TypeInfo)]
        self.items = kw.get("items")
        self.name = kw.get("name", "")


class _Func:
    """A lazily compiled ASL function (or a Python hook)."""

    __slots__ = ("decl", "impl", "name")

    def __init__(self, name: str, decl: FuncDecl | None, impl: Callable | None = None) -> None:
        self.name = name
        self.decl = decl
        self.impl = impl


class Interpreter:
    """Runs ASL definitions of one spec tree.

    ``Interpreter(index)`` (or ``Interpreter.from_root(path)``) loads
    nothing until a function is called. ``load_module(module)`` overlays a
    parsed file (e.g. a test) whose definitions win over the tree's;
    ``reset()`` drops all global state (and the overlay) so one interpreter
    can run many tests without re-compiling the tree.
    """

    def __init__(
        self,
        index: SpecIndex | None = None,
        modules: Iterable[Module] = (),
        hooks: dict[str, Callable] | None = None,
        synthesize_generated: bool = True,
        generated: Iterable[Module] = (),
    ) -> None:
        self.index = index
        self.globals: dict[str, object] = {}
        self.stack: list[tuple[str, Span]] = []
        self.hooks: dict[str, Callable] = dict(hooks or {})
        self.synthesize_generated = synthesize_generated
        self._overlay: dict[str, list[Decl]] = {}
        self._gen: dict[str, list[Decl]] = {}
        for gm in generated:
            for d in gm.decls:
                self._gen.setdefault(d.name, []).append(d)
                if isinstance(d, TypeDecl) and d.form == "enum":
                    for m in d.payload:  # type: ignore[union-attr]
                        self._gen.setdefault(m, []).append(d)
        self._overlay_compiled: dict[tuple[str, int], _Func] = {}
        self._funcs: dict[tuple[str, int], _Func] = {}
        self._types: dict[str, TypeInfo] = {}
        self._consts: dict[str, object] = {}
        self._enum_of_member: dict[str, tuple[str, int]] = {}
        self._gdecls: dict[str, GlobalDecl] = {}
        from .generated import GeneratedNames

        self.generated = GeneratedNames(index)
        self.compiled_functions = 0
        for m in modules:
            self.load_module(m)

    @classmethod
    def from_root(cls, root, **kw) -> "Interpreter":
        """An interpreter over ``root``'s ASL plus the ASL generated from its catalog."""
        from .index import build_index
        from .synth import generated_modules

        if "generated" not in kw:  # not setdefault: the shards cost seconds to unpickle
            kw["generated"] = generated_modules(root)
        return cls(build_index(root), **kw)

    # ------------------------------------------------------------ loading
    def load_module(self, module: Module) -> None:
        """Overlay a parsed module (its definitions shadow the tree's)."""
        for d in module.decls:
            self._overlay.setdefault(d.name, []).append(d)
            if isinstance(d, TypeDecl) and d.form == "enum":
                for i, m in enumerate(d.payload):  # type: ignore[arg-type]
                    self._overlay.setdefault(m, []).append(d)

    def reset(self) -> None:
        """Forget global variables, the call stack and the overlay."""
        self.globals.clear()
        self.stack.clear()
        if self._overlay:
            overlay_names = set(self._overlay)
            self._overlay.clear()
            self._overlay_compiled.clear()
            # compiled tree code never refers to overlay names, but cached
            # types/constants from the overlay must go
            for n in overlay_names:
                self._types.pop(n, None)
                self._consts.pop(n, None)
                self._enum_of_member.pop(n, None)
                self._gdecls.pop(n, None)

    def _decls(self, name: str) -> tuple[list[Decl], bool]:
        """Declarations of ``name`` and whether they come from the overlay."""
        ov = self._overlay.get(name)
        if ov:
            return ov, True
        if self.index is not None:
            found = self.index.lookup(name)
            if found:
                return found, False
        return self._gen.get(name, []), False

    # ------------------------------------------------------------ public
    def call(self, name: str, *args: object) -> object:
        """Call an ASL function from Python.

        ``int`` arguments are converted to ``bits(N)`` where the parameter is
        a bitvector; enum members are passed as their name strings.
        """
        fn = self._function(name, len(args), None)
        if fn.decl is not None and fn.impl is None:
            self._compile_func(fn)
        conv = []
        decl = fn.decl
        for i, a in enumerate(args):
            if decl is not None and type(a) is int and not isinstance(a, bool):
                ti = self._type_of(decl.params[i][1], decl.path)
                if ti.kind == "bits":
                    n = ti.width({})
                    a = Bits(a & ((1 << n) - 1), n)
            conv.append(a)
        self.stack.clear()
        self.stack.append((name, Span(decl.path, decl.line, decl.col) if decl else Span("<python>")))
        try:
            result = fn.impl(*conv)  # type: ignore[misc]
            self.stack.pop()
            return result
        except ASLError:
            raise
        except RecursionError:
            raise ASLError("ASL call depth exceeded", Span(decl.path if decl else "<python>", decl.line if decl else 0),
                           "runtime", self._snapshot(None)) from None

    def get_global(self, name: str) -> object:
        """The current value of a global variable or constant."""
        if name in self.globals:
            return self.globals[name]
        return self._global_value(name, None)

    def set_global(self, name: str, value: object) -> None:
        self._global_value(name, None)
        self.globals[name] = value

    def enum_members(self, type_name: str) -> tuple[str, ...]:
        ti = self._named_type(type_name, Span("<python>"))
        if ti.kind != "enum":
            raise ASLError(f"'{type_name}' is not an enumeration", Span("<python>"), "type")
        return ti.enum

    def has_function(self, name: str) -> bool:
        decls, _ = self._decls(name)
        return name in self.hooks or any(isinstance(d, FuncDecl) for d in decls)

    # ------------------------------------------------------------ errors
    def _snapshot(self, span: Span | None) -> tuple[tuple[str, Span], ...]:
        st = self.stack
        out = []
        for i, (name, _callsite) in enumerate(st):
            where = st[i + 1][1] if i + 1 < len(st) else span
            out.append((name, where or _callsite))
        return tuple(out)

    def _wrap(self, exc: BaseException, span: Span) -> ASLError:
        if isinstance(exc, ASLError):
            return exc
        if isinstance(exc, BuiltinError):
            return ASLError(str(exc), span, "runtime", self._snapshot(span))
        if isinstance(exc, TypeError):
            return ASLError(f"type error: {exc}", span, "type", self._snapshot(span))
        if isinstance(exc, (ZeroDivisionError, ArithmeticError)):
            return ASLError(f"arithmetic error: {exc}", span, "runtime", self._snapshot(span))
        if isinstance(exc, IndexError):
            return ASLError(f"index error: {exc}", span, "runtime", self._snapshot(span))
        if isinstance(exc, RecursionError):
            return ASLError("ASL call depth exceeded", span, "runtime", self._snapshot(span))
        return ASLError(f"internal evaluation error: {type(exc).__name__}: {exc}", span,
                        "runtime", self._snapshot(span))

    # ------------------------------------------------------------ names
    def _function(self, name: str, arity: int, span: Span | None) -> _Func:
        key = (name, arity)
        fn = self._overlay_compiled.get(key) or self._funcs.get(key)
        if fn is not None:
            return fn
        if name in self.hooks:
            hook = self.hooks[name]
            if getattr(hook, "wants_original", False):
                original = self._asl_function(name, arity, span)
                compile_func = self._compile_func

                def call_original(*args, _o=original):
                    if _o.impl is None:
                        compile_func(_o)
                    return _o.impl(*args)

                fn = _Func(name, None, lambda *a, _h=hook: _h(call_original, *a))
            else:
                fn = _Func(name, None, hook)
            self._funcs[key] = fn
            return fn
        return self._asl_function(name, arity, span)

    def _asl_function(self, name: str, arity: int, span: Span | None) -> _Func:
        key = (name, arity)
        decls, from_overlay = self._decls(name)
        funcs = [d for d in decls if isinstance(d, FuncDecl) and len(d.params) == arity]
        if not funcs:
            if name in BUILTINS:
                b = BUILTINS[name]
                fn = _Func(name, None, lambda *a, _b=b: _b((), a))
                self._funcs[key] = fn
                return fn
            if any(isinstance(d, FuncDecl) for d in decls):
                raise ASLError(f"no overload of '{name}' takes {arity} argument(s)",
                               span, "type")
            raise _Undefined(name)
        impl = [d for d in funcs if d.is_implementation]
        chosen = impl or [d for d in funcs if not d.is_impdef] or funcs
        fn = _Func(name, chosen[0])
        if len(chosen) > 1:
            fn = _Func(name, None, self._overload_dispatch(name, chosen))
        (self._overlay_compiled if from_overlay else self._funcs)[key] = fn
        return fn

    def _overload_dispatch(self, name: str, decls: list[FuncDecl]) -> Callable:
        subs = [_Func(name, d) for d in decls]

        def dispatch(*args):
            for f in subs:
                if all(self._value_fits(a, self._type_of(p[1], f.decl.path))
                       for a, p in zip(args, f.decl.params)):
                    if f.impl is None:
                        self._compile_func(f)
                    return f.impl(*args)
            raise TypeError(f"no overload of {name} accepts ({', '.join(show(a) for a in args)})")

        return dispatch

    def _value_fits(self, v: object, ti: TypeInfo) -> bool:
        k = ti.kind
        if k == "bits":
            return type(v) is Bits and v.n == ti.width({})
        if k == "int":
            return type(v) is int
        if k == "bool":
            return type(v) is bool
        if k == "enum":
            return isinstance(v, str) and v in ti.enum
        if k == "real":
            return isinstance(v, Fraction)
        if k == "record":
            return isinstance(v, dict)
        if k == "array":
            return isinstance(v, list)
        return True

    def _enum_member(self, name: str) -> tuple[str, int] | None:
        hit = self._enum_of_member.get(name)
        if hit is not None:
            return hit
        decls, _ = self._decls(name)
        for d in decls:
            if isinstance(d, TypeDecl) and d.form == "enum":
                pos = d.payload.index(name)  # type: ignore[union-attr]
                self._enum_of_member[name] = (d.name, pos)
                return (d.name, pos)
        return None

    def _global_decl(self, name: str) -> GlobalDecl | None:
        g = self._gdecls.get(name)
        if g is not None:
            return g
        decls, _ = self._decls(name)
        for d in decls:
            if isinstance(d, GlobalDecl):
                self._gdecls[name] = d
                return d
        return None

    def _global_value(self, name: str, span: Span | None) -> object:
        """Initialise (if needed) and return a global's value."""
        if name in self._consts:
            return self._consts[name]
        if name in self.globals:
            return self.globals[name]
        g = self._global_decl(name)
        if g is None:
            raise _Undefined(name)
        gspan = Span(g.path, g.line, g.col)
        if g.init is not None:
            value = self._expr(g.init, _Ctx(g.path, set(), f"<global {name}>"))({})
        else:
            value = self._default(self._type_of(g.ty, g.path))
        if g.kind in ("constant", "config", "let"):
            self._consts[name] = value
        else:
            self.globals[name] = value
        _ = gspan
        return value

    # ------------------------------------------------------------ types
    def _named_type(self, name: str, span: Span) -> TypeInfo:
        ti = self._types.get(name)
        if ti is not None:
            return ti
        decls, _ = self._decls(name)
        tdecl = next((d for d in decls if isinstance(d, TypeDecl)), None)
        if tdecl is None:
            if self.synthesize_generated and self.generated.is_type(name):
                ti = TypeInfo("enum", enum=(), name=name)
                self._types[name] = ti
                return ti
            raise ASLError(f"unknown type '{name}'", span, "unknown-name", self._snapshot(span))
        if tdecl.form == "enum":
            ti = TypeInfo("enum", enum=tdecl.payload, name=name)
        elif tdecl.form == "record":
            ti = TypeInfo("record", fields=[], name=name)
            self._types[name] = ti  # allow recursion through arrays
            ti.fields = [(f, self._type_of(t, tdecl.path)) for f, t in tdecl.payload]  # type: ignore[union-attr]
            return ti
        else:
            ti = self._type_of(tdecl.payload, tdecl.path)  # type: ignore[arg-type]
        self._types[name] = ti
        return ti

    def _type_of(self, node: Node | None, path: str) -> TypeInfo:
        if node is None:
            return TypeInfo("tuple", items=[])
        k = node.kind
        span = Span(path, node.line, node.col)
        ctx = _Ctx(path, set(), "<type>")
        if k == "t_int":
            return TypeInfo("int")
        if k == "t_int_c":
            cs = [(self._expr(lo, ctx), self._expr(hi, ctx) if hi is not None else None)
                  for lo, hi in node.args[0]]
            return TypeInfo("int", constraints=cs)
        if k == "t_bool":
            return TypeInfo("bool")
        if k == "t_real":
            return TypeInfo("real")
        if k == "t_string":
            return TypeInfo("string")
        if k == "t_bits":
            return TypeInfo("bits", width=self._expr(node.args[0], ctx))
        if k == "t_array":
            size = node.args[0]
            if size.kind == "e_var":
                decls, _ = self._decls(size.args[0])
                if any(isinstance(d, TypeDecl) for d in decls):
                    et = self._named_type(size.args[0], span)
                    return TypeInfo("array", size=et, elem=self._type_of(node.args[1], path))
            return TypeInfo("array", size=self._expr(size, ctx), elem=self._type_of(node.args[1], path))
        if k == "t_tuple":
            return TypeInfo("tuple", items=[self._type_of(t, path) for t in node.args[0]])
        if k == "t_named":
            return self._named_type(node.args[0], span)
        raise ASLError(f"unsupported type form {k}", span, "unsupported")

    def _default(self, ti: TypeInfo) -> object:
        k = ti.kind
        if k == "int":
            if ti.constraints:
                best = None
                for lo, hi in ti.constraints:
                    a = lo({})
                    b = hi({}) if hi is not None else a
                    if a <= 0 <= b:
                        return 0
                    cand = a if abs(a) < abs(b) else b
                    if best is None or abs(cand) < abs(best):
                        best = cand
                return best
            return 0
        if k == "bool":
            return False
        if k == "bits":
            return Bits(0, ti.width({}))
        if k == "real":
            return Fraction(0)
        if k == "string":
            return ""
        if k == "enum":
            if not ti.enum:
                raise NeedsGenerated(ti.name)
            return ti.enum[0]
        if k == "record":
            return {f: self._default(t) for f, t in ti.fields}
        if k == "array":
            n = len(ti.size.enum) if isinstance(ti.size, TypeInfo) else ti.size({})
            return [self._default(ti.elem)] * n
        if k == "tuple":
            return tuple(self._default(t) for t in ti.items)
        raise TypeError(f"no default value for type kind {k}")

    def _check_as(self, v: object, ti: TypeInfo) -> object:
        k = ti.kind
        if k == "int":
            if type(v) is not int:
                raise TypeError(f"'as integer' applied to {show(v)}")
            if ti.constraints:
                for lo, hi in ti.constraints:
                    a = lo({})
                    b = hi({}) if hi is not None else a
                    if a <= v <= b:
                        return v
                raise _AsFailure(f"value {v} is outside the constrained integer domain")
            return v
        if k == "bits":
            n = ti.width({})
            if type(v) is not Bits or v.n != n:
                raise _AsFailure(f"value {show(v)} is not a bits({n})")
            return v
        return v

    # ------------------------------------------------------------ compile
    def _compile_func(self, fn: _Func) -> None:
        decl = fn.decl
        assert decl is not None
        names = tuple(p[0] for p in decl.params)
        ctx = _Ctx(decl.path, set(names), decl.name)
        # pre-scan for locals: every let/var/for/tuple name in the body
        _collect_locals(decl.body, ctx.locals)
        # install a placeholder first: recursive calls resolve to fn itself
        body = self._block(decl.body, ctx)
        nparams = len(names)
        fname = decl.name
        is_proc = decl.ret is None

        if nparams == 0:
            def run(*args):
                r = body({})
                return r[0] if r is not None else None
        elif nparams == 1:
            p0 = names[0]

            def run(a0):
                r = body({p0: a0})
                return r[0] if r is not None else None
        else:
            def run(*args):
                r = body(dict(zip(names, args)))
                return r[0] if r is not None else None

        _ = (fname, is_proc)
        fn.impl = run
        self.compiled_functions += 1

    def _block(self, stmts: tuple[Node, ...], ctx: "_Ctx") -> Stmt:
        compiled = [self._stmt(s, ctx) for s in stmts]
        if not compiled:
            return lambda fr: None
        if len(compiled) == 1:
            return compiled[0]
        if len(compiled) == 2:
            s0, s1 = compiled

            def block2(fr):
                r = s0(fr)
                if r is not None:
                    return r
                return s1(fr)
            return block2
        seq = tuple(compiled)

        def block(fr):
            for s in seq:
                r = s(fr)
                if r is not None:
                    return r
            return None
        return block

    def _fail(self, exc: BaseException, span: Span) -> ASLError:
        """The located ASLError for a Python exception raised by a statement."""
        if isinstance(exc, _AsFailure):
            return ASLAssertionError(f"'as' check failed: {exc}", span, "assert", self._snapshot(span))
        if isinstance(exc, _Undefined):
            return self._undefined_error(str(exc), span)
        return self._wrap(exc, span)

    def _guard(self, inner: Stmt, span: Span) -> Stmt:
        fail = self._fail

        def guarded(fr):
            try:
                return inner(fr)
            except ASLError:
                raise
            except Exception as exc:  # noqa: BLE001 - every Python failure becomes located
                raise fail(exc, span) from None
        return guarded

    def _undefined_error(self, name: str, span: Span) -> ASLError:
        if self.generated.is_generated(name):
            return NeedsGenerated(name, span, self._snapshot(span))
        return ASLError(f"unknown identifier '{name}'", span, "unknown-name", self._snapshot(span))

    def _span(self, ctx: "_Ctx", node: Node) -> Span:
        return Span(ctx.path, node.line, node.col)

    def _stmt(self, node: Node, ctx: "_Ctx") -> Stmt:
        span = self._span(ctx, node)
        try:
            inner, needs_guard = self._stmt_inner(node, ctx, span)
        except _Undefined as exc:
            missing = str(exc)

            def raise_undefined(fr):
                raise self._undefined_error(missing, span)
            return raise_undefined
        return self._guard(inner, span) if needs_guard else inner

    def _stmt_inner(self, node: Node, ctx: "_Ctx", span: Span) -> tuple[Stmt, bool]:
        k = node.kind
        a = node.args
        if k == "s_call":
            call = self._call_expr(a[0], a[1], a[2], ctx, span)
            fail = self._fail

            def s_call(fr):
                try:
                    call(fr)
                except ASLError:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise fail(exc, span) from None
            return s_call, False
        if k == "s_assign":
            setter = self._lvalue(a[0], ctx)
            rhs = self._expr(a[1], ctx)
            fail = self._fail

            def s_assign(fr):
                try:
                    setter(fr, rhs(fr))
                except ASLError:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise fail(exc, span) from None
            return s_assign, False
        if k == "s_decl":
            _kind, name, ty, init = a
            if init is not None:
                rhs = self._expr(init, ctx)
                if ty is not None and ty.kind == "t_bits":
                    # a declared width is a static check in ASL; keep it cheap
                    pass

                fail = self._fail

                def s_decl(fr):
                    try:
                        fr[name] = rhs(fr)
                    except ASLError:
                        raise
                    except Exception as exc:  # noqa: BLE001
                        raise fail(exc, span) from None
                return s_decl, False
            ti = self._type_of(ty, ctx.path)
            default = self._default(ti)

            def s_decl_default(fr):
                fr[name] = default
            return s_decl_default, False
        if k == "s_decl_tuple":
            names = a[1]
            rhs = self._expr(a[2], ctx)

            def s_decl_tuple(fr):
                vals = rhs(fr)
                if len(vals) != len(names):
                    raise TypeError(f"tuple of {len(vals)} assigned to {len(names)} names")
                for n, v in zip(names, vals):
                    if n is not None:
                        fr[n] = v
            return s_decl_tuple, True
        if k == "s_assign_tuple":
            setters = [None if it.kind == "l_discard" else self._lvalue(it, ctx) for it in a[0]]
            rhs = self._expr(a[1], ctx)

            def s_assign_tuple(fr):
                vals = rhs(fr)
                for st, v in zip(setters, vals):
                    if st is not None:
                        st(fr, v)
            return s_assign_tuple, True
        if k == "s_return":
            if a[0] is None:
                return (lambda fr: (None,)), False
            e = self._expr(a[0], ctx)

            def s_return(fr):
                return (e(fr),)
            return s_return, True
        if k == "s_if":
            arms = [(self._expr(c, ctx), self._block(b, ctx)) for c, b in a[0]]
            els = self._block(a[1], ctx) if a[1] is not None else None
            if len(arms) == 1:
                c0, b0 = arms[0]
                if els is None:
                    def s_if1(fr):
                        if c0(fr):
                            return b0(fr)
                    return s_if1, True

                def s_if2(fr):
                    if c0(fr):
                        return b0(fr)
                    return els(fr)
                return s_if2, True

            def s_if(fr):
                for c, b in arms:
                    if c(fr):
                        return b(fr)
                if els is not None:
                    return els(fr)
            return s_if, True
        if k == "s_case":
            return self._case(node, ctx, span), True
        if k == "s_for":
            var, start, direction, stop, limit, body = a
            s0 = self._expr(start, ctx)
            s1 = self._expr(stop, ctx)
            lim = self._expr(limit, ctx) if limit is not None else None
            blk = self._block(body, ctx)
            down = direction == "downto"
            fill = self._fill_loop(var, body, ctx) if not down else None
            if fill is not None:
                def s_for_fill(fr):
                    lo = s0(fr)
                    hi = s1(fr)
                    if lim is not None and hi - lo + 1 > lim(fr):
                        raise _LoopLimit(f"for loop of {hi - lo + 1} iterations exceeds looplimit {lim(fr)}")
                    if hi >= lo:
                        fill(fr, lo, hi)
                        fr[var] = hi
                return s_for_fill, True

            def s_for(fr):
                lo = s0(fr)
                hi = s1(fr)
                rng = range(lo, hi - 1, -1) if down else range(lo, hi + 1)
                if lim is not None:
                    n = lim(fr)
                    if len(rng) > n:
                        raise _LoopLimit(f"for loop of {len(rng)} iterations exceeds looplimit {n}")
                for i in rng:
                    fr[var] = i
                    r = blk(fr)
                    if r is not None:
                        return r
            return s_for, True
        if k == "s_while":
            cond = self._expr(a[0], ctx)
            lim = self._expr(a[1], ctx) if a[1] is not None else None
            blk = self._block(a[2], ctx)

            def s_while(fr):
                n = lim(fr) if lim is not None else None
                count = 0
                while cond(fr):
                    count += 1
                    if n is not None and count > n:
                        raise _LoopLimit(f"while loop exceeds looplimit {n}")
                    r = blk(fr)
                    if r is not None:
                        return r
            return s_while, True
        if k == "s_repeat":
            blk = self._block(a[0], ctx)
            cond = self._expr(a[1], ctx)
            lim = self._expr(a[2], ctx) if a[2] is not None else None

            def s_repeat(fr):
                n = lim(fr) if lim is not None else None
                count = 0
                while True:
                    count += 1
                    if n is not None and count > n:
                        raise _LoopLimit(f"repeat loop exceeds looplimit {n}")
                    r = blk(fr)
                    if r is not None:
                        return r
                    if cond(fr):
                        return None
            return s_repeat, True
        if k == "s_assert":
            cond = self._expr(a[0], ctx)
            snapshot = self._snapshot

            def s_assert(fr):
                if not cond(fr):
                    raise ASLAssertionError("assertion failed", span, "assert", snapshot(span))
            return s_assert, True
        if k == "s_unreachable":
            snapshot = self._snapshot

            def s_unreachable(fr):
                raise ASLError("unreachable statement reached", span, "unreachable", snapshot(span))
            return s_unreachable, False
        if k == "s_pass":
            return (lambda fr: None), False
        raise ASLError(f"unsupported statement {k}", span, "unsupported")

    def _fill_loop(self, var: str, body: tuple, ctx: "_Ctx"):
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
        value = self._fold(rhs, ctx)
        if value is _NOCONST or isinstance(value, (list, dict)):
            return None
        name = lhs.args[0].args[0]
        is_local = name in ctx.locals
        if name == var:
            return None
        if not is_local:
            g = self._global_decl(name)
            if g is None or g.kind != "var":
                return None
        G = self.globals
        gv = self._global_value

        def fill(fr, lo, hi):
            store = fr if is_local else G
            if not is_local and name not in G:
                gv(name, None)
            c = store[name]
            if lo < 0 or hi >= len(c):
                raise IndexError(f"array index {hi if hi >= len(c) else lo} outside 0..{len(c) - 1}")
            if _getrefcount(c) > 3:
                c = c.copy()
                store[name] = c
            c[lo:hi + 1] = [value] * (hi - lo + 1)
        return fill

    def _case(self, node: Node, ctx: "_Ctx", span: Span) -> Stmt:
        subject = self._expr(node.args[0], ctx)
        alts = []
        const_map: dict = {}
        all_const = True
        for pats, body in node.args[1]:
            blk = self._block(body, ctx)
            tests = []
            for p in pats:
                if p.kind == "p_any":
                    tests.append(("any", None, None))
                    all_const = False
                elif p.kind == "p_range":
                    tests.append(("range", self._expr(p.args[0], ctx), self._expr(p.args[1], ctx)))
                    all_const = False
                else:
                    e = p.args[0]
                    cv = self._const_value(e, ctx)
                    if cv is _NOCONST:
                        all_const = False
                        tests.append(("eq", self._expr(e, ctx), None))
                    else:
                        tests.append(("const", cv, None))
                        const_map.setdefault(_hkey(cv), blk)
            alts.append((tests, blk))
        otherwise = self._block(node.args[2], ctx) if node.args[2] is not None else None

        if all_const:
            def s_case_fast(fr):
                v = subject(fr)
                blk = const_map.get(_hkey(v))
                if blk is not None:
                    return blk(fr)
                if otherwise is not None:
                    return otherwise(fr)
                raise _NoMatch(f"no 'when' matches {show(v)} and there is no 'otherwise'")
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
            if otherwise is not None:
                return otherwise(fr)
            raise _NoMatch(f"no 'when' matches {show(v)} and there is no 'otherwise'")
        return s_case

    def _const_value(self, e: Node, ctx: "_Ctx") -> object:
        """The value of a literal / enum member / constant pattern, else _NOCONST."""
        if e.kind == "e_lit":
            return e.args[0]
        if e.kind == "e_bitlit":
            return Bits(e.args[0], e.args[1])
        if e.kind == "e_var" and e.args[0] not in ctx.locals:
            name = e.args[0]
            if self._enum_member(name) is not None:
                return name
            g = self._global_decl(name)
            if g is not None and g.kind in ("constant",):
                return self._global_value(name, None)
            if self.synthesize_generated and self.generated.is_member(name):
                return name
        return _NOCONST

    # ------------------------------------------------------------ lvalues
    def _lvalue(self, node: Node, ctx: "_Ctx") -> Callable[[Frame, object], None]:
        steps: list[tuple[str, object]] = []
        n = node
        while n.kind != "l_var":
            if n.kind == "l_field":
                steps.append(("f", n.args[1]))
            elif n.kind == "l_index":
                steps.append(("i", self._expr(n.args[1], ctx)))
            elif n.kind == "l_slice":
                steps.append(("s", self._slices(n.args[1], ctx)))
            elif n.kind == "l_discard":
                return lambda fr, v: None
            else:
                raise ASLError(f"unsupported assignment target {n.kind}", self._span(ctx, n), "unsupported")
            n = n.args[0]
        steps.reverse()
        name = n.args[0]
        is_local = name in ctx.locals
        G = self.globals
        if not is_local:
            g = self._global_decl(name)
            if g is None:
                raise _Undefined(name)
            if g.kind != "var":
                raise ASLError(f"assignment to {g.kind} '{name}'", self._span(ctx, node), "type")
            gv = self._global_value

            def ensure(name=name):
                if name not in G:
                    gv(name, None)
        if not steps:
            if is_local:
                def set_local(fr, v):
                    fr[name] = v
                return set_local

            def set_global(fr, v):
                G[name] = v
            return set_global
        final_slice = steps[-1][1] if steps[-1][0] == "s" else None
        path = steps[:-1] if final_slice is not None else steps
        # every step before a slice must be a container step
        for kind, _ in path:
            if kind == "s":
                raise ASLError("assignment through a slice of a slice is not supported",
                               self._span(ctx, node), "unsupported")
        enum_pos = self._enum_pos
        kinds = tuple(kind for kind, _ in path)
        keys = tuple(x for _, x in path)
        if final_slice is None and kinds == ("i",):
            idx = keys[0]

            def set_index(fr, v):
                store = fr if is_local else G
                if not is_local and name not in G:
                    ensure()
                c = store[name]
                if _getrefcount(c) > 3:
                    c = c.copy()
                    store[name] = c
                i = idx(fr)
                if type(i) is not int:
                    i = enum_pos(i)
                if i < 0 or i >= len(c):
                    raise IndexError(f"array index {i} outside 0..{len(c) - 1}")
                c[i] = v
            return set_index
        if final_slice is None and kinds == ("f",):
            fkey = keys[0]

            def set_field(fr, v):
                store = fr if is_local else G
                if not is_local and name not in G:
                    ensure()
                c = store[name]
                if _getrefcount(c) > 3:
                    c = c.copy()
                    store[name] = c
                if fkey not in c:
                    raise TypeError(f"record has no field '{fkey}'")
                c[fkey] = v
            return set_field

        def set_path(fr, v):
            store = fr if is_local else G
            if not is_local and name not in G:
                ensure()
            parent = store
            pkey = name
            for kind, key in zip(kinds, keys):
                c = parent[pkey]
                if _getrefcount(c) > 3:
                    c = c.copy()
                    parent[pkey] = c
                if kind == "f":
                    if key not in c:
                        raise TypeError(f"record has no field '{key}'")
                    pkey = key
                else:
                    i = key(fr)
                    if type(i) is not int:
                        i = enum_pos(i)
                    if i < 0 or i >= len(c):
                        raise IndexError(f"array index {i} outside 0..{len(c) - 1}")
                    pkey = i
                parent = c
            if final_slice is not None:
                old = parent[pkey]
                for lo, width, vpart in _split_slices(final_slice, fr, v):
                    old = _slice_write(old, lo, width, vpart)
                parent[pkey] = old
            else:
                parent[pkey] = v
        return set_path

    def _enum_pos(self, v: object) -> int:
        hit = self._enum_member(v) if isinstance(v, str) else None
        if hit is None:
            raise TypeError(f"array index {show(v)} is not an integer or enumeration member")
        return hit[1]

    def _slices(self, slices, ctx) -> tuple:
        out = []
        for kind, x, y in slices:
            out.append((kind, self._expr(x, ctx), self._expr(y, ctx) if y is not None else None))
        return tuple(out)

    # ------------------------------------------------------------ expressions
    def _expr(self, node: Node, ctx: "_Ctx") -> Expr:
        k = node.kind
        a = node.args
        if k == "e_lit":
            v = a[0]
            return lambda fr: v
        if k == "e_bitlit":
            bv = Bits(a[0], a[1])
            return lambda fr: bv
        if k == "e_var":
            return self._var(a[0], ctx, node)
        if k == "e_bin":
            op, l_node, r_node = a
            left = self._expr(l_node, ctx)
            right = self._expr(r_node, ctx)
            if op == "&&":
                return lambda fr: left(fr) and right(fr)
            if op == "||":
                return lambda fr: left(fr) or right(fr)
            if op == "-->":
                return lambda fr: (not left(fr)) or right(fr)
            if op == "<->":
                return lambda fr: left(fr) == right(fr)
            if op == "==":
                return lambda fr: left(fr) == right(fr)
            if op == "!=":
                return lambda fr: left(fr) != right(fr)
            f = _BINOPS.get(op)
            if f is None:
                raise ASLError(f"unsupported operator {op}", self._span(ctx, node), "unsupported")
            if op in ("<", "<=", ">", ">="):
                def cmp(fr, f=f):
                    x = left(fr)
                    y = right(fr)
                    if type(x) is Bits or type(y) is Bits:
                        _cmp_type(x, y)
                    return f(x, y)
                return cmp
            if op == "+" and r_node.kind == "e_lit" and type(r_node.args[0]) is int:
                c = r_node.args[0]

                def add_const(fr):
                    x = left(fr)
                    if type(x) is Bits:
                        n = x.n
                        return Bits((x.v + c) & ((1 << n) - 1), n)
                    return x + c
                return add_const
            return lambda fr: f(left(fr), right(fr))
        if k == "e_un":
            op = a[0]
            e = self._expr(a[1], ctx)
            if op == "-" and a[1].kind == "e_lit":
                v = -a[1].args[0]
                return lambda fr: v
            f = _UNOPS[op]
            return lambda fr: f(e(fr))
        if k == "e_call":
            return self._call_expr(a[0], a[1], a[2], ctx, self._span(ctx, node))
        if k == "e_field":
            base = self._expr(a[0], ctx)
            fname = a[1]

            def field(fr):
                r = base(fr)
                try:
                    return r[fname]
                except (KeyError, TypeError):
                    raise TypeError(f"{show(r)} has no field '{fname}'") from None
            return field
        if k == "e_index":
            base = self._expr(a[0], ctx)
            idx = self._expr(a[1], ctx)
            enum_pos = self._enum_pos

            def index(fr):
                arr = base(fr)
                i = idx(fr)
                if type(i) is not int:
                    i = enum_pos(i)
                if i < 0 or i >= len(arr):
                    raise IndexError(f"array index {i} outside 0..{len(arr) - 1}")
                return arr[i]
            return index
        if k == "e_slice":
            base = self._expr(a[0], ctx)
            slices = self._slices(a[1], ctx)
            if len(slices) == 1:
                kind, x, y = slices[0]
                if kind == "range":
                    if a[1][0][1].kind == "e_lit" and a[1][0][2].kind == "e_lit":
                        hi_c = a[1][0][1].args[0]
                        lo_c = a[1][0][2].args[0]
                        w_c = hi_c - lo_c + 1
                        m_c = (1 << w_c) - 1 if w_c >= 0 else 0

                        def slice_const(fr):
                            v = base(fr)
                            if type(v) is Bits and hi_c < v.n and w_c >= 0:
                                return Bits((v.v >> lo_c) & m_c, w_c)
                            return _slice_read(v, lo_c, w_c)
                        return slice_const

                    def slice_range(fr):
                        v = base(fr)
                        lo = y(fr)
                        return _slice_read(v, lo, x(fr) - lo + 1)
                    return slice_range
                if kind == "single":
                    return lambda fr: _slice_read(base(fr), x(fr), 1)
                if kind == "up":
                    return lambda fr: _slice_read(base(fr), x(fr), y(fr))
                return lambda fr: _slice_read(base(fr), x(fr) * y(fr), y(fr))

            def slice_multi(fr):
                v = base(fr)
                out = Bits(0, 0)
                for lo, width in _slice_bounds(slices, fr):
                    part = _slice_read(v, lo, width)
                    out = Bits((out.v << width) | part.v, out.n + width)
                return out
            return slice_multi
        if k == "e_if":
            arms = [(self._expr(c, ctx), self._expr(v, ctx)) for c, v in a[0]]
            els = self._expr(a[1], ctx)
            if len(arms) == 1:
                c0, v0 = arms[0]
                return lambda fr: v0(fr) if c0(fr) else els(fr)

            def e_if(fr):
                for c, v in arms:
                    if c(fr):
                        return v(fr)
                return els(fr)
            return e_if
        if k == "e_as":
            e = self._expr(a[0], ctx)
            ti = self._type_of(a[1], ctx.path)
            bounds = None
            if ti.kind == "int" and ti.constraints:
                try:
                    bounds = [(lo({}), hi({}) if hi is not None else lo({})) for lo, hi in ti.constraints]
                except Exception:  # noqa: BLE001 - bounds that need a frame are checked at run time
                    bounds = None
            if bounds:
                if len(bounds) == 1:
                    blo, bhi = bounds[0]

                    def as_range(fr):
                        v = e(fr)
                        if type(v) is int and blo <= v <= bhi:
                            return v
                        return self._check_as(v, ti)
                    return as_range
            check = self._check_as
            return lambda fr: check(e(fr), ti)
        if k == "e_record":
            tname = a[0]
            span = self._span(ctx, node)
            ti = self._named_type(tname, span)
            if ti.kind != "record":
                raise ASLError(f"'{tname}' is not a record type", span, "type")
            inits = {f: self._expr(e, ctx) for f, e in a[1]}
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
        if k == "e_tuple":
            items = tuple(self._expr(x, ctx) for x in a[0])
            return lambda fr: tuple(x(fr) for x in items)
        if k == "e_arbitrary":
            ti = self._type_of(a[0], ctx.path)
            default = self._default(ti)
            return lambda fr: default
        raise ASLError(f"unsupported expression {k}", self._span(ctx, node), "unsupported")

    def _var(self, name: str, ctx: "_Ctx", node: Node) -> Expr:
        if name in ctx.locals:
            def local(fr):
                return fr[name]
            return local
        if name in self._consts:
            v = self._consts[name]
            return lambda fr: v
        m = self._enum_member(name)
        if m is not None:
            return lambda fr: name
        g = self._global_decl(name)
        if g is not None:
            if g.kind in ("constant", "config", "let"):
                v = self._global_value(name, None)
                return lambda fr: v
            G = self.globals
            gv = self._global_value

            def glob(fr):
                try:
                    return G[name]
                except KeyError:
                    return gv(name, None)
            return glob
        if self.synthesize_generated and self.generated.is_member(name):
            return lambda fr: name
        raise _Undefined(name)

    def _call_expr(self, name: str, params: tuple, args: tuple, ctx: "_Ctx", span: Span) -> Expr:
        pc = tuple(self._expr(p, ctx) for p in params)
        ac = tuple(self._expr(x, ctx) for x in args)
        if params or (name in BUILTINS and not self._has_user_func(name)):
            b = BUILTINS.get(name)
            if b is None or self._has_user_func(name):
                raise ASLError(f"call of '{name}' with {{…}} parameters: parameterised user "
                               "functions are not supported", span, "unsupported")
            consts = [self._fold(x, ctx) for x in (*params, *args)]
            if all(c is not _NOCONST for c in consts):
                try:
                    folded = b(tuple(consts[:len(params)]), tuple(consts[len(params):]))
                except Exception:  # noqa: BLE001 - report it when (if) the call is reached
                    folded = _NOCONST
                if folded is not _NOCONST and not isinstance(folded, (list, dict)):
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
        fn = self._function(name, len(args), span)
        stack = self.stack
        frame_entry = (name, span)
        compile_func = self._compile_func
        nargs = len(ac)

        if nargs == 0:
            def call0(fr):
                impl = fn.impl
                if impl is None:
                    compile_func(fn)
                    impl = fn.impl
                stack.append(frame_entry)
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
            r = impl(*vals)
            stack.pop()
            return r
        return calln

    def _fold(self, e: Node, ctx: "_Ctx") -> object:
        """The compile-time value of a literal, constant or constant arithmetic, else _NOCONST."""
        k = e.kind
        if k == "e_lit":
            return e.args[0]
        if k == "e_bitlit":
            return Bits(e.args[0], e.args[1])
        if k == "e_var":
            name = e.args[0]
            if name in ctx.locals:
                return _NOCONST
            if name in self._consts:
                return self._consts[name]
            g = self._global_decl(name)
            if g is not None and g.kind in ("constant", "config", "let"):
                try:
                    return self._global_value(name, None)
                except Exception:  # noqa: BLE001
                    return _NOCONST
            return _NOCONST
        if k == "e_bin" and e.args[0] in ("+", "-", "*"):
            left = self._fold(e.args[1], ctx)
            right = self._fold(e.args[2], ctx)
            if left is _NOCONST or right is _NOCONST:
                return _NOCONST
            try:
                return _BINOPS[e.args[0]](left, right)
            except Exception:  # noqa: BLE001
                return _NOCONST
        return _NOCONST

    def _has_user_func(self, name: str) -> bool:
        decls, _ = self._decls(name)
        return name in self.hooks or any(isinstance(d, FuncDecl) for d in decls)


class _Ctx:
    __slots__ = ("path", "locals", "name")

    def __init__(self, path: str, local_names: set[str], name: str) -> None:
        self.path = path
        self.locals = local_names
        self.name = name


class _AsFailure(Exception):
    pass


class _LoopLimit(ArithmeticError):
    pass


class _NoMatch(ArithmeticError):
    pass


_NOCONST = object()


def _hkey(v: object) -> object:
    # bool and int hash alike; keep them apart in case tables
    return (type(v), v) if type(v) is bool else v


def _slice_bounds(slices, fr) -> list[tuple[int, int]]:
    out = []
    for kind, x, y in slices:
        if kind == "range":
            lo = y(fr)
            out.append((lo, x(fr) - lo + 1))
        elif kind == "single":
            out.append((x(fr), 1))
        elif kind == "up":
            out.append((x(fr), y(fr)))
        else:
            w = y(fr)
            out.append((x(fr) * w, w))
    return out


def _split_slices(slices, fr, v) -> list[tuple[int, int, object]]:
    bounds = _slice_bounds(slices, fr)
    if len(bounds) == 1:
        return [(bounds[0][0], bounds[0][1], v)]
    if type(v) is not Bits:
        raise TypeError("multi-slice assignment needs a bitvector")
    out = []
    pos = v.n
    for lo, width in bounds:
        pos -= width
        out.append((lo, width, Bits((v.v >> pos) & ((1 << width) - 1), width)))
    return out


def _collect_locals(stmts: Iterable[Node], out: set[str]) -> None:
    for s in stmts:
        k = s.kind
        a = s.args
        if k == "s_decl":
            out.add(a[1])
        elif k == "s_decl_tuple":
            out.update(n for n in a[1] if n is not None)
        elif k == "s_for":
            out.add(a[0])
            _collect_locals(a[5], out)
        elif k == "s_if":
            for _c, b in a[0]:
                _collect_locals(b, out)
            if a[1] is not None:
                _collect_locals(a[1], out)
        elif k == "s_case":
            for _p, b in a[1]:
                _collect_locals(b, out)
            if a[2] is not None:
                _collect_locals(a[2], out)
        elif k == "s_while":
            _collect_locals(a[2], out)
        elif k == "s_repeat":
            _collect_locals(a[0], out)
