"""``specgen schema --out DIR``: write the JSON Schema of every model and of the check report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .common import output_error
from .exitcodes import ExitCode

NAME = "schema"
HELP = "write the JSON Schema of every model"
DESCRIPTION = 'Write the JSON Schema of every record model, for editors and other tools.'
EPILOG = """examples:
  specgen schema --out build/schemas
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="directory to write one schema file per model into")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print each file written, one per line, so a script can pick them up."""
    from ..schema import write_schemas  # the models: pydantic
    try:
        written = write_schemas(args.out)
    except OSError as e:  # an output folder that cannot be made or written: one line, exit 2
        print(output_error(e, args.out), file=err)
        return ExitCode.USAGE
    for path in written:
        print(path, file=out)
    return ExitCode.OK
