"""Benchmark: the same site built by each engine, as ratios to the MkDocs build of the same run.

    .venv/bin/python bench/bench_engines.py [--root spec] [--repeat 1] [--jobs 2]

For each engine (``specgen build --engine mkdocs|properdocs|zensical``) a fresh process builds the site of
``--root`` into a scratch folder, after one warm-up build that fills specgen's caches (so every engine
is timed on the same warm caches: the spec load, the examples and the worked examples come from them and
the engines differ in rendering and writing). ``specgen export`` alone is timed too (the part of the
Zensical build that is specgen's). Wall time is the median of ``--repeat`` runs; the ratio is to the
mkdocs build's median of the same run, which is what stays meaningful on a shared, noisy machine.
Nothing here asserts; it prints.
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
ENGINES = ("mkdocs", "properdocs", "zensical")


def timed(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "specgen", *argv], cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"specgen {' '.join(argv)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=REPO / "spec")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        env = {**os.environ, "SPECGEN_CACHE_DIR": str(Path(tmp) / "cache"), "SPECGEN_PROGRESS": "0",
               "NO_MKDOCS_2_WARNING": "1"}
        common = ["--root", str(args.root), "--jobs", str(args.jobs)]
        timed(["build", *common, "--out", str(Path(tmp) / "warm")], env)  # fills the caches every engine reuses
        times: dict[str, list[float]] = {}
        for i in range(args.repeat):
            for engine in ENGINES:
                out = Path(tmp) / f"{engine}-{i}"
                times.setdefault(engine, []).append(timed(["build", *common, "--engine", engine, "--out", str(out)], env))
            times.setdefault("export", []).append(
                timed(["export", *common, "--out", str(Path(tmp) / f"export-{i}")], env))
    anchor = statistics.median(times["mkdocs"])
    print(f"site of {args.root} (warm caches, --jobs {args.jobs}, median of {args.repeat}; load average "
          f"{os.getloadavg()[0]:.1f})")
    for name, runs in times.items():
        wall = statistics.median(runs)
        print(f"  {name:<11} {wall:7.2f} s   {wall / anchor:5.2f}x the mkdocs build")


if __name__ == "__main__":
    main()
