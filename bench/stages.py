"""One benchmark stage, run in a fresh process: ``python -m bench.stages STAGE ARGS_JSON``.

Each stage prints one JSON line: wall seconds of the work itself (imports are
timed apart), CPU seconds, peak RSS of this process (``ru_maxrss``) and of
its children, and stage-specific facts. A stage whose code is not there yet
reports ``{"na": "not implemented: …"}`` instead of failing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent


def _rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux: KiB


class NotReady(Exception):
    """The code a stage measures is not there yet."""


def _need(module: str) -> Any:
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise NotReady(f"not implemented: {module} ({e})") from e


# -- anchors ---------------------------------------------------------------------------
def anchor_hash(a: dict[str, Any]) -> dict[str, Any]:
    """Read and SHA-256 the same files the measured stage read, once, in one process."""
    root = Path(a["root"])
    rels = json.loads(Path(a["files"]).read_text())
    t = time.perf_counter()
    n = size = 0
    for rel in rels:
        try:
            with open(root / rel, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        hashlib.sha256(data).hexdigest()
        n += 1
        size += len(data)
    return {"wall": time.perf_counter() - t, "files": n, "bytes": size}


def anchor_json(a: dict[str, Any]) -> dict[str, Any]:
    """``json.loads`` of the same JSON the loader parses: every JSON file and every header payload."""
    root = Path(a["root"])
    texts: list[str] = []
    for p in sorted((root / "spec").rglob("*.json")):
        texts.append(p.read_text(encoding="utf-8"))
    prefixes = ("// PTO-INSTRUCTION: ", "// PTO-UNIT: ", "// PTO-REVIEW: ", "// PTO-STATE: ", "// PTO-TEST: ")
    for sub in ("asl", "tests/asl"):
        for p in sorted((root / sub).rglob("*.asl")):
            for line in p.read_text(encoding="utf-8").split("\n"):
                if line.startswith(prefixes):
                    texts.append(line.split(": ", 1)[1])
    t = time.perf_counter()
    for text in texts:
        json.loads(text)
    return {"wall": time.perf_counter() - t, "documents": len(texts), "chars": sum(map(len, texts))}


# -- loader and check ------------------------------------------------------------------
def _timed_validate() -> Callable[[], float]:
    """Wrap the loader's pydantic entry points to time the model share of a serial load."""
    import specgen.loader as L
    from specgen.loader import adrs, asl_units, avs, jsonrec
    spent = [0.0]
    orig = jsonrec.validate

    def validate(*args: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return orig(*args, **kw)
        finally:
            spent[0] += time.perf_counter() - t

    for mod in (L, adrs, asl_units, avs):
        if getattr(mod, "validate", None) is orig:
            mod.validate = validate  # type: ignore[attr-defined]
    return lambda: spent[0]


def _write_files(spec: Any, a: dict[str, Any]) -> None:
    if a.get("files_out"):
        Path(a["files_out"]).write_text(json.dumps(sorted(spec.files)))


def load(a: dict[str, Any]) -> dict[str, Any]:
    share = _timed_validate() if a.get("jobs") == 1 and not a.get("cache") else None
    from specgen.loader import load_spec
    t = time.perf_counter()
    spec = load_spec(Path(a["root"]), jobs=a.get("jobs"), cache=None if a.get("cache") else False)
    wall = time.perf_counter() - t
    _write_files(spec, a)
    out: dict[str, Any] = {"wall": wall, "counts": spec.counts(), "findings": len(spec.findings)}
    if share is not None:
        out["model_s"] = share()
    return out


def check(a: dict[str, Any]) -> dict[str, Any]:
    """The rules' share of a check with every cache cold (nothing reused): where a miss spends its time."""
    from specgen.check import all_rules, run_checks
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    spent: dict[str, float] = {}

    def timed(rule: Any) -> Any:
        def run(graph: Any) -> Any:
            t = time.perf_counter()
            try:
                return list(rule.check(graph))
            finally:
                spent[rule.id] = spent.get(rule.id, 0.0) + time.perf_counter() - t
        return dataclasses.replace(rule, check=run)

    rules = [timed(r) for r in all_rules() if r.id not in set(a.get("disable", ()))]
    t = time.perf_counter()
    spec = load_spec(Path(a["root"]), jobs=a.get("jobs"), cache=None if a.get("cache") else False)
    t1 = time.perf_counter()
    graph = SpecGraph.build(spec)
    findings, _ = run_checks(graph, rules=rules)
    t2 = time.perf_counter()
    if a.get("files_out") and spec.fs is not None:  # exactly the files a repeat check re-reads and hashes
        Path(a["files_out"]).write_text(json.dumps(sorted(
            arg for (kind, arg), seen in spec.fs.log.items() if kind == "file" and seen is not None)))
    top = sorted(spent.items(), key=lambda kv: -kv[1])[:5]
    return {"wall": t2 - t, "load_s": t1 - t, "rules_s": t2 - t1, "findings": len(findings),
            "top_rules": [[k, round(v, 3)] for k, v in top]}


def _scratch_copy(src: Path, dst: Path) -> None:
    """A writable copy outside the project to edit: the corpus itself stays read-only (no write bits)."""
    shutil.copytree(src, dst)
    for d, dirs, files in os.walk(dst):
        for n in dirs + files:
            os.chmod(os.path.join(d, n), 0o755 if n in dirs else 0o644)


def _cli_check(root: str) -> tuple[float, int, str]:
    import io

    from specgen.cli import main as cli
    out = io.StringIO()
    t = time.perf_counter()
    rc = cli(["check", "--root", root], out=out, err=io.StringIO())
    return time.perf_counter() - t, rc, out.getvalue().rstrip("\n").rsplit("\n", 1)[-1]


def check_edit(a: dict[str, Any]) -> dict[str, Any]:
    """``specgen check`` (in process) on a scratch copy: warmed, then one unit edited, then unchanged.

    The edit is what a commit hook sees: the record and ASL caches hold every other file,
    the whole-result cache misses. The run after it changes nothing and is answered by the
    result cache. Both use the command's own code path (``specgen.cli.main``).
    """
    tmp = Path(a["tmp"])
    root = tmp / "spec"
    if not root.is_dir():
        _scratch_copy(Path(a["root"]), root)
    warm, _, _ = _cli_check(str(root))
    unit = sorted((root / "asl").rglob("*.asl"))[len(a.get("unit", "")) % 7]
    with open(unit, "a", encoding="utf-8") as fh:
        fh.write("// bench: one edited line\n")
    edited, rc_edit, line_edit = _cli_check(str(root))
    same, rc_same, line_same = min(_cli_check(str(root)) for _ in range(3))
    return {"wall": edited, "warmup_s": warm, "unchanged_s": same, "edited": str(unit.relative_to(root)),
            "exit_edit": rc_edit, "exit_same": rc_same, "reused": "reused" in line_same,
            "reused_after_edit": "reused" in line_edit}


def check_cli(a: dict[str, Any]) -> dict[str, Any]:
    """The whole ``specgen check`` process, as a commit hook runs it (interpreter start included)."""
    walls = []
    for _ in range(int(a.get("repeat", 1))):  # a short process: the fastest of a few runs is its cost
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "specgen", "check", "--root", a["root"]],
                           capture_output=True, text=True, env=a.get("env") and {**os.environ, **a["env"]})
        walls.append(time.perf_counter() - t)
    return {"wall": min(walls), "median_s": sorted(walls)[len(walls) // 2], "runs": len(walls),
            "exit": r.returncode, "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN),
            "reused": "reused" in r.stdout.rstrip("\n").rsplit("\n", 1)[-1]}


def check_cold_cli(a: dict[str, Any]) -> dict[str, Any]:
    """``specgen check --no-cache`` as a fresh CI machine runs it: a new empty cache each run."""
    walls, cpus = [], []
    for k in range(int(a.get("repeat", 1))):
        env = {**os.environ, "SPECGEN_CACHE_DIR": str(Path(a["tmp"]) / f"cold-{k}")}
        before = _child_cpu()
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "specgen", "check", "--no-cache", "--root", a["root"]],
                           capture_output=True, text=True, env=env)
        walls.append(time.perf_counter() - t)
        cpus.append(_child_cpu() - before)
    return {"wall": min(walls), "median_s": sorted(walls)[len(walls) // 2], "runs": len(walls),
            "child_cpu_s": min(cpus), "exit": r.returncode, "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN)}


def _child_cpu() -> float:
    """User+system seconds of finished children: on a loaded machine, the wall a quiet one would see."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def avs_suite(a: dict[str, Any]) -> dict[str, Any]:
    """``specgen test --jobs N`` over every AVS test of the tree, from an empty cache."""
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(Path(a["tmp"]) / "avs-cache")}
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "specgen", "test", "--root", a["root"], "--jobs",
                        str(a.get("jobs", 2)), "--format", "json"], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    try:
        summary = json.loads(r.stdout)["summary"]
        summary["child_cpu_s"] = _child_cpu()
    except (ValueError, KeyError) as e:
        raise NotReady(f"no test report (exit {r.returncode}): {(r.stderr or str(e))[-200:]}") from e
    return {"wall": wall, "exit": r.returncode, "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN),
            "child_cpu_s": summary["child_cpu_s"], "statuses": {k: v for k, v in summary.items() if isinstance(v, int) and k != "jobs"}}


def avs_sample(a: dict[str, Any]) -> dict[str, Any]:
    """The interpreter alone: every ``every``-th AVS test of the tree in this process, one interpreter
    (``--jobs 1``'s path), the index and generated ASL already built; "wall" is the CPU seconds of the
    runs (the figure the interpreter's speed-ups are measured by, docs-internal/asl-interpreter.md)."""
    from specgen.asl import runner
    from specgen.asl.catalog_modules import generated_modules
    from specgen.asl.index import build_index
    from specgen.loader import load_spec
    from specgen.memory import FrozenAsItGrows

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    spec = load_spec(Path(a["root"]))
    cases = runner.discover(spec)[::a.get("every", 10)]
    build_index(spec)
    interp = runner._make_interpreter_from(spec, generated_modules(spec), "reference", None, False)
    units = runner._source_paths(spec)
    c = time.process_time()
    # the collector as ``--jobs 1`` runs tests
    with FrozenAsItGrows(runner._FREEZE_EVERY, worth_it=len(cases) >= runner._FREEZE_FROM) as heap:
        results = runner.run_all(interp, cases, units, heap)
    cpu = time.process_time() - c
    statuses: dict[str, int] = {}
    for r, _reads, _hits in results:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    return {"wall": cpu, "tests": len(cases), "per_test_ms": cpu / max(1, len(cases)) * 1000, "statuses": statuses}


_HASH_SCRIPT = """
import hashlib, json, sys
root, rels = sys.argv[1], json.load(open(sys.argv[2]))
for rel in rels:
    try:
        with open(root + "/" + rel, "rb") as fh:
            hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        pass
"""


def anchor_hash_process(a: dict[str, Any]) -> dict[str, Any]:
    """Read+hash as a process of its own (interpreter start included): the anchor for a whole command."""
    walls = []
    for _ in range(int(a.get("repeat", 1))):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", _HASH_SCRIPT, a["root"], a["files"]], check=True)
        walls.append(time.perf_counter() - t)
    return {"wall": min(walls), "median_s": sorted(walls)[len(walls) // 2], "runs": len(walls),
            "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN)}


def encode(a: dict[str, Any]) -> dict[str, Any]:
    _need("specgen.encoding.from_spec")
    from specgen.encoding.from_spec import spec_encodings
    from specgen.encoding.svg import svg
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    graph = SpecGraph.build(load_spec(Path(a["root"])))
    t = time.perf_counter()
    es = spec_encodings(graph)
    t1 = time.perf_counter()
    size = sum(len(svg(e)) for e in es.encodings)
    t2 = time.perf_counter()
    return {"wall": t2 - t, "build_s": t1 - t, "svg_s": t2 - t1, "encodings": len(es.encodings), "svg_bytes": size}


def render(a: dict[str, Any]) -> dict[str, Any]:
    _need("specgen.render")
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    from specgen.render import RenderCache, RenderOptions, render_site
    graph = SpecGraph.build(load_spec(Path(a["root"])))
    t = time.perf_counter()
    pages = render_site(graph, RenderOptions(), RenderCache())
    wall = time.perf_counter() - t
    if a.get("pages_out"):
        Path(a["pages_out"]).write_text(json.dumps([[p.url, p.title, len(p.content)] for p in pages]))
    biggest = max(((len(p.content), p.url) for p in pages), default=(0, ""))
    return {"wall": wall, "pages": len(pages), "largest": list(biggest)}


def build(a: dict[str, Any]) -> dict[str, Any]:
    _need("specgen.site.build")
    out = Path(a["out"])
    t = time.perf_counter()
    roots = [x for r in a.get("roots") or [a["root"]] for x in ("--root", r)]  # several: a multi-release site
    r = subprocess.run([sys.executable, "-m", "specgen", "build", *roots, "--out", str(out)],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise NotReady(f"specgen build failed (exit {r.returncode}): {(r.stderr or r.stdout)[-300:]}")
    pages = sum(1 for _ in out.rglob("*.html"))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return {"wall": wall, "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN), "html_pages": pages,
            "site_bytes": size, "stdout": r.stdout.strip()[-400:]}


def serve_loop(a: dict[str, Any]) -> dict[str, Any]:
    """The author's loop under a real server (``bench/serve_loop.py``): edit, poll the served page until it shows.

    Three edit kinds (NDF prose, the instruction's own ASL, a helper many instructions execute), each
    ``edits`` times; the server is ``specgen serve`` or a plain ``mkdocs serve`` of a project with only
    the plugin line. Also: how many worked examples and AVS tests each edit re-ran (the server's log).
    ``busy``: edits from the moment the first page answers (the suite still running); ``again``: a restart
    with nothing changed; ``memory_edits``: that many more edits with the memory after each.
    """
    from .serve_loop import measure
    import statistics
    res = measure(Path(a["root"]), a.get("server", "specgen"), int(a.get("edits", 3)), None, "TMUL",
                  "ExecuteTileBinary", float(a.get("settle", 6.0)), busy=bool(a.get("busy")),
                  again=bool(a.get("again")), memory_edits=int(a.get("memory_edits", 0)))
    out: dict[str, Any] = {"first_serve_s": res["first_serve_s"], "first_results_s": res["first_results_s"],
                           "dirty_warning": res["dirty_warning"]}
    for extra in ("restart_first_page_s", "memory"):
        if extra in res:
            out[extra] = res[extra]
    for kind, e in res["edits"].items():
        if "error" in e:
            out[kind] = {"median_s": None, "walls": e["walls"], "median_cpu_s": None, "worked_rerun": [],
                         "tests_rerun": [], "error": e["error"][-300:]}
            continue
        worked = [_count(lines, r"worked examples re-ran(?: in the background)?: (\d+)") for lines in e["log"]]
        tests = [_count(lines, r"AVS tests re-ran in the background: (\d+)") for lines in e["log"]]
        out[kind] = {"median_s": e["median_s"], "walls": e["walls"], "median_cpu_s": e["median_cpu_s"],
                     "worked_rerun": worked, "tests_rerun": tests}
    out["wall"] = statistics.median(out["prose"]["walls"]) if out["prose"]["walls"] else 0.0
    return out


def _count(lines: list[str], pattern: str) -> int:
    return sum(int(m.group(1)) for x in lines for m in [re.search(pattern, x)] if m)


def incremental_equals_clean(a: dict[str, Any]) -> dict[str, Any]:
    """One edit of each kind on a copy of the tree, rebuilt as a server does, against a clean build."""
    sys.path.insert(0, str(REPO / "tests"))
    from incremental import EDITS, ServedSite, clean_build, differences  # type: ignore[import-not-found]
    tmp = Path(a["tmp"])
    root = tmp / "spec"
    _scratch_copy(Path(a["root"]), root)
    t = time.perf_counter()
    site = ServedSite(root, tmp / "served")
    site.first()
    done = []
    for k, kind in enumerate(a.get("kinds") or sorted(EDITS)):
        done.append(EDITS[kind](root, k + 1))
        site.rebuild()
        site.settle()
    served = time.perf_counter() - t
    clean_build(root, tmp / "clean", tmp / "clean-cache")
    diff = differences(tmp / "served", tmp / "clean")
    return {"wall": time.perf_counter() - t, "served_s": served, "edits": done, "rebuilds": site.kinds,
            "differences": len(diff), "first_differences": diff[:5]}


def build_twice(a: dict[str, Any]) -> dict[str, Any]:
    """``specgen build`` with the suite from an empty cache, then again with nothing changed."""
    env = {**os.environ, "SPECGEN_CACHE_DIR": a["cache_dir"]}
    walls, outs = [], []
    for _ in range(2):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "specgen", "build", "--root", a["root"], "--out", a["out"],
                            "--jobs", str(a.get("jobs", 2))], capture_output=True, text=True, env=env)
        walls.append(time.perf_counter() - t)
        if r.returncode != 0:
            raise NotReady(f"specgen build failed (exit {r.returncode}): {(r.stderr or r.stdout)[-300:]}")
        outs.append(r.stdout)
    tests = [re.search(r"AVS tests: .*", o) for o in outs]
    return {"wall": walls[0], "unchanged_s": walls[1], "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN),
            "child_cpu_s": _child_cpu(), "tests": [m.group(0) if m else "" for m in tests],
            "worked": [m.group(0) if m else "" for m in (re.search(r"worked examples: .*", o) for o in outs)]}


def anchor_tree_hash(a: dict[str, Any]) -> dict[str, Any]:
    """Read and SHA-256 every file of the tree: what knowing that nothing changed costs at least."""
    root = Path(a["root"])
    t = time.perf_counter()
    n = 0
    for p in sorted(root.rglob("*")):
        if p.is_file():
            hashlib.sha256(p.read_bytes()).hexdigest()
            n += 1
    return {"wall": time.perf_counter() - t, "files": n}


def anchor_mkdocs(a: dict[str, Any]) -> dict[str, Any]:
    """Plain ``mkdocs build``, same theme settings, of as many pre-rendered Markdown pages."""
    import yaml
    pages = json.loads(Path(a["pages"]).read_text())
    tmp = Path(a["tmp"])
    docs = tmp / "docs"
    for rel in ("index.md", "en/index.md", "zh/index.md", "about.md"):
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(f"# {rel}\n\nIndex page.\n")
    para = ("The instruction reads both source tiles element by element and writes the result tile; "
            "every lane is independent and the order of evaluation is not observable. ")
    for url, title, size in pages:
        p = docs / url
        if p.exists():
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        body = [f"# {title}", "", "## Syntax", "", "| field | bits | meaning |", "| --- | --- | --- |"]
        body += [f"| f{i} | {i}:{i} | value {i} |" for i in range(8)]
        n = max(1, int(size * 0.8) // len(para))
        body += ["", "## Description", ""] + [para for _ in range(n)]
        p.write_text("\n".join(body) + "\n", encoding="utf-8")
    repo_cfg = yaml.safe_load((REPO / "mkdocs.yml").read_text()) if (REPO / "mkdocs.yml").is_file() else {}
    theme = dict(repo_cfg.get("theme") or {"name": "material"})
    theme.pop("custom_dir", None)
    cfg = {"site_name": "anchor", "docs_dir": str(docs), "site_dir": str(tmp / "site"),
           "use_directory_urls": repo_cfg.get("use_directory_urls", False), "theme": theme,
           "nav": repo_cfg.get("nav") or ["index.md"],
           "validation": {"nav": {"omitted_files": "ignore"}},
           "markdown_extensions": repo_cfg.get("markdown_extensions", []),
           "plugins": [p for p in repo_cfg.get("plugins", ["search"])
                       if not (isinstance(p, dict) and "specgen" in p)]}
    (tmp / "mkdocs.yml").write_text(yaml.safe_dump(cfg, allow_unicode=True))
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(tmp / "mkdocs.yml")],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise NotReady(f"mkdocs build failed: {r.stderr[-300:]}")
    return {"wall": wall, "child_rss_mb": _rss_mb(resource.RUSAGE_CHILDREN), "pages": len(pages)}


STAGES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "anchor_hash": anchor_hash, "anchor_json": anchor_json, "load": load, "check": check,
    "check_cli": check_cli, "check_cold_cli": check_cold_cli, "avs_suite": avs_suite,
    "avs_sample": avs_sample,
    "check_edit": check_edit, "anchor_hash_process": anchor_hash_process,
    "encode": encode, "render": render, "build": build, "build_twice": build_twice,
    "serve_loop": serve_loop, "incremental_equals_clean": incremental_equals_clean,
    "anchor_tree_hash": anchor_tree_hash, "anchor_mkdocs": anchor_mkdocs,
}


def main(argv: list[str]) -> int:
    t0 = time.perf_counter()
    c0 = time.process_time()
    name, args = argv[0], json.loads(argv[1])
    if args.get("cache_dir"):
        os.environ["SPECGEN_CACHE_DIR"] = args["cache_dir"]
    if args.get("tmp"):
        Path(args["tmp"]).mkdir(parents=True, exist_ok=True)
    try:
        out = STAGES[name](args)
    except NotReady as e:
        out = {"na": str(e)}
    out["cpu"] = time.process_time() - c0
    out["process_s"] = time.perf_counter() - t0
    out["rss_mb"] = _rss_mb(resource.RUSAGE_SELF)
    out.setdefault("child_rss_mb", _rss_mb(resource.RUSAGE_CHILDREN))
    print("BENCH-RESULT " + json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
