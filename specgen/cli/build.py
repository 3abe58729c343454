"""``specgen build``: build the documentation site, atomically and strict (see :mod:`specgen.site`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from .common import root_arg

NAME = "build"
HELP = "build the documentation site"


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("--out", type=Path, default=Path("build/site"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--config", type=Path, default=None, help="mkdocs.yml to use")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The site build prints its own summary and errors; mkdocs is imported only here."""
    from ..site import cmd_build
    return cmd_build(args, out, err)
