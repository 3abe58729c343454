"""The ASL syntax tree: small positional nodes that encode fast.

Every node carries its 1-based line and column; the path lives on the
enclosing :class:`Module` and declaration, so a node plus its declaration
gives a full :class:`~specgen.diagnostics.Span`. Nodes are deliberately
generic (a ``kind`` string plus positional ``args``) because the evaluator
compiles them to closures once and never walks them again; a class per kind
would only slow encoding for the on-disk cache (:mod:`specgen.cache.codec` writes a tree of
nodes as one flat program).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..cache import codec


class Node:
    """One expression, statement, type, lvalue or pattern."""

    __slots__ = ("kind", "line", "col", "args")

    def __init__(self, kind: str, line: int, col: int, args: tuple) -> None:
        self.kind = kind
        self.line = line
        self.col = col
        self.args = args

    def __reduce__(self) -> tuple:
        return (Node, (self.kind, self.line, self.col, self.args))

    def __repr__(self) -> str:
        return f"{self.kind}{self.args!r}@{self.line}:{self.col}"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Node)
            and self.kind == other.kind
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.args))


@dataclass(slots=True)
class FuncDecl:
    """``[qualifiers] func Name(params) [=> ret] begin body end;``"""

    name: str
    quals: tuple[str, ...]
    params: tuple[tuple[str, Node], ...]
    ret: Node | None
    body: tuple[Node, ...]
    path: str
    line: int
    col: int
    refs: frozenset[str] = frozenset()

    @property
    def is_impdef(self) -> bool:
        return "impdef" in self.quals

    @property
    def is_implementation(self) -> bool:
        return "implementation" in self.quals


@dataclass(slots=True)
class TypeDecl:
    """``type Name of …;``; ``form`` is 'enum', 'record' or 'alias'."""

    name: str
    form: str
    payload: object  # enum: tuple[str,...]; record: tuple[(name, Node)]; alias: Node
    path: str
    line: int
    col: int
    refs: frozenset[str] = frozenset()


@dataclass(slots=True)
class GlobalDecl:
    """``constant|config|let|var Name [: ty] [= init];``"""

    kind: str
    name: str
    ty: Node | None
    init: Node | None
    path: str
    line: int
    col: int
    refs: frozenset[str] = frozenset()


Decl = FuncDecl | TypeDecl | GlobalDecl


@dataclass(slots=True)
class Module:
    """One parsed ASL file."""

    path: str
    decls: list[Decl] = field(default_factory=list)


codec.register_node(Node)
codec.register(FuncDecl, TypeDecl, GlobalDecl, Module)

_CLOSE = object()


def decl_digest(decl: Decl) -> str:
    """The content of one declaration that a run using it depends on: its syntax tree with every position.

    Comments and blank lines inside or around it are not part of it (an edit of NDF or DOC prose that
    moves nothing keeps every digest), but positions are: a result names ASL lines (a failed
    assertion, a fault site, coverage), so a declaration that moved is a changed one. Walked with
    an explicit stack: a long operator chain nests deeper than Python's recursion limit.
    """
    parts: list[str] = [type(decl).__name__, decl.name, decl.path, str(decl.line), str(decl.col)]
    if isinstance(decl, FuncDecl):
        roots: tuple[object, ...] = (decl.quals, decl.params, decl.ret, decl.body)
    elif isinstance(decl, TypeDecl):
        roots = (decl.form, decl.payload)
    else:
        roots = (decl.kind, decl.ty, decl.init)
    stack: list[object] = list(reversed(roots))
    add = parts.append
    while stack:
        x = stack.pop()
        t = type(x)
        if t is Node:
            add(f"({x.kind}@{x.line}:{x.col}")  # type: ignore[union-attr]
            stack.append(_CLOSE)
            stack.extend(reversed(x.args))  # type: ignore[union-attr]
        elif t is tuple or t is list:
            add("[")
            stack.append(_CLOSE)
            stack.extend(reversed(x))  # type: ignore[call-overload]
        elif x is _CLOSE:
            add(")")
        else:
            add(f"{t.__name__}:{x!r}")
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()
