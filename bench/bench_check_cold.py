"""Benchmark: a cold ``specgen check`` (a fresh process, an empty cache) beside reading and hashing its files.

    .venv/bin/python bench/bench_check_cold.py [--root DIR ...] [--runs 5] [--baseline CHECKOUT]

For each root (default: the bundled spec and both corpora beside the checkout):

* cold check: ``python -m specgen check --root DIR --format json`` in a fresh interpreter with a new,
  empty ``SPECGEN_CACHE_DIR`` each run, exactly as a first CI run; its wall time and its CPU time
  (user + system of the process and anything it waited for), which is what a quiet machine's wall
  clock shows on this shared, loaded one. Issue 17's target: at most 2 s on 0.58.3.
* anchor, same run: a process that reads and SHA-256-hashes exactly the files that check read (the
  list comes from one in-process check, ``bench.stages.check``), interpreter start included.
* ``--baseline CHECKOUT``: the same cold check of another specgen source tree (e.g. ``git archive main``
  unpacked), run alternately with this one, so both see the same load; its findings are compared too.

The stage lines the check prints on stderr (load, rules, store) of the fastest run are shown. Nothing
here asserts; it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
DEFAULT_ROOTS = [REPO / "spec", CORPUS / "pto-spec-0.58.3", CORPUS / "pto-spec-0.58.0"]
sys.path.insert(0, str(REPO))


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def cold_check(root: Path, tmp: Path, source: Path | None) -> dict[str, object]:
    """One cold check in a fresh process: wall, CPU, exit, stage lines and the sorted findings."""
    cache = Path(tempfile.mkdtemp(prefix="cold-cache-", dir=tmp))
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    before, t = _cpu(), time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "specgen", "check", "--root", str(root), "--format", "json"],
                       capture_output=True, text=True, env=env, cwd=tmp)
    wall, cpu = time.perf_counter() - t, _cpu() - before
    shutil.rmtree(cache, ignore_errors=True)
    try:
        report = json.loads(r.stdout)
        findings = sorted(json.dumps(f, sort_keys=True) for f in report["findings"])
    except (ValueError, KeyError):
        findings = None
    stages = [line.split(": ", 1)[1] for line in r.stderr.splitlines() if line.startswith("specgen check: ")]
    return {"wall": wall, "cpu": cpu, "exit": r.returncode, "stages": stages, "findings": findings,
            "error": None if findings is not None else (r.stderr.strip().splitlines() or ["no output"])[-1]}


def read_hash(root: Path, tmp: Path, runs: int) -> tuple[list[float], int]:
    """Walls of a read+hash process over the files one in-process check read (and how many files)."""
    files = tmp / f"files-{root.name}.json"
    r = subprocess.run([sys.executable, "-m", "bench.stages", "check",
                        json.dumps({"root": str(root), "files_out": str(files)})],
                       cwd=REPO, capture_output=True, text=True, env={**os.environ,
                                                                      "SPECGEN_CACHE_DIR": str(tmp / "list")})
    if not files.exists():
        raise SystemExit(f"could not list the files a check of {root} reads: {r.stderr.strip()[-300:]}")
    from bench.stages import _HASH_SCRIPT
    walls = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", _HASH_SCRIPT, str(root), str(files)], check=True)
        walls.append(time.perf_counter() - t)
    return walls, len(json.loads(files.read_text()))


def _s(xs: list[float]) -> str:
    return f"min {min(xs):.2f} s, median {statistics.median(xs):.2f} s"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, action="append", help="spec root (repeatable; default: bundled + corpora)")
    ap.add_argument("--runs", type=int, default=5, help="cold checks per root (and per baseline)")
    ap.add_argument("--baseline", type=Path, help="another specgen checkout to run alternately (its top level)")
    args = ap.parse_args(argv)
    from bench.common import as_installed
    as_installed()
    roots = [r.resolve() for r in (args.root or DEFAULT_ROOTS) if r.is_dir()]
    variants: dict[str, Path | None] = {"this": None}
    if args.baseline is not None:
        variants["baseline"] = args.baseline.resolve()
    print(f"cold specgen check (fresh process, empty SPECGEN_CACHE_DIR), {args.runs} runs each; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start\n")
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as tmpdir:
        tmp = Path(tmpdir)
        for root in roots:
            runs: dict[str, list[dict[str, object]]] = {name: [] for name in variants}
            for _ in range(args.runs):
                for name, source in variants.items():
                    runs[name].append(cold_check(root, tmp, source))
            anchor, nfiles = read_hash(root, tmp, args.runs)
            print(f"{root}")
            print(f"  read+hash process ({nfiles} files the check reads): {_s(anchor)}")
            for name, rs in runs.items():
                bad = [r for r in rs if r["error"]]
                if bad:
                    print(f"  {name}: no report ({bad[0]['error']})")
                    continue
                cpus, walls = [float(r["cpu"]) for r in rs], [float(r["wall"]) for r in rs]  # type: ignore[arg-type]
                fastest = min(rs, key=lambda r: float(r["cpu"]))  # type: ignore[arg-type]
                print(f"  {name}: CPU {_s(cpus)} ({min(cpus) / min(anchor):.1f}x read+hash); wall {_s(walls)}; "
                      f"exit {fastest['exit']}; {len(fastest['findings'])} findings")  # type: ignore[arg-type]
                print(f"    stage starts (elapsed) in the fastest run: {'; '.join(fastest['stages'])}")  # type: ignore[arg-type]
            if "baseline" in runs and all(not r["error"] for rs in runs.values() for r in rs):
                same = runs["this"][0]["findings"] == runs["baseline"][0]["findings"]
                print(f"  findings identical to the baseline's: {same}")
            print(f"  load average now {os.getloadavg()[0]:.1f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
