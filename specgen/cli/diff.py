"""``specgen diff OLD NEW``: the instructions a release adds, removes and changes, and what changed in each."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from .common import UsageError, load, output_error, printable
from .exitcodes import ExitCode
from .progress import Progress

NAME = "diff"
HELP = "what changed between two releases of a spec, instruction by instruction"
DESCRIPTION = 'Compare two releases of a spec instruction by instruction: added, removed and changed records.'
EPILOG = """examples:
  specgen diff spec-0.58.0 spec-0.58.3
  specgen diff spec-0.58.0 spec-0.58.3 --format markdown > comment.md   # fits a pull-request comment
  specgen diff spec-0.58.0 spec-0.58.3 --format markdown --details CHANGES.md > comment.md
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", type=Path, help="root of the older release")
    p.add_argument("new", type=Path, help="root of the newer release")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text",
                   help="output format (default: %(default)s)")
    p.add_argument("--max-chars", type=int, default=None, metavar="N",  # None: diff.report's (help loads no models)
                   help="markdown: the summary's size limit in characters (default: what a GitHub comment "
                        "holds, 65536); details that do not fit are left out and counted")
    p.add_argument("--details", type=Path, metavar="FILE",
                   help="markdown: also write the complete report (every instruction's diffs) to FILE")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 whatever the differences: a diff reports, it does not judge (a root that does not load is 2)."""
    from ..diff import release_name, spec_diff
    from ..diff.report import PR_COMMENT_CHARS, format_text, markdown_report
    from ..graph import SpecGraph
    if args.max_chars is None:
        args.max_chars = PR_COMMENT_CHARS
    if args.details is not None and args.format != "markdown":
        err.write("specgen diff: --details needs --format markdown\n")
        return ExitCode.USAGE
    if args.max_chars < 1000:
        err.write("specgen diff: --max-chars must be at least 1000\n")
        return ExitCode.USAGE
    for root in (Path(args.old), Path(args.new)):  # a wrong root is one line, before any progress
        if not root.is_dir():
            raise UsageError(f"spec root {root} does not exist" if not root.exists() else f"{root} is not a directory")
    progress = Progress(err, NAME)
    progress.stage(f"load {args.old}")
    old = SpecGraph.build(load(Path(args.old), err))
    progress.stage(f"load {args.new}")
    new = SpecGraph.build(load(Path(args.new), err))
    names = release_name(old), release_name(new)
    if names[0] == names[1]:  # two commits of one release: their folders (or paths) tell them apart
        a, b = Path(args.old), Path(args.new)
        a_name, b_name = (a.name, b.name) if a.name != b.name else (str(a), str(b))
        names = (f"{names[0]} ({a_name})", f"{names[1]} ({b_name})")
    progress.stage("compare")
    d = spec_diff(old, new, *names, progress=progress.count)
    progress.finish()
    if args.format == "json":
        out.write(json.dumps(d.to_json(), indent=2) + "\n")
        return ExitCode.OK
    if args.details is not None:
        try:
            args.details.write_text(markdown_report(d, None), encoding="utf-8")
        except OSError as e:
            err.write(output_error(e, args.details) + "\n")
            return ExitCode.USAGE
    text = (markdown_report(d, args.max_chars, args.details.name if args.details else None)
            if args.format == "markdown" else format_text(d))
    out.write("\n".join(printable(line) for line in text.split("\n")))  # spec text may carry escapes
    return ExitCode.OK
