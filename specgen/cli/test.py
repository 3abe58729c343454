"""``specgen test [SELECTOR…]``: run a spec tree's AVS tests through the embedded ASL interpreter."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .common import UsageError, jobs_arg, positive_int, root_arg
from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..asl.revision import Revision
    from ..asl.runner import TestCase
    from ..asl.sharding import ShardInfo
    from ..cache.layer import Store
    from ..loader import Spec

COLLECT = True  # runs long or runs spec code without bound: keep the cyclic collector (see specgen.cli)
NAME = "test"
HELP = "run AVS tests through the embedded ASL interpreter"
DESCRIPTION = "Run the spec's AVS tests through the embedded ASL interpreter and report each result."
EPILOG = """examples:
  specgen test --root path/to/spec
  specgen test --root path/to/spec TMUL --format junit > avs.xml
  specgen test --root path/to/spec --affected-by ExecuteTileBinary
  specgen test --root path/to/spec --changed
  specgen test --root path/to/spec --shard 2/4 --durations avs.json --format json > shard-2.json
  specgen test --merge shard-1.json shard-2.json shard-3.json shard-4.json --format junit > avs.xml
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("selectors", nargs="*", metavar="SELECTOR",
                   help="test ids, mnemonics or paths to run (default: every test)")
    p.add_argument("--jobs", type=jobs_arg, default="0", metavar="N",
                   help="tests run in parallel (default, and 0: one process per usable core)")
    p.add_argument("--format", choices=["text", "json", "junit"], default="text",
                   help="report format (default: %(default)s)")
    p.add_argument("--profile", default="reference", help="execution profile to run under (default: %(default)s)")
    p.add_argument("--max-steps", type=positive_int, default=None, metavar="N",
                   help="interpreter steps (calls and loop iterations) one test may take "
                        "(default: [specgen] max_steps of specification.toml, else 120000000)")
    p.add_argument("--max-value-bits", type=positive_int, default=None, metavar="N",
                   help="largest bitvector width, integer bit length or array length one test may make "
                        "(default: [specgen] max_value_bits of specification.toml, else 16777216)")
    p.add_argument("--max-memory", type=positive_int, default=None, metavar="BYTES",
                   help="most bytes one test may hold at once (values in its globals and frames) "
                        "(default: [specgen] max_memory_bytes of specification.toml, else 1073741824)")
    p.add_argument("--coverage", action="store_true",
                   help="print a table of which ASL statements and functions of the spec the tests ran "
                        "(always recorded with each result: the site's unit pages show it)")
    p.add_argument("--coverage-json", type=Path, default=None, metavar="FILE",
                   help="write the coverage as JSON (implies --coverage)")
    p.add_argument("--lcov", type=Path, default=None, metavar="FILE",
                   help="write the coverage as LCOV tracefile (implies --coverage)")
    p.add_argument("--shard", metavar="K/N", default=None,
                   help="run only shard K of N of the selected tests: deterministic, disjoint and covering, "
                        "balanced by --durations (a CI matrix runs K = 1..N; see docs-internal/ci.md)")
    p.add_argument("--durations", type=Path, default=None, metavar="FILE",
                   help="the recorded durations --shard balances by: a JSON or JUnit report of an earlier run "
                        "(default: each test weighed by the length of its ASL text)")
    p.add_argument("--merge", type=Path, nargs="+", default=None, metavar="FILE",
                   help="merge the JSON or JUnit reports of the shards into one report in --format, "
                        "checking that they cover the suite exactly once (no test is run)")
    p.add_argument("--changed", action="store_true",
                   help="only the tests without a result for exactly this content: never run, or something "
                        "they read (the test, an ASL definition they ran) changed since their last result")
    p.add_argument("--affected-by", action="append", default=[], metavar="PATH|NAME",
                   help="only the tests whose last recorded run read this file or ASL definition (repeatable)")


def reads_tree(args: argparse.Namespace) -> bool:
    """``--merge`` reads reports only: no tree is looked for."""
    return not args.merge


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """0 every selected test of the shard passes, 1 otherwise, 2 nothing to run or a bad option (one
    ``specgen test: error:`` line on stderr); ``--merge`` reads reports instead of running anything."""
    from ..asl.conformance import affected, case_name, changed, record, tests_store
    from ..asl.profiles import PROFILES
    from ..asl.revision import REVISION
    from ..asl.runner import discover, format_text, run_cases, select
    from ..asl.sharding import ShardError
    from ..graph import SpecGraph
    from ..loader import UNUSABLE_RULES, RootError, SpecConfig, load_spec
    from . import testreport
    from .progress import Progress

    if args.merge:
        return _merge(args, out)
    try:
        shard = _shard(args)
    except ShardError as e:
        raise UsageError(str(e)) from e
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
        raise UsageError(f"{root}: no readable {test_root}/ folder under the spec root; pass --root to a spec tree")
    if args.profile not in PROFILES:
        raise UsageError(f"unknown profile {args.profile!r}; choose one of {', '.join(sorted(PROFILES))}")
    coverage = bool(args.coverage or args.coverage_json or args.lcov)
    progress.stage("run")
    selectors = [_under_test_root(s, Path(root), test_root) for s in selectors]
    revision = REVISION(SpecGraph.build(spec))
    store = tests_store(revision)
    budget = args.max_steps or spec.config.max_steps
    bits = args.max_value_bits or spec.config.max_value_bits
    memory = args.max_memory or spec.config.max_memory_bytes
    cases = select(discover(spec), selectors)
    only, info = None, None
    if shard is not None:
        only, info = _shard_of(spec, selectors, shard[0], shard[1], shard[2])
        progress.stage(f"shard {info.index}/{info.count}: {len(only)} of {info.suite_tests} tests")
        cases = [c for c in cases if case_name(c) in only]
    if args.affected_by:
        hit: set[str] = set()
        for what in args.affected_by:
            hit |= {case_name(c) for c in affected(store, revision, cases, what, args.profile, budget, bits, memory,
                                                   lambda p: _root_relative(p, Path(root)))}
        cases = [c for c in cases if case_name(c) in hit]
    standing: list[str] = []  # --changed: recorded failures of the tests it does not re-run still stand
    if args.changed:
        picked = changed(store, revision, cases, args.profile, budget, bits, memory)
        names = {case_name(c) for c in picked}
        standing = _standing(store, revision, [c for c in cases if case_name(c) not in names], args.profile,
                             budget, bits, memory)
        cases = picked
    if (args.changed or args.affected_by) and not cases:
        progress.finish()
        print(f"no test {'changed' if args.changed else 'read ' + ', '.join(args.affected_by)} "
              "since its last recorded result", file=out)
        for line in standing:
            print(line, file=out)
        return ExitCode.FINDINGS if standing else ExitCode.OK
    # coverage is always measured (~8 % CPU): a result is the layer's one kind, with the statements it ran,
    # so a build, a server or the plugin reuses it instead of running the test again (issue 38)
    report = run_cases(spec, cases, jobs=max(1, args.jobs), profile=args.profile, max_steps=args.max_steps,
                       coverage=True, progress=progress.count, max_value_bits=args.max_value_bits, max_memory=args.max_memory)
    progress.finish()
    # a unit or test whose bytes were not usable as written ran as replaced text (or not at all):
    # say so, at its file and line, and fail the run whatever the verdicts
    asl_roots = tuple(r.rstrip("/") + "/" for r in (*spec.config.source_roots, test_root))
    unusable = [f for f in spec.findings if f.rule in UNUSABLE_RULES and f.path.startswith(asl_roots)]
    for f in unusable:
        print(f.format(), file=out if args.format == "text" else err)
    if not report.results and info is None:
        raise UsageError(f"no test matched {' '.join(selectors) or '(all)'} under {root / test_root}")
    record(store, revision, report, budget, bits, memory)  # the site's pages, --changed and --affected-by read it
    store.save()
    if args.format == "json":
        json.dump(testreport.to_json(report, info), out, indent=1)
        out.write("\n")
    elif args.format == "junit":
        out.write(testreport.to_junit(report, str(root), info))
    else:
        if info is not None:
            out.write(f"shard {info.index}/{info.count}: {len(report.results)} of {info.suite_tests} tests\n")
        out.write(painted(format_text(report, spec), bool(getattr(args, "color_out", False))))
    if coverage:
        _write_coverage(spec, report.coverage or set(), args, out)
    for line in standing:  # after the report (stdout stays one document in JSON and JUnit)
        print(line, file=out if args.format == "text" else err)
    ok = report.ok or (info is not None and not report.results)  # an empty shard of a small suite passes
    return ExitCode.OK if ok and not unusable and not standing else ExitCode.FINDINGS


def _standing(store: "Store", revision: "Revision", cases: "list[TestCase]", profile: str, max_steps: int,
              max_value_bits: int, max_memory: int) -> list[str]:
    """The recorded failures (and errors) of ``cases`` that are valid for the tree as it is, one report line
    each and a count: ``--changed`` does not re-run them, and a green exit would say they were fixed."""
    from ..asl.conformance import valid_result
    from ..diagnostics import printable
    lines: list[str] = []
    for c in cases:
        got = valid_result(store, revision, c, profile, max_steps, max_value_bits, max_memory, coverage=False)
        if got is not None and got[0].status in ("failed", "error"):
            m = got[0]
            lines.append(printable(f"{m.status.upper()} (recorded, unchanged since): {m.path} ({m.id})"))
            lines.append(printable(f"  {m.location}: {m.message}"))
    n = len(lines) // 2
    if n:
        lines.append(f"{n} recorded failure{'s' if n != 1 else ''} still stand{'s' if n == 1 else ''}: nothing "
                     f"{'it' if n == 1 else 'they'} read changed since {'its' if n == 1 else 'their'} last run "
                     "('specgen test PATH' runs a test again)")
    return lines


def _shard(args: argparse.Namespace) -> tuple[int, int, dict[str, float]] | None:
    """``(K, N, recorded durations)`` of ``--shard``, or None; ``--durations`` without ``--shard`` is refused."""
    from ..asl.sharding import ShardError, durations_of, parse_shard
    from . import testreport
    if args.shard is None:
        if args.durations is not None:
            raise ShardError("--durations balances --shard; give --shard K/N too")
        return None
    k, n = parse_shard(args.shard)
    durations = durations_of(testreport.read(args.durations).results) if args.durations is not None else {}
    return k, n, durations


def _shard_of(spec: "Spec", selectors: list[str], k: int, n: int,
              durations: dict[str, float]) -> tuple[set[str], "ShardInfo"]:
    """The keys (paths; a shard's test functions by name) of shard K of N of the selected tests, and what
    identifies the shard."""
    from ..asl.runner import discover, select, test_key
    from ..asl.sharding import select_shard
    cases = select(discover(spec), selectors)
    mine, info = select_shard(cases, lambda c: test_key(c.path, c.id), lambda c: len(c.test.text), durations, k, n)
    return {test_key(c.path, c.id) for c in mine}, info


def _merge(args: argparse.Namespace, out: TextIO) -> int:
    """``--merge``: the shards' reports as one, in ``--format``; nothing is run or loaded."""
    from ..asl.runner import format_text
    from ..asl.sharding import ShardError, merge
    from . import testreport
    if args.selectors or args.shard or args.durations or args.coverage or args.coverage_json or args.lcov:
        raise UsageError("--merge reads reports only: give no selector, --shard, --durations or coverage option")
    try:
        report, shards = merge([testreport.read(p) for p in args.merge])
    except ShardError as e:
        raise UsageError(str(e)) from e
    if args.format == "json":
        json.dump(testreport.to_json(report, shards=shards), out, indent=1)
        out.write("\n")
    elif args.format == "junit":
        out.write(testreport.to_junit(report))
    else:
        if shards:
            out.write(f"merged {len(shards)} shards of {shards[0].suite_tests} tests "
                      f"(wall time: the slowest shard's)\n")
        out.write(painted(format_text(report, None), bool(getattr(args, "color_out", False))))
    return ExitCode.OK if report.ok else ExitCode.FINDINGS


def painted(text: str, on: bool) -> str:
    """The text report with FAILED and ERROR in red and the counts in green or red, on a terminal that wants it."""
    from .common import BOLD, GREEN, RED, paint
    if not on:
        return text
    lines = []
    for line in text.split("\n"):
        head = line.split(":", 1)[0]
        if head in ("FAILED", "ERROR"):
            line = paint(head, BOLD + RED, True) + line[len(head):]
        elif " passed, " in line and " failed, " in line:
            line = paint(line, GREEN if " 0 failed, 0 error " in line else RED, True)
        lines.append(line)
    return "\n".join(lines)


def _write_coverage(spec: "Spec", hits: set, args: argparse.Namespace, out: TextIO) -> None:
    """The table (text format: after the results; JSON/JUnit keep stdout machine-readable),
    the files asked for (each test's own coverage is in the layer's record: the site's unit pages use it)."""
    from ..asl.coverage import format_table, measure, to_json, to_lcov

    cov = measure(spec, hits, args.profile, args.max_steps, args.max_value_bits, args.max_memory)
    if args.format == "text":
        out.write(format_table(cov))
    if args.coverage_json:
        args.coverage_json.write_text(json.dumps(to_json(cov), indent=1) + "\n", encoding="utf-8")
    if args.lcov:
        args.lcov.write_text(to_lcov(cov), encoding="utf-8")


def _root_relative(what: str, root: Path) -> str | None:
    """``what`` as a path relative to the spec root when it names a file there (typed from anywhere)."""
    for cand in (os.path.abspath(what), os.path.abspath(os.path.join(root, what))):
        base = os.path.abspath(root)
        if cand.startswith(base + os.sep):
            return cand[len(base) + 1:].replace(os.sep, "/")
    return None


def _under_test_root(selector: str, root: Path, test_root: str) -> str:
    """A selector typed as a file path (absolute, from the working directory, or from the spec root) as the
    path under the test root that tests are matched by; anything else as typed. Pure path arithmetic: the
    tree is read only by the loader."""
    base = os.path.abspath(os.path.join(root, test_root))
    for cand in (os.path.abspath(selector), os.path.abspath(os.path.join(root, selector))):
        if cand.startswith(base + os.sep):
            return cand[len(base) + 1:].replace(os.sep, "/")
    return selector

