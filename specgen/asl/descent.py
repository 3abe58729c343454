"""A hand-written lexer and recursive-descent parser for ``asl1.lark``.

Why: a cold check parses every unit of the spec, and Lark's LALR loop (one
Python call per token per state, a ``Token`` object per lexeme, a transformer
wrapper per reduction) made that most of a cold run. This parser reads the
same grammar by hand: one regular expression splits the text, and each rule
of the grammar is a method that builds the same :mod:`~specgen.asl.ast` nodes,
with the same line and column, that the Lark transformer in
:mod:`specgen.asl.parser` builds (``tests/test_asl_descent.py`` compares
them on every unit of the corpora).

It only has to be right on text that parses: on any syntax error it raises
:class:`Reject` and the caller re-parses with Lark, whose message (expected
tokens, position) is the one users see. The grammar file stays the normative
description of the dialect; a rule added there must be added here too.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from fractions import Fraction

from .ast import FuncDecl, GlobalDecl, Module, Node, TypeDecl

_TOKEN = re.compile(
    r"(?P<c>//[^\n]*|/\*(?:.|\n)*?\*/)"
    r"|(?P<HEX>0x[0-9A-Fa-f_]+)|(?P<REAL>[0-9][0-9_]*\.[0-9][0-9_]*)|(?P<INT>[0-9][0-9_]*)"
    r"|(?P<NAME>[A-Za-z_][A-Za-z0-9_]*)|(?P<BITS>'[01 ]*')|(?P<STRING>\"(?:[^\"\\]|\\.)*\")"
    r"|(?P<P>-->|<->|&&|\|\||==|!=|<=|>=|<<|>>|\+\+|=>|\.\.|\+:|\*:|[-+*/^!<>=(){}\[\],.:;])"
)

# Words the grammar spells out. Where a rule expects NAME, any word is a NAME (Lark's
# contextual lexer does the same: a keyword that the state cannot take is lexed as NAME).
_KEYWORDS = frozenset(
    "begin end of enumeration record pure readonly impdef implementation noreturn constant "
    "config let var integer boolean real string bits array then elsif else when otherwise to "
    "downto looplimit do until AND OR XOR DIV DIVRM MOD NOT as func type if case for while "
    "repeat return assert unreachable pass TRUE FALSE ARBITRARY".split()
)
_KEYWORD_KIND = {w: w for w in _KEYWORDS}
_WORDS = _KEYWORDS | {"NAME"}
_SPACE = re.compile(r"[ \t\r\n\f]*")
_NEWLINE = re.compile(r"\n")
_QUALS = frozenset(("pure", "readonly", "impdef", "implementation", "noreturn"))
_GKINDS = frozenset(("constant", "config", "let", "var"))
_LKINDS = frozenset(("let", "var", "constant"))
_BOOLOPS = frozenset(("&&", "||", "-->", "<->"))
_CMPOPS = frozenset(("==", "!=", "<=", ">=", "<", ">"))
_ADDOPS = frozenset(("+", "-", "AND", "OR", "XOR", "++"))
_MULOPS = frozenset(("*", "/", "DIV", "DIVRM", "MOD", "<<", ">>"))
_UNOPS = frozenset(("!", "NOT", "-"))
_STMT_END = frozenset(("end", "else", "elsif", "when", "otherwise", "until", "$END"))
_SLICE_KINDS = {":": "range", "+:": "up", "*:": "times"}
_SIMPLE_TYPES = {"boolean": "t_bool", "real": "t_real", "string": "t_string"}


class Reject(Exception):
    """The text is not in the grammar (or not in this parser's reading of it)."""


def _tokens(text: str) -> tuple[list[str], list[str], list[int]]:
    """Kinds, texts and start offsets of the tokens (whitespace between them is skipped)."""
    kinds: list[str] = []
    values: list[str] = []
    starts: list[int] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        start = m.start()
        if start != pos and not _SPACE.fullmatch(text, pos, start):
            raise Reject("unexpected character")
        pos = m.end()
        kind = m.lastgroup
        if kind == "P":
            kind = m.group()
        elif kind == "NAME":
            kind = _KEYWORD_KIND.get(m.group(), "NAME")
        elif kind == "c":
            continue
        kinds.append(kind)  # type: ignore[arg-type]
        values.append(m.group())
        starts.append(start)
    if pos != len(text) and not _SPACE.fullmatch(text, pos):
        raise Reject("unexpected character")
    kinds.append("$END")
    values.append("")
    starts.append(len(text))
    return kinds, values, starts


def _first_pos(items) -> tuple[int, int]:
    """The position Lark's transformer gives a node: its first located child."""
    for c in items:
        if isinstance(c, tuple):
            for d in c:
                line = getattr(d, "line", None)
                if line:
                    return line, d.col
        else:
            line = getattr(c, "line", None)
            if line:
                return line, c.col
    return 0, 0


class _Parser:
    """One file's parse; methods are the grammar's rules."""

    __slots__ = ("k", "v", "starts", "newlines", "i", "path", "refs")

    def __init__(self, text: str, path: str) -> None:
        self.k, self.v, self.starts = _tokens(text)
        self.newlines = [m.start() for m in _NEWLINE.finditer(text)]
        self.i = 0
        self.path = path
        self.refs: set[str] = set()

    # ------------------------------------------------------------ helpers
    def at(self, i: int) -> tuple[int, int]:
        """1-based line and column of token ``i`` (computed only for tokens that become nodes)."""
        off = self.starts[i]
        n = bisect_right(self.newlines, off)
        return n + 1, off - (self.newlines[n - 1] if n else -1)

    def eat(self, kind: str) -> int:
        i = self.i
        if self.k[i] != kind:
            raise Reject(kind)
        self.i = i + 1
        return i

    def name(self) -> int:
        i = self.i
        if self.k[i] not in _WORDS:
            raise Reject("NAME")
        self.i = i + 1
        return i

    def take_refs(self) -> frozenset[str]:
        refs = frozenset(self.refs)
        self.refs = set()
        return refs

    # ------------------------------------------------------------ decls
    def module(self) -> Module:
        decls = []
        k = self.k
        while k[self.i] != "$END":
            decls.append(self.decl())
        return Module(self.path, decls)

    def decl(self):
        k, i = self.k, self.i
        kind = k[i]
        if kind in _QUALS or kind == "func":
            quals = []
            while k[self.i] in _QUALS:
                quals.append(self.v[self.i])
                self.i += 1
            self.eat("func")
            line, col = self.at(i)
            name = self.v[self.name()]
            self.eat("(")
            params = []
            if k[self.i] != ")":
                params.append(self.param())
                while k[self.i] == ",":
                    self.i += 1
                    params.append(self.param())
            self.eat(")")
            ret = None
            if k[self.i] == "=>":
                self.i += 1
                ret = self.ty()
            self.eat("begin")
            body = self.stmts()
            self.eat("end")
            self.eat(";")
            return FuncDecl(name, tuple(quals), tuple(params), ret, body, self.path, line, col,
                            self.take_refs())
        if kind == "type":
            self.i += 1
            line, col = self.at(i)
            name = self.v[self.name()]
            self.eat("of")
            if k[self.i] == "enumeration":
                self.i += 1
                self.eat("{")
                members = [self.v[self.name()]]
                while k[self.i] == ",":
                    self.i += 1
                    if k[self.i] == "}":
                        break
                    members.append(self.v[self.name()])
                self.eat("}")
                self.eat(";")
                return TypeDecl(name, "enum", tuple(members), self.path, line, col, self.take_refs())
            if k[self.i] == "record":
                self.i += 1
                self.eat("{")
                fields = []
                if k[self.i] != "}":
                    fields.append(self.param())
                    while k[self.i] == ",":
                        self.i += 1
                        if k[self.i] == "}":
                            break
                        fields.append(self.param())
                self.eat("}")
                self.eat(";")
                return TypeDecl(name, "record", tuple(fields), self.path, line, col,
                                self.take_refs())
            ty = self.ty()
            self.eat(";")
            return TypeDecl(name, "alias", ty, self.path, line, col, self.take_refs())
        if kind in _GKINDS:
            self.i += 1
            n = self.name()
            ty = None
            if k[self.i] == ":":
                self.i += 1
                ty = self.ty()
                if k[self.i] == ";":
                    self.i += 1
                    return GlobalDecl(kind, self.v[n], ty, None, self.path, *self.at(n),
                                      self.take_refs())
            self.eat("=")
            init = self.expr()
            self.eat(";")
            return GlobalDecl(kind, self.v[n], ty, init, self.path, *self.at(n),
                              self.take_refs())
        raise Reject("declaration")

    def param(self) -> tuple[str, Node]:
        name = self.v[self.name()]
        self.eat(":")
        return (name, self.ty())

    # ------------------------------------------------------------ types
    def ty(self) -> Node:
        k, i = self.k, self.i
        kind = k[i]
        if kind == "integer":
            self.i += 1
            if k[self.i] != "{":
                return Node("t_int", 0, 0, ())
            self.i += 1
            cs = [self.constraint()]
            while k[self.i] == ",":
                self.i += 1
                cs.append(self.constraint())
            self.eat("}")
            line, col = _first_pos(cs)
            return Node("t_int_c", line, col, (tuple(cs),))
        simple = _SIMPLE_TYPES.get(kind)
        if simple is not None:
            self.i += 1
            return Node(simple, 0, 0, ())
        if kind == "bits":
            self.i += 1
            self.eat("(")
            width = self.expr()
            self.eat(")")
            line, col = _first_pos((width,))
            return Node("t_bits", line, col, (width,))
        if kind == "array":
            self.i += 1
            self.eat("[")
            self.eat("[")
            size = self.expr()
            self.eat("]")
            self.eat("]")
            self.eat("of")
            elem = self.ty()
            line, col = _first_pos((size, elem))
            return Node("t_array", line, col, (size, elem))
        if kind == "(":
            self.i += 1
            tys = [self.ty()]
            while k[self.i] == ",":
                self.i += 1
                tys.append(self.ty())
            self.eat(")")
            if len(tys) < 2:
                raise Reject("tuple type")
            line, col = _first_pos(tys)
            return Node("t_tuple", line, col, (tuple(tys),))
        n = self.name()
        name = self.v[n]
        self.refs.add(name)
        return Node("t_named", *self.at(n), (name,))

    def constraint(self) -> tuple:
        lo = self.expr()
        if self.k[self.i] == "..":
            self.i += 1
            return (lo, self.expr())
        return (lo, None)

    # ------------------------------------------------------- statements
    def stmts(self) -> tuple:
        out = []
        k = self.k
        while k[self.i] not in _STMT_END:
            out.append(self.stmt())
        return tuple(out)

    def stmt(self) -> Node:
        k, v, i = self.k, self.v, self.i
        kind = k[i]
        if kind in _LKINDS:
            self.i += 1
            if k[self.i] == "(":
                self.i += 1
                names = [self.dtuple()]
                while k[self.i] == ",":
                    self.i += 1
                    names.append(self.dtuple())
                self.eat(")")
                if len(names) < 2:
                    raise Reject("tuple declaration")
                self.eat("=")
                init = self.expr()
                self.eat(";")
                return Node("s_decl_tuple", init.line, init.col, (kind, tuple(names), init))
            n = self.name()
            ty = init = None
            if k[self.i] == ":":
                self.i += 1
                ty = self.ty()
                if k[self.i] == ";":
                    self.i += 1
                    return Node("s_decl", *self.at(n), (kind, v[n], ty, None))
            self.eat("=")
            init = self.expr()
            self.eat(";")
            return Node("s_decl", *self.at(n), (kind, v[n], ty, init))
        if kind == "if":
            self.i += 1
            arms = [self.cond_body("then")]
            while k[self.i] == "elsif":
                self.i += 1
                arms.append(self.cond_body("then"))
            other = None
            if k[self.i] == "else":
                self.i += 1
                other = self.stmts()
            self.eat("end")
            self.eat(";")
            return Node("s_if", *self.at(i), (tuple(arms), other))
        if kind == "case":
            return self.case_stmt()
        if kind == "for":
            self.i += 1
            var = v[self.name()]
            self.eat("=")
            start = self.expr()
            d = k[self.i]
            if d != "to" and d != "downto":
                raise Reject("direction")
            self.i += 1
            stop = self.expr()
            limit = self.limit()
            self.eat("do")
            body = self.stmts()
            self.eat("end")
            self.eat(";")
            return Node("s_for", *self.at(i), (var, start, d, stop, limit, body))
        if kind == "while":
            self.i += 1
            cond = self.expr()
            limit = self.limit()
            self.eat("do")
            body = self.stmts()
            self.eat("end")
            self.eat(";")
            return Node("s_while", *self.at(i), (cond, limit, body))
        if kind == "repeat":
            self.i += 1
            body = self.stmts()
            self.eat("until")
            cond = self.expr()
            limit = self.limit()
            self.eat(";")
            return Node("s_repeat", *self.at(i), (body, cond, limit))
        if kind == "return":
            self.i += 1
            e = None if k[self.i] == ";" else self.expr()
            self.eat(";")
            return Node("s_return", *self.at(i), (e,))
        if kind == "assert":
            self.i += 1
            e = self.expr()
            self.eat(";")
            return Node("s_assert", *self.at(i), (e,))
        if kind == "unreachable":
            self.i += 1
            if k[self.i] == "(":
                self.i += 1
                self.eat(")")
            self.eat(";")
            return Node("s_unreachable", *self.at(i), ())
        if kind == "pass":
            self.i += 1
            self.eat(";")
            return Node("s_pass", *self.at(i), ())
        if kind == "(":
            self.i += 1
            items = [self.litem()]
            while k[self.i] == ",":
                self.i += 1
                items.append(self.litem())
            self.eat(")")
            if len(items) < 2:
                raise Reject("tuple assignment")
            self.eat("=")
            rhs = self.expr()
            self.eat(";")
            line, col = _first_pos(items + [rhs])
            return Node("s_assign_tuple", line, col, (tuple(items), rhs))
        if kind == "-":
            self.i += 1
            self.eat("=")
            rhs = self.expr()
            self.eat(";")
            line, col = rhs.line, rhs.col
            return Node("s_assign", line, col, (Node("l_discard", line, col, ()), rhs))
        if kind in _WORDS:
            nk = k[i + 1]
            if nk == "(":
                self.i += 2
                args = self.args(")")
                self.eat(";")
                name = v[i]
                self.refs.add(name)
                return Node("s_call", *self.at(i), (name, (), args))
            if nk == "{":
                self.i += 2
                params = self.exprlist()
                self.eat("}")
                self.eat("(")
                args = self.args(")")
                self.eat(";")
                name = v[i]
                self.refs.add(name)
                return Node("s_call", *self.at(i), (name, params, args))
            lhs = self.lexpr()
            self.eat("=")
            rhs = self.expr()
            self.eat(";")
            return Node("s_assign", lhs.line, lhs.col, (lhs, rhs))
        raise Reject("statement")

    def cond_body(self, sep: str) -> tuple:
        cond = self.expr()
        self.eat(sep)
        return (cond, self.stmts())

    def limit(self) -> Node | None:
        if self.k[self.i] == "looplimit":
            self.i += 1
            return self.expr()
        return None

    def dtuple(self) -> str | None:
        if self.k[self.i] == "-":
            self.i += 1
            return None
        return self.v[self.name()]

    def litem(self) -> Node:
        if self.k[self.i] == "-":
            self.i += 1
            return Node("l_discard", 0, 0, ())
        return self.lexpr()

    def lexpr(self) -> Node:
        k = self.k
        n = self.name()
        name = self.v[n]
        self.refs.add(name)
        node = Node("l_var", *self.at(n), (name,))
        while True:
            kind = k[self.i]
            if kind == ".":
                self.i += 1
                node = Node("l_field", node.line, node.col, (node, self.v[self.name()]))
            elif kind == "[":
                if k[self.i + 1] == "[":
                    self.i += 2
                    idx = self.expr()
                    self.eat("]")
                    self.eat("]")
                    node = Node("l_index", node.line, node.col, (node, idx))
                else:
                    self.i += 1
                    node = Node("l_slice", node.line, node.col, (node, self.slices()))
            else:
                return node

    def case_stmt(self) -> Node:
        k, i = self.k, self.i
        self.i += 1
        subject = self.expr()
        self.eat("of")
        whens = []
        while k[self.i] == "when":
            self.i += 1
            pats = [self.pattern()]
            while k[self.i] == ",":
                self.i += 1
                pats.append(self.pattern())
            self.eat("=>")
            whens.append((tuple(pats), self.stmts()))
        otherwise = None
        if k[self.i] == "otherwise":
            self.i += 1
            self.eat("=>")
            otherwise = self.stmts()
        self.eat("end")
        self.eat(";")
        return Node("s_case", *self.at(i), (subject, tuple(whens), otherwise))

    def pattern(self) -> Node:
        k = self.k
        if k[self.i] == "-" and k[self.i + 1] in (",", "=>"):
            self.i += 1
            return Node("p_any", 0, 0, ())
        lo = self.expr()
        if k[self.i] == "..":
            self.i += 1
            hi = self.expr()
            return Node("p_range", lo.line, lo.col, (lo, hi))
        return Node("p_expr", lo.line, lo.col, (lo,))

    # ------------------------------------------------------ expressions
    def expr(self) -> Node:
        k = self.k
        left = self.cexpr()
        while k[self.i] in _BOOLOPS:
            op = k[self.i]
            self.i += 1
            right = self.cexpr()
            line, col = _first_pos((left, right))
            left = Node("e_bin", line, col, (op, left, right))
        return left

    def cexpr(self) -> Node:
        left = self.aexpr()
        op = self.k[self.i]
        if op in _CMPOPS:
            self.i += 1
            right = self.aexpr()
            line, col = _first_pos((left, right))
            return Node("e_bin", line, col, (op, left, right))
        return left

    def aexpr(self) -> Node:
        k = self.k
        left = self.mexpr()
        while k[self.i] in _ADDOPS:
            op = k[self.i]
            self.i += 1
            right = self.mexpr()
            line, col = _first_pos((left, right))
            left = Node("e_bin", line, col, (op, left, right))
        return left

    def mexpr(self) -> Node:
        k = self.k
        left = self.pexpr()
        while k[self.i] in _MULOPS:
            op = k[self.i]
            self.i += 1
            right = self.pexpr()
            line, col = _first_pos((left, right))
            left = Node("e_bin", line, col, (op, left, right))
        return left

    def pexpr(self) -> Node:
        left = self.uexpr()
        if self.k[self.i] == "^":
            self.i += 1
            right = self.pexpr()
            line, col = _first_pos((left, right))
            return Node("e_bin", line, col, ("^", left, right))
        return left

    def uexpr(self) -> Node:
        k = self.k
        kind = k[self.i]
        if kind in _UNOPS:
            self.i += 1
            e = self.uexpr()
            line, col = _first_pos((e,))
            return Node("e_un", line, col, (kind, e))
        if kind == "if":
            i = self.i
            self.i += 1
            cond = self.expr()
            self.eat("then")
            arms = [(cond, self.expr())]
            while k[self.i] == "elsif":
                self.i += 1
                c = self.expr()
                self.eat("then")
                arms.append((c, self.expr()))
            self.eat("else")
            other = self.expr()
            return Node("e_if", *self.at(i), (tuple(arms), other))
        node = self.postfix()
        while k[self.i] == "as":
            self.i += 1
            node = Node("e_as", node.line, node.col, (node, self.ty()))
        return node

    def postfix(self) -> Node:
        k = self.k
        node = self.atom()
        while True:
            kind = k[self.i]
            if kind == ".":
                self.i += 1
                line, col = _first_pos((node,))
                node = Node("e_field", line, col, (node, self.v[self.name()]))
            elif kind == "[":
                if k[self.i + 1] == "[":
                    self.i += 2
                    idx = self.expr()
                    self.eat("]")
                    self.eat("]")
                    line, col = _first_pos((node, idx))
                    node = Node("e_index", line, col, (node, idx))
                else:
                    self.i += 1
                    slices = self.slices()
                    line, col = _first_pos((node,) + slices)
                    node = Node("e_slice", line, col, (node, slices))
            else:
                return node

    def slices(self) -> tuple:
        out = [self.slice()]
        k = self.k
        while k[self.i] == ",":
            self.i += 1
            out.append(self.slice())
        self.eat("]")
        return tuple(out)

    def slice(self) -> tuple:
        first = self.expr()
        kind = _SLICE_KINDS.get(self.k[self.i])
        if kind is None:
            return ("single", first, None)
        self.i += 1
        return (kind, first, self.expr())

    def atom(self) -> Node:
        k, v, i = self.k, self.v, self.i
        kind = k[i]
        line, col = self.at(i)
        self.i = i + 1
        if kind == "NAME" or (kind in _KEYWORDS and kind not in _ATOM_KEYWORDS):
            name = v[i]
            nk = k[i + 1]
            if nk == "(":
                self.i += 1
                self.refs.add(name)
                return Node("e_call", line, col, (name, (), self.args(")")))
            if nk == "{":
                self.i += 1
                self.refs.add(name)
                if k[self.i] in _WORDS and k[self.i + 1] == "=":
                    inits = [self.finit()]
                    while k[self.i] == ",":
                        self.i += 1
                        if k[self.i] == "}":
                            break
                        inits.append(self.finit())
                    self.eat("}")
                    return Node("e_record", line, col, (name, tuple(inits)))
                params = self.exprlist()
                self.eat("}")
                if k[self.i] == "(":
                    self.i += 1
                    return Node("e_call", line, col, (name, params, self.args(")")))
                return Node("e_call", line, col, (name, params, ()))
            self.refs.add(name)
            return Node("e_var", line, col, (name,))
        text = v[i]
        if kind == "INT":
            return Node("e_lit", line, col, (int(text.replace("_", "")),))
        if kind == "HEX":
            return Node("e_lit", line, col, (int(text[2:].replace("_", ""), 16),))
        if kind == "REAL":
            return Node("e_lit", line, col, (Fraction(text.replace("_", "")),))
        if kind == "BITS":
            digits = text[1:-1].replace(" ", "")
            return Node("e_bitlit", line, col, (int(digits, 2) if digits else 0, len(digits)))
        if kind == "STRING":
            return Node("e_lit", line, col, (text[1:-1].encode().decode("unicode_escape"),))
        if kind == "TRUE":
            return Node("e_lit", line, col, (True,))
        if kind == "FALSE":
            return Node("e_lit", line, col, (False,))
        if kind == "ARBITRARY":
            self.eat(":")
            return Node("e_arbitrary", line, col, (self.ty(),))
        if kind == "(":
            first = self.expr()
            if k[self.i] == ")":
                self.i += 1
                return first
            items = [first]
            while k[self.i] == ",":
                self.i += 1
                items.append(self.expr())
            self.eat(")")
            line, col = _first_pos(items)
            return Node("e_tuple", line, col, (tuple(items),))
        raise Reject("expression")

    def finit(self) -> tuple[str, Node]:
        name = self.v[self.name()]
        self.eat("=")
        return (name, self.expr())

    def args(self, close: str) -> tuple:
        out = []
        k = self.k
        if k[self.i] != close:
            out.append(self.expr())
            while k[self.i] == ",":
                self.i += 1
                out.append(self.expr())
        self.eat(close)
        return tuple(out)

    def exprlist(self) -> tuple:
        out = [self.expr()]
        k = self.k
        while k[self.i] == ",":
            self.i += 1
            out.append(self.expr())
        return tuple(out)


# keywords that begin an atom or a unary expression; any other word there is a NAME
_ATOM_KEYWORDS = frozenset(("if", "TRUE", "FALSE", "ARBITRARY", "NOT"))


def parse_module(text: str, path: str) -> Module:
    """Parse one file; raise :class:`Reject` on anything outside the grammar."""
    try:
        return _Parser(text, path).module()
    except (IndexError, ValueError, UnicodeError) as exc:
        raise Reject(str(exc)) from None
