"""The top-level declarations of generated ASL, read from their header lines without parsing bodies.

The static check needs only what the ASL generated from the catalogs
*declares* (names, enumeration members, each function's argument count and
whether it returns a value) to judge the spec's own units. Parsing those 3 MB
of generated text cost more than the rest of a cold check together, so the
declarations are read from the text as specgen itself writes it: a
declaration starts in column 0 (``[pure|readonly|…] func``, ``type``,
``constant``, ``var``, ``let``, ``config``) and its parameter list or
enumeration body is delimited by balanced brackets.

Anything the scanner does not recognise in column 0 returns ``None``, and
the caller parses the module instead: a generator that changes its layout
costs time, never a wrong finding (``tests/test_asl_headers.py`` compares the
scan with the parse on every generated module of the bundled spec and both
corpora).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .ast import FuncDecl, GlobalDecl, Module, TypeDecl
from .errors import ASLError
from .index import parse_cached

_QUALIFIERS = frozenset({"pure", "readonly", "noreturn", "impure"})
_OPEN, _CLOSE = "([{", ")]}"
_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Header:
    """One top-level declaration: ``kind`` is ``func``, ``enum``, ``type`` or ``global``."""

    kind: str
    name: str
    arity: int = 0
    returns: bool = False
    members: tuple[str, ...] = ()


def _balanced(text: str, start: int) -> int:
    """The index just past the bracket group opening at ``start``; -1 when it never closes."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _top_level_items(inner: str) -> list[str]:
    """``inner`` split at the commas outside nested brackets (empty items dropped)."""
    items, depth, cur = [], 0, []
    for ch in inner:
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        if ch == "," and depth == 0:
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    items.append("".join(cur))
    return [x.strip() for x in items if x.strip()]


def _func(text: str, at: int, name_end: int, name: str) -> tuple[Header, int] | None:
    open_at = text.find("(", name_end)
    if open_at < 0 or text[name_end:open_at].strip():
        return None
    close = _balanced(text, open_at)
    if close < 0:
        return None
    eol = text.find("\n", close)
    tail = text[close:eol if eol >= 0 else len(text)].lstrip()
    return Header("func", name, len(_top_level_items(text[open_at + 1:close - 1])), tail.startswith("=>")), close


def _type(text: str, name_end: int, name: str) -> tuple[Header, int] | None:
    rest = text[name_end:name_end + 40].lstrip()
    if not rest.startswith("of enumeration"):
        return Header("type", name), name_end
    open_at = text.find("{", name_end)
    close = _balanced(text, open_at) if open_at >= 0 else -1
    if close < 0:
        return None
    return Header("enum", name, members=tuple(_top_level_items(text[open_at + 1:close - 1]))), close


_COLUMN0 = re.compile(r"^(?![ \t\r\f]|$|//|begin\b|end;)[^\n]*", re.MULTILINE)


def scan_headers(text: str) -> list[Header] | None:
    """Every top-level declaration of ``text``; None when a column-0 line is not one the scan knows."""
    out: list[Header] = []
    consumed = 0  # the end of the last declaration's header (its parameters or enumeration body)
    for m in _COLUMN0.finditer(text):
        pos, line = m.start(), m.group(0)
        if pos < consumed:
            continue
        words = line.split()
        i = 0
        while i < len(words) and words[i] in _QUALIFIERS:
            i += 1
        if i + 1 >= len(words):
            return None
        kind, nm = words[i], _NAME.match(words[i + 1])
        if nm is None:
            return None
        name = nm.group(0)
        name_end = pos + line.index(words[i + 1], line.index(kind) + len(kind)) + len(name)
        if kind in ("func", "type"):
            got = _func(text, pos, name_end, name) if kind == "func" else _type(text, name_end, name)
            if got is None:
                return None
            out.append(got[0])
            consumed = got[1]
        elif kind in ("constant", "var", "let", "config"):
            out.append(Header("global", name))
        else:
            return None
    return out



def headers_of(module: Module) -> list[Header]:
    """A parsed module's declarations as :class:`Header` s (what the header scan gives without parsing)."""
    out: list[Header] = []
    for decl in module.decls:
        if isinstance(decl, FuncDecl):
            out.append(Header("func", decl.name, len(decl.params), decl.ret is not None))
        elif isinstance(decl, TypeDecl) and decl.form == "enum":
            out.append(Header("enum", decl.name, members=tuple(decl.payload)))  # type: ignore[arg-type]
        elif isinstance(decl, TypeDecl):
            out.append(Header("type", decl.name))
        elif isinstance(decl, GlobalDecl):
            out.append(Header("global", decl.name))
    return out


def scan_sources(sources: list[tuple[str, str]]) -> list[Header]:
    """The declarations of generated ``(text, path)`` sources: scanned, or parsed where the scan declines."""
    out: list[Header] = []
    for text, path in sources:
        scanned = scan_headers(text)
        if scanned is None:
            try:
                scanned = headers_of(parse_cached(text.encode("utf-8"), path))
            except ASLError:  # declares nothing; generation_findings or the run that needs it says why
                scanned = []
        out.extend(scanned)
    return out


__all__ = ["Header", "headers_of", "scan_headers", "scan_sources"]
