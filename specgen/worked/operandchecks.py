"""What a matrix operation's operand-legality predicate checks of each operand, read from the spec's ASL text.

0.58.0's MX forms (``TileOperandsLegal_TMATMUL_MX(destination, left, left_scale, right, right_scale)``) name
operands that are no GEMM operand; their DataType and extents are stated only as checks in the predicate and
the functions it calls (``_Tiles[[left_scale]].data_type == TileDataType_E8M0``, ``valid_columns ==
scale_blocks``, ``scale_blocks`` being ``((K + 31) DIVRM 32)``). This module reads those checks so a worked
example can build the operands; no operation or type is named here.
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


class OperandChecks:
    """What a matrix operation's ``TileOperandsLegal_<MN>`` checks of each operand, read from the spec's text.

    The predicate and the functions it calls with Tile parameters are inlined (parameters renamed to the
    caller's, ``let`` names replaced by their expressions), so ``_Tiles[[left_scale]].valid_columns ==
    scale_blocks`` reads as a relation on the GEMM operands' extents. A pure function of operand DataTypes
    (``TileMXOperandPairLegal``) is evaluated by the interpreter over the spec's types; no operation is named.
    """

    def __init__(self, spec: Spec, interp: Interpreter, function: str, datatypes: tuple[str, ...]) -> None:
        self._spec, self._it, self._types = spec, interp, datatypes
        self.params: list[str] = []
        self.texts: list[str] = []
        self._pairs: dict[str, str] = {}
        got = self._text(function)
        if got is not None:
            self.params = got[0]
            self._inline(function, {p: p for p in self.params}, 0, set())

    def _text(self, name: str) -> tuple[list[str], str] | None:
        for decl, text in function_sources(self._spec, self._it, name):
            if text is None:
                continue
            body = "\n".join(re.sub(r"//.*", "", x) for x in text.splitlines())
            return [p for p, _t in decl.params], body.split("begin", 1)[-1]
        return None

    def _inline(self, name: str, mapping: dict[str, str], depth: int, seen: set[tuple[str, ...]]) -> None:
        got = self._text(name)
        if got is None or depth > 6:
            return
        params, body = got
        body = re.sub(r"\b\w+\b", lambda m: mapping.get(m.group(0), m.group(0)) if m.group(0) in params else m.group(0),
                      body)
        # a let name: its expression, the later ones first so an earlier name they use is replaced after them
        # (the Block's type stays a name)
        for local, expr in reversed(_LET.findall(body)):
            if SELECTED not in expr:
                body = re.sub(rf"\b{local}\b(?!\s*:)", "(" + _CAST.sub("", expr.strip()) + ")", body)
        self.texts.append(body)
        tiles = set(self.params)
        for m in _CALL.finditer(body):
            args = _split_args(_balanced(body, m.end())[0])
            if args and all(a in tiles for a in args) and (m.group(1), *args) not in seen:
                seen.add((m.group(1), *args))
                callee = self._text(m.group(1))
                if callee is not None and len(callee[0]) == len(args):
                    self._inline(m.group(1), dict(zip(callee[0], args)), depth + 1, seen)

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
        """``param``'s valid rows/columns in GEMM names (``M``, ``((K + 31) DIVRM 32)``), or "" when unstated."""
        for expr in self._relation(param, attribute):
            named = re.sub(r"_Tiles\[\[(\w+)\]\]\.valid_(rows|columns)",
                           lambda m: _GEMM_EXTENTS.get(m.group(1).lower(), ("?", "?"))[m.group(2) == "columns"],
                           expr)
            named = _CAST.sub("", named)
            if "?" not in named and re.fullmatch(r"[\dMNK\s+\-*/()A-Z]*", named):
                return named.strip()
        return ""

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
