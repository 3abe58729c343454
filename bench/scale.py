"""The scale curve: a spec N times the corpus (``bench/synth.py``), checked, tested and built as processes.

    .venv/bin/python -m bench.scale [--root ROOT] [--scales 1,2,5,10] [--test-scales ...] [--build-scales 1,2]

Per scale: the synthetic tree is written to a temp dir, then each command runs as a child process from
an empty ``SPECGEN_CACHE_DIR`` (what a fresh CI runner sees) and is measured by ``os.wait4``: wall,
CPU (user+sys of it and its workers) and peak RSS of its largest process. Commands: ``specgen check
--no-cache`` (findings counted per rule: a tree that validates keeps the corpus' findings), ``specgen
test --jobs 2`` (statuses), ``specgen build --jobs 2`` (where affordable) and, as the anchor, a process
reading and SHA-256-hashing every file of the tree. Growth exponents are least-squares slopes of log
time (or memory) on log N: 1.0 is linear. Nothing here asserts speed.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .common import slope
from .shards import measured

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
_HASH_TREE = """
import hashlib, os, sys
for d, _, names in os.walk(sys.argv[1]):
    for n in names:
        with open(os.path.join(d, n), "rb") as fh:
            hashlib.sha256(fh.read()).hexdigest()
"""


def _spec(argv: list[str], tmp: Path, name: str) -> dict[str, Any]:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp / f"cache-{name}")}
    return measured([sys.executable, "-m", "specgen", *argv], env, tmp / f"{name}.out")


def one_scale(root: Path, n: int, tmp: Path, test: bool, build: bool) -> dict[str, Any]:
    tree = root
    if n > 1:  # in a child: Linux keeps ru_maxrss across exec, so a big parent would inflate every child's figure
        tree = tmp / f"synth-{n}"
        subprocess.run([sys.executable, "-m", "bench.synth", str(root), str(tree), str(n)], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
    row: dict[str, Any] = {"n": n}
    row["hash"] = measured([sys.executable, "-c", _HASH_TREE, str(tree)], dict(os.environ), tmp / "hash.out")
    ck = _spec(["check", "--no-cache", "--root", str(tree), "--format", "json"], tmp, f"check-{n}")
    try:
        found = json.loads((tmp / f"check-{n}.out").read_text(encoding="utf-8"))["findings"]
        ck["findings"] = dict(collections.Counter(f"{f['rule']}/{f['severity']}" for f in found))
    except (ValueError, KeyError):
        ck["findings"] = {}
    row["check"] = ck
    if test:
        ts = _spec(["test", "--root", str(tree), "--jobs", "2", "--format", "json"], tmp, f"test-{n}")
        try:
            s = json.loads((tmp / f"test-{n}.out").read_text(encoding="utf-8"))["summary"]
            ts["statuses"] = {k: s[k] for k in ("passed", "failed", "error", "total") if k in s}
        except (ValueError, KeyError):
            ts["statuses"] = {}
        row["test"] = ts
    if build:
        row["build"] = _spec(["build", "--root", str(tree), "--out", str(tmp / f"site-{n}"), "--jobs", "2"],
                             tmp, f"build-{n}")
        shutil.rmtree(tmp / f"site-{n}", ignore_errors=True)
    for d in tmp.glob("cache-*"):
        shutil.rmtree(d, ignore_errors=True)
    if tree != root:
        shutil.rmtree(tree, ignore_errors=True)
    return row


def _line(what: str, m: dict[str, Any], extra: str = "") -> str:
    return (f"{what} wall {m['wall']:.1f} s, CPU {m['cpu']:.1f} s, peak RSS {m['rss_mb']:.0f} MiB, "
            f"exit {m['exit']}{extra}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--scales", default="1,2,5,10", help="N of every measured tree (default 1,2,5,10)")
    ap.add_argument("--test-scales", default=None, help="the scales that also run the suite (default: all)")
    ap.add_argument("--build-scales", default="1,2", help="the scales that also build the site (default 1,2)")
    ap.add_argument("--json", type=Path, default=None, help="also write the rows as JSON here")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    scales = [int(x) for x in args.scales.split(",")]
    tests = set(scales) if args.test_scales is None else {int(x) for x in args.test_scales.split(",") if x}
    builds = {int(x) for x in args.build_scales.split(",") if x}
    print(f"scale curve on {root} ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"each command a fresh process from an empty cache)", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="specgen-scale-") as d:
        for n in scales:
            r = one_scale(root, n, Path(d), n in tests, n in builds)
            rows.append(r)
            print(f"  {n}x (load {os.getloadavg()[0]:.1f}):", _line("read+hash of the tree", r["hash"]), flush=True)
            bad = {k: v for k, v in r["check"]["findings"].items() if k.endswith("/error")}
            print("    " + _line("check", r["check"], f"; errors {bad}; findings {sum(r['check']['findings'].values())}"),
                  flush=True)
            if "test" in r:
                print("    " + _line("test --jobs 2", r["test"], f"; {r['test']['statuses']}"), flush=True)
            if "build" in r:
                print("    " + _line("build --jobs 2", r["build"]), flush=True)
            if args.json:
                args.json.write_text(json.dumps(rows, indent=1))
    for kind in ("check", "test", "build"):
        ok = [r for r in rows if kind in r and r[kind]["exit"] in (0, 1)]
        if len(ok) >= 2:
            xs = [float(r["n"]) for r in ok]
            print(f"  growth exponent, {kind}: wall {slope(xs, [r[kind]['wall'] for r in ok]):.2f}, "
                  f"CPU {slope(xs, [r[kind]['cpu'] for r in ok]):.2f}, "
                  f"peak RSS {slope(xs, [r[kind]['rss_mb'] for r in ok]):.2f} (scales {[r['n'] for r in ok]})")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
