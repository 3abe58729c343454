"""``specgen test [SELECTOR…]``: run a spec tree's AVS tests through the embedded ASL interpreter."""

from __future__ import annotations

import argparse
import json
import os
from typing import TextIO

from .common import root_arg
from .exitcodes import ExitCode

NAME = "test"
HELP = "run AVS tests through the embedded ASL interpreter"


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("selectors", nargs="*", metavar="SELECTOR")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--format", choices=["text", "json", "junit"], default="text")
    p.add_argument("--profile", default="reference")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 every selected test passes, 1 otherwise, 2 nothing to run (problems go to ``out``, as ever)."""
    from ..asl.profiles import PROFILES
    from ..asl.runner import format_junit, format_text, run_tests
    from ..loader import RootError, SpecConfig, load_spec

    root, selectors = args.root, list(args.selectors)
    try:
        spec = load_spec(root)
    except RootError:
        spec = None
    test_root = spec.config.test_root if spec is not None else SpecConfig().test_root
    if spec is None or spec.fs is None or not spec.fs.present(test_root):
        print(f"{root}: no readable {test_root}/ folder under the spec root; "
              "pass --root to a spec tree", file=out)
        return ExitCode.USAGE
    if args.profile not in PROFILES:
        print(f"unknown profile {args.profile!r}; choose one of {', '.join(sorted(PROFILES))}", file=out)
        return ExitCode.USAGE
    report = run_tests(spec, selectors, jobs=max(1, args.jobs), profile=args.profile)
    if not report.results:
        print(f"no test matched {' '.join(selectors) or '(all)'} under {root / test_root}", file=out)
        return ExitCode.USAGE
    if args.format == "json":
        json.dump(report.to_json(), out, indent=1)
        out.write("\n")
    elif args.format == "junit":
        out.write(format_junit(report))
    else:
        out.write(format_text(report, spec))
    return ExitCode.OK if report.ok else ExitCode.FINDINGS
