"""What a matrix operation's operand-legality predicate checks of each operand, read from the spec's ASL text.

The MX forms (``TileOperandsLegal_TMATMUL_MX(destination, left, left_scale, right, right_scale)``) name
operands that are no GEMM operand; their DataType and extents are stated only as checks in the predicate and
the functions it calls (``_Tiles[[left_scale]].data_type == TileDataType_E8M0``, ``valid_columns ==
scale_blocks``, ``scale_blocks`` being ``((K + 31) DIVRM 32)``). The same text says which layouts an operand
takes (``_Tiles[[right]].layout == TileLayout_CUBE_N8``, or the layout of another operand), and which PE mask
the bindings must carry (``pe_mask == '1111'``). This module reads those checks so a worked example can build
the operands; no operation, type or layout is named here.

Every function the predicate calls with an argument that mentions one of its operands is inlined: its
parameters become the caller's argument text (``left.layout`` of a ``TileInfo`` parameter bound to
``_Tiles[[left]]`` reads ``_Tiles[[left]].layout``) and its ``let`` names their expressions.
"""

from __future__ import annotations

import re

from ..asl import Interpreter
from ..loader import Spec
from .operands import function_sources

TYPED = ":"  # a matrix source's role carries the DataType its predicate fixes: ``Scale:E8M0``
_GEMM_EXTENTS = {"left": ("M", "K"), "matrix": ("M", "K"), "right": ("K", "N"), "vector": ("K", "N")}
_LET = re.compile(r"\blet\s+(\w+)(?:\s*:[^=;]*?)?\s*=\s*(.+?);", re.S)
_CAST = re.compile(r"\bas\s+\w+\s*(?:\{[^}]*\})?")
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# the calls followed from one predicate: 0.58.x's reach about 150; a development branch's MX_ACC predicate
# reached 400 inside its first conjunct and never read its accumulator's extents in the third
SEEN_LIMIT = 4000
_ARITH = re.compile(r"^[\d\s+\-*/%()]+$")
SELECTED = "CurrentBundleTileOperationDataTypeCode"  # the Block's own DataType, as the predicates read it


def source_role(role: str) -> tuple[str, str]:
    """A matrix source's role and the DataType its predicate fixes ("" when the Block's type applies)."""
    name, _, typed = role.partition(TYPED)
    return name, typed


def extent(text: str, dims: dict[str, int]) -> int:
    """A source's row or column count: a number, a GEMM name, or the predicate's arithmetic on GEMM names
    (``((K + 31) DIVRM 32)``: the MX scales' ⌈K/32⌉); 1 when it does not reduce to integer arithmetic."""
    if text.isdigit():
        return int(text)
    expr = re.sub(r"\b[MNK]\b", lambda m: str(dims.get(m.group(0), 1)), text)
    expr = re.sub(r"\bDIV(?:RM)?\b", "//", expr).replace("MOD", "%")
    if not _ARITH.match(expr):
        return 1
    try:
        return max(1, int(eval(expr, {"__builtins__": {}}, {})))  # noqa: S307 - digits and operators only (checked)
    except (ArithmeticError, SyntaxError):
        return 1


def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text from ``start`` up to the parenthesis that closes before it (or the end), and where it stops."""
    depth, k = 0, start
    while k < len(text):
        ch = text[k]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        k += 1
    return text[start:k], k


def _split_args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += (ch in "([{") - (ch in ")]}")
        cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def _statement(text: str, at: int, end: int) -> tuple[int, str]:
    """Where the statement holding ``text[at:end]`` starts (its last ``;`` or ``begin`` before ``at``) and its
    text up to the next ``;`` after ``end``."""
    start = max(text.rfind(";", 0, at), text.rfind("begin", 0, at))
    stop = text.find(";", end)
    return start, text[start + 1:stop if stop >= 0 else len(text)]


def _call_sign(body: str, at: int, end: int) -> int:
    """-1 where the call spanning ``body[at:end]`` must return FALSE for ``body``'s function to return TRUE,
    else +1.

    A call negated with ``!`` in a returned or asserted conjunction, or not negated in the condition of
    ``if … then return FALSE`` (negated there, it is required). Every other place (an alternative of a
    disjunction, a branch's choice, a ``let``) keeps the caller's sign, as the reading did before the sign was
    tracked: only a refusal stated outright flips it."""
    negated = body[:at].rstrip().endswith("!")
    start, statement = _statement(body, at, end)
    head = statement.lstrip()
    guard = re.match(r"if\b(.*?)\bthen\s+return\s+FALSE\s*$", head, re.S)
    if guard is not None and "&&" not in guard.group(1):  # each alternative of the condition must be FALSE
        return 1 if negated else -1
    if negated and re.match(r"(?:return|assert)\b", head):
        alternative = (re.search(r"\|\|\s*\(*\s*!\s*$", body[max(0, at - 16):at]) is not None
                       or re.match(r"\s*\)*\s*\|\|", body[end:]) is not None)
        # after ``if right.layout == CUBE_N8 then return …; end;`` the return is only the other case of that
        # operand: what it refuses holds for the rest, not for the layout the branch took
        split = any(re.search(rf"\bif\b[^;]*_Tiles\[\[{re.escape(x)}\]\][^;]*\bthen\b", body[:start])
                    for x in re.findall(r"_Tiles\[\[(\w+)\]\]", body[at:end]))
        if not alternative and not split:
            return -1
    return 1


class OperandChecks:
    """What a matrix operation's ``TileOperandsLegal_<MN>`` checks of each operand, read from the spec's text.

    The predicate and the functions it calls with Tile parameters are inlined (parameters renamed to the
    caller's, ``let`` names replaced by their expressions), so ``_Tiles[[left_scale]].valid_columns ==
    scale_blocks`` reads as a relation on the GEMM operands' extents. A pure function of operand DataTypes
    (``TileMXOperandPairLegal``) is evaluated by the interpreter over the spec's types; no operation is named.
    """

    def __init__(self, spec: Spec, interp: Interpreter, function: str, datatypes: tuple[str, ...],
                 gemm: dict[str, tuple[str, str]] | None = None) -> None:
        self._spec, self._it, self._types = spec, interp, datatypes
        self.function = function
        self.params: list[str] = []
        self.texts: list[str] = []
        # per text: +1 where the predicate holds when the text's function returns TRUE, -1 where it holds when
        # that function returns FALSE (``!TileLayoutIsCube(_Tiles[[bias]].layout)`` in a returned conjunction:
        # the layouts that function's body compares are refused, not required)
        self.polarity: list[int] = []
        self._pairs: dict[str, str] = {}
        # an operand's valid rows and columns in GEMM names (``left`` -> M, K); by default the parameter names
        # 0.58.0 uses, else what the caller read from the operands' roles
        self.gemm = {k: v for k, v in _GEMM_EXTENTS.items()} if gemm is None else dict(gemm)
        got = self._text(function)
        if got is not None:
            self.params = got[0]
            self._inline(function, {p: p for p in self.params}, 0, set(), 1)

    def _text(self, name: str) -> tuple[list[str], str] | None:
        for decl, text in function_sources(self._spec, self._it, name):
            if text is None:
                continue
            body = "\n".join(re.sub(r"//.*", "", x) for x in text.splitlines())
            return [p for p, _t in decl.params], body.split("begin", 1)[-1]
        return None

    def _inline(self, name: str, mapping: dict[str, str], depth: int, seen: set[tuple[str, ...]],
                polarity: int) -> None:
        got = self._text(name)
        if got is None or depth > 10:
            return
        params, body = got
        # a parameter, not a field of the same name (``tile.valid_rows == valid_rows``)
        body = re.sub(r"(?<![.\w])\w+\b",
                      lambda m: mapping.get(m.group(0), m.group(0)) if m.group(0) in params else m.group(0), body)
        # a let name: its expression, the later ones first so an earlier name they use is replaced after them
        # (the Block's type stays a name)
        for local, expr in reversed(_LET.findall(body)):
            if SELECTED not in expr:
                body = re.sub(rf"(?<![.\w]){local}\b(?!\s*:)", "(" + _CAST.sub("", expr.strip()) + ")", body)
        self.texts.append(body)
        self.polarity.append(polarity)
        operand = re.compile(r"\b(?:" + "|".join(map(re.escape, self.params)) + r")\b") if self.params else None
        for m in _CALL.finditer(body):
            inner, close = _balanced(body, m.end())
            args = _split_args(inner)
            if not args or operand is None or not any(operand.search(a) for a in args):
                continue
            sign = polarity * _call_sign(body, m.start(), close + 1)
            key = (m.group(1), *args, str(sign))
            if key in seen or len(seen) > SEEN_LIMIT:
                continue
            seen.add(key)
            callee = self._text(m.group(1))
            if callee is not None and len(callee[0]) == len(args):
                # a plain name or an operand's element stays as written, anything else in parentheses
                bound = [a if re.fullmatch(r"[\w.]+|_Tiles\[\[\w+\]\](?:\.\w+)?", a) else f"({a})" for a in args]
                self._inline(m.group(1), dict(zip(callee[0], bound)), depth + 1, seen, sign)

    def _relation(self, param: str, attribute: str) -> list[str]:
        out = []
        for text in self.texts:
            for m in re.finditer(rf"_Tiles\[\[{param}\]\]\.{attribute}\s*==\s*", text):
                rest = text[m.end():]
                stop = re.search(r"&&|\|\||;|\bthen\b", rest)
                expr, _ = _balanced(rest[:stop.start() if stop else len(rest)], 0)
                out.append(expr.strip())
        return out

    def fixed_type(self, param: str) -> str:
        """The DataType the predicate requires of ``param`` (``== TileDataType_E8M0``), or ""."""
        for expr in self._relation(param, "data_type"):
            m = re.fullmatch(r"TileDataType_(\w+)", expr)
            if m and m.group(1) in self._types:
                return m.group(1)
        return ""

    def block_typed(self, param: str) -> bool:
        """Whether the text requires ``param``'s DataType to be the Block's own (``_Tiles[[left]].data_type ==
        left_type``, ``left_type`` a ``let`` of the selected type)."""
        lets = [(n, e) for text in self.texts for n, e in _LET.findall(text)]
        names = {n for n, e in lets if SELECTED in e}
        while True:  # and the lets that take it over (``right_type = … else left_type``)
            more = {n for n, e in lets if n not in names and any(re.search(rf"\b{x}\b", e) for x in names)}
            if not more:
                break
            names |= more
        return any(re.search(rf"_Tiles\[\[{re.escape(param)}\]\]\.data_type\s*==\s*\(?\s*({'|'.join(names)})\b", text)
                   for text in self.texts) if names else False

    def _selected_names(self) -> set[str]:
        lets = [(n, e) for text in self.texts for n, e in _LET.findall(text)]
        return {n for n, e in lets if SELECTED in e}

    def block_types(self) -> list[str]:
        """The DataTypes the predicate admits for the Block itself, as constraints, not text: each pure
        function the text calls on the Block's own type (``TileOrdinaryMatrixInputTypesSameClass(left_type,
        right_type)``, ``right_type`` the Block's type without a B.DATR) is evaluated by the interpreter for
        every type, and a type one of them refuses is not admitted (0.58.1 takes no S32 product). Empty when
        no such call decides anything (every type refused: a function of another shape, read elsewhere)."""
        names = self._selected_names()
        if not names:
            return []
        mention = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
        admitted = list(self._types)
        seen: set[str] = set()
        for text in self.texts:
            for m in _CALL.finditer(text):
                fn = m.group(1)
                args = _split_args(_balanced(text, m.end())[0])
                if fn in seen or not args or not all(mention.search(a) and "_Tiles[[" not in a for a in args):
                    continue
                seen.add(fn)
                ok: list[str] = []
                try:
                    ok = [t for t in self._types if self._it.call(fn, *[f"TileDataType_{t}"] * len(args)) is True]
                except Exception:  # noqa: BLE001 - not a pure function of types: no constraint read
                    continue
                if ok:
                    admitted = [t for t in admitted if t in ok]
        return admitted if len(admitted) < len(self._types) else []

    def powers_of_two(self) -> bool:
        """Whether the predicate requires an operand's valid extents to be powers of two
        (``IsNonzeroPowerOfTwo(_Tiles[[left]].valid_rows)``): the example's M, N and K then are."""
        return any(re.search(r"PowerOfTwo\w*\(\s*_Tiles\[\[\w+\]\]\.valid_(?:rows|columns)\s*\)", t)
                   for t in self.texts)

    def block_type(self) -> str:
        """The DataType the predicate requires of the Block itself (``selected_type == TileDataType_FP32``)."""
        names = [n for text in self.texts for n, e in _LET.findall(text) if SELECTED in e]
        for text in self.texts:
            for n in names:
                m = re.search(rf"\b{n}\s*==\s*TileDataType_(\w+)", text)
                if m and m.group(1) in self._types:
                    return m.group(1)
        return ""

    def extent_of(self, param: str, attribute: str) -> str:
        """``param``'s valid rows/columns in GEMM names (``M``, ``((K + 31) DIVRM 32)``, ``1``), or "" when
        unstated (a relation to its own extent says nothing): the first the text states."""
        got = self.extents_of(param, attribute)
        return got[0] if got else ""

    def extents_of(self, param: str, attribute: str) -> list[str]:
        """Every value the text allows for ``param``'s valid rows/columns, in its order (a disjunction
        ``valid_columns == 1 || valid_columns == right.valid_columns`` gives ``1`` and ``N``)."""
        out: list[str] = []
        for expr in self._relation(param, attribute):
            named = re.sub(r"_Tiles\[\[(\w+)\]\]\.valid_(rows|columns)",
                           lambda m: self.gemm.get(m.group(1), ("?", "?"))[m.group(2) == "columns"], expr)
            named = _CAST.sub("", named).strip()
            while named.startswith("(") and _balanced(named, 1)[1] == len(named) - 1:
                named = named[1:-1].strip()
            # a zero extent is a check's rejection branch (``valid_rows == 0 || …``), never a Tile's
            if (named and named != "0" and "?" not in named and re.fullmatch(r"[\dMNK\s+\-*/()A-Z]*", named)
                    and named not in out):
                out.append(named)
        return out

    def layouts_of(self, param: str) -> list[str]:
        """The layouts (``TileLayout`` members without the prefix) the text admits for ``param``, in the order
        it names them (``CUBE_M16`` before ``CUBE_M32``), read as constraints, not as text: a comparison that
        leads to ``return FALSE`` (``if tile.layout == TileLayout_ImplementationDefined then return FALSE``)
        excludes its layout wherever else it is named; one in a returned or asserted condition requires it,
        one guarding ``return TRUE`` or an alternative of a disjunction permits it (``!=`` the other way round).
        The admitted layouts come in the order the text names them; a comparison choosing a value
        (``if layout != CUBE_N8 then return 1``) says nothing. A function the predicate needs to return FALSE
        (``!TileLayoutIsCube(…)``, :func:`_call_sign`) refuses what its body requires, unless another path
        of the predicate admits it."""
        admitted, excluded = self._layout_constraints(param)
        return [x for x in admitted if x not in excluded]

    def excluded_layouts(self, param: str) -> list[str]:
        """The layouts refused for ``param``: by a comparison leading to ``return FALSE``, or through a negated
        helper where no other path admits them."""
        return self._layout_constraints(param)[1]

    def _layout_constraints(self, param: str) -> tuple[list[str], list[str]]:
        admitted: list[str] = []
        excluded: list[str] = []
        tile = rf"_Tiles\[\[{re.escape(param)}\]\]\.layout"
        pattern = re.compile(rf"{tile}\s*(==|!=)\s*TileLayout_(\w+)|TileLayout_(\w+)\s*(==|!=)\s*{tile}")
        refused: list[str] = []
        for text, polarity in zip(self.texts, self.polarity):
            if polarity < 0:  # a function the predicate needs FALSE: what its body requires, it refuses there
                self._layouts_in(text, pattern, refused, [])
            else:
                self._layouts_in(text, pattern, admitted, excluded)
        # a refusal read through a negated helper holds on that path only: where another path of the predicate
        # admits the layout (0.58.3's ordinary and CUBE matrix paths), it stays admitted
        return admitted, excluded + [x for x in refused if x not in admitted and x not in excluded]

    @staticmethod
    def _layouts_in(text: str, pattern: re.Pattern[str], admitted: list[str], excluded: list[str]) -> None:
        """Add the layouts one text's comparisons require (or permit) and refuse to the two lists."""
        for m in pattern.finditer(text):
            equal = (m.group(1) or m.group(4)) == "=="
            name = m.group(2) or m.group(3)
            _start, statement = _statement(text, m.start(), m.end())  # the statement the comparison is in
            guard = re.search(r"\bif\b.*\bthen\s+return\s+(TRUE|FALSE)\s*$", statement, re.S)
            # an alternative of a disjunction (``layout == CUBE_M16 || layout == CUBE_M32``) permits
            alternative = (re.search(r"\|\|\s*\(*\s*$", text[max(0, m.start() - 12):m.start()]) is not None
                           or re.match(r"\s*\)*\s*\|\|", text[m.end():]) is not None)
            if guard is not None:
                refuses = guard.group(1) == "FALSE"
                target = excluded if refuses == equal else admitted
            elif re.match(r"\s*(?:return|assert)\b", statement):  # a condition the predicate holds
                if not equal and alternative:
                    continue  # ``a != X || …``: says nothing of X alone
                target = admitted if equal else excluded
            else:
                continue  # a comparison choosing a value (``if layout != CUBE_N8 then return 1``)
            if name not in target:
                target.append(name)

    def layout_peer(self, param: str) -> str:
        """Another operand whose layout the text requires ``param``'s to equal (an accumulator's destination,
        the destination's left source), or ""."""
        for text in self.texts:
            for m in re.finditer(r"_Tiles\[\[(\w+)\]\]\.layout\s*==\s*_Tiles\[\[(\w+)\]\]\.layout", text):
                a, b = m.group(1), m.group(2)
                if param in (a, b) and a != b:
                    return b if a == param else a
        return ""

    def pe_masks(self) -> list[int]:
        """The PE masks the text requires a binding to carry (``pe_mask == '1111'``), in the order it names them."""
        out: list[int] = []
        for text in self.texts:
            for m in re.finditer(r"pe_mask\s*==\s*'([01]{4})'|'([01]{4})'\s*==\s*[\w\[\]\.]*pe_mask", text):
                mask = int(m.group(1) or m.group(2), 2)
                if mask not in out:
                    out.append(mask)
        return out

    def pair_type(self, param: str) -> str:
        """The DataType of a GEMM operand that a pure function of operand types constrains
        (``TileMXOperandPairLegal(_Tiles[[left]].data_type, _Tiles[[right]].data_type)``): the first of the
        spec's whole-byte types the interpreter finds the function true for; "" when none constrains it."""
        if param in self._pairs:
            return self._pairs[param]
        for text in self.texts:
            for m in _CALL.finditer(text):
                args = _split_args(_balanced(text, m.end())[0])
                names = [re.fullmatch(r"_Tiles\[\[(\w+)\]\]\.data_type", a) for a in args]
                if not args or not all(names) or param not in [n.group(1) for n in names if n]:
                    continue
                for combo in self._combos(len(args)):
                    try:
                        ok = self._it.call(m.group(1), *[f"TileDataType_{t}" for t in combo])
                    except Exception:  # noqa: BLE001 - not a pure function of types: no constraint read
                        break
                    if ok is True:
                        for n, t in zip(names, combo):
                            self._pairs.setdefault(n.group(1), t)  # type: ignore[union-attr]
                        return self._pairs.get(param, "")
        return ""

    def _combos(self, n: int) -> list[tuple[str, ...]]:
        combos: list[tuple[str, ...]] = [()]
        for _ in range(n):
            combos = [c + (t,) for c in combos for t in self._types]
        return combos

    def operand(self, param: str) -> tuple[str, str, str, str] | None:
        """A source the GEMM names do not cover (an MX scale): its type and extents as the predicate checks
        them, or None when it states not all three."""
        typed, rows, cols = (self.fixed_type(param), self.extent_of(param, "valid_rows"),
                             self.extent_of(param, "valid_columns"))
        if not (typed and rows and cols):
            return None
        return (f"{param}{TYPED}{typed}", "", rows, cols)
