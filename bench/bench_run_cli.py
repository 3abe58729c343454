"""Benchmark: ``specgen run`` of one program on a real tree, cold and warm, beside an anchor of the same run.

    .venv/bin/python bench/bench_run_cli.py [--root ../shared/corpus/pto-spec-0.58.3] [--repeat 3]

* cold: a fresh ``specgen run`` process with an empty cache directory;
* warm: a fresh process on the cache the cold one left (nothing changed): the loader's records, the parsed
  spec units and the generated modules come from the cache, the generated text is not made again;
* both as installed (:func:`bench.common.as_installed`: the package's bytecode compiled, as ``pip install``
  leaves it);
* anchor: in the same run, a process that imports nothing of specgen and reads and SHA-256-hashes every
  file of the tree: what knowing that nothing changed costs at least.

Targets (issues 39 and 40): warm at most 1 s, cold at most 2 s. Nothing here asserts; it prints.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
PROGRAM = REPO / "spec" / "examples" / "tile" / "elementwise-tile-tile" / "arithmetic" / "TADD" / "s32-wraps.json"
ANCHOR = ("import hashlib, os, sys\n"
          "for d, _, fs in os.walk(sys.argv[1]):\n"
          "    for f in fs:\n"
          "        with open(os.path.join(d, f), 'rb') as h: hashlib.sha256(h.read()).hexdigest()\n")


def timed(cmd: list[str], cache: Path) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env={**os.environ, "SPECGEN_CACHE_DIR": str(cache)}, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed (exit {r.returncode}): {(r.stderr or r.stdout)[-400:]}")
    return wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--program", type=Path, default=PROGRAM)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from bench.common import as_installed
    as_installed()
    run = [sys.executable, "-m", "specgen", "run", "--root", str(a.root), str(a.program)]
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        cache = Path(tmp)
        cold = timed(run, cache)
        warm = statistics.median(timed(run, cache) for _ in range(a.repeat))
        anchor = statistics.median(timed([sys.executable, "-c", ANCHOR, str(a.root)], cache) for _ in range(a.repeat))
    print(f"root: {a.root}; program: {a.program.name}; load average {os.getloadavg()[0]:.1f}")
    print(f"anchor (read + SHA-256 of every file, fresh process): {anchor:.2f} s (median of {a.repeat})")
    print(f"specgen run cold (empty cache): {cold:.2f} s = {cold / anchor:.1f}x anchor; target <= 2 s: "
          f"{'met' if cold <= 2 else 'NOT met'}")
    print(f"specgen run warm (nothing changed): {warm:.2f} s = {warm / anchor:.1f}x anchor (median of {a.repeat}); "
          f"target <= 1 s: {'met' if warm <= 1 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
