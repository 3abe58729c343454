"""ASL1 source text to :class:`~specgen.asl.ast.Module`.

The hand-written parser (:mod:`.descent`) reads text that parses: a cold
check parses every unit of the spec, and it is about five times faster than
Lark's LALR loop. Text it rejects is parsed again by the Lark grammar
(:mod:`.lark_reference`, ``asl1.lark``), which words the syntax error (and,
should the two ever disagree on valid text, has the last word); Lark is
imported only then.
"""

from __future__ import annotations

import re

from specgen.diagnostics import Span

from .ast import Module
from .descent import Reject, parse_module
from .errors import ASLError

_BRACKET = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"|[(\[{]|[)\]}]|\n')
_BLOCK_OPEN = re.compile(r"\b(?:then|do|of|repeat|begin)\b")


def parse_source(text: str, path: str) -> Module:
    """Parse one ASL file; raise :class:`ASLError` (kind ``parse``) at the offending token.

    Text nested deeper than the parser's recursion reaches (100,000 nested parentheses) is one
    located error at the deepest point, not a bare "recursion limit" with no file or line.
    """
    try:
        try:
            return parse_module(text, path)
        except Reject:
            return parse_source_lark(text, path)
    except RecursionError:
        raise too_deep(text, path) from None


def too_deep(text: str, path: str) -> ASLError:
    """The error for text nested too deeply to parse, at the first bracket of its deepest nesting."""
    depth = best = 0
    line, where = 1, (1, 1)
    line_start = 0
    for m in _BRACKET.finditer(text):
        tok = m.group()
        if tok == "\n":
            line += 1
            line_start = m.end()
        elif tok in "([{":
            depth += 1
            if depth > best:
                best, where = depth, (line, m.start() - line_start + 1)
        elif tok in ")]}":
            depth -= 1
    if best < 50:  # not brackets: count nested blocks instead (an approximation, for the line)
        blocks = 0
        for n, row in enumerate(text.split("\n"), 1):
            blocks += len(_BLOCK_OPEN.findall(row)) - row.count("end;") - row.count("until")
            if blocks > best:
                best, where = blocks, (n, 1)
    return ASLError(f"syntax error: nested too deeply to parse ({best:,} levels at the deepest point)",
                    Span(path, where[0], where[1]), "parse")


def parse_source_lark(text: str, path: str) -> Module:
    """The Lark parse of ``asl1.lark``: the reference the hand-written parser is tested against."""
    from .lark_reference import parse_source_lark as reference

    return reference(text, path)


__all__ = ["parse_source", "parse_source_lark"]
