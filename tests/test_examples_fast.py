"""The NumPy fast paths equal the interpreted ASL, and the IEEE profile equals NumPy/ml_dtypes.

Two properties over random elementwise Blocks:

1. fast == ASL: the executor with its whole-tile NumPy hooks (bulk writes,
   bulk reads, vectorised ``ExecuteTileBinary``) leaves exactly the ``_Tiles``
   state the per-element ASL leaves, in both profiles, for every operation,
   type, shape, PadValue and random carrier (NaNs, zeros, junk high bits).
2. hardware-ieee == NumPy: the spec's ASL under the ``hardware-ieee`` profile
   computes what NumPy and ml_dtypes compute for the same operation.
"""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.executor.datatypes import decode, encode
from specgen.executor.executor import TileInput, executor_for
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.vocabulary import vocabulary_of

BUNDLED = Path(__file__).resolve().parent.parent / "spec"
VOCABULARY = vocabulary_of(load_spec(BUNDLED))
TYPES = {t.name: t for t in VOCABULARY.datatypes}
OPS = {"TADD": "ADD", "TSUB": "SUB", "TMUL": "MUL", "TMAX": "MAX", "TMIN": "MIN", "TAND": "AND", "TOR": "OR",
       "TXOR": "XOR"}
INTS = ["S64", "S32", "S16", "S8", "U64", "U32", "U16", "U8"]
FLOATS = ["FP64", "FP32", "TF32", "HF32", "FP16", "BF16", "E4M3", "E5M2"]
SPECIAL = {"FP32": [0x7FC00000, 0x7F800001, 0x80000000, 0, 0x7F800000], "FP16": [0x7E00, 0x7C01, 0x8000, 0],
           "BF16": [0x7FC0, 0x7F81, 0x8000, 0], "E4M3": [0x7F, 0xFF, 0x80, 0], "FP64": [0x7FF8000000000000, 0]}


def _program(op: str, dt: str, vc: int, vr: int, cols: int, size: int, pad: int | None,
             same: bool) -> str:
    datr = f"B.DATR PadValue={pad}; " if pad is not None else ""
    right = "T1" if same else "T2"
    return (f"BSTART.VEC {op}, {dt}; {datr}B.DIM LB0={vc}; B.DIM LB1={vr}; B.DIM LB2={cols}; "
            f"B.IOT T1, {right}, mask=0b0001, <last>, ->T<{size}>; BSTOP")


@st.composite
def blocks(draw: st.DrawFn) -> tuple[str, list[TileInput]]:
    op = draw(st.sampled_from(sorted(OPS)))
    types = INTS if op in ("TAND", "TOR", "TXOR") else INTS + FLOATS
    dt = draw(st.sampled_from(types))
    et = TYPES[dt]
    size = draw(st.integers(1, 3))
    capacity = 128 * 2 ** (size - 1)
    cols = 2 ** draw(st.integers(0, 5))
    rows = capacity * 8 // (cols * et.bits)
    if rows < 1:
        cols, rows = 1, capacity * 8 // et.bits
    vr = draw(st.integers(1, min(rows, 4)))
    vc = draw(st.integers(1, cols))
    pad = draw(st.one_of(st.none(), st.integers(0, 3)))
    same = draw(st.booleans())
    special = SPECIAL.get(dt, [])
    word = st.one_of(st.integers(0, (1 << 64) - 1), st.integers(0, et.mask),
                     st.sampled_from(special) if special else st.integers(0, et.mask))
    tiles = []
    for reg in (["T1"] if same else ["T1", "T2"]):
        words = tuple(tuple(draw(word) for _ in range(vc)) for _ in range(vr))
        tiles.append(TileInput(reg, dt, rows, cols, vr, vc, words, capacity))
    return _program(op, dt, vc, vr, cols, size, pad, same), tiles


@pytest.mark.parametrize("profile", ["reference", "hardware-ieee"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=blocks())
def test_fast_paths_leave_the_state_the_asl_leaves(profile: str, case: tuple[str, list[TileInput]]) -> None:
    text, tiles = case
    program = parse_program(text, VOCABULARY)
    slow = executor_for(SpecGraph.build(load_spec(BUNDLED)), profile, fast=False)
    fast = executor_for(SpecGraph.build(load_spec(BUNDLED)), profile, fast=True)
    assert "ExecuteTileBinary" in fast.interp.hooks and "ExecuteTileBinary" not in slow.interp.hooks
    a = slow.run(program, tiles)
    b = fast.run(program, tiles)
    assert (a.fault.name if a.fault else None) == (b.fault.name if b.fault else None)
    assert slow.interp.get_global("_Tiles") == fast.interp.get_global("_Tiles")
    assert [(t.words, t.defined) for t in a.tiles.values()] == [(t.words, t.defined) for t in b.tiles.values()]


# ---------------------------------------------------------------- IEEE profile vs NumPy
NP_TYPES = {"FP32": np.float32, "FP16": np.float16, "BF16": ml_dtypes.bfloat16,
            "S32": np.int32, "S16": np.int16, "S8": np.int8, "U32": np.uint32, "U16": np.uint16, "U8": np.uint8}


def _numpy(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return {"ADD": lambda: a + b, "SUB": lambda: a - b, "MUL": lambda: a * b,
                "MAX": lambda: np.fmax(a, b), "MIN": lambda: np.fmin(a, b), "AND": lambda: a & b,
                "OR": lambda: a | b, "XOR": lambda: a ^ b}[op]().astype(a.dtype)


@st.composite
def typed_blocks(draw: st.DrawFn) -> tuple[str, str, str, np.ndarray, np.ndarray]:
    dt = draw(st.sampled_from(sorted(NP_TYPES)))
    floating = dt in ("FP32", "FP16", "BF16")
    op = draw(st.sampled_from(["ADD", "SUB", "MUL", "MAX", "MIN"] + ([] if floating else ["AND", "OR", "XOR"])))
    et = TYPES[dt]
    vr, vc = draw(st.integers(1, 3)), 2 ** draw(st.integers(0, 3))
    n = vr * vc
    if floating:
        width = 16 if dt == "FP16" else 32
        elems = st.floats(width=width, allow_nan=True, allow_infinity=True)
    else:
        lo, hi = (-(1 << (et.bits - 1)), (1 << (et.bits - 1)) - 1) if et.kind == "signed" else (0, et.mask)
        elems = st.integers(lo, hi)
    a = np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=np.float64 if floating else object)
    b = np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=np.float64 if floating else object)
    t = NP_TYPES[dt]
    with np.errstate(all="ignore"):
        return dt, op, f"{vr}x{vc}", a.astype(t).reshape(vr, vc), b.astype(t).reshape(vr, vc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=typed_blocks())
def test_hardware_ieee_profile_matches_numpy(case: tuple[str, str, str, np.ndarray, np.ndarray]) -> None:
    dt, op, shape, a, b = case
    et = TYPES[dt]
    vr, vc = map(int, shape.split("x"))
    capacity = 128
    cols = vc
    rows = capacity * 8 // (cols * et.bits)
    mn = next(k for k, v in OPS.items() if v == op)
    text = _program(mn, dt, vc, vr, cols, 1, None, False)

    def words(m: np.ndarray) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(encode(str(f"0x{int(x):x}"), et) for x in row)
                     for row in m.view(np.dtype(f"u{et.bits // 8}")))

    tiles = [TileInput("T1", dt, rows, cols, vr, vc, words(a), capacity),
             TileInput("T2", dt, rows, cols, vr, vc, words(b), capacity)]
    run = executor_for(SpecGraph.build(load_spec(BUNDLED)), "hardware-ieee", fast=False).run(parse_program(text, VOCABULARY), tiles)
    assert run.fault is None
    got = run.outputs["T0"]
    want = _numpy(op, a, b)
    for r in range(vr):
        for c in range(vc):
            g = decode(got.words[r][c], et)
            w = want[r][c].item() if hasattr(want[r][c], "item") else want[r][c]
            if isinstance(g, float):
                w = float(w)
                if math.isnan(w):
                    assert math.isnan(g), (r, c)
                elif w == 0 and op in ("MAX", "MIN") and float(a[r][c]) == 0 and float(b[r][c]) == 0:
                    assert g == 0  # the spec orders -0 < +0; fmax/fmin leave the zero sign unspecified
                else:
                    assert g == w and math.copysign(1, g) == math.copysign(1, w), (r, c, g, w)
            else:
                assert g == int(w), (r, c, g, w)
