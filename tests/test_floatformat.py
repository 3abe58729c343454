"""The plain-Python binary formats (issue 41: the core install has no NumPy) equal NumPy's and ml_dtypes'
conversions word for word: every word of every 8- and 16-bit format read back, and values rounded into each
format (random magnitudes across and beyond the range, every midpoint between neighbours of the small formats,
overflow, infinities, NaN and signed zero)."""

from __future__ import annotations

import math
import random
import warnings

import ml_dtypes
import numpy as np
import pytest

from specgen.asl.floatformat import BF16, E4M3, E5M2, FP16, FP32, FP64, FloatFormat

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy casting the NaN words

FORMATS = {"FP32": (FP32, np.float32, np.uint32), "FP16": (FP16, np.float16, np.uint16),
           "BF16": (BF16, ml_dtypes.bfloat16, np.uint16), "E4M3": (E4M3, ml_dtypes.float8_e4m3fn, np.uint8),
           "E5M2": (E5M2, ml_dtypes.float8_e5m2, np.uint8), "FP64": (FP64, np.float64, np.uint64)}


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))


def _words(fmt: FloatFormat, rng: random.Random) -> list[int]:
    return list(range(1 << fmt.bits)) if fmt.bits <= 16 else [rng.getrandbits(fmt.bits) for _ in range(20000)]


@pytest.mark.parametrize("name", FORMATS)
def test_every_word_reads_as_numpy_reads_it(name: str) -> None:
    fmt, ftype, utype = FORMATS[name]
    words = _words(fmt, random.Random(41))
    theirs = np.array(words, dtype=utype).view(ftype).astype(np.float64)
    bad = [hex(w) for w, v in zip(words, theirs) if not _same(fmt.decode(w), float(v))]
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name", FORMATS)
def test_values_round_into_the_format_as_numpy_rounds_them(name: str) -> None:
    fmt, ftype, utype = FORMATS[name]
    rng = random.Random(42)
    words = _words(fmt, rng)
    finite = sorted({float(v) for v in np.array(words, dtype=utype).view(ftype).astype(np.float64) if np.isfinite(v)})
    values = [math.ldexp(rng.uniform(-1, 1), rng.randint(-1100, 1024)) for _ in range(20000)]
    values += [(a + b) / 2 for a, b in zip(finite, finite[1:])][:40000] + finite[:20000]
    big = fmt.largest
    values += [big, big * 1.03125, big * 1.0625, big * 1.04, -big * 1.5, 1e300, 5e-324, -0.0, 0.0,
               math.inf, -math.inf, math.nan, -math.nan, fmt.smallest_normal / 3]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        theirs = np.array(values, dtype=np.float64).astype(ftype).view(utype)
    bad = []
    for v, w in zip(values, theirs):
        mine = fmt.encode(v)
        if mine != int(w) and not (math.isnan(v) and fmt.is_nan(mine) and fmt.is_nan(int(w))):
            bad.append((v, hex(mine), hex(int(w))))
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name", FORMATS)
def test_the_named_limits_are_numpys(name: str) -> None:
    fmt, ftype, _ = FORMATS[name]
    info = np.finfo(ftype) if ftype in (np.float64, np.float32, np.float16) else ml_dtypes.finfo(ftype)
    assert fmt.largest == float(info.max) and fmt.smallest_normal == float(info.smallest_normal)
    nan = np.array([math.nan], dtype=np.float64).astype(ftype).view(FORMATS[name][2])[0]
    assert fmt.quiet_nan() == int(nan)
