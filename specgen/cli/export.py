"""``specgen export``: the site as a plain docs project (pages, navigation, assets) for engines without plugins.

The project builds with ``zensical build -f OUT/mkdocs.yml`` (and with ``mkdocs build``); see
:mod:`specgen.site.export` and docs-internal/site.md, "Engines". Nothing here imports mkdocs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .common import UsageError, byte_size_arg, jobs_arg
from .exitcodes import ExitCode

COLLECT = True  # runs the spec's examples: keep the cyclic collector (see specgen.cli)
NAME = "export"
HELP = "write the site as a docs project for Zensical (no plugin needed)"
DESCRIPTION = ("Render every page of one spec tree and write them, with the navigation the plugin would supply and "
               "specgen's assets, as a docs folder and a mkdocs.yml that zensical build (or mkdocs build) renders "
               "without any plugin.")
EPILOG = """examples:
  specgen export --root path/to/spec --out site-src && zensical build -f site-src/mkdocs.yml
  specgen export --config my-project/mkdocs.yml --out site-src
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=argparse.SUPPRESS,
                   help="spec tree root (default: with --config, the config's root:; else $SPECGEN_ROOT, else the "
                        "nearest folder from here upward holding a specification.toml; 'sample': the bundled sample "
                        "spec)")
    p.add_argument("--out", type=Path, default=Path("build/export"),
                   help="project folder to write: new, empty or an earlier export (default: %(default)s)")
    p.add_argument("--config", type=Path, default=None,
                   help="mkdocs.yml whose theme, site name, hand pages and specgen plugin keys to use "
                        "(default: the bundled one)")
    p.add_argument("--jobs", type=jobs_arg, default="0", metavar="N",
                   help="pages rendered in parallel (default, and 0: one process per usable core)")
    p.add_argument("--page-budget", type=byte_size_arg, default=None, metavar="SIZE",
                   help="largest generated page body, in bytes or with a unit ('2 MiB'); a page over it stops the "
                        "export (default: the config's page_budget, else the tree's [specgen] page_budget_bytes, "
                        "else 1 MiB)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 written, 1 the spec cannot be built into a site, 2 a bad config, root or output folder."""
    from ..bundled import BundledMissing, mkdocs_config
    from ..site.export import ExportError, TargetError, export, read_settings
    from .common import CommandFailed, default_root
    from .progress import Progress

    given = getattr(args, "root", None)
    root = Path(given) if given else (None if args.config else default_root())
    try:
        config = Path(args.config) if args.config else mkdocs_config()
    except BundledMissing as e:
        raise UsageError(str(e)) from e
    if not config.is_file():
        raise UsageError(f"no mkdocs config at {config}")
    try:
        settings = read_settings(config, root).with_budget(getattr(args, "page_budget", None))
    except ExportError as e:
        raise UsageError(str(e)) from e
    if not settings.root.is_dir():
        raise UsageError(f"spec root {settings.root} is not a directory")
    progress = Progress(err, NAME, ("load", "examples", "render", "write"))
    try:
        result = export(settings, Path(args.out), max(1, int(args.jobs or 1)), progress)
    except TargetError as e:
        raise UsageError(str(e)) from e
    except ExportError as e:  # the spec cannot be built into a site (the build fails the same way)
        progress.finish()
        raise CommandFailed(str(e)) from e
    progress.finish()
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(result.kinds.items()))
    print(f"exported {result.pages} generated pages ({kinds}) into {args.out}; "
          f"build it with: zensical build -f {Path(args.out) / 'mkdocs.yml'}", file=out)
    for line in result.stats.not_rendered:
        print(line, file=out)
    return ExitCode.OK
