"""Benchmark: the full AVS suite (``specgen test --jobs N``) beside reading and hashing the same files.

    .venv/bin/python bench/bench_avs.py [--root ../shared/corpus/pto-spec-0.58.3] [--jobs 2] [--no-replay]

* suite: a fresh ``specgen test --root ROOT --jobs N --format json`` process with an empty cache
  directory (so the index, the generated ASL and every compile are cold). Printed: wall, the CPU
  seconds of the process and its workers (user+sys of the children: on a loaded machine, what a
  quiet one's wall clock would show times the jobs), the statuses and the machine's load.
* ``--no-replay``: the same run again with ``SPECGEN_NO_REPLAY=1`` (every zero-argument function
  body runs, as before the replay of ``ResetProfileState``; see specgen/asl/memo.py), for the ratio.
* anchor: in the same run, a process that reads and SHA-256-hashes every file the suite's load reads
  (the spec's units, tests, catalogs, ADRs, manifest: ``Spec.files``).

Targets (issue 17 item 5): at most 120 s wall with ``--jobs 2`` on a quiet 2-core machine (CPU of
the suite at most ~220 s as the loaded-machine proxy). Nothing here asserts; it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
sys.path.insert(0, str(REPO))

_HASH = """
import hashlib, json, sys
root, rels = sys.argv[1], json.load(open(sys.argv[2]))
for rel in rels:
    with open(root + "/" + rel, "rb") as fh:
        hashlib.sha256(fh.read()).hexdigest()
"""


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU (user+sys of the process and everything it waited for) of one command."""
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - t0, _children_cpu() - c0, r


def suite(root: Path, jobs: int, tmp: Path, replay: bool) -> dict[str, object]:
    """One cold run of the whole suite in a fresh process."""
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp / f"cache-{'replay' if replay else 'no-replay'}")}
    if not replay:
        env["SPECGEN_NO_REPLAY"] = "1"
    load = os.getloadavg()[0]
    wall, cpu, r = _timed([sys.executable, "-m", "specgen", "test", "--root", str(root), "--jobs", str(jobs),
                           "--format", "json"], env)
    try:
        summary = json.loads(r.stdout)["summary"]
    except (ValueError, KeyError):
        return {"error": f"no report (exit {r.returncode}): {r.stderr[-300:]}"}
    return {"wall": wall, "cpu": cpu, "exit": r.returncode, "load": load,
            "statuses": {k: summary[k] for k in ("passed", "failed", "error", "total")}}


def anchor(root: Path, tmp: Path, repeat: int = 5) -> dict[str, object]:
    """Read+hash of the files the suite's load reads, in a fresh process; the fastest of ``repeat``."""
    from specgen.loader import load_spec

    rels = sorted(load_spec(root).files)
    listing = tmp / "files.json"
    listing.write_text(json.dumps(rels))
    walls = [_timed([sys.executable, "-c", _HASH, str(root), str(listing)], dict(os.environ))[0]
             for _ in range(repeat)]
    return {"wall": min(walls), "files": len(rels)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-replay", action="store_true", help="also run with SPECGEN_NO_REPLAY=1 for the ratio")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="specgen-bench-avs-") as d:
        tmp = Path(d)
        a = anchor(args.root, tmp)
        rows = [("specgen test --jobs %d (every AVS test)" % args.jobs, suite(args.root, args.jobs, tmp, True))]
        if args.no_replay:
            rows.append(("  the same, SPECGEN_NO_REPLAY=1", suite(args.root, args.jobs, tmp, False)))
    print(f"AVS suite benchmark on {args.root} ({os.cpu_count()} cores)")
    print(f"anchor: read+hash process of the {a['files']} files the suite loads: {a['wall']:.3f} s (fastest of 5)")
    print(f"{'run':44} {'wall':>9} {'CPU':>9} {'wall/anchor':>12} {'CPU/anchor':>11}  load  statuses")
    for name, r in rows:
        if "error" in r:
            print(f"{name:44} {r['error']}")
            continue
        print(f"{name:44} {r['wall']:8.2f}s {r['cpu']:8.2f}s {r['wall'] / a['wall']:11.0f}x "
              f"{r['cpu'] / a['wall']:10.0f}x  {r['load']:4.1f}  {r['statuses']} exit {r['exit']}")
    if len(rows) == 2 and "error" not in rows[0][1] and "error" not in rows[1][1]:
        print(f"replay vs no replay: wall {rows[0][1]['wall'] / rows[1][1]['wall']:.2f}x, "
              f"CPU {rows[0][1]['cpu'] / rows[1][1]['cpu']:.2f}x")
    print("target: <= 120 s wall with --jobs 2 on a quiet 2-core machine (CPU <= ~220 s as the loaded proxy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
