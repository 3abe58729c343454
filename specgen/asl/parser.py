"""ASL1 source text to :class:`~specgen.asl.ast.Module`.

The hand-written parser (:mod:`.descent`) reads text that parses: a cold
check parses every unit of the spec, and it is about five times faster than
Lark's LALR loop. Text it rejects is parsed again by the Lark grammar
(:mod:`.lark_reference`, ``asl1.lark``), which words the syntax error (and,
should the two ever disagree on valid text, has the last word); Lark is
imported only then.
"""

from __future__ import annotations

from .ast import Module
from .descent import Reject, parse_module


def parse_source(text: str, path: str) -> Module:
    """Parse one ASL file; raise :class:`ASLError` (kind ``parse``) at the offending token."""
    try:
        return parse_module(text, path)
    except Reject:
        return parse_source_lark(text, path)


def parse_source_lark(text: str, path: str) -> Module:
    """The Lark parse of ``asl1.lark``: the reference the hand-written parser is tested against."""
    from .lark_reference import parse_source_lark as reference

    return reference(text, path)


__all__ = ["parse_source", "parse_source_lark"]
