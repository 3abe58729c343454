"""Instruction encodings: model, WaveJSON, SVG diagrams and decode.

Public entry points: :func:`build_encodings` (pure),
:func:`~specgen.encoding.from_spec.spec_encodings` (the set of a loaded spec),
:func:`wavejson` / :func:`wavejson_text`, :func:`svg` and :func:`decode`. The
``encoding-*`` check rules live with the other rules in :mod:`specgen.check.rules`.
"""

from __future__ import annotations

from .build import build_encodings
from .decode import Match, decode
from .model import Carrier, Encoding, EncodingSet, Field, FieldCondition, FieldSlice, Item, Segment, Source
from .svg import svg
from .wavejson import wavejson, wavejson_text

__all__ = [
    "Carrier", "Encoding", "EncodingSet", "Field", "FieldCondition", "FieldSlice", "Item", "Match",
    "Segment", "Source", "build_encodings", "decode", "svg", "wavejson", "wavejson_text",
]
