"""``specgen diff OLD NEW``: the instructions a release adds, removes and changes, and what changed in each."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from .common import load, printable
from .exitcodes import ExitCode

NAME = "diff"
HELP = "what changed between two releases of a spec, instruction by instruction"
DESCRIPTION = 'Compare two releases of a spec instruction by instruction: added, removed and changed records.'
EPILOG = """examples:
  specgen diff spec-0.58.0 spec-0.58.3
  specgen diff spec-0.58.0 spec-0.58.3 --format markdown > CHANGES.md
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", type=Path, help="root of the older release")
    p.add_argument("new", type=Path, help="root of the newer release")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text",
                   help="output format (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 whatever the differences: a diff reports, it does not judge (a root that does not load is 2)."""
    from ..diff import format_markdown, format_text, spec_diff
    from ..graph import SpecGraph
    old, new = Path(args.old), Path(args.new)
    d = spec_diff(SpecGraph.build(load(old, err)), SpecGraph.build(load(new, err)), str(old), str(new))
    if args.format == "json":
        out.write(json.dumps(d.to_json(), indent=2) + "\n")
        return ExitCode.OK
    text = format_markdown(d) if args.format == "markdown" else format_text(d)
    out.write("\n".join(printable(line) for line in text.split("\n")))  # spec text may carry escapes
    return ExitCode.OK
