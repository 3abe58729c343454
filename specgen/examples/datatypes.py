"""Element types of a Tile as an example file writes them, and their 64-bit carriers.

Every Tile element lives in one 64-bit Word (``PTO-ARCH-DATA-TYPES-INTEGER``).
An example writes an element either as a number in the element type or as the
raw carrier ``"0x…"``; this module converts between the two so that files stay
readable while comparisons happen on carriers, exactly as the ASL stores them.

Floating values are rounded to nearest-even into the element format (NumPy /
ml_dtypes); a raw word is taken as written. Signed integers are stored
sign-extended and unsigned ones zero-extended, the convention the spec's
integer element rules use for results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

WORD_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class ElementType:
    """One ``TileDataType`` member, by its short name (``FP16``, ``S32`` …)."""

    name: str
    code: int
    bits: int
    kind: str  # "float" | "signed" | "unsigned" | "packed"
    dtype: str | None = None  # name of the NumPy / ml_dtypes scalar type of the format, when one exists

    @property
    def numpy(self) -> Any:
        """The scalar type itself, imported on first use (ml_dtypes alone costs most of a cached check)."""
        return None if self.dtype is None else _scalar_type(self.dtype)

    @property
    def member(self) -> str:
        """The ASL enumeration member, e.g. ``TileDataType_FP16``."""
        return f"TileDataType_{self.name}"

    @property
    def mask(self) -> int:
        return (1 << self.bits) - 1


_TABLE: list[tuple[str, int, int, str, str | None]] = [
    ("FP64", 0, 64, "float", "float64"),
    ("FP32", 1, 32, "float", "float32"),
    ("TF32", 2, 32, "float", "float32"),
    ("HF32", 3, 32, "float", "float32"),
    ("FP16", 4, 16, "float", "float16"),
    ("BF16", 5, 16, "float", "bfloat16"),
    ("HiF8", 6, 8, "float", None),
    ("E4M3", 7, 8, "float", "float8_e4m3fn"),
    ("E5M2", 8, 8, "float", "float8_e5m2"),
    ("E3M2", 9, 8, "float", None),
    ("E2M3", 10, 8, "float", None),
    ("E2M1X2", 11, 4, "packed", None),
    ("E1M2X2", 12, 4, "packed", None),
    ("E8M0", 13, 8, "float", None),
    ("HiF4X2", 14, 4, "packed", None),
    ("S64", 16, 64, "signed", "int64"),
    ("S32", 17, 32, "signed", "int32"),
    ("S16", 18, 16, "signed", "int16"),
    ("S8", 19, 8, "signed", "int8"),
    ("S4X2", 20, 4, "packed", None),
    ("U64", 24, 64, "unsigned", "uint64"),
    ("U32", 25, 32, "unsigned", "uint32"),
    ("U16", 26, 16, "unsigned", "uint16"),
    ("U8", 27, 8, "unsigned", "uint8"),
    ("U4X2", 28, 4, "packed", None),
]

TYPES: dict[str, ElementType] = {n: ElementType(n, c, b, k, t) for n, c, b, k, t in _TABLE}
BY_CODE: dict[int, ElementType] = {t.code: t for t in TYPES.values()}
DTYPE_NONE_CODE = 31

_UINT = {8: "uint8", 16: "uint16", 32: "uint32", 64: "uint64"}


@cache
def _scalar_type(name: str) -> Any:
    import numpy as np
    if hasattr(np, name):
        return getattr(np, name)
    import ml_dtypes
    return getattr(ml_dtypes, name)


def element_type(name: str) -> ElementType | None:
    """The type named ``name`` (case-insensitive, with or without ``TileDataType_``)."""
    key = name.removeprefix("TileDataType_")
    for t in TYPES.values():
        if t.name.lower() == key.lower():
            return t
    return None


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


def encode(value: object, et: ElementType) -> int:
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
    if et.kind == "float" and et.numpy is not None:
        import numpy as np
        with np.errstate(all="ignore"):
            arr = np.array([float(value)], dtype=np.float64).astype(et.numpy)
        if math.isfinite(float(value)) and not np.isfinite(arr[0]):
            raise ValueError_(f"{value} overflows {et.name}")
        raw = int(arr.view(_scalar_type(_UINT[et.bits]))[0])
        if et.name == "TF32":
            raw = _round_low_bits(raw, 13)
        elif et.name == "HF32":
            raw = _round_low_bits(raw, 12)
        return raw
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


def decode(raw: int, et: ElementType) -> int | float | None:
    """The element-type value of a carrier: its low ``bits`` read in the format (None: no decoder)."""
    low = raw & et.mask
    if et.kind == "unsigned":
        return low
    if et.kind == "signed":
        return low - (1 << et.bits) if low >> (et.bits - 1) else low
    if et.kind == "float" and et.numpy is not None:
        import numpy as np
        return float(np.array([low], dtype=_scalar_type(_UINT[et.bits])).view(et.numpy)[0])
    return None


def show_value(raw: int, et: ElementType) -> str:
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
