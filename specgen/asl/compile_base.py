"""What the three ASL compilers share: dispatch tables, the compile scope, control signals, and the
resolved :class:`Function` every compiled call goes through.

The expression, statement and l-value compilers (``compile_expr``,
``compile_stmt``, ``compile_lvalue``) and the type resolver
(``compile_types``) each keep one :class:`DispatchTable`: one small handler
per AST node kind, registered by name, whose docstring states the ASL rule
it implements (markdown-it-py registers its block rules the same way). A
table is consulted once per node while a function body is compiled; the
closures it returns run without any dispatch.

Handlers never import one another's modules to recurse: they go through the
:class:`Compiler` they are handed (the :class:`~specgen.asl.interp.Interpreter`),
which owns name resolution and global state. That keeps the compilers free
of import circles.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterable, MutableMapping, Protocol, TypeVar

from specgen.diagnostics import Span

from .ast import Decl, FuncDecl, GlobalDecl, Node
from .errors import ASLError
from .hit_table import HitTable

Frame = dict
Expr = Callable[[Frame], object]
Stmt = Callable[[Frame], object]
Setter = Callable[[Frame, object], None]

H = TypeVar("H", bound=Callable)


class DispatchTable(Generic[H]):
    """Handlers keyed by AST node kind, one per kind.

    ``what`` names the node family in the error for a kind nobody
    registered (``unsupported expression e_foo``), the message a user sees
    when the parser accepts a construct the interpreter does not run.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self._handlers: dict[str, H] = {}

    def rule(self, *kinds: str) -> Callable[[H], H]:
        """Register the decorated handler for ``kinds`` (each kind at most once)."""

        def register(handler: H) -> H:
            for kind in kinds:
                if kind in self._handlers:
                    raise ValueError(f"{self.what} rule {kind!r} registered twice")
                self._handlers[kind] = handler
            return handler

        return register

    def lookup(self, node: Node, ctx: "Scope") -> H:
        """The handler of ``node.kind``; an ``unsupported`` ASLError located at ``node`` if none."""
        handler = self._handlers.get(node.kind)
        if handler is None:
            raise ASLError(f"unsupported {self.what} {node.kind}", ctx.span(node), "unsupported")
        return handler

    def get(self, kind: str) -> H | None:
        """The handler of ``kind``, or None (a table other handlers are optional in)."""
        return self._handlers.get(kind)

    def rules(self) -> dict[str, str]:
        """Each registered kind with the first line of its handler's docstring."""
        return {k: (h.__doc__ or "").strip().splitlines()[0] if h.__doc__ else ""
                for k, h in self._handlers.items()}


class Scope:
    """Where a body is compiled: its file, its local names, the function's name, and the declared
    widths its stores must hold (:mod:`specgen.asl.widths`).

    Not a render context: the page's context is ``render.pages.Ctx`` (``cx``), another thing.
    """

    __slots__ = ("path", "locals", "name", "widths", "returns")

    def __init__(self, path: str, local_names: set[str], name: str) -> None:
        self.path = path
        self.locals = local_names
        self.name = name
        self.widths: dict[str, Any] = {}  # local name -> check of its declared bitvector width
        self.returns: Any = None  # check of the declared bitvector result, if any

    def span(self, node: Node) -> Span:
        """The source location of ``node`` in this body's file."""
        return Span(self.path, node.line, node.col)


class Undefined(Exception):
    """Raised at compile time for a name nothing defines (turned into a lazy error)."""


class AsFailure(Exception):
    """An ``as`` check failed; reported as an ASL assertion."""


class LoopLimit(ArithmeticError):
    """A loop ran past its ``looplimit``."""


class NoMatch(ArithmeticError):
    """A ``case`` had no matching ``when`` and no ``otherwise``."""


NOCONST = object()
"""The "not a compile-time constant" answer of constant folding."""


class Function:
    """A resolved ASL function (or a Python hook): what every compiled caller of it calls.

    ``decl`` is its declaration (None for a hook, a built-in or an overload dispatch); ``impl`` the
    implementation callers run, None until the body is compiled
    (:meth:`~specgen.asl.interp.Interpreter.compile`).
    Return tracing swaps ``impl`` with ``other``, the variant of the other mode, so callers reach
    the traced body without recompiling (:mod:`specgen.asl.returntrace`).
    """

    __slots__ = ("decl", "impl", "name", "other", "compiled_notes")

    def __init__(self, name: str, decl: FuncDecl | None, impl: Callable | None = None) -> None:
        self.name = name
        self.decl = decl
        self.impl = impl
        self.other: Callable | None = None  # the variant of the other mode (traced / plain), see returntrace.py
        self.compiled_notes: tuple[str, ...] = ()  # what compiling it ran (trail.py; carry.py recompiles on change)


class Compiler(Protocol):
    """The interpreter as the compilers see it: recursion, names, global state."""

    globals: dict[str, object]
    stack: list[tuple[str, Span]]
    _consts: dict[str, object]
    budget: list[int]
    coverage: HitTable | None
    trace: Callable[[Span, object], None] | None
    read_log: list | None
    forms: "MutableMapping[Callable, tuple]"  # a compiled closure's source form, weakly keyed (compile_fuse_stmt)
    tiers: "MutableMapping[Callable, object]"  # a closure running a tiered block -> its installer(s), weakly keyed
    answering: dict[int, Any]  # a Function's id -> what its answered calls answer from (pure_memo.Answers)
    overlay_version: list[int]  # changed with the loaded test's module (pure_memo.py)
    trail: Any  # the run's trail (trail.Trail): what a run read

    def max_steps_of(self) -> int: ...

    def _expr(self, node: Node, ctx: Scope) -> Expr: ...

    def _stmt(self, node: Node, ctx: Scope) -> Stmt: ...

    def _block(self, stmts: Iterable[Node], ctx: Scope) -> Stmt: ...

    def _lvalue(self, node: Node, ctx: Scope) -> Setter: ...

    def _type_of(self, node: Node | None, path: str) -> Any: ...

    def _named_type(self, name: str, span: Span) -> Any: ...

    def _decls(self, name: str) -> tuple[list[Decl], bool]: ...

    def _enum_member(self, name: str) -> tuple[str, int] | None: ...

    def _enum_pos(self, v: object) -> int: ...

    def _global_decl(self, name: str) -> GlobalDecl | None: ...

    def _global_value(self, name: str, span: Span | None) -> object: ...

    def _is_generated_member(self, name: str) -> bool: ...

    def has_function(self, name: str) -> bool: ...

    def _is_generated_type(self, name: str) -> bool: ...

    def _function(self, name: str, arity: int, span: Span | None) -> Function: ...

    def _compile_func(self, fn: Function) -> None: ...

    def _snapshot(self, span: Span | None) -> tuple[tuple[str, Span], ...]: ...

    def _fail(self, exc: BaseException, span: Span) -> ASLError: ...

    def _undefined_error(self, name: str, span: Span) -> ASLError: ...


def guard(c: Compiler, inner: Stmt, span: Span) -> Stmt:
    """``inner`` with every Python failure turned into an ASLError located at ``span``."""
    fail = c._fail

    def guarded(fr):
        try:
            return inner(fr)
        except ASLError:
            raise
        except Exception as exc:  # noqa: BLE001 - every Python failure becomes located
            raise fail(exc, span) from None
    return guarded
