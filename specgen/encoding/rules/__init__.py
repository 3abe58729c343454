"""One module per encoding rule; each exposes ``RULE`` and ``check(es)``."""

from __future__ import annotations

from . import encoding_collision, encoding_gap, encoding_overlap, encoding_width

ALL = (encoding_overlap, encoding_gap, encoding_width, encoding_collision)

__all__ = ["ALL", "encoding_collision", "encoding_gap", "encoding_overlap", "encoding_width"]
