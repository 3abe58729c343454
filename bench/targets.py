"""Issue 40's targets as bench rows (``python -m bench --only targets``), each beside an anchor of the same run.

The site anchor is the issue's: ``specgen export`` of the tree, then a plain ``mkdocs build`` of that
export (no plugin), which is what a user would otherwise run; its row prints both parts and the ratio
uses their sum. The other anchors: a read+hash process of the files the check reads, a bare interpreter
start (``python -c pass``) for ``specgen run``, the one-release build for the two-release build, and
1 GB for peak memory. Every row is a fresh process from an empty cache; nothing here asserts speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .shards import measured

# one block program with its Tiles, which every release runs to the end (bench/bench_run_cli.py runs it too); a
# program text without Tiles faults at BSTOP, its sources undefined
PROGRAM = Path(__file__).resolve().parent.parent / "spec" / "examples" / "tile" / "elementwise-tile-tile" / \
    "arithmetic" / "TADD" / "s32-wraps.json"


def _spec(argv: list[str], tmp: Path, name: str) -> dict[str, Any]:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp / f"cache-{name}")}
    return measured([sys.executable, "-m", "specgen", *argv], env, tmp / f"{name}.out")


def anchor_export(root: Path, tmp: Path) -> dict[str, Any]:
    """``specgen export`` then ``mkdocs build`` of the export, without the plugin."""
    exp = _spec(["export", "--root", str(root), "--out", str(tmp / "export")], tmp, "export")
    if exp["exit"] != 0:
        return {"na": f"specgen export failed (exit {exp['exit']})"}
    mk = measured([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(tmp / "export" / "mkdocs.yml"),
                   "-d", str(tmp / "export-site")], dict(os.environ), tmp / "mkdocs.out")
    if mk["exit"] != 0:
        return {"na": f"mkdocs build of the export failed (exit {mk['exit']})"}
    pages = sum(1 for _ in (tmp / "export").rglob("*.md"))
    return {"wall": exp["wall"] + mk["wall"], "cpu": exp["cpu"] + mk["cpu"], "export_s": exp["wall"],
            "mkdocs_s": mk["wall"], "rss_mb": max(exp["rss_mb"], mk["rss_mb"]), "pages": pages}


def cold_serve(root: Path, tmp: Path) -> dict[str, Any]:
    """``specgen serve`` from an empty cache: seconds until the first instruction page answers (issue 38:
    results fill in after it, "running"), then the server is stopped."""
    from .serve_loop import free_port, start, stop_server, targets, wait_for
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp / "cache-serve")}
    try:
        page = targets(root, "TMUL", "ExecuteTileBinary")[0].page
    except (StopIteration, LookupError):
        return {"na": "no TMUL unit in this tree"}
    server = start("specgen", root, tmp, free_port(None), env)
    try:
        return {"wall": wait_for(server, server.url(page), "TMUL", 1800)}
    except RuntimeError as e:
        return {"na": str(e).splitlines()[0]}
    finally:
        stop_server(server)


def _interpreter_start() -> dict[str, Any]:
    walls = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        walls.append(time.perf_counter() - t)
    return {"wall": min(walls)}


def rows(root: Path, previous: Path | None, tmp: Path, table: Any) -> None:
    """Add every target row to ``table`` (a ``bench.__main__.Table``)."""
    from .common import fmt_s, run_stage
    anchor = anchor_export(root, tmp)
    table.add("anchor: specgen export + plain mkdocs build (no plugin)", anchor,
              note="" if "na" in anchor else f"{anchor['pages']} Markdown pages; export {fmt_s(anchor['export_s'])}, "
                                              f"mkdocs build {fmt_s(anchor['mkdocs_s'])}; CPU {fmt_s(anchor['cpu'])}")
    serve = cold_serve(root, tmp)
    table.add("cold specgen serve: the first page answers", serve, "export+mkdocs anchor", anchor,
              "results fill in after it; issue 38 target <= 1.2x")
    files = tmp / "check-files.json"
    run_stage("check", root=str(root), files_out=str(files), cache_dir=str(tmp / "cache-files"))
    rh = run_stage("anchor_hash_process", root=str(root), files=str(files), repeat=5)
    cold = run_stage("check_cold_cli", root=str(root), tmp=str(tmp / "cold-cli"), repeat=3)
    table.add("cold specgen check process", cold, "read+hash process", rh,
              f"fastest of 3, CPU {fmt_s(cold.get('child_cpu_s'))}; target <= 5x")
    run = _spec(["run", "--root", str(root), str(PROGRAM)], tmp, "run")
    table.add("specgen run, one block program, cold", run, "python -c pass", _interpreter_start(),
              f"CPU {fmt_s(run['cpu'])}; exit {run['exit']}; target <= 2 s wall")
    suite = run_stage("avs_suite", root=str(root), tmp=str(tmp / "avs"), jobs=2)
    table.add("specgen test --jobs 2, cold (the suite)", suite, "export+mkdocs anchor", anchor,
              "" if "na" in suite else f"{suite.get('statuses')}; CPU {fmt_s(suite.get('child_cpu_s'))}; "
                                          "target <= 0.15x")
    cold_build = _spec(["build", "--root", str(root), "--out", str(tmp / "site"), "--jobs", "2"], tmp, "build")
    table.add("cold specgen build with the suite", cold_build, "export+mkdocs anchor", anchor,
              f"CPU {fmt_s(cold_build['cpu'])}; target <= 1.0x")
    # ru_maxrss is KiB, so rss_mb is MiB; "1 GB" is read as 1,000 MiB, and the note gives decimal bytes too
    table.rows.append(("  peak memory of that build", "", f"{cold_build['rss_mb']:.0f} MiB", "1 GB (1000 MiB)",
                       f"{cold_build['rss_mb'] / 1000:.2f}x",
                       f"largest process (os.wait4); {cold_build['rss_mb'] * 1.048576 / 1000:.2f} x 10^9 bytes; "
                       "target <= 1.0x"))
    if previous is not None and previous.is_dir():
        both = _spec(["build", "--root", str(previous), "--root", str(root), "--out", str(tmp / "site2"),
                      "--jobs", "2"], tmp, "build2")
        table.add("two-release build (previous + this), cold", both, "one release", cold_build,
                  f"CPU {fmt_s(both['cpu'])} (ratio of CPU {both['cpu'] / max(cold_build['cpu'], 1e-9):.2f}x); "
                  f"peak RSS {both['rss_mb']:.0f} MiB; target <= 1.6x")
