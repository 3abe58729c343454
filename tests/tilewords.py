"""Reading worked-example Tiles in tests (a module of its own, shared by the worked-example tests)."""

from __future__ import annotations


def valid_words(t: object) -> list[list[int]]:
    """The valid region of a Tile table as integers (raw 64-bit carriers)."""
    return [[int(w, 16) for w in row[:t.valid_columns]] for row in t.words[:t.valid_rows]]  # type: ignore[attr-defined]
