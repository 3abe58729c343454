"""Instruction encodings: model, WaveJSON, SVG diagrams, decode and checks.

Public entry points: :func:`build_encodings` (pure, for the loader),
:func:`encodings_from_root` (reads a spec root), :func:`wavejson` /
:func:`wavejson_text`, :func:`svg`, :func:`decode` and :func:`check_encodings`.
"""

from __future__ import annotations

from .build import build_encodings
from .checks import RULE_IDS, check_encodings
from .corpus import encodings_from_root
from .decode import Match, decode
from .model import Carrier, Constraint, Encoding, EncodingSet, Field, Item, Piece, Segment, Source
from .svg import svg
from .wavejson import wavejson, wavejson_text

__all__ = [
    "RULE_IDS", "Carrier", "Constraint", "Encoding", "EncodingSet", "Field", "Item", "Match", "Piece",
    "Segment", "Source", "build_encodings", "check_encodings", "decode", "encodings_from_root", "svg",
    "wavejson", "wavejson_text",
]
