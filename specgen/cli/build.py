"""``specgen build``: the documentation site, built atomically in strict mode, with a summary.

Progress goes to stderr (:mod:`specgen.cli.progress`: a bar on a terminal, one line per stage
otherwise, so CI logs stay readable); the summary goes to stdout. A failed build exits 1 with
the previous site untouched (:func:`specgen.site.build.build_site`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from ..site.engine import ENGINES
from .common import UsageError, byte_size_arg, default_root, error_line, jobs_arg, printable
from .exitcodes import ExitCode

COLLECT = True  # runs long or runs spec code without bound: keep the cyclic collector (see specgen.cli)
NAME = "build"
HELP = "build the documentation site"
DESCRIPTION = 'Build the mkdocs documentation site of one spec tree, or of several releases with a release switcher.'
EPILOG = """examples:
  specgen build --root path/to/spec --out build/site
  specgen build --root spec-0.58.0 --root spec-0.58.3 --out site
  specgen build --config my-project/mkdocs.yml --out my-project/site
  specgen build --root path/to/spec --engine properdocs      # ProperDocs, the maintained MkDocs 1.x fork
  specgen build --root path/to/spec --engine zensical        # exported pages, rendered by zensical build
  specgen build --root path/to/spec --skip-tests
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, action="append", default=argparse.SUPPRESS,
                   help="spec tree root (default: with --config, the config's root:; else $SPECGEN_ROOT, else the "
                        "nearest folder from here upward holding a specification.toml; 'sample': the bundled sample "
                        "spec); give one per release for a multi-release site with a release switcher")
    p.add_argument("--out", type=Path, default=Path("build/site"),
                   help="site directory to write (default: %(default)s)")
    p.add_argument("--jobs", type=jobs_arg, default="0", metavar="N",
                   help="AVS tests run and pages rendered in parallel (default, and 0: one process per usable core)")
    p.add_argument("--skip-tests", action="store_true",
                   help="a quick build: do not run the AVS suite (test and instruction pages say it was skipped)")
    p.add_argument("--page-budget", type=byte_size_arg, default=None, metavar="SIZE",
                   help="largest generated page body, in bytes or with a unit ('2 MiB'); over it is a warning, "
                        "so the strict build fails (default: the config's page_budget, else the tree's "
                        "[specgen] page_budget_bytes, else 1 MiB)")
    p.add_argument("--config", type=Path, default=None,
                   help="mkdocs.yml to use (default: the repository's); its specgen root: is used unless --root is given")
    p.add_argument("--engine", choices=ENGINES, default="mkdocs",
                   help="what builds the site: mkdocs (the plugin), properdocs (the same plugin under ProperDocs) or "
                        "zensical (the exported project rendered by zensical build; one release) (default: %(default)s)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing, non-empty --out that specgen did not write (never the spec root, "
                        "the config's folder, a checkout's top level or a folder holding one of them)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Build the site into ``--out``; print a summary (exit 1 when the engine stopped, 2 on a missing input)."""
    from ..site.engine import EngineError, ImportedFirst, activate
    engine = getattr(args, "engine", "mkdocs")
    given = getattr(args, "root", None)
    roots = [Path(r) for r in (given if isinstance(given, list) else [given]) if r]
    if not roots and args.config is None:  # the bundled config: $SPECGEN_ROOT or the tree found from here
        roots = [default_root()]
    if engine == "zensical" and len(roots) > 1:
        raise UsageError("--engine zensical builds one release; a site of several releases needs mkdocs or properdocs")
    try:
        activate(engine)
    except ImportedFirst:
        return _fresh_process(args, roots, out, err)  # an in-process caller imported mkdocs first
    except EngineError as e:
        raise UsageError(str(e)) from e
    from ..outputs import OutputRefused
    from ..site.prepare import BuildFailed
    from .progress import Progress
    out_dir = Path(args.out or "build/site")
    notice = lambda line: print(f"specgen build: {line}", file=err, flush=True)  # noqa: E731
    jobs = max(1, int(args.jobs or 1))
    force = bool(getattr(args, "force", False))
    run_tests = not getattr(args, "skip_tests", False)
    progress = None
    try:
        if engine == "zensical":  # no mkdocs in this process: the export and Zensical's own CLI
            from ..site import zensical
            progress = Progress(err, NAME, zensical.STAGES)
            result = zensical.build_site(roots[0] if roots else None, out_dir, _config(args.config), jobs=jobs,
                                         progress=progress, notice=notice, force=force,
                                         page_budget=getattr(args, "page_budget", None), run_tests=run_tests)
        else:
            from ..site.build import STAGES, build_site  # mkdocs (or ProperDocs) and the loader: only a build pays
            from ..site.inputs import SiteInputError
            progress = Progress(err, NAME, STAGES)
            try:
                result = build_site(roots[0] if roots else None, out_dir, _config(args.config), jobs=jobs,
                                    progress=progress, releases=roots if len(roots) > 1 else (), notice=notice,
                                    page_budget=getattr(args, "page_budget", None), force=force,
                                    run_tests=run_tests)
            except SiteInputError as e:
                raise UsageError(str(e)) from e
    except OutputRefused as e:  # one line naming both paths, nothing built, nothing removed
        if progress is not None:
            progress.finish()
        print(printable(str(e)), file=err)
        return ExitCode.USAGE
    except BuildFailed as e:
        progress.finish()
        print(error_line(NAME, f"the build failed: {e}", bool(getattr(args, "color_err", False))), file=err)
        for r in e.warnings[:20]:  # may quote spec text: one line each
            print(printable(f"  {r.levelname.lower()}: {r.getMessage()}"), file=err)
        return ExitCode.FINDINGS
    progress.finish()
    stats = result.stats
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(stats.kinds.items()))
    size, largest = stats.largest
    releases = f" for releases {', '.join(stats.releases)}" if stats.releases else ""
    by = f" with {engine}" if engine != "mkdocs" else ""
    print(printable(f"built {stats.pages} generated pages ({kinds}){releases}{by} into {result.out_dir}"), file=out)
    print(printable(f"rendered {stats.rendered}, load {stats.load_s:.1f} s, examples {stats.examples_s:.1f} s, "
                    f"tests {stats.tests_s:.1f} s, render {stats.render_s:.1f} s, total {result.elapsed:.1f} s; "
                    f"largest page body {size / 1024:.0f} KiB ({largest}); warnings: {len(result.warnings)}"), file=out)
    for line in stats.worked:
        print(printable(f"{line}, {stats.worked_s:.1f} s"), file=out)
    for line in stats.tests + stats.not_rendered:
        print(printable(line), file=out)
    return ExitCode.OK


def _config(given: Path | None) -> Path:
    """``--config``, else the bundled mkdocs.yml; a missing file is a usage error before anything is built."""
    from ..bundled import BundledMissing, mkdocs_config
    try:
        config = Path(given) if given is not None else mkdocs_config()
    except BundledMissing as e:
        raise UsageError(str(e)) from e
    if not config.is_file():
        raise UsageError(f"no mkdocs config at {config}")
    return config


def _fresh_process(args: argparse.Namespace, roots: list[Path], out: TextIO, err: TextIO) -> int:
    """The same build in a new interpreter, where ProperDocs can be chosen before mkdocs is imported."""
    import subprocess
    import sys
    argv = [sys.executable, "-m", "specgen", "build", "--engine", str(getattr(args, "engine", "mkdocs")), "--out", str(args.out),
            "--jobs", str(args.jobs)]
    argv += [a for r in roots for a in ("--root", str(r))]
    argv += ["--config", str(args.config)] if args.config else []
    argv += ["--force"] if getattr(args, "force", False) else []
    argv += ["--skip-tests"] if getattr(args, "skip_tests", False) else []
    budget = getattr(args, "page_budget", None)
    argv += ["--page-budget", str(budget)] if budget is not None else []
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    out.write(proc.stdout)
    err.write(proc.stderr)
    return proc.returncode
