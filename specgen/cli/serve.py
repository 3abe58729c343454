"""``specgen serve``: mkdocs' dev server with the plugin; spec, template and page edits rebuild and reload.

Dirty builds, and a spec edit re-templates only the pages it changed
(:mod:`specgen.site.serve`; docs-internal/site.md, "Serve"). Server messages go
to stderr; interrupting the server is a normal exit.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TextIO

from .common import CommandFailed, UsageError, default_root
from .exitcodes import ExitCode

COLLECT = True  # runs long or runs spec code without bound: keep the cyclic collector (see specgen.cli)
NAME = "serve"
HELP = "serve the site with live reload on spec edits"
DESCRIPTION = 'Serve the documentation site locally and rebuild it when a spec file changes.'
EPILOG = """examples:
  specgen serve --root path/to/spec
  specgen serve --root path/to/spec --dev-addr 0.0.0.0:8080
  specgen serve --config my-project/mkdocs.yml
  specgen serve --root path/to/spec --engine properdocs
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=argparse.SUPPRESS,
                   help="spec tree root (default: with --config, the config's root:; else $SPECGEN_ROOT, else the "
                        "nearest folder from here upward holding a specification.toml; 'sample': the bundled sample "
                        "spec)")
    p.add_argument("--dev-addr", default="127.0.0.1:8000", help="HOST:PORT to listen on (default: %(default)s)")
    p.add_argument("--config", type=Path, default=None, help="mkdocs.yml to use")
    p.add_argument("--engine", choices=("mkdocs", "properdocs"), default="mkdocs",
                   help="mkdocs, or properdocs (the maintained MkDocs 1.x fork, same plugin); Zensical runs no "
                        "plugin, so it serves an export: zensical serve -f OUT/mkdocs.yml (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Serve until interrupted (exit 0); 2 on a missing root or config, 1 when the server fails."""
    from ..site.engine import EngineError, activate
    try:
        activate(getattr(args, "engine", "mkdocs"))
    except EngineError as e:  # includes mkdocs imported first by an in-process caller
        raise UsageError(str(e)) from e
    from ..site.inputs import SiteInputError, default_config  # mkdocs: only serve pays
    from ..site.serve_server import serve
    from ..site.engine import logger
    mk_log = logger()
    try:
        given = getattr(args, "root", None)
        root = Path(given) if given else (None if args.config else default_root())
        config_file = Path(args.config or default_config())
        mk_log.setLevel(logging.INFO)
        if not mk_log.handlers:
            mk_log.addHandler(logging.StreamHandler(err))
        serve(config_file, args.dev_addr or None, root)
    except SiteInputError as e:
        raise UsageError(str(e)) from e
    except KeyboardInterrupt:
        return ExitCode.OK
    except UsageError:  # no tree found (default_root): exit 2, as every command
        raise
    except Exception as e:
        raise CommandFailed(f"{type(e).__name__}: {e}") from e
    return ExitCode.OK
