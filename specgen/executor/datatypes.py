"""Element types of a Tile as an example file writes them, and their 64-bit carriers.

Every Tile element lives in one 64-bit Word (``PTO-ARCH-DATA-TYPES-INTEGER``).
An example writes an element either as a number in the element type or as the
raw carrier ``"0x…"``; this module converts between the two so that files stay
readable while comparisons happen on carriers, exactly as the ASL stores them.

Floating values are rounded to nearest-even into the element format
(:mod:`specgen.asl.floatformat`); a raw word is taken as written. Signed
integers are stored sign-extended and unsigned ones zero-extended, the convention the spec's
integer element rules use for results.
"""

from __future__ import annotations

import math

from ..asl.floatformat import BF16, E4M3, E5M2, FP16, FP32, FP64, FloatFormat
from ..vocabulary import DataType

WORD_MASK = (1 << 64) - 1

# The binary format of each floating element type that has one. The spec names
# the formats (its DataType field domain) but not their bit layout, so this is
# the one table of formats typed in here; TF32 and HF32 are FP32 words with
# their low fraction bits rounded off (``_LOW_BITS``); a format without an
# entry is written and shown as raw words.
FLOATS = {"FP64": FP64, "FP32": FP32, "TF32": FP32, "HF32": FP32, "FP16": FP16, "BF16": BF16,
          "E4M3": E4M3, "E5M2": E5M2}
_LOW_BITS = {"TF32": 13, "HF32": 12}


def float_format(et: DataType) -> FloatFormat | None:
    """The binary format of a floating ``et`` (None: not floating, or a format without a decoder)."""
    return FLOATS.get(et.name) if et.kind == "float" else None


class ValueError_(ValueError):
    """A value that the element type cannot hold (message says why)."""


def parse_raw(text: str) -> int | None:
    """``"0x…"`` (or ``"0b…"``) as an unsigned integer, else None."""
    t = text.strip().lower().replace("_", "")
    try:
        if t.startswith("0x"):
            return int(t[2:], 16)
        if t.startswith("0b"):
            return int(t[2:], 2)
    except ValueError:
        return None
    return None


def encode(value: object, et: DataType) -> int:
    """The 64-bit carrier of ``value`` (a number in the element type, or a raw ``"0x…"`` word)."""
    if isinstance(value, str):
        raw = parse_raw(value)
        if raw is not None:
            if raw > WORD_MASK:
                raise ValueError_(f"raw word {value} is wider than 64 bits")
            return raw
        low = value.strip().lower()
        if et.kind == "float" and low in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
            value = float(low)
        else:
            raise ValueError_(f"{value!r} is neither a number nor a raw word '0x…'")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError_(f"{value!r} is not a number")
    if et.kind in ("signed", "unsigned"):
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError_(f"{value} is not an integer, but {et.name} holds integers")
            value = int(value)
        lo, hi = ((-(1 << (et.bits - 1)), (1 << (et.bits - 1)) - 1) if et.kind == "signed"
                  else (0, et.mask))
        if not lo <= value <= hi:
            raise ValueError_(f"{value} is outside the {et.name} range {lo}..{hi}")
        return value & WORD_MASK
    fmt = float_format(et)
    if fmt is not None:
        raw = fmt.encode(float(value))
        if math.isfinite(float(value)) and not math.isfinite(fmt.decode(raw)):
            raise ValueError_(f"{value} overflows {et.name}")
        drop = _LOW_BITS.get(et.name)
        return raw if drop is None else _round_low_bits(raw, drop)
    raise ValueError_(f"{et.name} values must be written as raw words '0x…'")


def _round_low_bits(raw: int, drop: int) -> int:
    """Round an FP32 encoding to nearest-even with ``drop`` low fraction bits cleared."""
    if (raw >> 23) & 0xFF == 0xFF:  # infinities keep their encoding; NaNs become quiet NaNs
        return raw if raw & ((1 << 23) - 1) == 0 else (raw & 0x80000000) | 0x7FC00000
    half = 1 << (drop - 1)
    low = raw & ((1 << drop) - 1)
    base = raw - low
    if low > half or (low == half and (base >> drop) & 1):
        base += 1 << drop
    return base & 0xFFFFFFFF


def decode(raw: int, et: DataType) -> int | float | None:
    """The element-type value of a carrier: its low ``bits`` read in the format (None: no decoder)."""
    low = raw & et.mask
    if et.kind == "unsigned":
        return low
    if et.kind == "signed":
        return low - (1 << et.bits) if low >> (et.bits - 1) else low
    fmt = float_format(et)
    if fmt is not None:
        return fmt.decode(low)
    return None


def show_value(raw: int, et: DataType) -> str:
    """A short spelling of the element value (``1.5``, ``-3``, ``nan``, ``0x…`` when undecodable)."""
    v = decode(raw, et)
    if v is None:
        return f"0x{raw & et.mask:x}"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return str(v)


def show_word(raw: int) -> str:
    return f"0x{raw & WORD_MASK:016x}"
