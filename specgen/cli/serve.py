"""``specgen serve``: the site with live reload on spec edits (see :mod:`specgen.site`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .common import root_arg

NAME = "serve"
HELP = "serve the site with live reload on spec edits"


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("--dev-addr", default="127.0.0.1:8000")
    p.add_argument("--config", type=Path, default=None)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Runs until interrupted; mkdocs is imported only here."""
    from ..site import cmd_serve
    return cmd_serve(args, out, err)
