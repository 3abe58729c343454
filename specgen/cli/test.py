"""``specgen test [SELECTOR…]``: run a spec tree's AVS tests through the embedded ASL interpreter."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .common import positive_int, root_arg

from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..loader import Spec

COLLECT = True  # runs long or runs spec code without bound: keep the cyclic collector (see specgen.cli)
NAME = "test"
HELP = "run AVS tests through the embedded ASL interpreter"
DESCRIPTION = "Run the spec's AVS tests through the embedded ASL interpreter and report each result."
EPILOG = """examples:
  specgen test --root path/to/spec
  specgen test --root path/to/spec TMUL --format junit > avs.xml
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("selectors", nargs="*", metavar="SELECTOR",
                   help="test ids, mnemonics or paths to run (default: every test)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="tests run in parallel (default: the CPU count)")
    p.add_argument("--format", choices=["text", "json", "junit"], default="text",
                   help="report format (default: %(default)s)")
    p.add_argument("--profile", default="reference", help="execution profile to run under (default: %(default)s)")
    p.add_argument("--max-steps", type=positive_int, default=None, metavar="N",
                   help="interpreter steps (calls and loop iterations) one test may take "
                        "(default: [specgen] max_steps of specification.toml, else 120000000)")
    p.add_argument("--max-value-bits", type=positive_int, default=None, metavar="N",
                   help="largest bitvector width, integer bit length or array length one test may make "
                        "(default: [specgen] max_value_bits of specification.toml, else 16777216)")
    p.add_argument("--coverage", action="store_true",
                   help="record which ASL statements and functions of the spec the tests run; print a table")
    p.add_argument("--coverage-json", type=Path, default=None, metavar="FILE",
                   help="write the coverage as JSON (implies --coverage)")
    p.add_argument("--lcov", type=Path, default=None, metavar="FILE",
                   help="write the coverage as LCOV tracefile (implies --coverage)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 every selected test passes, 1 otherwise, 2 nothing to run (problems go to ``out``, as ever)."""
    from ..asl.profiles import PROFILES
    from ..asl.runner import format_junit, format_text, run_tests
    from ..loader import UNUSABLE_RULES, RootError, SpecConfig, load_spec
    from .progress import Progress

    root, selectors = args.root, list(args.selectors)
    from ..outputs import OutputRefused, check_report_file
    try:  # the coverage files never overwrite or add a file of the tree the tests come from
        for flag, path in (("--coverage-json", args.coverage_json), ("--lcov", args.lcov)):
            if path:
                check_report_file(path, root, flag=flag)
    except OutputRefused as e:
        print(str(e), file=err)
        return ExitCode.USAGE
    progress = Progress(err, NAME)
    progress.stage("load")
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
    coverage = bool(args.coverage or args.coverage_json or args.lcov)
    progress.stage("run")
    selectors = [_under_test_root(s, Path(root), test_root) for s in selectors]
    report = run_tests(spec, selectors, jobs=max(1, args.jobs), profile=args.profile,
                       max_steps=args.max_steps, coverage=coverage, progress=progress.count,
                       max_value_bits=args.max_value_bits)
    progress.finish()
    # a unit or test whose bytes were not usable as written ran as replaced text (or not at all):
    # say so, at its file and line, and fail the run whatever the verdicts
    asl_roots = tuple(r.rstrip("/") + "/" for r in (*spec.config.source_roots, test_root))
    unusable = [f for f in spec.findings if f.rule in UNUSABLE_RULES and f.path.startswith(asl_roots)]
    for f in unusable:
        print(f.format(), file=out if args.format == "text" else err)
    if not report.results:
        print(f"no test matched {' '.join(selectors) or '(all)'} under {root / test_root}", file=out)
        return ExitCode.USAGE
    from ..render.kinds.avs import store_results  # the site's test pages show the last result of this content
    store_results(spec, report.results, args.profile, args.max_steps, args.max_value_bits)
    if args.format == "json":
        json.dump(report.to_json(), out, indent=1)
        out.write("\n")
    elif args.format == "junit":
        out.write(format_junit(report))
    else:
        out.write(format_text(report, spec))
    if coverage:
        _write_coverage(spec, report.coverage or set(), args, out)
    return ExitCode.OK if report.ok and not unusable else ExitCode.FINDINGS


def _write_coverage(spec: "Spec", hits: set, args: argparse.Namespace, out: TextIO) -> None:
    """The table (text format: after the results; JSON/JUnit keep stdout machine-readable),
    the files asked for, and the copy the site reads (see docs-internal/asl-interpreter.md)."""
    from ..asl.coverage import format_table, measure, store, to_json, to_lcov

    cov = measure(spec, hits, args.profile, args.max_steps, args.max_value_bits)
    if args.format == "text":
        out.write(format_table(cov))
    if args.coverage_json:
        args.coverage_json.write_text(json.dumps(to_json(cov), indent=1) + "\n", encoding="utf-8")
    if args.lcov:
        args.lcov.write_text(to_lcov(cov), encoding="utf-8")
    store(spec, cov)


def _under_test_root(selector: str, root: Path, test_root: str) -> str:
    """A selector typed as a file path (absolute, from the working directory, or from the spec root) as the
    path under the test root that tests are matched by; anything else as typed. Pure path arithmetic: the
    tree is read only by the loader."""
    base = os.path.abspath(os.path.join(root, test_root))
    for cand in (os.path.abspath(selector), os.path.abspath(os.path.join(root, selector))):
        if cand.startswith(base + os.sep):
            return cand[len(base) + 1:].replace(os.sep, "/")
    return selector

