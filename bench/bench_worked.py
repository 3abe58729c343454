"""Benchmark: what the worked examples add to a build, cold and warm, beside an anchor of the same run.

    .venv/bin/python bench/bench_worked.py [--root ../shared/corpus/pto-spec-0.58.3] [--repeat 3]

* cold: a fresh process with an empty cache directory loads the spec and its vocabulary (not counted:
  the build's examples gate has read both before the worked examples start) and generates and
  executes every worked example (:func:`specgen.worked.generator.worked_examples`): the interpreter
  index, the compile, the ADMITTED DataTypes and every run. This is what a cold ``specgen build`` adds.
* warm: a fresh process on the cache the cold run left: nothing changed, so every entry comes from the
  pack (this is what a build where nothing changed adds).
* anchor: in the same run, a process that reads and SHA-256-hashes every file of the tree, the least any
  content-keyed reuse must do.

Targets (issue 16 item 6): cold at most 60 s, warm under 2 s. Nothing here asserts; it prints.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
sys.path.insert(0, str(REPO))


def child(mode: str, root: Path) -> dict[str, object]:
    """One measurement in this (fresh) process."""
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    t0 = time.perf_counter()
    spec = load_spec(root)
    graph = SpecGraph.build(spec)
    from specgen.vocabulary import VOCABULARY
    VOCABULARY(graph)  # the build's examples gate reads the vocabulary first; the worked examples share it
    load = time.perf_counter() - t0
    if mode == "anchor":  # reading and hashing the tree: what knowing that nothing changed costs at least
        t1 = time.perf_counter()
        n = 0
        for rel in sorted(spec.files):
            hashlib.sha256((Path(root) / rel).read_bytes()).hexdigest()
            n += 1
        return {"wall": time.perf_counter() - t1, "files": n, "load": load}
    from specgen.worked.generator import worked_examples
    t1, c1 = time.perf_counter(), time.process_time()
    suite = worked_examples(graph)
    return {"wall": time.perf_counter() - t1, "cpu": time.process_time() - c1, "load": load,
            "summary": suite.summary(),
            "runs": sum(len(e.examples) + len(e.attempts) for e in suite.entries.values())}


def run_child(mode: str, root: Path, cache: Path) -> dict[str, object]:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, __file__, "--child", mode, "--root", str(root)], env=env,
                       capture_output=True, text=True, cwd=REPO)
    for line in r.stdout.splitlines():
        if line.startswith("BENCH-RESULT "):
            return json.loads(line.removeprefix("BENCH-RESULT "))  # type: ignore[no-any-return]
    raise SystemExit(f"{mode} failed (exit {r.returncode}): {(r.stderr or r.stdout)[-600:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--repeat", type=int, default=3, help="warm and anchor repetitions (median); cold runs once")
    ap.add_argument("--child", choices=("cold", "warm", "anchor"))
    a = ap.parse_args()
    if a.child:
        print("BENCH-RESULT " + json.dumps(child(a.child, a.root)))
        return 0
    from bench.common import as_installed
    as_installed()
    with tempfile.TemporaryDirectory(prefix="bench-worked-") as tmp:
        cache = Path(tmp)
        cold = run_child("cold", a.root, cache)
        warm = [run_child("warm", a.root, cache) for _ in range(a.repeat)]
        anchor = [run_child("anchor", a.root, cache) for _ in range(a.repeat)]
    w = statistics.median(float(x["wall"]) for x in warm)  # type: ignore[arg-type]
    an = statistics.median(float(x["wall"]) for x in anchor)  # type: ignore[arg-type]
    c = float(cold["wall"])  # type: ignore[arg-type]
    print(f"root: {a.root}")
    print(f"{cold['summary']}; {cold['runs']} program runs")
    print(f"anchor: read + SHA-256 of the {anchor[0]['files']} files of the tree: {an:.3f} s (median of {a.repeat})")
    print(f"cold (empty cache, fresh process): {c:.2f} s = {c / an:.0f}x anchor ({float(cold['cpu']):.1f} s CPU, "  # type: ignore[arg-type]
          f"load average {os.getloadavg()[0]:.1f}); target <= 60 s: {'met' if c <= 60 else 'NOT met'}")
    print(f"warm (nothing changed, fresh process): {w:.3f} s = {w / an:.2f}x anchor (median of {a.repeat}); "
          f"target < 2 s: {'met' if w < 2 else 'NOT met'}")
    print(f"(spec load, not counted: {float(cold['load']):.2f} s cold, "  # type: ignore[arg-type]
          f"{statistics.median(float(x['load']) for x in warm):.2f} s warm)")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
