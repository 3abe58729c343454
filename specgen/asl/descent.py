"""A hand-written lexer and recursive-descent parser for ``asl1.lark``.

Why: a cold check parses every unit of the spec, and Lark's LALR loop (one
Python call per token per state, a ``Token`` object per lexeme, a transformer
wrapper per reduction) made that most of a cold run. This parser reads the
same grammar by hand: one regular expression splits the text, and each rule
of the grammar is a method that builds the same :mod:`~specgen.asl.ast` nodes,
with the same line and column, that the Lark transformer in
:mod:`specgen.asl.lark_reference` builds (``tests/test_asl_descent.py``
compares them; every unit and test of both corpora was compared once).

It only has to be right on text that parses: on any syntax error it raises
:class:`Reject` and the caller re-parses with Lark, whose message (expected
tokens, position) is the one users see. The grammar file stays the normative
description of the dialect; a rule added there must be added here too.
"""

from __future__ import annotations

from .ast import FuncDecl, GlobalDecl, Module, Node, TypeDecl
from .descent_expr import GKINDS, LKINDS, QUALS, STMT_END, WORDS, ParserBase, Reject, first_pos

__all__ = ["Reject", "parse_module"]


class _Parser(ParserBase):
    """One file's parse; methods are the grammar's rules (expressions in the base)."""

    __slots__ = ()

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
        if kind in QUALS or kind == "func":
            quals = []
            while k[self.i] in QUALS:
                quals.append(self.v[self.i])
                self.i += 1
            self.eat("func")
            line, col = self.at(i)
            name = self.v[self.name()]
            self.eat("(")
            params = []
            if k[self.i] != ")":
                params = self.comma_list(self.param)
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
                members = self.braced_list(self.word)
                self.eat(";")
                return TypeDecl(name, "enum", tuple(members), self.path, line, col, self.take_refs())
            if k[self.i] == "record":
                self.i += 1
                self.eat("{")
                if k[self.i] == "}":
                    self.i += 1
                    fields = []
                else:
                    fields = self.braced_list(self.param)
                self.eat(";")
                return TypeDecl(name, "record", tuple(fields), self.path, line, col,
                                self.take_refs())
            ty = self.ty()
            self.eat(";")
            return TypeDecl(name, "alias", ty, self.path, line, col, self.take_refs())
        if kind in GKINDS:
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

    # ------------------------------------------------------- statements
    def stmts(self) -> tuple:
        out = []
        k = self.k
        while k[self.i] not in STMT_END:
            out.append(self.stmt())
        return tuple(out)

    def stmt(self) -> Node:
        k, v, i = self.k, self.v, self.i
        kind = k[i]
        if kind in LKINDS:
            self.i += 1
            if k[self.i] == "(":
                self.i += 1
                names = self.tuple_of(self.dtuple)
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
            limit, body = self.loop_rest()
            return Node("s_for", *self.at(i), (var, start, d, stop, limit, body))
        if kind == "while":
            self.i += 1
            cond = self.expr()
            limit, body = self.loop_rest()
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
        if kind == "NAME" and v[i] in ("print", "println") and k[i + 1] != "=":
            # ASL's print statements: ``println e1, e2;`` (the arguments without parentheses)
            self.i += 1
            args = () if k[self.i] == ";" else self.exprlist()
            self.eat(";")
            return Node("s_print", *self.at(i), (v[i] == "println", args))
        if kind == "(":
            self.i += 1
            items = self.tuple_of(self.litem)
            self.eat("=")
            rhs = self.expr()
            self.eat(";")
            line, col = first_pos(items + [rhs])
            return Node("s_assign_tuple", line, col, (tuple(items), rhs))
        if kind == "-":
            self.i += 1
            self.eat("=")
            rhs = self.expr()
            self.eat(";")
            line, col = rhs.line, rhs.col
            return Node("s_assign", line, col, (Node("l_discard", line, col, ()), rhs))
        if kind in WORDS:
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

    def loop_rest(self) -> tuple[Node | None, tuple]:
        """``limit "do" stmts "end" ";"``: the common tail of ``for`` and ``while``."""
        limit = self.limit()
        self.eat("do")
        body = self.stmts()
        self.eat("end")
        self.eat(";")
        return limit, body

    def word(self) -> str:
        return self.v[self.name()]

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
                    idx = self.index()
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
            pats = self.comma_list(self.pattern)
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


def parse_module(text: str, path: str) -> Module:
    """Parse one file; raise :class:`Reject` on anything outside the grammar."""
    try:
        return _Parser(text, path).module()
    except (IndexError, ValueError, UnicodeError) as exc:
        raise Reject(str(exc)) from None
