"""``specgen validate``: load and validate every record; print counts and every finding."""

from __future__ import annotations

import argparse
import json
import time
from typing import TextIO

from ..diagnostics import Severity
from .common import load, printable, root_arg
from .exitcodes import ExitCode

NAME = "validate"
HELP = "load and validate every record of a spec tree"
DESCRIPTION = 'Load every record of a spec tree into the validated models and report each malformed file at its line.'
EPILOG = """examples:
  specgen validate --root path/to/spec
  specgen validate --root path/to/spec --format json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """1 when any record or ASL unit has an error, so CI can gate on a tree that does not load cleanly."""
    t0 = time.perf_counter()
    spec = load(args.root)
    from ..asl.static import asl_findings, test_syntax_findings  # lazy: parses the ASL (cached by content)
    findings = sorted(set(spec.findings) | set(asl_findings(spec)) | set(test_syntax_findings(spec)),
                      key=lambda f: f.sort_key)
    elapsed = time.perf_counter() - t0
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if args.format == "json":
        json.dump({"root": str(args.root), "counts": spec.counts(),
                   "errors": len(errors), "findings": [f.to_json() for f in findings]},
                  out, indent=2, sort_keys=True)
        out.write("\n")
    else:
        for f in findings:
            print(printable(f.format()), file=out)
        counts = spec.counts()
        print(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items()), file=out)
        print(f"{len(errors)} error(s), {len(findings) - len(errors)} other finding(s) "
              f"in {elapsed:.2f} s", file=out)
    return ExitCode.FINDINGS if errors else ExitCode.OK
