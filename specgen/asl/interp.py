"""The ASL evaluator: AST nodes compiled once to Python closures.

A function body is compiled the first time it is called, by three
compilers that each dispatch on the node kind: :mod:`.compile_expr`
(expression -> ``f(frame) -> value``), :mod:`.compile_stmt` (statement ->
``s(frame) -> None | (value,)``, a 1-tuple signals ``return``) and
:mod:`.compile_lvalue` (assignment target -> ``set(frame, value)``), with
:mod:`.compile_types` for type expressions. Names are resolved at compile
time (local, global, constant, enum member, function, built-in), so running
a test does no dictionary search beyond the frame.

This module keeps what those compilers share: loading definitions, name
resolution (its own mixin, :mod:`.resolve`), function calls, global state and reset. Definitions come lazily
from a :class:`~specgen.asl.index.SpecIndex` (only what a run reaches is
unpickled and compiled) plus an overlay of extra modules (a test file).
Names that nothing defines compile to a closure that raises when evaluated,
because the upstream build splices in generated decoders; see
:mod:`specgen.asl.generated_names`.

The public extension API is typed and small: hooks (:mod:`specgen.asl.hooks`, declared with
their calling convention) installed by :meth:`Interpreter.install_hook`, ``config`` constants
set by :meth:`Interpreter.set_constant`, ASL functions a hook calls from
:meth:`Interpreter.function`, the declarations a caller reads from
:meth:`Interpreter.declarations`, and the resolved :class:`Function` objects return tracing
arms (:meth:`Interpreter.resolved`, :mod:`specgen.asl.returntrace`). Nothing outside ``asl/`` reads
its private state; the compilers reach it through :class:`~specgen.asl.compile_base.Compiler`.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Mapping
from types import MappingProxyType
from typing import Callable, Iterable

from specgen.diagnostics import Span

from .ast import Decl, FuncDecl, GlobalDecl, Module, Node
from .compile_base import AsFailure, Expr, Function, Scope, Setter, Stmt, Undefined
from .compile_expr import compile_expr
from .compile_lvalue import compile_lvalue
from .compile_func import compile_function
from .compile_stmt import compile_block, compile_stmt
from .budget import (ACTIVE, DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_STEPS, DEFAULT_MAX_VALUE_BITS, MAX_DEPTH,
                     BudgetExceeded, peak_kib, split, steps_left)
from .memory import measurer
from .pure_memo import Answers
from .compile_types import TypeInfo, named_type, type_of
from .errors import ASLAssertionError, ASLError, MissingFunction, NotDerivable
from .generated_names import GeneratedNames
from .hit_table import HitTable
from .hooks import ASLFunction, Hook
from .index import SpecIndex
from .lazy_decls import LazyDecls, by_name, declare_into
from .resolve import Resolver
from .stdlib import BuiltinError
from .trail import Definitions, Trail
from .values import Bits, show


class Interpreter(Resolver):
    """Runs ASL definitions of one spec tree.

    ``Interpreter(index)`` (or :func:`specgen.asl.session.interpreter_for`) loads
    nothing until a function is called. ``load_module(module)`` overlays a
    parsed file (e.g. a test) whose definitions win over the tree's;
    ``reset()`` drops all global state (and the overlay) so one interpreter
    can run many tests without re-compiling the tree.
    """

    def __init__(
        self,
        index: SpecIndex | None = None,
        modules: Iterable[Module] = (),
        hooks: Mapping[str, Hook] | None = None,
        synthesize_generated: bool = True,
        generated: Iterable[Module] | LazyDecls = (),
        max_steps: int = DEFAULT_MAX_STEPS,
        memoize: bool = True,
        max_value_bits: int = DEFAULT_MAX_VALUE_BITS,
        max_memory: int = DEFAULT_MAX_MEMORY_BYTES,
    ) -> None:
        self.index = index
        self.memoize = memoize  # replay state-independent zero-argument functions (see memo.py)
        self.read_log: list | None = None  # values read from global variables, when recording (memo.py)
        # what block fusion needs, keyed weakly by the closures: a test's compiled code dies with the test
        self.forms: weakref.WeakKeyDictionary[Callable, tuple] = weakref.WeakKeyDictionary()
        self.tiers: weakref.WeakKeyDictionary[Callable, object] = weakref.WeakKeyDictionary()
        self._max_steps = max_steps
        self.budget: list[int] = split(max_steps)  # steps left in this run: [this window, after it]; budget.py
        self.max_value_bits = max_value_bits  # the largest value a run may make (budget.produce)
        self.max_memory = max_memory  # the most bytes a run may hold at once (budget.hold, memory.py)
        self.charged: list[int] = [0]  # steps of this run charged for work on big values (budget.py)
        self.coverage: HitTable | None = None  # statements run, when measured
        self.trail = Trail()  # the definitions a recorded run executed or asked about (see trail.py)
        self._definitions: Definitions | None = None
        # while set, functions compile with a hook on each ``return`` (see returntrace.py); None costs nothing
        self.trace: Callable[[Span, object], None] | None = None
        self.compiled: dict[int, Function] = {}  # every compiled ASL function by id: what tracing switches
        self.globals: dict[str, object] = {}
        self.stack: list[tuple[str, Span]] = []
        self._hooks: dict[str, Hook] = dict(hooks or {})
        self.synthesize_generated = synthesize_generated
        self._overlay: dict[str, list[Decl]] = {}
        self.overlay_version = [0]  # changed with the overlay: what answered calls check it by (pure_memo.py)
        # of each tree function's name, by arity, whether its body is state-free; and, by the id of its
        # Function, what each function whose repeated calls are answered answers from (pure_memo.py)
        self.state_free: dict[str, dict[int, bool]] = {}
        self.answering: dict[int, Answers] = {}
        # the generated ASL's declarations by name: a table that loads modules as names are asked for
        # (:mod:`.lazy_decls`), or a dict of the modules handed over
        self._gen: Mapping[str, list[Decl]] = by_name(generated)
        self._overlay_compiled: dict[tuple[str, int], Function] = {}
        self._funcs: dict[tuple[str, int], Function] = {}
        self._hook_originals: dict[tuple[str, int], Function] = {}  # the ASL function a hook may call (carry.py)
        self._types: dict[str, TypeInfo] = {}
        self._consts: dict[str, object] = {}
        self._enum_of_member: dict[str, tuple[str, int]] = {}
        self._gdecls: dict[str, GlobalDecl] = {}
        self.generated = GeneratedNames(index)
        # why a name nothing defines is not derivable on this tree (None: it is a plain missing function);
        # :func:`specgen.asl.session.interpreter_for` installs the spec contract's answer
        self.absence_reason: Callable[[str], str | None] | None = None
        self.compiled_functions = 0
        for m in modules:
            self.load_module(m)

    # ------------------------------------------------------------ loading
    def load_module(self, module: Module) -> None:
        """Overlay a parsed module (its definitions shadow the tree's)."""
        declare_into(self._overlay, module)
        self.overlay_version[0] += 1

    # ------------------------------------------------------------ extension
    @property
    def hooks(self) -> Mapping[str, Hook]:
        """The installed hooks by the name of the ASL function each stands in for (read-only)."""
        return MappingProxyType(self._hooks)

    def install_hook(self, name: str, hook: Hook) -> None:
        """Let ``hook`` stand in for ASL function ``name`` from its first call on.

        Refused (``RuntimeError``) once a call has reached ``name``: compiled callers hold the
        function they resolved, and a hook that only some callers see would be a silent split.
        """
        if any(key[0] == name for key in self._funcs) or any(key[0] == name for key in self._overlay_compiled):
            raise RuntimeError(f"install the hook for {name} before the first call reaches it")
        self._hooks[name] = hook

    def set_constant(self, name: str, value: object) -> None:
        """Give the ASL constant or ``config`` global ``name`` the value ``value`` (a model parameter).

        Constants are folded into compiled code, so this is refused (``RuntimeError``) once any
        function has compiled.
        """
        if self.compiled_functions:
            raise RuntimeError(f"set {name} before the first ASL call")
        self._consts[name] = value

    def function(self, name: str, arity: int) -> ASLFunction:
        """ASL function ``name`` (of ``arity`` arguments) as a Python callable for a hook to call.

        Unlike :meth:`call`, it runs inside the call that is in progress: the call stack (which
        a fault's site is read from) is kept, and arguments are passed as they are.
        """
        fn = self._function(name, arity, None)
        compile_func = self._compile_func

        def run(*args: object) -> object:
            if fn.impl is None:
                compile_func(fn)
            return fn.impl(*args)  # type: ignore[misc]

        return run

    def declarations(self, name: str) -> list[Decl]:
        """The tree's declarations of ``name`` (functions, types, globals), as the index has them (what
        Python code reads of them is read by the run: the trail notes the name)."""
        self.trail.note(name)
        return self.index.lookup(name) if self.index is not None else []

    def note_file(self, path: str) -> None:
        """A run read the text of ``path`` (a source line shown, a predicate's body read as text)."""
        self.trail.note("file:" + path)

    @property
    def overlay(self) -> Mapping[str, list[Decl]]:
        """The loaded module's declarations by name (a test's, until :meth:`reset`): what the trail reads them by."""
        return MappingProxyType(self._overlay)

    @property
    def definitions(self) -> Definitions:
        """Digests and references of what this interpreter resolves names to (the tree, then generated ASL)."""
        if self._definitions is None:
            self._definitions = Definitions(self.index, self._gen)
        return self._definitions

    def resolved(self, name: str) -> list[Function]:
        """Each function a call of ``name`` reaches, one per argument count its declarations take
        (a test's overlay, the tree or generated ASL; a hook where one stands in), compiled."""
        decls, _ = self._decls(name)
        out = []
        for arity in sorted({len(d.params) for d in decls if isinstance(d, FuncDecl)}):
            fn = self._function(name, arity, None)
            if fn.impl is None and fn.decl is not None:
                self._compile_func(fn)
            out.append(fn)
        return out

    def compile(self, fn: Function) -> None:
        """Compile ``fn``'s body in the current mode (traced while return tracing is on)."""
        self._compile_func(fn)

    @property
    def max_steps(self) -> int:
        """The step budget of one run (refilled by :meth:`reset`)."""
        return self._max_steps

    @max_steps.setter
    def max_steps(self, value: int) -> None:
        self._max_steps = value
        self.budget[:] = split(value)

    @property
    def steps_used(self) -> int:
        """Steps the current run has taken so far."""
        return self._max_steps - steps_left(self.budget)

    def measure_coverage(self) -> HitTable:
        """Record every statement (and function, keyed by its declaration) that runs from now on.

        Must be called before the first function compiles: the recording is
        compiled into the closures, so an interpreter that does not measure
        pays nothing for it.
        """
        if self.compiled_functions:
            raise RuntimeError("coverage must be switched on before any function compiles")
        if self.coverage is None:
            self.coverage = HitTable()
        return self.coverage

    def reset(self) -> None:
        """Forget global variables, the call stack and the overlay; refill the step budget."""
        self.budget[:] = split(self._max_steps)
        self.charged[0] = 0
        self.globals.clear()
        self.stack.clear()
        if self._overlay:
            overlay_names = set(self._overlay)
            self._overlay.clear()
            self.overlay_version[0] += 1
            for f in self._overlay_compiled.values():
                self.compiled.pop(id(f), None)
            self._overlay_compiled.clear()
            # compiled tree code never refers to overlay names, but cached
            # types/constants from the overlay must go
            for n in overlay_names:
                self._types.pop(n, None)
                self._consts.pop(n, None)
                self._enum_of_member.pop(n, None)
                self._gdecls.pop(n, None)

    # ------------------------------------------------------------ public
    def call(self, name: str, *args: object) -> object:
        """Call an ASL function from Python.

        ``int`` arguments are converted to ``bits(N)`` where the parameter is
        a bitvector; enum members are passed as their name strings.
        """
        self.trail.note(name)
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
        active = ACTIVE
        before = (active.value_bits, active.steps, active.max_steps, active.charged, active.memory, active.account,
                  active.measure, active.mark)
        if active.steps is not self.budget or active.measure is None:  # a run starts (not a hook calling back)
            active.memory, active.account, active.mark = self.max_memory, 0, peak_kib()
            active.measure = measurer(self.globals, sys._getframe())
        active.value_bits, active.steps, active.max_steps, active.charged = (self.max_value_bits, self.budget,
                                                                             self._max_steps, self.charged)
        try:
            result = fn.impl(*conv)  # type: ignore[misc]
            self.stack.pop()
            return result
        except ASLError:
            raise
        except BudgetExceeded as exc:
            raise self._wrap(exc, Span(decl.path, decl.line, decl.col) if decl else Span("<python>")) from None
        except RecursionError:
            raise ASLError(_too_deep(len(self.stack)), Span(decl.path if decl else "<python>",
                                                            decl.line if decl else 0),
                           "budget", self._snapshot(None)) from None
        finally:
            (active.value_bits, active.steps, active.max_steps, active.charged, active.memory, active.account,
             active.measure, active.mark) = before

    def get_global(self, name: str) -> object:
        """The current value of a global variable or constant."""
        self.trail.note(name)
        if name in self.globals:
            return self.globals[name]
        return self._global_value(name, None)

    def set_global(self, name: str, value: object) -> None:
        """Overwrite a global (initialised first, so an unknown name still raises)."""
        self.trail.note(name)
        self._global_value(name, None)
        self.globals[name] = value

    def enum_members(self, type_name: str) -> tuple[str, ...]:
        """The members of an enumeration type, in declaration order."""
        self.trail.note(type_name)
        ti = self._named_type(type_name, Span("<python>"))
        if ti.kind != "enum":
            raise ASLError(f"'{type_name}' is not an enumeration", Span("<python>"), "type")
        return ti.enum

    def has_function(self, name: str) -> bool:
        """Whether ``name`` is a hook or a declared ASL function (built-ins do not count)."""
        self.trail.note("def:" + name)  # whether it is declared, not what it says
        decls, _ = self._decls(name)
        return name in self._hooks or any(isinstance(d, FuncDecl) for d in decls)

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
        if isinstance(exc, BudgetExceeded):
            return ASLError(str(exc), span, "budget", self._snapshot(span))
        if isinstance(exc, BuiltinError):
            return ASLError(str(exc), span, "runtime", self._snapshot(span))
        if isinstance(exc, TypeError):
            return ASLError(f"type error: {exc}", span, "type", self._snapshot(span))
        if isinstance(exc, (ZeroDivisionError, ArithmeticError)):
            return ASLError(f"arithmetic error: {exc}", span, "runtime", self._snapshot(span))
        if isinstance(exc, IndexError):
            return ASLError(f"index error: {exc}", span, "runtime", self._snapshot(span))
        if isinstance(exc, RecursionError):
            return ASLError(_too_deep(len(self.stack)), span, "budget", self._snapshot(span))
        if isinstance(exc, MemoryError):  # the account's estimate fell short of the allocator: still located
            return ASLError("memory budget: the process ran out of memory", span, "budget", self._snapshot(span))
        return ASLError(f"internal evaluation error: {type(exc).__name__}: {exc}", span,
                        "runtime", self._snapshot(span))

    # ------------------------------------------------------------ compile
    def _compile_func(self, fn: Function) -> None:
        compile_function(self, fn)

    def max_steps_of(self) -> int:
        """The budget for messages (a bound method the compiled closures keep)."""
        return self._max_steps

    def _fail(self, exc: BaseException, span: Span) -> ASLError:
        """The located ASLError for a Python exception raised by a statement."""
        if isinstance(exc, AsFailure):
            return ASLAssertionError(f"'as' check failed: {exc}", span, "assert", self._snapshot(span))
        if isinstance(exc, Undefined):
            return self._undefined_error(str(exc), span)
        return self._wrap(exc, span)

    def _undefined_error(self, name: str, span: Span) -> ASLError:
        self.trail.note(name)  # defining it later changes this run
        broken = self.index.broken_unit_for(name) if self.index is not None else None
        if broken is not None:
            self.trail.note("file:" + broken[0])  # the message quotes why it does not parse
            return ASLError(f"'{name}' is declared in {broken[0]}, which does not parse "
                            f"({broken[0]}:{broken[1]}:{broken[2]}: {broken[3]})", span, "broken-unit",
                            self._snapshot(span))
        why = self.absence_reason(name) if self.absence_reason is not None else None
        if why:
            return NotDerivable(name, why, span, self._snapshot(span))
        if self.generated.is_generated(name):
            return MissingFunction(name, span, self._snapshot(span))
        return ASLError(f"unknown identifier '{name}'", span, "unknown-name", self._snapshot(span))

    # ------------------------------------------------------------ compilers
    def _expr(self, node: Node, ctx: Scope) -> Expr:
        return compile_expr(self, node, ctx)

    def _stmt(self, node: Node, ctx: Scope) -> Stmt:
        return compile_stmt(self, node, ctx)

    def _block(self, stmts: Iterable[Node], ctx: Scope) -> Stmt:
        return compile_block(self, stmts, ctx)

    def _lvalue(self, node: Node, ctx: Scope) -> Setter:
        return compile_lvalue(self, node, ctx)

    def _type_of(self, node: Node | None, path: str) -> TypeInfo:
        return type_of(self, node, path)

    def _named_type(self, name: str, span: Span) -> TypeInfo:
        ti = self._types.get(name)
        return ti if ti is not None else named_type(self, self._types, name, span)

    def _enum_pos(self, v: object) -> int:
        """An enumeration member's position: how it indexes an enum-indexed array."""
        hit = self._enum_member(v) if isinstance(v, str) else None
        if hit is None:
            raise TypeError(f"array index {show(v)} is not an integer or enumeration member")
        return hit[1]

    def _is_generated_member(self, name: str) -> bool:
        return self.synthesize_generated and self.generated.is_member(name)

    def _is_generated_type(self, name: str) -> bool:
        return self.synthesize_generated and self.generated.is_type(name)


def _too_deep(depth: int) -> str:
    return (f"call depth budget: Python's recursion limit reached at {depth:,} nested calls "
            f"(the limit is {MAX_DEPTH:,}; a call with deeply nested expressions takes more Python frames)")
