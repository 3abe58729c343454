"""The lexer, the types and the expressions of the hand-written ASL parser.

Split from :mod:`specgen.asl.descent` (declarations and statements) only to
keep modules small; see that module for why the parser is hand-written and
how it is kept equal to ``asl1.lark``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from fractions import Fraction
from typing import Callable, TypeVar

from .ast import Node

T = TypeVar("T")

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
WORDS = _KEYWORDS | {"NAME"}
_SPACE = re.compile(r"[ \t\r\n\f]*")
_NEWLINE = re.compile(r"\n")
QUALS = frozenset(("pure", "readonly", "impdef", "implementation", "noreturn"))
GKINDS = frozenset(("constant", "config", "let", "var"))
LKINDS = frozenset(("let", "var", "constant"))
_BOOLOPS = frozenset(("&&", "||", "-->", "<->"))
_CMPOPS = frozenset(("==", "!=", "<=", ">=", "<", ">"))
_ADDOPS = frozenset(("+", "-", "AND", "OR", "XOR", "++"))
_MULOPS = frozenset(("*", "/", "DIV", "DIVRM", "MOD", "<<", ">>"))
_UNOPS = frozenset(("!", "NOT", "-"))
STMT_END = frozenset(("end", "else", "elsif", "when", "otherwise", "until", "$END"))
_SLICE_KINDS = {":": "range", "+:": "up", "*:": "times"}
_SIMPLE_TYPES = {"boolean": "t_bool", "real": "t_real", "string": "t_string"}


class Reject(Exception):
    """The text is not in the grammar (or not in this parser's reading of it)."""


# a token with the whitespace before it: one match per token, no separate test of the gap (the lexer was
# 0.22 s of a cold corpus check, 0.13 s so; the same tokens on every ASL file of both corpora)
_SPACED_TOKEN = re.compile(r"[ \t\r\n\f]*(?:" + _TOKEN.pattern + ")")


def _tokens(text: str) -> tuple[list[str], list[str], list[int]]:
    """Kinds, texts and start offsets of the tokens (whitespace between them is skipped)."""
    kinds: list[str] = []
    values: list[str] = []
    starts: list[int] = []
    keyword = _KEYWORD_KIND.get
    pos = 0
    for m in _SPACED_TOKEN.finditer(text):
        if m.start() != pos:  # something neither whitespace nor a token lies between
            raise Reject("unexpected character")
        pos = m.end()
        kind = m.lastgroup
        if kind == "c":
            continue
        value = m.group(kind)  # type: ignore[arg-type]
        if kind == "P":
            kind = value
        elif kind == "NAME":
            kind = keyword(value, "NAME")
        kinds.append(kind)  # type: ignore[arg-type]
        values.append(value)
        starts.append(pos - len(value))  # the token ends the match
    if pos != len(text) and not _SPACE.fullmatch(text, pos):
        raise Reject("unexpected character")
    kinds.append("$END")
    values.append("")
    starts.append(len(text))
    return kinds, values, starts


def first_pos(items) -> tuple[int, int]:
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


_ATOM_KEYWORDS = frozenset(("if", "TRUE", "FALSE", "ARBITRARY", "NOT"))


class ParserBase:
    """Token access, types and expressions; :class:`~specgen.asl.descent._Parser` adds the rest."""

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
        if self.k[i] not in WORDS:
            raise Reject("NAME")
        self.i = i + 1
        return i

    def comma_list(self, item: Callable[[], T]) -> list[T]:
        """``item ("," item)*``."""
        out = [item()]
        k = self.k
        while k[self.i] == ",":
            self.i += 1
            out.append(item())
        return out

    def braced_list(self, item: Callable[[], T]) -> list[T]:
        """``item ("," item)* ","? "}"``."""
        out = [item()]
        k = self.k
        while k[self.i] == ",":
            self.i += 1
            if k[self.i] == "}":
                break
            out.append(item())
        self.eat("}")
        return out

    def tuple_of(self, item: Callable[[], T]) -> list[T]:
        """``item ("," item)+ ")"`` after the opening parenthesis."""
        items = self.comma_list(item)
        self.eat(")")
        if len(items) < 2:
            raise Reject("a tuple has two or more items")
        return items

    def left_assoc(self, operand: Callable[[], Node], ops: frozenset[str]) -> Node:
        """``operand (op operand)*``, grouped to the left."""
        k = self.k
        left = operand()
        while k[self.i] in ops:
            op = k[self.i]
            self.i += 1
            right = operand()
            line, col = first_pos((left, right))
            left = Node("e_bin", line, col, (op, left, right))
        return left

    def take_refs(self) -> frozenset[str]:
        refs = frozenset(self.refs)
        self.refs = set()
        return refs

    # ------------------------------------------------------------ types
    def ty(self) -> Node:
        k, i = self.k, self.i
        kind = k[i]
        if kind == "integer":
            self.i += 1
            if k[self.i] != "{":
                return Node("t_int", 0, 0, ())
            self.i += 1
            cs = self.comma_list(self.constraint)
            self.eat("}")
            line, col = first_pos(cs)
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
            line, col = first_pos((width,))
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
            line, col = first_pos((size, elem))
            return Node("t_array", line, col, (size, elem))
        if kind == "(":
            self.i += 1
            tys = self.tuple_of(self.ty)
            line, col = first_pos(tys)
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

    # ------------------------------------------------------ expressions
    def expr(self) -> Node:
        return self.left_assoc(self.cexpr, _BOOLOPS)

    def cexpr(self) -> Node:
        left = self.aexpr()
        op = self.k[self.i]
        if op in _CMPOPS:
            self.i += 1
            right = self.aexpr()
            line, col = first_pos((left, right))
            return Node("e_bin", line, col, (op, left, right))
        return left

    def aexpr(self) -> Node:
        return self.left_assoc(self.mexpr, _ADDOPS)

    def mexpr(self) -> Node:
        return self.left_assoc(self.pexpr, _MULOPS)

    def pexpr(self) -> Node:
        left = self.uexpr()
        if self.k[self.i] == "^":
            self.i += 1
            right = self.pexpr()
            line, col = first_pos((left, right))
            return Node("e_bin", line, col, ("^", left, right))
        return left

    def uexpr(self) -> Node:
        k = self.k
        kind = k[self.i]
        if kind in _UNOPS:
            self.i += 1
            e = self.uexpr()
            line, col = first_pos((e,))
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
                line, col = first_pos((node,))
                node = Node("e_field", line, col, (node, self.v[self.name()]))
            elif kind == "[":
                if k[self.i + 1] == "[":
                    idx = self.index()
                    line, col = first_pos((node, idx))
                    node = Node("e_index", line, col, (node, idx))
                else:
                    self.i += 1
                    slices = self.slices()
                    line, col = first_pos((node,) + slices)
                    node = Node("e_slice", line, col, (node, slices))
            else:
                return node

    def index(self) -> Node:
        """``"[" "[" expr "]" "]"``."""
        self.i += 2
        idx = self.expr()
        self.eat("]")
        self.eat("]")
        return idx

    def slices(self) -> tuple:
        out = self.comma_list(self.slice)
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
                if k[self.i] in WORDS and k[self.i + 1] == "=":
                    inits = self.braced_list(self.finit)
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
            self.eat(",")
            items = [first, *self.comma_list(self.expr)]
            self.eat(")")
            line, col = first_pos(items)
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
        return tuple(self.comma_list(self.expr))


# keywords that begin an atom or a unary expression; any other word there is a NAME
