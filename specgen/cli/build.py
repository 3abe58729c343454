"""``specgen build``: the documentation site, built atomically in strict mode, with a summary.

Progress goes to stderr (a bar on a terminal, one line per stage otherwise, so
CI logs stay readable); the summary goes to stdout. A failed build exits 1 with
the previous site untouched (:func:`specgen.site.build.build_site`).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import TextIO

from .common import default_root, printable
from .exitcodes import ExitCode

COLLECT = True  # runs long or runs spec code without bound: keep the cyclic collector (see specgen.cli)
NAME = "build"
HELP = "build the documentation site"
DESCRIPTION = 'Build the mkdocs documentation site of one spec tree, or of several releases with a release switcher.'
EPILOG = """examples:
  specgen build --root path/to/spec --out build/site
  specgen build --root spec-0.58.0 --root spec-0.58.3 --out site
  specgen build --config my-project/mkdocs.yml --out my-project/site
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, action="append", default=argparse.SUPPRESS,
                   help="spec tree root (default: the config's root: with --config, else the bundled sample "
                        "spec or $SPECGEN_ROOT); give one per release for a multi-release site with a release switcher")
    p.add_argument("--out", type=Path, default=Path("build/site"),
                   help="site directory to write (default: %(default)s)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="pages rendered in parallel (default: the CPU count)")
    p.add_argument("--page-budget", type=_size, default=None, metavar="SIZE",
                   help="largest generated page body, in bytes or with a unit ('2 MiB'); over it is a warning, "
                        "so the strict build fails (default: the config's page_budget, else the tree's "
                        "[specgen] page_budget_bytes, else 1 MiB)")
    p.add_argument("--config", type=Path, default=None,
                   help="mkdocs.yml to use (default: the repository's); its specgen root: is used unless --root is given")
    p.add_argument("--force", action="store_true",
                   help="replace an existing, non-empty --out that specgen did not write (never the spec root, "
                        "the config's folder, a checkout's top level or a folder holding one of them)")


def _size(text: str) -> int:
    from ..site.options import byte_size
    try:
        return byte_size(int(text) if text.strip().isdigit() else text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


class Progress:
    """A bar on a TTY, one plain line per stage otherwise."""

    def __init__(self, err: TextIO, stages: tuple[str, ...]) -> None:
        self.err = err
        self.stages = stages
        self.tty = bool(getattr(err, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self.done = 0

    def __call__(self, stage: str) -> None:
        stages = self.stages
        self.done = min(len(stages), stages.index(stage) + 1 if stage in stages else self.done + 1)
        elapsed = time.perf_counter() - self.t0
        if self.tty:
            width = 24
            fill = int(width * self.done / len(stages))
            self.err.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {stage:<8} {elapsed:6.1f} s")
            self.err.flush()
        else:
            print(f"specgen build: {stage} ({elapsed:.1f} s)", file=self.err)

    def finish(self) -> None:
        if self.tty:
            self.err.write("\n")
            self.err.flush()


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Build the site into ``--out``; print a summary (exit 1 when mkdocs stopped, 2 on a missing input)."""
    from ..site.build import STAGES, BuildFailed, build_site  # mkdocs and the loader: only a build pays
    from ..outputs import OutputRefused
    from ..site.inputs import SiteInputError, default_config
    progress = Progress(err, STAGES)
    given = getattr(args, "root", None)
    roots = [Path(r) for r in (given if isinstance(given, list) else [given]) if r]
    if not roots and args.config is None:  # the bundled config: the bundled spec, or $SPECGEN_ROOT
        roots = [default_root()]
    try:
        result = build_site(roots[0] if roots else None, Path(args.out or "build/site"),
                            Path(args.config or default_config()), jobs=max(1, int(args.jobs or 1)),
                            progress=progress, releases=roots if len(roots) > 1 else (),
                            notice=lambda line: print(f"specgen build: {line}", file=err, flush=True),
                            page_budget=getattr(args, "page_budget", None),
                            force=bool(getattr(args, "force", False)))
    except OutputRefused as e:  # one line naming both paths, nothing built, nothing removed
        progress.finish()
        print(str(e), file=err)
        return ExitCode.USAGE
    except SiteInputError as e:
        print(printable(f"specgen build: {e}"), file=err)
        return ExitCode.USAGE
    except BuildFailed as e:
        progress.finish()
        print(printable(f"specgen build: failed: {e}"), file=err)  # may quote spec text: one line each
        for r in e.warnings[:20]:
            print(printable(f"  {r.levelname.lower()}: {r.getMessage()}"), file=err)
        return ExitCode.FINDINGS
    progress.finish()
    stats = result.stats
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(stats.get("kinds", {}).items()))
    size, largest = stats.get("largest", (0, ""))
    releases = f" for releases {', '.join(stats['releases'])}" if stats.get("releases") else ""
    print(printable(f"built {stats.get('pages', 0)} generated pages ({kinds}){releases} into {result.out_dir}"),
          file=out)
    print(printable(f"rendered {stats.get('rendered', 0)}, load {stats.get('load_s', 0):.1f} s, "
                    f"examples {stats.get('examples_s', 0):.1f} s, "
                    f"render {stats.get('render_s', 0):.1f} s, total {result.elapsed:.1f} s; "
                    f"largest page body {size / 1024:.0f} KiB ({largest}); warnings: {len(result.warnings)}"),
          file=out)
    for line in stats.get("worked", []):
        print(f"{line}, {stats.get('worked_s', 0):.1f} s", file=out)
    for line in stats.get("not_rendered", []):
        print(printable(line), file=out)
    return ExitCode.OK
