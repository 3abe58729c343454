"""``asl-type`` beyond returns: the type mismatches a reader can see without running anything.

A typo such as ``let n : integer = TRUE;`` or ``if count then`` only fails when (and if) a
test reaches the line; the spec's own interpreter (ASLRef) rejects it before running.
This pass finds those a reader can see from the text alone, and says nothing where it cannot
be sure: an expression has a *kind* (boolean, integer, bits, real, string) only when it is a
literal, a parameter or local declared with a simple type (or initialised from an expression
of known kind), a comparison or logical operation (boolean), integer arithmetic on integers,
or a call of a spec function whose every declaration of that arity returns the same simple
type. Named types, records, enumerations, globals and anything generated stay unknown, so
the two real releases produce no finding (tests/test_asl_errors.py checks that).

Checked: a ``return`` against the declared result type, a declaration's initial value against
its declared type, an assignment to a local against the local's type, ``if``/``elsif``/
``while``/``repeat``/``assert`` conditions and ``&&``/``||``/``!`` operands (boolean), and
``==``/``!=`` between values of two different known kinds. A bitvector's width counts where both
sides spell it as a literal (``bits(8)``, ``'0101'``, the built-in ``Zeros{16}``, a concatenation
of those): ``var x : bits(8) = Zeros{16};`` is found here; widths known only at run time are the
interpreter's (:mod:`specgen.asl.widths`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction

from .ast import FuncDecl, Node

_TYPE_KIND = {"t_bool": "boolean", "t_int": "integer", "t_bits": "bits", "t_real": "real", "t_string": "string"}
_COMPARE = frozenset(("==", "!=", "<=", ">=", "<", ">"))
_LOGIC = frozenset(("&&", "||", "-->", "<->"))
_INTEGER_OPS = frozenset(("+", "-", "*", "DIV", "DIVRM", "MOD", "^"))
_A = {"boolean": "a boolean", "integer": "an integer", "bits": "a bits", "real": "a real", "string": "a string"}


def type_kind(ty: Node | None) -> str | None:
    """A declared type's kind; ``bits(N)`` keeps its width when it is a literal (``bits(8)``)."""
    if ty is None:
        return None
    if ty.kind == "t_bits":
        return _width_kind(ty.args[0])
    return _TYPE_KIND.get(ty.kind)


def _width_kind(width: Node | None) -> str:
    if width is not None and width.kind == "e_lit" and type(width.args[0]) is int and width.args[0] >= 0:
        return f"bits({width.args[0]})"
    return "bits"


def compatible(a: str, b: str) -> bool:
    """Two kinds that may be the same type: equal, or bitvectors one of whose widths is unknown."""
    return a == b or (a.startswith("bits") and b.startswith("bits") and "bits" in (a, b))


def _a(kind: str) -> str:
    return f"a {kind}" if kind.startswith("bits(") else _A[kind]


_WIDTH_CALLS = frozenset(("Zeros", "Ones", "ZeroExtend", "SignExtend"))  # {N} is the result's width


class ReturnKinds(dict):
    """(name, arity) -> the simple type every such declaration returns (None: unknown or they differ), and
    ``names``, every function name declared whatever its arity (``defines`` asked it of every key, for each
    of the 5,306 functions of 0.58.3: a tenth of a cold check)."""

    names: frozenset[str] = frozenset()


def return_kinds(decls: Iterable[FuncDecl]) -> ReturnKinds:
    """The return kinds of ``decls`` (:class:`ReturnKinds`)."""
    out = ReturnKinds()
    for d in decls:
        key, kind = (d.name, len(d.params)), type_kind(d.ret)
        out[key] = kind if out.get(key, kind) == kind else None
    out.names = frozenset(name for name, _arity in out)
    return out


class _Checker:
    def __init__(self, decl: FuncDecl, returns: Mapping[tuple[str, int], str | None]) -> None:
        self.decl = decl
        self.returns = returns
        names = getattr(returns, "names", None)
        self.names: frozenset[str] = names if names is not None else frozenset(k[0] for k in returns)
        self.ret = type_kind(decl.ret)
        self.found: list[tuple[Node, str]] = []

    # -- kinds ---------------------------------------------------------------------
    def kind(self, e: Node | None, env: dict[str, str | None]) -> str | None:
        if e is None:
            return None
        k = e.kind
        if k == "e_lit":
            v = e.args[0]
            return ("boolean" if isinstance(v, bool) else "integer" if isinstance(v, int)
                    else "real" if isinstance(v, Fraction) else "string" if isinstance(v, str) else None)
        if k == "e_bitlit":
            return f"bits({e.args[1]})"
        if k == "e_var":
            return env.get(e.args[0])
        if k == "e_bin":
            op = e.args[0]
            if op in _COMPARE or op in _LOGIC:
                return "boolean"
            if op in _INTEGER_OPS and self.kind(e.args[1], env) == self.kind(e.args[2], env) == "integer":
                return "integer"
            if op == "++":
                a, b = self.kind(e.args[1], env), self.kind(e.args[2], env)
                if a and b and a.startswith("bits(") and b.startswith("bits("):
                    return f"bits({int(a[5:-1]) + int(b[5:-1])})"
            return None
        if k == "e_un":
            if e.args[0] == "!":
                return "boolean"
            return "integer" if e.args[0] == "-" and self.kind(e.args[1], env) == "integer" else None
        if k == "e_call" and e.args[0] in _WIDTH_CALLS and len(e.args[1]) == 1 and self.defines(e.args[0]) is False:
            return _width_kind(e.args[1][0])  # the built-in Zeros{8}: a bits(8)
        if k == "e_call" and not e.args[1]:  # a call with explicit type parameters may be generic
            return self.returns.get((e.args[0], len(e.args[2])))
        return None

    def defines(self, name: str) -> bool:
        """Whether the spec defines a function ``name`` itself (then it is not the built-in)."""
        return name in self.names

    # -- expressions ---------------------------------------------------------------
    def expr(self, e: object, env: dict[str, str | None]) -> None:
        """Check the operators inside ``e`` (every nested node)."""
        stack = [e]
        while stack:
            cur = stack.pop()
            if isinstance(cur, (tuple, list)):
                stack.extend(cur)
                continue
            if not isinstance(cur, Node):
                continue
            if cur.kind == "e_bin":
                op, left, right = cur.args
                if op in _LOGIC:
                    for side in (left, right):
                        self.boolean(side, env, f"an operand of '{op}'")
                elif op in ("==", "!="):
                    a, b = self.kind(left, env), self.kind(right, env)
                    if a and b and not compatible(a, b):
                        self.found.append((cur, f"'{op}' compares {_a(a)} value with {_a(b)} value"))
            elif cur.kind == "e_un" and cur.args[0] == "!":
                self.boolean(cur.args[1], env, "the operand of '!'")
            elif cur.kind == "e_if":
                for cond, _value in cur.args[0]:
                    self.boolean(cond, env, "the condition of an 'if' expression")
            stack.extend(cur.args)

    def boolean(self, e: Node | None, env: dict[str, str | None], what: str) -> None:
        k = self.kind(e, env)
        if k is not None and k != "boolean" and e is not None:
            self.found.append((e, f"{what} is {_a(k)} value, not a boolean"))

    # -- statements ----------------------------------------------------------------
    def block(self, stmts: Iterable[Node] | None, env: dict[str, str | None]) -> None:
        for s in stmts or ():
            self.stmt(s, env)

    def stmt(self, s: Node, env: dict[str, str | None]) -> None:
        k, a = s.kind, s.args
        if k == "s_decl":
            _kind, name, ty, init = a
            declared, given = type_kind(ty), self.kind(init, env)
            self.expr(init, env)
            if declared and given and not compatible(declared, given):
                self.found.append((init, f"'{name}' is declared {declared} but given {_a(given)} value"))
            env[name] = declared if ty is not None else given
        elif k == "s_decl_tuple":
            self.expr(a[2], env)
            for name in a[1]:
                env[name] = None
        elif k == "s_assign":
            lhs, rhs = a
            self.expr(rhs, env)
            if lhs.kind == "l_var":
                want, given = env.get(lhs.args[0]), self.kind(rhs, env)
                if want and given and not compatible(want, given):
                    self.found.append((rhs, f"'{lhs.args[0]}' is {want} but is assigned {_a(given)} value"))
        elif k == "s_return":
            self.expr(a[0], env)
            given = self.kind(a[0], env)
            if self.ret and given and not compatible(given, self.ret):
                self.found.append((a[0], f"'{self.decl.name}' returns {self.ret} but this returns {_a(given)} value"))
        elif k == "s_if":
            for cond, body in a[0]:
                self.expr(cond, env)
                self.boolean(cond, env, "the condition")
                self.block(body, dict(env))
            self.block(a[1], dict(env))
        elif k == "s_while":
            self.expr(a[0], env)
            self.boolean(a[0], env, "the loop condition")
            self.block(a[2], dict(env))
        elif k == "s_repeat":
            inner = dict(env)
            self.block(a[0], inner)
            self.expr(a[1], inner)
            self.boolean(a[1], inner, "the 'until' condition")
        elif k == "s_assert":
            self.expr(a[0], env)
            self.boolean(a[0], env, "the asserted expression")
        elif k == "s_for":
            self.expr((a[1], a[3]), env)
            inner = dict(env)
            inner[a[0]] = "integer"
            self.block(a[5], inner)
        elif k == "s_case":
            self.expr(a[0], env)
            for _pats, body in a[1]:
                self.block(body, dict(env))
            self.block(a[2], dict(env))
        else:
            self.expr(a, env)


def type_mismatches(decl: FuncDecl, returns: Mapping[tuple[str, int], str | None]) -> Iterator[tuple[Node, str]]:
    """The mismatches in one function: the node to point at and what is wrong."""
    checker = _Checker(decl, returns)
    env: dict[str, str | None] = {name: type_kind(ty) for name, ty in decl.params}
    checker.block(decl.body, env)
    yield from checker.found
