"""Name resolution for the interpreter: which declaration, hook or built-in a name means.

The compilers resolve every name once, at compile time (:mod:`.compile_base`), by asking the
:class:`~specgen.asl.interp.Interpreter`; this mixin is that half of it, kept apart from loading,
calls and state. Declarations come from a test's overlay first, then the tree's index, then the
ASL specgen generates from the catalogs; a hook (:mod:`.hooks`) stands in for an ASL function of
its name; an overloaded name dispatches on its arguments' types.
"""

from __future__ import annotations

from typing import Callable, Mapping

from specgen.diagnostics import Span

from .ast import Decl, FuncDecl, GlobalDecl, Node, TypeDecl
from .compile_base import Expr, Function, Scope, Undefined
from .compile_types import TypeInfo, default, value_fits
from .errors import ASLError
from .hooks import Around, Hook
from .index import SpecIndex
from .stdlib import BUILTINS
from .trail import Trail, noting
from .values import show


class Resolver:
    """The interpreter's name resolution (a mixin of :class:`~specgen.asl.interp.Interpreter`, which
    owns the tables below and compiles)."""

    index: SpecIndex | None
    globals: dict[str, object]
    _hooks: dict[str, Hook]
    _overlay: dict[str, list[Decl]]
    _gen: Mapping[str, list[Decl]]
    _overlay_compiled: dict[tuple[str, int], Function]
    _funcs: dict[tuple[str, int], Function]
    _hook_originals: dict[tuple[str, int], Function]
    trail: Trail
    _consts: dict[str, object]
    _enum_of_member: dict[str, tuple[str, int]]
    _gdecls: dict[str, GlobalDecl]

    def _compile_func(self, fn: Function) -> None:
        raise NotImplementedError

    def _type_of(self, node: Node | None, path: str) -> TypeInfo:
        raise NotImplementedError

    def _expr(self, node: Node, ctx: Scope) -> Expr:
        raise NotImplementedError

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

    def _function(self, name: str, arity: int, span: Span | None) -> Function:
        key = (name, arity)
        fn = self._overlay_compiled.get(key) or self._funcs.get(key)
        if fn is not None:
            return fn
        hook = self._hooks.get(name)
        if hook is not None:
            if isinstance(hook, Around):
                original = self._asl_function(name, arity, span)
                self._hook_originals[key] = original
                compile_func = self._compile_func

                def call_original(*args, _o=original):
                    if _o.impl is None:
                        compile_func(_o)
                    return _o.impl(*args)

                around = hook.function
                fn = Function(name, None, noting(self.trail, name, lambda *a, _h=around: _h(call_original, *a)))
            else:
                fn = Function(name, None, noting(self.trail, name, hook.function))
            self._funcs[key] = fn
            return fn
        return self._asl_function(name, arity, span)

    def _asl_function(self, name: str, arity: int, span: Span | None) -> Function:
        key = (name, arity)
        decls, from_overlay = self._decls(name)
        funcs = [d for d in decls if isinstance(d, FuncDecl) and len(d.params) == arity]
        if not funcs:
            if name in BUILTINS:
                b = BUILTINS[name]
                fn = Function(name, None, lambda *a, _b=b: _b((), a))
                self._funcs[key] = fn
                return fn
            if any(isinstance(d, FuncDecl) for d in decls):
                raise ASLError(f"no overload of '{name}' takes {arity} argument(s)",
                               span, "type")
            raise Undefined(name)
        impl = [d for d in funcs if d.is_implementation]
        chosen = impl or [d for d in funcs if not d.is_impdef] or funcs
        fn = Function(name, chosen[0])
        if len(chosen) > 1:
            fn = Function(name, None, self._overload_dispatch(name, chosen))
        (self._overlay_compiled if from_overlay else self._funcs)[key] = fn
        return fn

    def _overload_dispatch(self, name: str, decls: list[FuncDecl]) -> Callable:
        subs = [Function(name, d) for d in decls]

        def dispatch(*args):
            for f in subs:
                if all(value_fits(a, self._type_of(p[1], f.decl.path))
                       for a, p in zip(args, f.decl.params)):
                    if f.impl is None:
                        self._compile_func(f)
                    return f.impl(*args)
            decl = decls[0]  # a run error at the declarations, never a Python exception (asl-duplicate says why)
            raise ASLError(f"no overload of '{name}' accepts ({', '.join(show(a) for a in args)})",
                           Span(decl.path, decl.line, decl.col), "type")

        return dispatch

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
            raise Undefined(name)
        if g.init is not None:
            value = self._expr(g.init, Scope(g.path, set(), f"<global {name}>"))({})
        else:
            value = default(self._type_of(g.ty, g.path))
        if g.kind in ("constant", "config", "let"):
            self._consts[name] = value
        else:
            self.globals[name] = value
        return value
