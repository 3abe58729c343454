"""WaveDrom ``reg`` JSON for an encoding, byte-compatible with the reference page.

The reference page prints TMUL's WaveJSON with keys ``reg`` then ``config``
and config keys ``bits, fontsize, hspace, lanes, offset``; we emit the same
order and compact separators so the text can be compared and cached.

Decisions (see docs-internal/encoding.md):

* segments are LSB-first; constants are named ``N'b<bits>``; a don't-care
  gap is a segment with only ``bits`` (WaveDrom draws it empty);
* a split or scaled field shows the value bits it carries, e.g. ``simm12[11:5]``;
  a single-piece field whose pieces are value bits ``w-1:0`` keeps its name;
* lanes: one lane per 32 bits for words wider than 32 (48 → 2, 64 → 2),
  one lane otherwise, so a lane never gets narrower than the 16-bit form.
"""

from __future__ import annotations

import json
from typing import Any

from .model import Encoding

FONTSIZE = 13
HSPACE = 900


def lanes_for(width: int) -> int:
    return max(1, -(-width // 32))


def wavejson(enc: Encoding) -> dict[str, Any]:
    reg: list[dict[str, Any]] = []
    for seg in enc.segments():
        if seg.kind == "gap":
            reg.append({"bits": seg.width})
        else:
            reg.append({"bits": seg.width, "name": seg.name})
    return {
        "reg": reg,
        "config": {"bits": enc.width, "fontsize": FONTSIZE, "hspace": HSPACE,
                   "lanes": lanes_for(enc.width), "offset": 0},
    }


def wavejson_text(enc: Encoding) -> str:
    """Compact JSON text (``,`` and ``:`` separators, non-ASCII kept)."""
    return json.dumps(wavejson(enc), separators=(",", ":"), ensure_ascii=False)
