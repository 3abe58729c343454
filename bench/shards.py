"""Shard balance of a CI matrix: ``specgen test --shard K/N`` as N separate jobs, then ``--merge``.

    .venv/bin/python -m bench.shards [--root ROOT] [--counts 2,4] [--jobs 1] [--durations]

Each shard runs as its own process with its own empty cache, as a matrix job on a fresh runner does,
and is measured by ``os.wait4``: wall, CPU (user+sys of the shard and its workers), peak RSS of its
largest process. Per N it prints each shard's tests, wall and CPU, the test CPU the report records
(the sum of its tests' ``cpu_seconds``), the max/mean of both (1.00 is perfect balance; a matrix waits
for its slowest shard), and whether ``--merge`` accepts the shards as one whole suite with every test
passed. With ``--durations`` a second pass per N balances by the merged report of the first pass (what a
CI job that keeps the last report does) instead of by ASL text length. Nothing here asserts speed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"


def measured(argv: list[str], env: dict[str, str], stdout: Path) -> dict[str, Any]:
    """Run ``argv`` as a child; its wall, CPU and peak RSS from its own rusage (wait4), not the parent's."""
    t = time.perf_counter()
    with open(stdout, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.DEVNULL, env=env, cwd=REPO)
        _, status, ru = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"wall": time.perf_counter() - t, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024,
            "exit": proc.returncode}


def shard_pass(root: Path, n: int, jobs: int, tmp: Path, durations: Path | None, tag: str) -> dict[str, Any]:
    """The ``n`` shards of one matrix, run one after the other, and their merge."""
    rows = []
    reports = []
    for k in range(1, n + 1):
        out = tmp / f"{tag}-{k}-of-{n}.json"
        env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp / f"cache-{tag}-{k}-{n}")}
        argv = [sys.executable, "-m", "specgen", "test", "--root", str(root), "--jobs", str(jobs),
                "--shard", f"{k}/{n}", "--format", "json"] + (["--durations", str(durations)] if durations else [])
        m = measured(argv, env, out)
        rep = json.loads(out.read_text(encoding="utf-8"))
        tests = rep["tests"]
        m.update(tests=len(tests), test_cpu=sum(x.get("cpu_seconds", 0.0) for x in tests),
                 passed=rep["summary"].get("passed", 0))
        rows.append(m)
        reports.append(out)
    merged = tmp / f"{tag}-merged-{n}.json"
    mm = measured([sys.executable, "-m", "specgen", "test", "--merge", *map(str, reports), "--format", "json"],
                  dict(os.environ), merged)
    summary = json.loads(merged.read_text(encoding="utf-8"))["summary"] if mm["exit"] in (0, 1) else {}
    return {"rows": rows, "merge_exit": mm["exit"], "merged": merged, "summary": summary}


def _ratio(xs: list[float]) -> float:
    return max(xs) / (sum(xs) / len(xs)) if xs and sum(xs) else float("nan")


def report(n: int, how: str, res: dict[str, Any]) -> None:
    rows = res["rows"]
    print(f"  N={n}, balanced by {how}:")
    for k, r in enumerate(rows, 1):
        print(f"    shard {k}/{n}: {r['tests']} tests ({r['passed']} passed), wall {r['wall']:.1f} s, "
              f"CPU {r['cpu']:.1f} s, test CPU {r['test_cpu']:.1f} s, peak RSS {r['rss_mb']:.0f} MiB, exit {r['exit']}")
    s = res["summary"]
    print(f"    max/mean: wall {_ratio([r['wall'] for r in rows]):.2f}, CPU {_ratio([r['cpu'] for r in rows]):.2f}, "
          f"test CPU {_ratio([r['test_cpu'] for r in rows]):.2f}, tests {_ratio([r['tests'] for r in rows]):.2f}; "
          f"merge exit {res['merge_exit']}: {s.get('total', '?')} tests, {s.get('passed', '?')} passed", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.shards", description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--counts", default="2,4", help="shard counts N (default 2,4)")
    ap.add_argument("--jobs", type=int, default=1, help="--jobs of each shard (default 1: one runner core each)")
    ap.add_argument("--durations", action="store_true",
                    help="a second pass per N balanced by the first pass's merged report")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    print(f"shard balance on {root} ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"shards run one after the other, --jobs {args.jobs} each, each from an empty cache)")
    with tempfile.TemporaryDirectory(prefix="specgen-shards-") as d:
        tmp = Path(d)
        for n in (int(x) for x in args.counts.split(",")):
            first = shard_pass(root, n, args.jobs, tmp, None, "length")
            report(n, "ASL text length (no --durations)", first)
            if args.durations and first["merge_exit"] in (0, 1):
                again = shard_pass(root, n, args.jobs, tmp, first["merged"], "durations")
                report(n, "the durations of the first pass (--durations)", again)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
