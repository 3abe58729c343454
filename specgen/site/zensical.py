"""``specgen build --engine zensical``: export the project, let ``zensical build`` render it, publish the site.

The export (:mod:`specgen.site.export`) goes into a scratch folder beside the output; Zensical builds it
in a child process (``python -m zensical build``: its own CLI, nothing of it is imported here) into the
scratch project's ``site/``; the finished site is moved into the output's own temporary folder and
swapped into place under the output's lock (:mod:`specgen.site.publish`), exactly like a MkDocs build.
A failed export or Zensical run leaves the previous site untouched and says why (the tail of
Zensical's own output). Nothing here imports mkdocs.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ..outputs import check_site_dir, write_marker
from . import notfound
from .export import ExportError, ExportSettings, export, output_inputs, read_settings
from .prepare import BuildFailed, BuildResult, Progress
from .publish import Notice, PublishError, claim, describe, swap_in
from .stats import BuildStats

STAGES = ("config", "load", "examples", "tests", "render", "write", "zensical", "swap")
TIMEOUT_S = 7200  # 0.58.3's site: ~1,700 s of zensical build at load 11-15 on 2 cores (docs-internal/site.md)


def available() -> bool:
    return importlib.util.find_spec("zensical") is not None


def build_site(root: Path | None, out_dir: Path, config_file: Path, jobs: int = 1,
               progress: Progress | None = None, notice: Notice | None = None, force: bool = False,
               page_budget: int | None = None, run_tests: bool = True) -> BuildResult:
    """Build ``out_dir`` atomically with Zensical from ``root`` (None: the config's ``root:``).

    ``out_dir`` obeys the same output-safety rule as every build (:mod:`specgen.outputs`; ``force`` lifts
    only the ownership rule): :class:`~specgen.outputs.OutputRefused` before anything is built.
    ``page_budget`` (bytes) overrides the config's ``page_budget``; a page over the budget fails the build."""
    stage = progress or (lambda name: None)
    stage("config")
    if not available():
        raise BuildFailed("Zensical is not installed (pip install zensical)", [])
    try:
        settings = read_settings(config_file, root).with_budget(page_budget)
        if not run_tests:  # --skip-tests: the pages say the suite was skipped
            settings = replace(settings, run_tests=False)
    except ExportError as e:
        raise BuildFailed(str(e), []) from e
    check_site_dir(out_dir, output_inputs(settings), force=force)
    out_dir = out_dir.resolve()
    t0 = time.perf_counter()
    try:
        with claim(out_dir, notice) as tmp:
            t0 = time.perf_counter()
            scratch = Path(tempfile.mkdtemp(prefix=".specgen-zensical-", dir=out_dir.parent))
            try:
                stats = _export_and_build(settings, scratch / "project", tmp, jobs, stage)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            write_marker(tmp)  # specgen's own: the next build may replace it
            stage("swap")
            swap_in(tmp, out_dir)
    except ExportError as e:
        raise BuildFailed(str(e), []) from e
    except PublishError as e:
        raise BuildFailed(str(e), []) from e
    except OSError as e:
        raise BuildFailed(describe(e, out_dir), []) from e
    return BuildResult(out_dir, stats, time.perf_counter() - t0, [])


def _export_and_build(settings: ExportSettings, project: Path, into: Path, jobs: int,
                      stage: Progress) -> BuildStats:
    result = export(settings, project, jobs, stage)
    stage("zensical")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    try:
        proc = subprocess.run([sys.executable, "-m", "zensical", "build", "-f", str(project / "mkdocs.yml")],
                              cwd=project, capture_output=True, text=True, timeout=TIMEOUT_S, env=env, check=False)
    except subprocess.TimeoutExpired as e:
        raise BuildFailed(f"zensical build did not finish in {TIMEOUT_S} s", []) from e
    output = (proc.stdout + proc.stderr).strip()
    site = project / "site"
    if proc.returncode != 0 or not (site / "index.html").is_file():
        tail = "\n".join(output.splitlines()[-20:])
        raise BuildFailed(f"zensical build exited {proc.returncode}; the previous site is unchanged:\n{tail}", [])
    # the small 404.html of the site root and each language, as under MkDocs (Zensical's own needs /assets/)
    notfound.place(site, list(settings.langs), [], "", None)
    for entry in site.iterdir():  # the claimed folder is empty; a rename per top-level entry
        os.replace(entry, into / entry.name)
    return replace(result.stats, engine_log=[line for line in output.splitlines() if line.strip()][-3:])
