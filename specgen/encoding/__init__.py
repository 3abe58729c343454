"""Instruction encodings: model, WaveJSON, SVG diagrams, decode and checks."""

from __future__ import annotations

from .build import build_encodings
from .corpus import encodings_from_root
from .model import Carrier, Constraint, Encoding, EncodingSet, Field, Item, Piece, Segment, Source

__all__ = [
    "Carrier", "Constraint", "Encoding", "EncodingSet", "Field", "Item", "Piece", "Segment", "Source",
    "build_encodings", "encodings_from_root",
]
