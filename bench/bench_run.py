"""Benchmark: an FP32 TMUL through the executor (in-process ``specgen run``) against bare NumPy.

    .venv/bin/python bench/bench_run.py [--root spec] [--repeat 3] [--asl]

The brief asks for a 256 x 256 FP32 tile. That tile is not legal in the
bundled spec: 65,536 FP32 elements are 256 KiB, above the 64 KiB largest
Local Tile allocation (``PTO_TILE_MAX_ALLOCATION_BYTES``, SizeCode 10) and
above the model's element bound (``config PTO_MODEL_TILE_ELEMENTS``, at most
32,768). The script shows the model's own rejection, then benchmarks the
largest legal FP32 tile, 128 x 128 (64 KiB, SizeCode 10), with the model
bound raised to 16,384 elements (the ``config`` allows up to 32,768).

Measured, per run: the whole program (reset, install both sources, five
entry-point calls, read back) with the verified NumPy fast paths, and the
NumPy multiply alone. ``--asl`` also times the per-element interpreted ASL
on the same tile (slow: minutes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from specgen.executor.executor import Executor, RunError, TileInput  # noqa: E402
from specgen.graph import SpecGraph  # noqa: E402
from specgen.loader import load_spec  # noqa: E402
from specgen.program.reader import parse_program  # noqa: E402


def program(cols: int, rows: int, size: int) -> str:
    return (f"BSTART.VEC TMUL, FP32; B.DIM LB0={cols}; B.DIM LB1={rows}; "
            f"B.IOT T1, T2, mask=0b0001, <last>, ->T<{size}>; BSTOP")


def tiles(a: np.ndarray, b: np.ndarray, capacity: int) -> list[TileInput]:
    rows, cols = a.shape
    out = []
    for reg, m in (("T1", a), ("T2", b)):
        words = tuple(tuple(int(w) for w in row) for row in m.view(np.uint32))
        out.append(TileInput(reg, "FP32", rows, cols, rows, cols, words, capacity))
    return out


def timed(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), value


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent / "spec")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--asl", action="store_true", help="also time the per-element interpreted ASL")
    args = ap.parse_args()
    rng = np.random.default_rng(1)

    # 1. the requested 256 x 256 tile, as the model sees it
    n = 256
    ex = Executor(SpecGraph.build(load_spec(args.root)), "hardware-ieee", tile_elements=32768)
    vocabulary = ex.vocabulary
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    try:
        ex.run(parse_program(program(n, n, 10), vocabulary), tiles(a, b, n * n * 4))
        print("256x256 FP32: ran (unexpected)")
    except RunError as e:
        print(f"256x256 FP32 is not a legal tile of this model: {e.message[:220]}…")

    # 2. the largest legal FP32 tile
    n = 128
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    prog = parse_program(program(n, n, 10), vocabulary)
    ins = tiles(a, b, 65536)
    fast = Executor(SpecGraph.build(load_spec(args.root)), "hardware-ieee", tile_elements=16384)
    fast.run(prog, ins)  # compile once
    t_exec, result = timed(lambda: fast.run(prog, ins), args.repeat)
    t_np, ref = timed(lambda: a * b, max(args.repeat, 50))
    got = np.array(result.outputs["T0"].words, dtype=np.uint64).astype(np.uint32).view(np.float32)  # type: ignore[union-attr]
    assert np.array_equal(got, ref), "executor result differs from NumPy"
    print(f"128x128 FP32 TMUL, hardware-ieee profile (results equal NumPy's)")
    print(f"  executor (ASL + verified NumPy fast paths): {t_exec * 1e3:10.2f} ms")
    print(f"  NumPy a * b:                                {t_np * 1e3:10.4f} ms")
    print(f"  ratio executor / NumPy:                     {t_exec / t_np:10.0f} x")
    if args.asl:
        slow = Executor(SpecGraph.build(load_spec(args.root)), "hardware-ieee", fast=False, tile_elements=16384)
        t_slow, res2 = timed(lambda: slow.run(prog, ins), 1)
        assert res2.outputs["T0"].words == result.outputs["T0"].words  # type: ignore[union-attr]
        print(f"  interpreted ASL only (per element):         {t_slow * 1e3:10.2f} ms "
              f"({t_slow / t_exec:.0f} x the fast path)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
