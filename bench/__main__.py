"""``python -m bench`` (``make bench``): every stage on the real corpus, beside its physical anchor.

Each stage and each anchor runs in a fresh subprocess (``bench.stages``), so
peak memory is that stage's own ``ru_maxrss``. Ratios compare a stage with the
anchor measured in the same run on the same machine, which is what stays
meaningful on a shared, noisy machine. Nothing here asserts speed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .common import DEFAULT_ROOT, REPO, Table, as_installed, fmt_s, run_stage, slope


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="spec root (default: the shared corpus)")
    ap.add_argument("--skip", action="append", default=[],
                    choices=["site", "scaling", "lighthouse", "parallel", "avs", "worked", "mkdocs-serve", "equal"],
                    help="leave a part out")
    ap.add_argument("--previous", type=Path, default=DEFAULT_ROOT.parent / "pto-spec-0.58.0",
                    help="the release before --root, for the multi-release build (skipped when absent)")
    ap.add_argument("--only", choices=["author-loop", "targets"], default=None,
                    help="author-loop: only the rows of the author's loop (cold build with the suite, nothing-changed "
                         "build, edit -> served page under both servers, incremental equals clean) and their anchors; "
                         "targets: issue 40's targets and issue 38's cold serve beside the export+mkdocs anchor (bench/targets.py)")
    ap.add_argument("--scales", default="1,2,4,8", help="scaling factors (default 1,2,4,8)")
    ap.add_argument("--keep", action="store_true", help="keep the temp directory")
    args = ap.parse_args(argv)
    as_installed()
    root = args.root.resolve()
    if not root.is_dir():
        print(f"bench: spec root {root} not found (use --root)", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="specgen-bench-"))
    try:
        return _run(root, tmp, args)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(root: Path, tmp: Path, args: argparse.Namespace) -> int:
    print(f"specgen benchmark on {root} ({os.cpu_count()} cores)\n")
    t = Table()
    if args.only == "targets":
        from .targets import rows
        rows(root, args.previous.resolve() if args.previous else None, tmp, t)
        t.print()
        return 0
    if args.only == "author-loop":
        pages_file = tmp / "pages.json"
        rend = run_stage("render", root=str(root), pages_out=str(pages_file), cache_dir=str(tmp / "cache"))
        anchor_mk = (run_stage("anchor_mkdocs", pages=str(pages_file), tmp=str(tmp / "anchor-mkdocs"))
                     if "na" not in rend else {"na": "n/a (no page list: render did not run)"})
        t.add("plain mkdocs build of as many pre-rendered pages (anchor)", anchor_mk,
              note=f"{rend.get('pages', '?')} pages")
        _author_loop(root, tmp, args, t, anchor_mk)
        t.print()
        return 0
    cache = str(tmp / "cache")
    load_files, check_files = tmp / "load-files.json", tmp / "check-files.json"
    cold = run_stage("load", root=str(root), jobs=1, files_out=str(load_files), cache_dir=cache)
    hash_load = run_stage("anchor_hash", root=str(root), files=str(load_files)) if "na" not in cold else {"na": "-"}
    anchor_json = run_stage("anchor_json", root=str(root))
    t.add("load+validate (uncached, jobs=1)", cold, "read+hash", hash_load,
          f"counts {cold.get('counts', {}).get('asl_units', '?')} units, {cold.get('counts', {}).get('avs_tests', '?')} tests")
    if "model_s" in cold:
        t.add("  of which pydantic validation", {**cold, "wall": cold["model_s"]}, "json.loads", anchor_json)
    if "parallel" not in args.skip:
        par = run_stage("load", root=str(root), jobs=os.cpu_count(), cache_dir=cache)
        t.add(f"load+validate (uncached, jobs={os.cpu_count()})", par, "read+hash", hash_load)
    run_stage("load", root=str(root), cache=True, cache_dir=cache)  # fills the cache
    warm = run_stage("load", root=str(root), cache=True, cache_dir=cache)
    t.add("load+validate (cached, 2nd run)", warm, "read+hash", hash_load)
    c_cold = run_stage("check", root=str(root), files_out=str(check_files), cache_dir=cache + "-check")
    hash_check = run_stage("anchor_hash", root=str(root), files=str(check_files)) if "na" not in c_cold else hash_load
    t.add("check, every cache cold", c_cold, "read+hash", hash_check, _rules(c_cold))
    edit = run_stage("check_edit", root=str(root), tmp=str(tmp / "check-edit"), cache_dir=cache + "-edit")
    t.add("check, 1 unit edited (caches warm)", edit, "read+hash", hash_check,
          "" if "na" in edit else f"in process; {edit.get('edited')}; result reused: {edit.get('reused_after_edit')}")
    if "na" not in edit:
        t.add("check, nothing changed", {**edit, "wall": edit["unchanged_s"]}, "read+hash", hash_check,
              f"in process; result reused: {edit.get('reused')}")
    run_stage("check_cli", root=str(root), env={"SPECGEN_CACHE_DIR": cache})  # stores the corpus' result
    cli = run_stage("check_cli", root=str(root), env={"SPECGEN_CACHE_DIR": cache}, repeat=5)
    hash_proc = run_stage("anchor_hash_process", root=str(root), files=str(check_files), repeat=5)
    t.add("specgen check process, nothing changed", cli, "read+hash process", hash_proc,
          f"fastest of 5 (medians {fmt_s(cli.get('median_s'))} / {fmt_s(hash_proc.get('median_s'))}); "
          f"interpreter start + imports included; result reused: {cli.get('reused')}")
    cold_cli = run_stage("check_cold_cli", root=str(root), tmp=str(tmp / "cold-cli"), repeat=3)
    t.add("specgen check process, empty cache", cold_cli, "read+hash process", hash_proc,
          f"--no-cache, fresh SPECGEN_CACHE_DIR; fastest of 3 (median {fmt_s(cold_cli.get('median_s'))}, "
          f"CPU {fmt_s(cold_cli.get('child_cpu_s'))}); target 2 s")
    if "avs" in args.skip:
        t.rows.append(("specgen test --jobs 2 (every AVS test)", "skipped (--skip avs)", "", "", "", ""))
    else:
        avs = run_stage("avs_suite", root=str(root), tmp=str(tmp / "avs"), jobs=2)
        t.add("specgen test --jobs 2 (every AVS test)", avs, "read+hash process", hash_proc,
              "" if "na" in avs else f"empty cache; CPU of both workers {fmt_s(avs.get('child_cpu_s'))}; "
                                        f"{avs.get('statuses')}; target 120 s")
        sample = run_stage("avs_sample", root=str(root), cache_dir=cache, every=10)
        t.add("interpreter: every 10th AVS test, one process (CPU)", sample, "read+hash process", hash_proc,
              "" if "na" in sample else f"{sample.get('tests')} tests, {sample.get('per_test_ms', 0):.1f} ms CPU a test "
                                        f"(index and generated ASL built first); {sample.get('statuses')}")
    t.add("encode (+ svg of every encoding)", run_stage("encode", root=str(root), cache_dir=cache))
    pages_file = tmp / "pages.json"
    if "site" in args.skip:
        t.rows.append(("render / build / incremental", "skipped (--skip site)", "", "", "", ""))
    else:
        rend = run_stage("render", root=str(root), pages_out=str(pages_file), cache_dir=cache)
        t.add("render (specgen.render, all pages)", rend, note=f"{rend.get('pages', '?')} pages")
        build = run_stage("build", root=str(root), out=str(tmp / "site"), cache_dir=cache)
        anchor_mk = (run_stage("anchor_mkdocs", pages=str(pages_file), tmp=str(tmp / "anchor-mkdocs"))
                     if pages_file.is_file() else {"na": "n/a (no page list: render did not run)"})
        t.add("full build (specgen build)", build, "plain mkdocs", anchor_mk,
              f"{build.get('html_pages', '?')} html, {build.get('site_bytes', 0) / 2**20:.0f} MiB")
        if args.previous is not None and args.previous.is_dir():
            both = run_stage("build", root=str(root), roots=[str(args.previous.resolve()), str(root)],
                             out=str(tmp / "site-releases"), cache_dir=cache)
            t.add("multi-release build (previous + this release)", both, "this release alone", build,
                  f"{args.previous.name} + {root.name}; the issue's limit is 2.2x")
        _author_loop(root, tmp, args, t, anchor_mk)
    t.print()
    if "worked" not in args.skip:  # the worked examples' cold and warm cost (bench/bench_worked.py)
        print()
        subprocess.run([sys.executable, str(REPO / "bench" / "bench_worked.py"), "--root", str(root)], cwd=REPO)
    if "scaling" not in args.skip:
        print()
        _scaling(root, tmp, [int(x) for x in args.scales.split(",")])
    if "lighthouse" not in args.skip:
        print()
        from .lighthouse import report
        report(tmp / "site", root)
    return 0


def _author_loop(root: Path, tmp: Path, args: argparse.Namespace, t: Table, anchor_mk: dict[str, Any]) -> None:
    """The rows of the author's loop (issue 25): builds with the suite, the served-page latency, incremental==clean."""
    twice = run_stage("build_twice", root=str(root), out=str(tmp / "site-twice"), cache_dir=str(tmp / "cache-twice"))
    t.add("cold build with the AVS suite (empty cache, --jobs 2)", twice, "plain mkdocs", anchor_mk,
          "" if "na" in twice else f"{twice['tests'][0]}; {twice['worked'][0]}")
    tree = run_stage("anchor_tree_hash", root=str(root))
    if "na" not in twice:
        t.add("build, nothing changed", {**twice, "wall": twice["unchanged_s"]}, "read+hash of the tree", tree,
              f"{twice['tests'][1]}; {twice['worked'][1]}")
    servers = ["specgen"] + ([] if "mkdocs-serve" in args.skip else ["mkdocs"])
    for server in servers:
        loop = run_stage("serve_loop", root=str(root), server=server, edits=3, tmp=str(tmp / f"loop-{server}"),
                         cache_dir=str(tmp / f"cache-loop-{server}"))  # cold, as the cold build above
        label = "specgen serve" if server == "specgen" else "mkdocs serve, plugin line only"
        if "na" in loop:
            t.add(f"edit -> served page ({label})", loop)
            continue
        t.rows.append((f"first serve ({label})", fmt_s(loop["first_serve_s"]), "", "", "",
                       f"dirty-build warning: {loop['dirty_warning']}; every test result shown after "
                       f"{fmt_s(loop['first_results_s'])} (the suite runs in the background)"))
        for kind, what in (("prose", "NDF prose line"), ("asl", "the instruction's ASL"),
                           ("helper", "helper ExecuteTileBinary")):
            e = loop[kind]
            if e.get("error"):
                t.add(f"  edit -> served page: {what}", {"na": f"not measured: {e['error'][-120:]}"})
                continue
            t.add(f"  edit -> served page: {what}", {"wall": e["median_s"]}, "read+hash of the tree", tree,
                  note=f"median of {e['walls']}; server CPU median {fmt_s(e['median_cpu_s'])}; worked "
                       f"examples re-ran {e['worked_rerun']}, AVS tests re-ran {e['tests_rerun']}")
    _busy_loop(root, tmp, t, tree)
    if "equal" in args.skip:
        t.rows.append(("incremental equals clean", "skipped (--skip equal)", "", "", "", ""))
    else:
        eq = run_stage("incremental_equals_clean", root=str(root), tmp=str(tmp / "equal"))
        t.add("incremental equals clean (one edit of each kind)", eq,
              note="" if "na" in eq else f"{eq['differences']} files differ from a clean build; edits "
                                          f"{eq['edits']}; rebuilds {eq['rebuilds']}")


def _busy_loop(root: Path, tmp: Path, t: Table, tree: dict[str, Any]) -> None:
    """Issue 38's targets: edits from the moment the first page answers (the suite still running in the background
    pool), a restart with nothing changed, and the memory over 100 more edits (``specgen serve``)."""
    loop = run_stage("serve_loop", root=str(root), server="specgen", edits=3, tmp=str(tmp / "loop-busy"),
                     cache_dir=str(tmp / "cache-loop-busy"), busy=True, again=True, memory_edits=100)
    if "na" in loop:
        t.add("edit while the suite runs (specgen serve)", loop)
        return
    for kind, what, target in (("prose", "NDF prose line", "0.5 s"), ("asl", "the instruction's ASL", "1 s"),
                               ("helper", "helper ExecuteTileBinary", "2 s")):
        e = loop[kind]
        if e.get("error"):
            t.add(f"  edit while the suite runs: {what}", {"na": f"not measured: {e['error'][-120:]}"})
            continue
        t.add(f"  edit while the suite runs: {what}", {"wall": e["median_s"]}, "read+hash of the tree", tree,
              note=f"median of {e['walls']} (the first helper edit included); server CPU median "
                   f"{fmt_s(e['median_cpu_s'])}; target {target}")
    t.rows.append(("restart with nothing changed: first page", fmt_s(loop.get("restart_first_page_s")), "", "",
                   "", "target 5 s"))
    m = loop.get("memory")
    if m:
        t.rows.append((f"memory over {m['edits']} edits (server + workers)", f"{m['last_mb']:.0f} MiB", "", "", "",
                       f"{m['after_10_mb']:.0f} MiB after the 10th edit, {m['growth_from_10th']:+.1%} since; "
                       f"target within 5 %"))


def _rules(res: dict[str, Any]) -> str:
    if "na" in res:
        return ""
    top = ", ".join(f"{k} {fmt_s(v)}" for k, v in res.get("top_rules", [])[:3])
    return f"load {fmt_s(res.get('load_s'))}, rules {fmt_s(res.get('rules_s'))} (top: {top})"


def _scaling(root: Path, tmp: Path, scales: list[int]) -> None:
    from .synth import synthesize
    print("scaling (every cache cold, default jobs; synthetic clones, see bench/synth.py)")
    rows = []
    for n in scales:
        tree = root
        if n > 1:
            tree = tmp / f"synth-{n}"
            synthesize(root, tree, n)
        cold = str(tmp / f"cache-scale-{n}")  # every scale starts from empty caches: like for like
        ld = run_stage("load", root=str(tree), cache_dir=cold)
        ck = run_stage("check", root=str(tree), cache_dir=cold)
        # the clones keep their originals' encodings, so k copies collide pairwise (k^2 findings):
        # the check without that one rule shows how the rest of it grows
        nc = run_stage("check", root=str(tree), cache_dir=cold + "-nc", disable=["encoding-collision"])
        rows.append((n, ld, ck, nc))
        print(f"  {n}x: load {fmt_s(ld.get('wall'))} / {ld.get('rss_mb', 0):.0f} MiB; check {fmt_s(ck.get('wall'))} / "
              f"{ck.get('rss_mb', 0):.0f} MiB, {ck.get('findings', '?')} findings; without encoding-collision "
              f"{fmt_s(nc.get('wall'))} / {nc.get('rss_mb', 0):.0f} MiB, {nc.get('findings', '?')} findings",
              flush=True)
        if tree != root:
            shutil.rmtree(tree, ignore_errors=True)
    ok = [r for r in rows if all("na" not in x for x in r[1:])]
    if len(ok) >= 2:
        xs = [float(r[0]) for r in ok]
        for what, idx in (("load time", 1), ("check time", 2), ("check time without encoding-collision", 3)):
            print(f"  growth exponent, {what}: {slope(xs, [r[idx]['wall'] for r in ok]):.2f}")
        for what, idx in (("load memory", 1), ("check memory", 2)):
            print(f"  growth exponent, {what}: {slope(xs, [r[idx]['rss_mb'] for r in ok]):.2f}")


if __name__ == "__main__":
    sys.exit(main())
