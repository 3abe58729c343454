"""Bit-field diagrams drawn at build time: static SVG, no JavaScript.

We draw from the same WaveJSON the page prints (``reg`` + ``config``), so the
picture and the JSON cannot drift, with a few extras WaveJSON has no slot for
(the value a field is fixed to, the title and description). Our own renderer
was chosen over the ``wavedrom`` package because that one rejects the
``offset`` key, garbles ``<``/``&`` in names, emits no title/desc or
background, and costs ~9 ms a diagram against well under 1 ms here
(docs-internal/encoding.md has the numbers).

Layout: each lane spans ``hspace`` px with the most significant bit on the
left; with several lanes the top lane holds the most significant bits, so
the diagram reads MSB → LSB left-to-right, top-to-bottom. Constant bits are
printed one digit per bit cell; don't-care bits are shaded and marked ``x``;
a name too long for its box is written vertically under the box.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .model import Encoding, bit_range
from .wavejson import wavejson

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
MARGIN = 12
BITROW = 16  # height of the bit-number row above each lane's boxes
BOX = 38
LANE_GAP = 14
CHAR = 0.62  # average glyph width as a fraction of the font size
INK = "#1b1f24"
FIELD_FILL = "#ffffff"
CONST_FILL = "#e8eef7"
GAP_FILL = "#ececec"
SUBTLE = "#57606a"


def esc(text: object) -> str:
    """XML-escape untrusted spec text for element content and attribute values."""
    s = _CONTROL.sub("\ufffd", str(text))
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def num(x: float) -> str:
    """Stable, short number formatting so output is byte-identical across runs."""
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:.2f}".rstrip("0")


@dataclass(frozen=True)
class _Seg:
    lsb: int
    width: int
    name: str | None
    const: str | None  # binary digits, MSB first, for constant segments
    note: str | None  # e.g. "= 2" for a field fixed to a value


def _segments(reg: Sequence[Mapping[str, Any]], notes: Mapping[int, str]) -> list[_Seg]:
    out: list[_Seg] = []
    lsb = 0
    for i, r in enumerate(reg):
        w = int(r.get("bits", 0))
        if w <= 0:
            continue
        name = r.get("name")
        const = None
        if isinstance(name, str):
            m = re.fullmatch(r"(\d+)'b([01]+)", name)
            if m and int(m.group(1)) == w == len(m.group(2)):
                const = m.group(2)
        out.append(_Seg(lsb, w, None if name is None else str(name), const, notes.get(i)))
        lsb += w
    return out


def render_reg(data: Mapping[str, Any], *, title: str, desc: str, ident: str,
               notes: Mapping[int, str] | None = None) -> str:
    """Draw a WaveDrom ``reg`` description as a self-contained accessible SVG.

    ``notes`` maps a ``reg`` index to a short annotation shown under that
    field's name (how a fixed value is shown); ``ident`` makes element ids
    unique when several diagrams are inlined on one page.
    """
    cfg = data.get("config", {}) or {}
    segs = _segments(data.get("reg", []) or [], notes or {})
    total = int(cfg.get("bits", sum(s.width for s in segs)) or 1)
    lanes = max(1, int(cfg.get("lanes", 1) or 1))
    fs = float(cfg.get("fontsize", 13) or 13)
    hspace = float(cfg.get("hspace", 900) or 900)
    lane_bits = -(-total // lanes)
    cell = hspace / lane_bits
    small = max(9.0, fs - 3)

    body: list[str] = []
    y = MARGIN
    for lane in range(lanes - 1, -1, -1):  # most significant lane on top
        lo, hi = lane * lane_bits, min(total, (lane + 1) * lane_bits) - 1
        x0 = MARGIN + (lane_bits - (hi - lo + 1)) * cell

        def xr(bit: int, _lo: int = lo, _hi: int = hi, _x0: float = x0) -> float:
            """Left x of the cell holding ``bit`` in this lane."""
            return _x0 + (_hi - bit) * cell

        top = y + BITROW
        below = 0.0
        parts: list[str] = []
        for s in segs:
            a, b = max(s.lsb, lo), min(s.lsb + s.width - 1, hi)
            if a > b:
                continue
            left, right = xr(b), xr(a) + cell
            w = right - left
            fill = CONST_FILL if s.const is not None else GAP_FILL if s.name is None else FIELD_FILL
            parts.append(f'<rect x="{num(left)}" y="{num(top)}" width="{num(w)}" height="{BOX}" '
                         f'fill="{fill}" stroke="{INK}" stroke-width="1"/>')
            for bit in range(a + 1, b + 1):  # bit ticks inside the box
                tx = num(xr(bit) + cell)
                parts.append(f'<line x1="{tx}" y1="{num(top)}" x2="{tx}" y2="{num(top + 4)}" stroke="{INK}"/>'
                             f'<line x1="{tx}" y1="{num(top + BOX - 4)}" x2="{tx}" y2="{num(top + BOX)}" '
                             f'stroke="{INK}"/>')
            # bit numbers at the segment edges
            parts.append(f'<text x="{num(xr(b) + cell / 2)}" y="{num(y + BITROW - 4)}" font-size="{num(small)}" '
                         f'fill="{SUBTLE}" text-anchor="middle">{b}</text>')
            if a != b:
                parts.append(f'<text x="{num(xr(a) + cell / 2)}" y="{num(y + BITROW - 4)}" '
                             f'font-size="{num(small)}" fill="{SUBTLE}" text-anchor="middle">{a}</text>')
            mid = top + BOX / 2
            if s.const is not None or s.name is None:
                for bit in range(a, b + 1):
                    digit = "x" if s.const is None else s.const[len(s.const) - 1 - (bit - s.lsb)]
                    colour = SUBTLE if s.const is None else INK
                    parts.append(f'<text x="{num(xr(bit) + cell / 2)}" y="{num(mid + fs * 0.35)}" '
                                 f'font-family="ui-monospace,SFMono-Regular,Menlo,Consolas,monospace" '
                                 f'font-size="{num(fs)}" fill="{colour}" text-anchor="middle">{digit}</text>')
                continue
            label = s.name
            fits = len(label) * fs * CHAR <= w - 4
            cx = left + w / 2
            if fits:
                ny = mid + fs * 0.35 - (fs * 0.45 if s.note else 0)
                parts.append(f'<text x="{num(cx)}" y="{num(ny)}" font-size="{num(fs)}" fill="{INK}" '
                             f'text-anchor="middle">{esc(label)}</text>')
                if s.note:
                    note_fits = len(s.note) * small * CHAR <= w - 2
                    if note_fits:
                        parts.append(f'<text x="{num(cx)}" y="{num(ny + fs)}" font-size="{num(small)}" '
                                     f'fill="{SUBTLE}" text-anchor="middle">{esc(s.note)}</text>')
                    else:
                        label = None  # fall through: write "name note" under the box
                if label is not None:
                    continue
            text = s.name + (f" {s.note}" if s.note else "")
            ly = top + BOX + 4
            parts.append(f'<text transform="translate({num(cx + fs * 0.35)},{num(ly)}) rotate(90)" '
                         f'font-size="{num(fs)}" fill="{INK}">{esc(text)}</text>')
            below = max(below, len(text) * fs * CHAR + 8)
        body.extend(parts)
        y = top + BOX + below + LANE_GAP
    width = hspace + 2 * MARGIN
    height = y - LANE_GAP + MARGIN
    tid, did = f"{ident}-title", f"{ident}-desc"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="specgen-bitfield" role="img" '
            f'aria-labelledby="{esc(tid)} {esc(did)}" viewBox="0 0 {num(width)} {num(height)}" '
            f'width="{num(width)}" height="{num(height)}" style="max-width:100%;height:auto" '
            f'font-family="system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif">'
            f'<title id="{esc(tid)}">{esc(title)}</title><desc id="{esc(did)}">{esc(desc)}</desc>'
            f'<rect width="100%" height="100%" fill="#ffffff"/>'
            + "".join(body) + "</svg>\n")


# The words of the diagram's title and description; a page passes its own language's (the message
# catalogs' ``svg.*`` keys, which say the same in English: tests/test_catalogs.py compares them).
ENGLISH: dict[str, str] = {
    "title": "{mnemonic} encoding{variant}, form {form}",
    "variant": " ({variant})",
    "bits": "bits {bits}",
    "bit": "bit {bits}",
    "constant": "{range} constant {value}",
    "dont_care": "{range} don't care",
    "field": "{range} {name}",
    "fixed": "{range} {name} (fixed to {value})",
    "head": "{width}-bit encoding of {mnemonic}{variant}",
    "carried": ", carried by {carrier}",
    "list": "{head}: {parts}.",
    "sep": "; ",
}


def describe(enc: Encoding, words: Mapping[str, str] = ENGLISH) -> str:
    """A screen-reader sentence listing the word MSB first (in the language of ``words``)."""
    w = {**ENGLISH, **words}
    parts: list[str] = []
    for s in reversed(enc.segments()):
        rng = w["bits" if s.width > 1 else "bit"].format(bits=s.bits)
        if s.kind == "constant":
            parts.append(w["constant"].format(range=rng, value=s.name.split(chr(39) + 'b', 1)[-1]))
        elif s.kind == "gap":
            parts.append(w["dont_care"].format(range=rng))
        else:
            f = enc.field(s.field or "")
            if f is not None and f.fixed_value is not None:
                parts.append(w["fixed"].format(range=rng, name=s.name, value=f.fixed_value))
            else:
                parts.append(w["field"].format(range=rng, name=s.name))
    variant = w["variant"].format(variant=enc.variant) if enc.variant else ""
    head = w["head"].format(width=enc.width, mnemonic=enc.mnemonic, variant=variant)
    if enc.carrier.form_id != enc.form_id and enc.kind == "tile-operation":
        head += w["carried"].format(carrier=enc.carrier.asm)
    return w["list"].format(head=head, parts=w["sep"].join(parts))


def svg(enc: Encoding, words: Mapping[str, str] = ENGLISH) -> str:
    """The bit-field diagram of ``enc`` as a standalone SVG document string (title and description in the
    language of ``words``)."""
    data = wavejson(enc)
    notes: dict[int, str] = {}
    for i, s in enumerate(enc.segments()):
        f = enc.field(s.field or "") if s.kind == "field" else None
        if f is not None and f.fixed_value is not None:
            notes[i] = f"= {f.fixed_value}" if not f.is_split else f"= {s.value}"
    w = {**ENGLISH, **words}
    variant = w["variant"].format(variant=enc.variant) if enc.variant else ""
    title = w["title"].format(mnemonic=enc.mnemonic, variant=variant, form=enc.form_id)
    ident = "enc-" + re.sub(r"[^A-Za-z0-9_-]+", "-", enc.form_id)
    return render_reg(data, title=title, desc=describe(enc, w), ident=ident, notes=notes)


__all__ = ["ENGLISH", "bit_range", "describe", "esc", "render_reg", "svg"]
