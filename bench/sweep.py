"""The upstream history sweep: specgen on trees of the spec's public history that no one here has run.

    nice -n 10 .venv/bin/python -m bench.sweep [--repo /work/.mirror/PTO-ISA+pto-spec/repo] [--every 20]
        [--jobs 1] [--max-trees 12] [--aslref-max 2] [--markdown]

Every tag, every branch head (``refs/heads``) and every ``--every``-th commit of ``main``'s first-parent
history (oldest first, deduplicated by commit) is exported with ``git archive`` from a local bare copy of
the repository into a temporary folder and measured in a fresh process: ``specgen check``'s errors by
rule, the AVS suite's passed / failed (failed + error) / not-derivable, the worked examples n/m, and the
seconds taken. Where a test fails, ASLRef (``/work/shared/aslref/run-avs``) runs at most
``--aslref-max`` of the failing tests of that tree and its verdict is printed beside them: a failure
ASLRef shares is the tree's own; one it does not is specgen's bug.

Why a sweep and not a test: each tree costs minutes, and the trees are the input being measured, not a
fixture (issue 39, item 2). Nothing here asserts; it prints one table (``--markdown``: the one
docs-internal/formats.md holds).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MIRROR = Path("/work/.mirror/PTO-ISA+pto-spec/repo")
RUN_AVS = next((p for p in (REPO.parent / "shared" / "aslref" / "run-avs", Path("/work/shared/aslref/run-avs"))
                if p.is_file()), REPO.parent / "shared" / "aslref" / "run-avs")
ASLREF_SECONDS_PER_TEST = 300  # the slowest test of 0.58.3 takes 260 s alone


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={repo}", *args], capture_output=True, text=True,
                          check=True).stdout


def trees(repo: Path, every: int, main: str = "main") -> list[tuple[str, str]]:
    """(label, commit) of every tag, every branch head and every ``every``-th first-parent commit of main."""
    out: dict[str, str] = {}
    for line in git(repo, "for-each-ref", "--format=%(objectname) %(refname)", "refs/tags", "refs/heads").splitlines():
        sha, ref = line.split(" ", 1)
        sha = git(repo, "rev-parse", f"{sha}^{{commit}}").strip()
        label = ref.removeprefix("refs/tags/").removeprefix("refs/heads/")
        out.setdefault(sha, label)
    history = git(repo, "rev-list", "--first-parent", "--reverse", main).split()
    for i, sha in enumerate(history):
        if every and i % every == 0:
            out.setdefault(sha, f"{main}~{len(history) - 1 - i}")
    dated = [(int(git(repo, "log", "-1", "--format=%ct", sha).strip()), label, sha) for sha, label in out.items()]
    return [(label, sha) for _, label, sha in sorted(dated)]


def export(repo: Path, sha: str, into: Path) -> tuple[Path, list[str]]:
    """The tree of ``sha`` in ``into``, and the paths whose contents the copy lacks (a partial mirror leaves
    its largest files out: they are left out of the export, as a release extract lacks them)."""
    into.mkdir(parents=True, exist_ok=True)
    listing = git(repo, "ls-tree", "-r", sha).splitlines()
    blobs = [(line.split()[2], line.split("\t", 1)[1]) for line in listing if line.split()[1] == "blob"]
    check = subprocess.run(["git", f"--git-dir={repo}", "cat-file", "--batch-check"], input="\n".join(
        b for b, _ in blobs) + "\n", capture_output=True, text=True).stdout.splitlines()
    missing = [path for (_b, path), line in zip(blobs, check) if line.endswith(" missing")]
    archive = subprocess.Popen(["git", f"--git-dir={repo}", "archive", sha, "--", ".",
                                *(f":(exclude){p}" for p in missing)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    archive.wait()
    return into, missing


def child(root: Path, jobs: int) -> dict[str, Any]:
    """One tree, measured in this (fresh) process."""
    from specgen.asl.runner import run_tests
    from specgen.check import run_checks
    from specgen.diagnostics import Severity
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    from specgen.worked.generator import Generator
    t0 = time.perf_counter()
    graph = SpecGraph.build(load_spec(root))
    t_load = time.perf_counter()
    findings, _ = run_checks(graph)
    errors = Counter(f.rule for f in findings if f.severity is Severity.ERROR)
    t_check = time.perf_counter()
    report = run_tests(graph.spec, [], jobs=jobs)
    failing = [r.path for r in report.results if r.status in ("failed", "error")]
    t_tests = time.perf_counter()
    suite = Generator(graph).run(save=False)
    t_worked = time.perf_counter()
    return {"errors": dict(sorted(errors.items())), "passed": report.count("passed"),
            "failed": len(failing), "not_derivable": report.count("not-derivable"), "failing": failing,
            "failing_detail": [f"{r.path}: {r.message[:160]}" for r in report.results
                               if r.status in ("failed", "error")][:20],
            "worked": [suite.executed, suite.total + len(suite.pending)], "worked_summary": suite.summary(),
            "seconds": {"load": t_load - t0, "check": t_check - t_load, "tests": t_tests - t_check,
                        "worked": t_worked - t_tests, "total": t_worked - t0}}


def measure(root: Path, jobs: int, cache: Path) -> dict[str, Any]:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-m", "bench.sweep", "--child", str(root), "--jobs", str(jobs)],
                       cwd=REPO, env=env, capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("BENCH-RESULT "):
            return json.loads(line.removeprefix("BENCH-RESULT "))  # type: ignore[no-any-return]
    tail = (r.stderr or r.stdout).strip().splitlines()[-3:] or ["no output"]
    return {"na": f"exit {r.returncode}: {' | '.join(tail)[:300]}"}


def aslref(root: Path, paths: list[str]) -> dict[str, str]:
    """ASLRef's verdict (PASS / FAIL / MISSING / timeout) on each of ``paths``."""
    if not paths or not os.access(RUN_AVS, os.X_OK):
        return {p: "ASLRef absent" for p in paths}
    try:
        proc = subprocess.run(["nice", "-n", "10", str(RUN_AVS), str(root), *paths], capture_output=True,
                              text=True, timeout=ASLREF_SECONDS_PER_TEST * (len(paths) + 1))
    except subprocess.TimeoutExpired:
        return {p: "timeout" for p in paths}
    verdicts = {m.group(2): m.group(1) for m in re.finditer(r"^(PASS|FAIL|MISSING) (\S+)", proc.stdout, re.M)}
    # no verdict: the oracle's scripts (one release's) could not assemble this tree; say why, in its words
    why = (proc.stderr.strip().splitlines() or ["no verdict"])[-1][:160]
    return {p: verdicts.get(p, f"no verdict ({why})") for p in paths}


def row(label: str, sha: str, res: dict[str, Any]) -> list[str]:
    if "na" in res:
        return [label, sha[:8], res["na"], "", "", "", ""]
    errors = ", ".join(f"{rule} {n}" for rule, n in res["errors"].items()) or "none"
    done, total = res["worked"]
    worked = f"{done}/{total} ({100.0 * done / total:.1f} %)" if total else res["worked_summary"].split(": ", 1)[-1]
    oracle = "; ".join(f"{Path(p).name}: {v}" for p, v in res.get("aslref", {}).items())
    return [label, sha[:8], errors, f"{res['passed']}/{res['failed']}/{res['not_derivable']}", worked,
            f"{res['seconds']['total']:.0f} s", oracle]


def print_table(rows: list[list[str]], markdown: bool) -> None:
    head = ["tree", "commit", "check errors by rule", "AVS passed/failed/not-derivable", "worked examples",
            "time", "ASLRef on failing tests"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for r in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
        return
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.sweep", description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, default=MIRROR, help="a bare git copy of the spec's repository")
    ap.add_argument("--every", type=int, default=20, help="every Nth first-parent commit of main (0: none)")
    ap.add_argument("--main", default="main")
    ap.add_argument("--jobs", type=int, default=1, help="AVS workers per tree")
    ap.add_argument("--max-trees", type=int, default=0, help="at most this many trees, newest first (0: all)")
    ap.add_argument("--only", action="append", default=[], help="only trees whose label or commit starts so")
    ap.add_argument("--aslref-max", type=int, default=2, help="failing tests per tree handed to ASLRef")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", type=Path, help="also write every result here")
    ap.add_argument("--resume", action="store_true", help="keep the results --json holds; measure only the rest")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print("BENCH-RESULT " + json.dumps(child(a.child, a.jobs)))
        return 0
    chosen = trees(a.repo, a.every, a.main)
    if a.only:
        chosen = [(lab, sha) for lab, sha in chosen if any(lab.startswith(o) or sha.startswith(o) for o in a.only)]
    if a.max_trees:
        chosen = chosen[-a.max_trees:]
    print(f"sweep of {len(chosen)} trees of {a.repo} (every {a.every}th commit of {a.main}, tags, branch heads)",
          file=sys.stderr)
    rows, results = [], {}
    if a.resume and a.json and a.json.is_file():
        results = json.loads(a.json.read_text())
    with tempfile.TemporaryDirectory(prefix="specgen-sweep-") as tmp:
        for label, sha in chosen:
            res = results.get(label)
            if res is None or res.get("commit") != sha:
                root, missing = export(a.repo, sha, Path(tmp) / sha[:12])
                res = measure(root, a.jobs, Path(tmp) / "cache" / sha[:12])
                res["absent_in_mirror"] = missing
                if "na" not in res and res["failing"]:
                    res["aslref"] = aslref(root, res["failing"][:a.aslref_max])
                results[label] = res = {"commit": sha, **res}
                if a.json:
                    a.json.write_text(json.dumps(results, indent=1))
            rows.append(row(label, sha, res))
            print("  ".join(rows[-1]), file=sys.stderr, flush=True)
    print_table(rows, a.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
