"""The reference parse of ``asl1.lark``: its syntax errors are the ones users see.

One LALR(1) Lark parser with the contextual lexer, built once per process
(not cached on disk: Lark's cache is a pickle, and a cache holds data, never
code), building the tree while parsing (a
Lark transformer passed to the parser). :mod:`specgen.asl.parser` parses with
the hand-written :mod:`specgen.asl.descent` and comes here only for text that
one rejects, so Lark is imported only when a file has a syntax error (its
grammar loader alone is a tenth of a cold check's start-up).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from specgen.diagnostics import Span

from .ast import FuncDecl, GlobalDecl, Module, Node, TypeDecl
from .errors import ASLError

GRAMMAR_PATH = Path(__file__).with_name("asl1.lark")


def _n(kind: str, meta, *args) -> Node:
    return Node(kind, getattr(meta, "line", 0), getattr(meta, "column", 0), args)


class _Pos:
    __slots__ = ("line", "column")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


_NOPOS = _Pos(0, 0)


def _position(children) -> _Pos:
    """The first located child: Lark gives no meta to an inline transformer."""
    for c in children:
        if isinstance(c, Token):
            return _Pos(c.line, c.column)
        line = getattr(c, "line", None)
        if line:
            return _Pos(line, getattr(c, "col", 0))
        if isinstance(c, tuple):
            for d in c:
                line = getattr(d, "line", None)
                if line:
                    return _Pos(line, getattr(d, "col", getattr(d, "column", 0)))
    return _NOPOS


def _with_pos(func, name, children, meta):
    return func(_position(children), *children)


@v_args(wrapper=_with_pos)
class _Build(Transformer):
    """Builds nodes bottom-up during the LALR parse."""

    def __init__(self) -> None:
        super().__init__()
        self.path = ""
        self.refs: set[str] = set()

    def _take_refs(self) -> frozenset[str]:
        refs = frozenset(self.refs)
        self.refs = set()
        return refs

    # ------------------------------------------------------------ decls
    def start(self, meta, *decls):
        return list(decls)

    def qual(self, meta, tok):
        return tok

    def gkind(self, meta, tok):
        return str(tok)

    lkind = gkind
    dir = gkind
    boolop = gkind
    cmpop = gkind
    addop = gkind
    mulop = gkind
    powop = gkind
    unop = gkind

    def func_decl(self, meta, *children):
        quals = tuple(str(c) for c in children[:-5])
        name, params, ret, body = children[-4:]
        return FuncDecl(
            str(name), quals, params, ret, body, self.path, meta.line, meta.column,
            self._take_refs(),
        )

    def params(self, meta, *ps):
        return tuple(p for p in ps if p is not None)

    def param(self, meta, name, ty):
        return (str(name), ty)

    def ret(self, meta, *ty):
        return ty[0] if ty else None

    def enum_decl(self, meta, _kw, name, *members):
        return TypeDecl(str(name), "enum", tuple(str(m) for m in members), self.path,
                        meta.line, meta.column, self._take_refs())

    def record_decl(self, meta, _kw, name, *fields):
        return TypeDecl(str(name), "record", tuple(f for f in fields if f is not None),
                        self.path, meta.line, meta.column, self._take_refs())

    def alias_decl(self, meta, _kw, name, ty):
        return TypeDecl(str(name), "alias", ty, self.path, meta.line, meta.column,
                        self._take_refs())

    def field(self, meta, name, ty):
        return (str(name), ty)

    def global_init(self, meta, kind, name, ty, init):
        return GlobalDecl(str(kind), str(name), ty, init, self.path, meta.line, meta.column,
                          self._take_refs())

    def global_var(self, meta, kind, name, ty):
        return GlobalDecl(str(kind), str(name), ty, None, self.path, meta.line, meta.column,
                          self._take_refs())

    def opt_ty(self, meta, *ty):
        return ty[0] if ty else None

    # ------------------------------------------------------------ types
    def t_int(self, meta):
        return _n("t_int", meta)

    def t_int_c(self, meta, *cs):
        return _n("t_int_c", meta, cs)

    def t_bool(self, meta):
        return _n("t_bool", meta)

    def t_real(self, meta):
        return _n("t_real", meta)

    def t_string(self, meta):
        return _n("t_string", meta)

    def t_bits(self, meta, width):
        return _n("t_bits", meta, width)

    def t_array(self, meta, size, elem):
        return _n("t_array", meta, size, elem)

    def t_tuple(self, meta, *tys):
        return _n("t_tuple", meta, tys)

    def t_named(self, meta, name):
        self.refs.add(str(name))
        return _n("t_named", meta, str(name))

    def c_single(self, meta, e):
        return (e, None)

    def c_range(self, meta, lo, hi):
        return (lo, hi)

    # ------------------------------------------------------- statements
    def stmts(self, meta, *ss):
        return tuple(ss)

    def s_decl(self, meta, kind, name, ty, init):
        return _n("s_decl", meta, str(kind), str(name), ty, init)

    def s_decl_noinit(self, meta, kind, name, ty):
        return _n("s_decl", meta, str(kind), str(name), ty, None)

    def s_decl_tuple(self, meta, kind, *rest):
        return _n("s_decl_tuple", meta, str(kind), tuple(rest[:-1]), rest[-1])

    def dtuple(self, meta, name):
        return str(name)

    def discard(self, meta):
        return None

    def s_assign(self, meta, lhs, rhs):
        return _n("s_assign", meta, lhs, rhs)

    def s_discard(self, meta, rhs):
        return _n("s_assign", meta, _n("l_discard", meta), rhs)

    def s_assign_tuple(self, meta, *rest):
        return _n("s_assign_tuple", meta, tuple(rest[:-1]), rest[-1])

    def l_var(self, meta, name):
        self.refs.add(str(name))
        return _n("l_var", meta, str(name))

    def l_field(self, meta, base, name):
        return _n("l_field", meta, base, str(name))

    def l_index(self, meta, base, idx):
        return _n("l_index", meta, base, idx)

    def l_slice(self, meta, base, *slices):
        return _n("l_slice", meta, base, slices)

    def l_discard(self, meta):
        return _n("l_discard", meta)

    def s_call(self, meta, name, args):
        self.refs.add(str(name))
        return _n("s_call", meta, str(name), (), args)

    def s_call_p(self, meta, name, params, args):
        self.refs.add(str(name))
        return _n("s_call", meta, str(name), params, args)

    def if_stmt(self, meta, _kw, cond, then, *rest):
        arms = [(cond, then)] + [e for e in rest[:-1]]
        return _n("s_if", meta, tuple(arms), rest[-1])

    def elsif(self, meta, cond, body):
        return (cond, body)

    def else_part(self, meta, *body):
        return body[0] if body else None

    def case_stmt(self, meta, _kw, subject, *alts):
        otherwise = None
        whens = []
        for a in alts:
            if isinstance(a, tuple) and a and a[0] == "otherwise":
                otherwise = a[1]
            else:
                whens.append(a)
        return _n("s_case", meta, subject, tuple(whens), otherwise)

    def alt(self, meta, *rest):
        return (tuple(rest[:-1]), rest[-1])

    def otherwise(self, meta, body):
        return ("otherwise", body)

    def p_expr(self, meta, e):
        return _n("p_expr", meta, e)

    def p_range(self, meta, lo, hi):
        return _n("p_range", meta, lo, hi)

    def p_any(self, meta):
        return _n("p_any", meta)

    def for_stmt(self, meta, _kw, var, start, direction, stop, limit, body):
        return _n("s_for", meta, str(var), start, str(direction), stop, limit, body)

    def limit(self, meta, *e):
        return e[0] if e else None

    def while_stmt(self, meta, _kw, cond, limit, body):
        return _n("s_while", meta, cond, limit, body)

    def repeat_stmt(self, meta, _kw, body, cond, limit):
        return _n("s_repeat", meta, body, cond, limit)

    def return_stmt(self, meta, _kw, *e):
        return _n("s_return", meta, e[0] if e else None)

    def assert_stmt(self, meta, _kw, e):
        return _n("s_assert", meta, e)

    def unreachable_stmt(self, meta, _kw):
        return _n("s_unreachable", meta)

    def pass_stmt(self, meta, _kw):
        return _n("s_pass", meta)

    def print_stmt(self, meta, kw, args):
        return _n("s_print", meta, str(kw) == "println", tuple(args))

    # ------------------------------------------------------ expressions
    def e_if(self, meta, _kw, cond, then, *rest):
        arms = [(cond, then)] + list(rest[:-1])
        return _n("e_if", meta, tuple(arms), rest[-1])

    def e_elsif(self, meta, cond, value):
        return (cond, value)

    def e_bin(self, meta, left, op, right):
        return _n("e_bin", meta, str(op), left, right)

    def e_un(self, meta, op, e):
        return _n("e_un", meta, str(op), e)

    def e_as(self, meta, e, ty):
        return _n("e_as", meta, e, ty)

    def e_field(self, meta, base, name):
        return _n("e_field", meta, base, str(name))

    def e_index(self, meta, base, idx):
        return _n("e_index", meta, base, idx)

    def e_slice(self, meta, base, *slices):
        return _n("e_slice", meta, base, slices)

    def sl_single(self, meta, e):
        return ("single", e, None)

    def sl_range(self, meta, hi, lo):
        return ("range", hi, lo)

    def sl_up(self, meta, lo, width):
        return ("up", lo, width)

    def sl_times(self, meta, index, width):
        return ("times", index, width)

    def e_var(self, meta, name):
        self.refs.add(str(name))
        return _n("e_var", meta, str(name))

    def e_int(self, meta, tok):
        return _n("e_lit", meta, int(str(tok).replace("_", "")))

    def e_hex(self, meta, tok):
        return _n("e_lit", meta, int(str(tok)[2:].replace("_", ""), 16))

    def e_real(self, meta, tok):
        return _n("e_lit", meta, Fraction(str(tok).replace("_", "")))

    def e_bits(self, meta, tok):
        digits = str(tok)[1:-1].replace(" ", "")
        return _n("e_bitlit", meta, int(digits, 2) if digits else 0, len(digits))

    def e_string(self, meta, tok):
        return _n("e_lit", meta, str(tok)[1:-1].encode().decode("unicode_escape"))

    def e_true(self, meta, tok):
        return _n("e_lit", meta, True)

    def e_false(self, meta, tok):
        return _n("e_lit", meta, False)

    def e_call(self, meta, name, args):
        self.refs.add(str(name))
        return _n("e_call", meta, str(name), (), args)

    def e_call_p(self, meta, name, params, args):
        self.refs.add(str(name))
        return _n("e_call", meta, str(name), params, args)

    def e_call_p0(self, meta, name, params):
        self.refs.add(str(name))
        return _n("e_call", meta, str(name), params, ())

    def e_record(self, meta, name, *inits):
        self.refs.add(str(name))
        return _n("e_record", meta, str(name), tuple(i for i in inits if i is not None))

    def e_arbitrary(self, meta, tok, ty):
        return _n("e_arbitrary", meta, ty)

    def e_tuple(self, meta, *items):
        return _n("e_tuple", meta, items)

    def finit(self, meta, name, e):
        return (str(name), e)

    def args(self, meta, *es):
        return tuple(e for e in es if e is not None)

    def exprlist(self, meta, *es):
        return tuple(es)


_PARSER: Lark | None = None
_BUILDER: _Build | None = None


def _parser() -> tuple[Lark, _Build]:
    global _PARSER, _BUILDER
    if _PARSER is None:
        _BUILDER = _Build()
        _PARSER = Lark(
            GRAMMAR_PATH.read_text(encoding="utf-8"),
            parser="lalr",
            lexer="contextual",
            maybe_placeholders=True,
            transformer=_BUILDER,
        )
    assert _BUILDER is not None
    return _PARSER, _BUILDER


def parse_source_lark(text: str, path: str) -> Module:
    """The LALR parse of ``asl1.lark``: the reference the hand-written parser is tested against."""
    parser, builder = _parser()
    builder.path = path
    builder.refs = set()
    try:
        decls = parser.parse(text)
    except UnexpectedToken as exc:
        tok = exc.token
        expected = ", ".join(sorted(exc.expected)[:8])
        what = "end of file" if tok.type == "$END" else repr(str(tok))
        raise ASLError(
            f"syntax error: unexpected {what}; expected one of {expected}",
            Span(path, exc.line if exc.line > 0 else 0, exc.column if exc.column > 0 else 0),
            "parse",
        ) from None
    except UnexpectedCharacters as exc:
        raise ASLError(
            f"syntax error: unexpected character {text[exc.pos_in_stream]!r}",
            Span(path, exc.line, exc.column),
            "parse",
        ) from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark input errors
        raise ASLError(f"syntax error: {exc}", Span(path, getattr(exc, "line", 0)), "parse") from None
    except LarkError as exc:  # pragma: no cover - defensive
        raise ASLError(f"parser failure: {exc}", Span(path), "parse") from None
    return Module(path, decls)
