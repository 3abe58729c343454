"""Runs a loaded spec's AVS tests (``**/*.asl`` under its test root) on the embedded interpreter.

A test passes when its ``main()`` returns 0 and no ``assert`` fails.
Statuses: ``passed``, ``failed`` (an assert or ``as`` check failed, or main
returned non-zero, or the test reached a function defined neither in the
tree nor in specgen's generated ASL: reason ``missing-function:<name>``) and ``error`` (the interpreter could not run it: syntax, unknown
name, unsupported construct, run-time error) and ``not-derivable`` (the run reached a name the
ASL specgen generates from the catalogs refers to and the tree does not define, or a validation
shard specgen derives nothing for from the tree's catalog row: the reason names the name, the
generator and the rows; not a failure of the spec, see :mod:`specgen.asl.contract_check`). Every
non-passing result carries the file:line where it stopped and the ASL stack.

One interpreter per process runs every test it is given: the tree's
functions are compiled once and global state is reset between tests.
``jobs > 1`` hands batches of the sorted test list to worker processes as
they free up (forked after the parent generated the ASL, so no worker
generates or loads again where the platform can fork); each test's result
does not depend on which worker ran it, so the report is identical to
``jobs=1`` except for timings.

Each test's run is recorded while it runs: the ASL definitions it read (the
interpreter's trail, :mod:`specgen.asl.trail`) and, with coverage, the
statements of the spec's source units it executed. The dependency-tracked
layer keeps a result while nothing it read has changed
(:mod:`specgen.asl.conformance`).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.context
from array import array
from itertools import groupby, repeat
from operator import and_
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from ..diagnostics import printable
from ..loader import load_spec
from ..workers import forked_worker
from ..loader.tree import Spec
from ..memory import FrozenAsItGrows, collector_paused
from ..models.located import AvsTest
from .catalog_modules import generated_modules
from . import printing
from .errors import ASLError, MissingFunction, NotDerivable, bounded_stack
from .index import build_index, parse_cached
from .hit_table import HitTable
from .interp import Interpreter
from .profiles import get_profile
from .session import interpreter_for
from .values import show

STATUSES = ("passed", "failed", "error", "not-derivable")


def test_key(path: str, test_id: str) -> str:
    """What names one test in a suite: its path, or ``<path>::<function>`` for a test function of a shard
    (a tree of the layout before 0.58 holds several tests in one file)."""
    return test_id if test_id.startswith(path + "::") else path


@dataclass(frozen=True)
class TestCase:
    """One AVS test as the loader read it, and its path under the test root; ``entry`` is the function it
    runs: ``main`` for a file with a ``// PTO-TEST:`` header, a test function of a shard otherwise."""

    test: AvsTest
    rel: str  # the path relative to the configured test root (what selectors match)
    entry: str = "main"

    @property
    def path(self) -> str:
        """The root-relative POSIX path."""
        return self.test.path

    @property
    def id(self) -> str:
        """The header's id (empty when the header failed validation: the test still runs); a shard's test
        function is ``<path>::<function>``."""
        if self.entry != "main":
            return f"{self.test.path}::{self.entry}"
        return self.test.header.id if self.test.header is not None else ""


@dataclass
class TestResult:
    id: str
    path: str
    status: str
    seconds: float
    message: str = ""
    location: str = ""
    stack: list[str] = field(default_factory=list)
    reason: str = ""  # error kind, ``main-nonzero`` or ``missing-function:<missing name>``
    # the CPU time the test took in its process: what sharding balances by (wall time on a shared CI runner
    # is mostly the neighbours' load; measured at load 14, a shard's tests took 65 s of wall and 10 s of CPU)
    cpu_seconds: float = 0.0


@dataclass
class TestRunReport:
    results: list[TestResult]
    total_seconds: float
    load_seconds: float
    profile: str
    jobs: int
    coverage: set[tuple[str, int, int]] | None = None  # statements/functions run, when measured
    reads: dict[str, frozenset[str]] = field(default_factory=dict)  # test_key -> the ASL definitions it read
    hits: dict[str, "Hits"] = field(default_factory=dict)  # test_key -> its own coverage (with coverage on)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in STATUSES}

    @property
    def median_seconds(self) -> float:
        return statistics.median([r.seconds for r in self.results]) if self.results else 0.0

    @property
    def ok(self) -> bool:
        """Every test passed or is not derivable on this tree (a finding of the check says why)."""
        return bool(self.results) and all(r.status in ("passed", "not-derivable") for r in self.results)

    def to_json(self) -> dict:
        return {
            "summary": {
                **self.counts,
                "total": len(self.results),
                "total_seconds": round(self.total_seconds, 3),
                "load_seconds": round(self.load_seconds, 3),
                "median_seconds": round(self.median_seconds, 4),
                "profile": self.profile,
                "jobs": self.jobs,
            },
            "tests": [asdict(r) for r in self.results],
        }


# ------------------------------------------------------------ discovery
def discover(spec: Spec) -> list[TestCase]:
    """The spec's tests with a ``// PTO-TEST:`` header on line 1 or 2, in path-component order.

    A header that fails validation still makes a test (reported by ``validate``). A file without one
    is a test only where the tree states a shard convention (``tests/README.md`` of an older layout:
    "each function whose name starts with `Test` … is one test", ``Spec.test_functions``): each such
    function of it is one test, run by its name; otherwise it is not a test the runner runs (the
    loader's finding says so).
    """
    prefix = spec.config.test_root.rstrip("/") + "/"
    conv = spec.test_functions
    out: list[TestCase] = []
    for t in sorted(spec.tests, key=lambda t: t.path.split("/")):  # a loaded path is relative, POSIX, normalised
        rel = t.path.removeprefix(prefix)
        if 1 <= t.span.line <= 2:
            out.append(TestCase(t, rel))
        elif t.header is None and conv is not None and conv.per_file:
            out.extend(TestCase(t, rel) for _name, _line in conv.functions(t.text))  # the file is one test
        elif t.header is None and conv is not None:
            out.extend(TestCase(t, f"{rel}::{name}", name) for name, _line in conv.functions(t.text))
    return out


def select(tests: list[TestCase], selectors: list[str]) -> list[TestCase]:
    """Tests whose path under the test root contains a selector or whose id equals one."""
    if not selectors:
        return list(tests)
    return [t for t in tests if any(s == t.id or s in t.rel for s in selectors)]


# ------------------------------------------------------------ execution
_WORKER: dict = {}
_FREEZE_EVERY = 100  # tests in this process between two collect-and-freeze passes (memory.FrozenAsItGrows)
# an in-process run of fewer tests keeps the caller's collector: the first collection of 0.58.3's loaded heap and
# generated ASL costs about 0.8 s, the collector's passes without the freeze about 12 ms a test
_FREEZE_FROM = 100
_BATCH = 16  # tests per batch sent to a worker (fewer when there are few tests)


def _make_interpreter(spec: Spec, profile: str, max_steps: int | None = None,
                      coverage: bool = False, max_value_bits: int | None = None,
                      max_memory: int | None = None) -> Interpreter:
    return _make_interpreter_from(spec, None, profile, max_steps, coverage, max_value_bits, max_memory)


def _make_interpreter_from(spec: Spec, generated: list | None, profile: str, max_steps: int | None,
                           coverage: bool, max_value_bits: int | None = None,
                           max_memory: int | None = None) -> Interpreter:
    interp = interpreter_for(spec, generated=generated, max_steps=max_steps or spec.config.max_steps,
                             max_value_bits=max_value_bits or spec.config.max_value_bits,
                             max_memory=max_memory or spec.config.max_memory_bytes)
    if coverage:
        interp.measure_coverage()
    get_profile(profile).install(interp)
    return interp


def _init_worker(root: str, profile: str, max_steps: int | None = None, coverage: bool = False,
                 max_value_bits: int | None = None, max_memory: int | None = None) -> None:
    """A forked worker uses the loaded spec and generated ASL it inherited; a spawned one
    loads the spec itself (cheap from the record cache) and generates again."""
    forked_worker()  # the parent's signal handlers (a server's) are not the worker's
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    inherited = _WORKER.pop("prepared", None)
    if inherited is not None:
        spec, generated = inherited
    else:
        spec = load_spec(Path(root))
        generated = generated_modules(spec)
    _WORKER["interp"] = _make_interpreter_from(spec, generated, profile, max_steps, coverage, max_value_bits,
                                               max_memory)
    _WORKER["units"] = _source_paths(spec)
    # a worker compiles the functions its tests reach (closures that live as long as it does): a young
    # generation of 50,000 objects rather than 700 still collects cycles, without walking them again and
    # again (12 % of the 0.58.3 suite's CPU); what survives is frozen as it grows (memory.FrozenAsItGrows)
    _WORKER["heap"] = FrozenAsItGrows(_FREEZE_EVERY, owned=True).__enter__()


def _source_paths(spec: Spec) -> frozenset[str]:
    roots = tuple(r.rstrip("/") + "/" for r in spec.config.source_roots)
    return frozenset(u.path for u in spec.units if u.path.startswith(roots))


def _pool_context() -> multiprocessing.context.BaseContext | None:
    """fork where the platform has it (workers inherit the prepared spec), else the default."""
    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _format_stack(exc: ASLError) -> list[str]:
    return bounded_stack(exc.asl_stack)


def run_one(interp: Interpreter, case: TestCase) -> TestResult:
    """Run one test on an interpreter (reset before use), parsing the text the loader read."""
    start, cpu = time.perf_counter(), time.process_time()
    interp.reset()
    status, message, location, stack, reason = "passed", "", "", [], ""
    try:
        module = parse_cached(case.test.text.encode("utf-8"), case.path)
        interp.load_module(module)
        if not interp.has_function(case.entry):
            raise ASLError(f"the test defines no {case.entry}()", None, "runtime")
        with printing.prefixed(case.id):  # a println names its test in the log
            result = interp.call(case.entry)
        if result != 0:
            status, message = "failed", f"{case.entry}() returned {show(result)}, expected 0"
            reason = "main-nonzero"
            entry = next((d for d in module.decls if getattr(d, "name", None) == case.entry), None)
            location = f"{case.path}:{entry.line}:{entry.col}" if entry is not None else f"{case.path}:1:1"
    except NotDerivable as exc:
        status, message, reason = "not-derivable", exc.reason, f"not-derivable:{exc.name}"
        location, stack = str(exc.span), _format_stack(exc)
    except MissingFunction as exc:
        # a function nothing defines is the spec failing to run, not a skip
        status, message, reason = "failed", exc.message, f"missing-function:{exc.name}"
        location, stack = str(exc.span), _format_stack(exc)
    except ASLError as exc:
        status = "failed" if exc.kind == "assert" else "error"
        message, reason = exc.message, exc.kind
        location, stack = str(exc.span), _format_stack(exc)
    except RecursionError:  # the parser and the statements locate it themselves; this is the last resort
        status, message, reason = "error", "nested too deeply: Python recursion limit reached", "runtime"
        location = f"{case.path}:1:1"
    return TestResult(case.id, case.path, status, time.perf_counter() - start, message,
                      location, stack, reason, time.process_time() - cpu)


_LOW48 = (1 << 48) - 1
Hits = dict[str, bytes]  # unit path -> the (line << 24 | col) of each statement run, as array('Q') bytes


def pack_hits(hits: HitTable, units: frozenset[str]) -> Hits:
    """One test's coverage of the spec's source units, compact (a suite's worth stays small in memory): the
    table's numbers grouped by path, no tuple per hit."""
    out: dict[str, bytes] = {}
    for p, grp in groupby(hits.codes(), key=lambda v: v >> 48):
        path = hits.paths[p]
        if path in units:
            out[path] = array("Q", map(and_, grp, repeat(_LOW48))).tobytes()
    return dict(sorted(out.items()))


def unpack_hits(hits: Hits) -> set[tuple[str, int, int]]:
    out: set[tuple[str, int, int]] = set()
    for path, blob in hits.items():
        arr = array("Q")
        arr.frombytes(blob)
        out.update((path, v >> 24, v & 0xFFFFFF) for v in arr)
    return out


def run_recorded(interp: Interpreter, case: TestCase, units: frozenset[str]) -> tuple[TestResult, frozenset[str], Hits]:
    """Run one test and record what it read of the ASL and, when measured, the statements it ran."""
    interp.trail.push()
    if interp.coverage is not None:
        interp.coverage.clear()
    try:
        result = run_one(interp, case)
    finally:
        names = interp.trail.pop()
    hits = pack_hits(interp.coverage, units) if interp.coverage is not None else {}
    return result, interp.definitions.reads(names, interp.overlay), hits


def _run_batch(cases: list[TestCase]) -> list[tuple[TestResult, frozenset[str], Hits]]:
    """A shard's results, each with what it read and the statements it ran."""
    return run_all(_WORKER["interp"], cases, _WORKER["units"], _WORKER["heap"])


def run_all(interp: Interpreter, cases: list[TestCase], units: frozenset[str], heap: FrozenAsItGrows,
            done: Callable[[int], None] | None = None) -> list[tuple[TestResult, frozenset[str], Hits]]:
    """Each case run in turn on one interpreter, the collector told after each (``heap``); ``done(n)``
    after the n-th."""
    out: list[tuple[TestResult, frozenset[str], Hits]] = []
    for c in cases:
        out.append(run_recorded(interp, c, units))
        heap.tick(out[-1][0].status != "passed")
        if done is not None:
            done(len(out))
    return out


def run_tests(spec: Spec, selectors: list[str], jobs: int = 1,
              profile: str = "reference", max_steps: int | None = None,
              coverage: bool = False, progress: Callable[[int, int], None] | None = None,
              only: set[str] | None = None, max_value_bits: int | None = None,
              max_memory: int | None = None) -> TestRunReport:
    """Run the selected AVS tests of ``spec``; see the module docstring for statuses.

    ``max_steps`` overrides the tree's step budget per test, ``max_value_bits`` its value budget,
    ``max_memory`` its memory budget (bytes one test may hold); ``coverage``
    records the statements run (merged over the workers) in the report;
    ``progress(done, total)`` is told as results come in (the command line's progress);
    ``only`` keeps the selected tests with these keys (:func:`test_key`; one shard, :mod:`specgen.asl.sharding`).
    """
    cases = select(discover(spec), list(selectors))
    if only is not None:
        cases = [c for c in cases if test_key(c.path, c.id) in only]
    return run_cases(spec, cases, jobs, profile, max_steps, coverage, progress, max_value_bits, max_memory)


def run_cases(spec: Spec, cases: list[TestCase], jobs: int = 1, profile: str = "reference",
              max_steps: int | None = None, coverage: bool = False,
              progress: Callable[[int, int], None] | None = None,
              max_value_bits: int | None = None, max_memory: int | None = None) -> TestRunReport:
    """Run ``cases`` (see :func:`run_tests`); the report also holds what each test read and ran
    (by :func:`test_key`)."""
    tell = progress or (lambda done, total: None)
    t0 = time.perf_counter()
    if not cases:
        return TestRunReport([], time.perf_counter() - t0, 0.0, profile, jobs)
    jobs = max(1, min(jobs, len(cases)))
    t_load = time.perf_counter()
    recorded: list[tuple[TestResult, frozenset[str], Hits]] = []
    if jobs == 1:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        with collector_paused():  # the load makes trees, no cycles, and runs no spec code (see below)
            interp = _make_interpreter(spec, profile, max_steps, coverage, max_value_bits, max_memory)
        load = time.perf_counter() - t_load
        units = _source_paths(spec)
        with FrozenAsItGrows(_FREEZE_EVERY, worth_it=len(cases) >= _FREEZE_FROM) as heap:
            recorded = run_all(interp, cases, units, heap, lambda n: tell(n, len(cases)))
    else:
        ctx = _pool_context()
        # the load makes trees, no cycles: a cold 0.58.3 suite's parent spent ~1.9 s of its 3.5 s load in
        # collections walking the modules it was parsing (the collector is on again before the workers fork)
        with collector_paused():
            build_index(spec)  # warm the on-disk cache once, before the workers start
            if ctx is not None:  # generate once here; the forked workers inherit it
                _WORKER["prepared"] = (spec, generated_modules(spec))
        load = time.perf_counter() - t_load
        # small batches, handed out as workers free up: a slow sweep delays only its own batch
        size = max(1, min(_BATCH, len(cases) // (jobs * 4)))
        shards = [cases[i:i + size] for i in range(0, len(cases), size)]
        # the forked workers' collections do not walk (and so copy) the spec they inherit; a process that
        # froze its heap itself (serve, the background worker) keeps it frozen after
        froze = gc.get_freeze_count() == 0
        gc.freeze()
        try:
            with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, mp_context=ctx,
                                     initargs=(str(spec.root), profile, max_steps, coverage, max_value_bits,
                                               max_memory)) as pool:
                for batch in pool.map(_run_batch, shards):
                    recorded.extend(batch)
                    tell(len(recorded), len(cases))
        finally:
            if froze:
                gc.unfreeze()
            _WORKER.pop("prepared", None)
        recorded.sort(key=lambda r: (r[0].path, r[0].id))
    hits: set[tuple[str, int, int]] | None = None
    if coverage:
        hits = set()
        for _r, _reads, h in recorded:
            hits |= unpack_hits(h)
    return TestRunReport([r for r, _, _ in recorded], time.perf_counter() - t0, load, profile, jobs, hits,
                         {test_key(r.path, r.id): reads for r, reads, _ in recorded},
                         {test_key(r.path, r.id): h for r, _, h in recorded})


# ------------------------------------------------------------ reporting
_EXCERPT = 160  # characters of the source line shown under a failure


def _source_line(texts: dict[str, str], location: str) -> str:
    """The source line of ``path:line:col``, cut to a window around the column when it is long."""
    try:
        path, line, col = location.rsplit(":", 2)
        text = texts[path].splitlines()[int(line) - 1]
    except (KeyError, ValueError, IndexError):
        return ""
    if len(text) <= _EXCERPT:
        return text.strip()
    start = max(0, min(int(col) - 1 - _EXCERPT // 2, len(text) - _EXCERPT))
    return ("…" if start else "") + text[start:start + _EXCERPT] + ("…" if start + _EXCERPT < len(text) else "")


def format_text(report: TestRunReport, spec: Spec | None) -> str:
    """Every test that did not pass (where, the spec's line when ``spec`` is given, the ASL stack), then
    the counts; the JUnit report is written by :mod:`specgen.report.junit` (see ``specgen test``)."""
    out = []
    texts = ({u.path: u.text for u in spec.units} | {t.path: t.text for t in spec.tests}) if spec is not None else {}
    underivable: dict[str, list[TestResult]] = {}
    for r in report.results:
        if r.status == "not-derivable":  # one cause, one paragraph: the reason, then its tests
            underivable.setdefault(r.message, []).append(r)
            continue
        if r.status == "passed":
            continue
        out.append(printable(f"{r.status.upper()}: {r.path} ({r.id})"))  # spec text: one line each
        out.append(printable(f"  {r.location}: {r.message}"))
        src = _source_line(texts, r.location) if r.location else ""
        if src:
            out.append(printable(f"    | {src}"))
        for frame in r.stack:
            out.append(printable(f"    in {frame}"))
    for why, results in underivable.items():
        out.append(printable(f"NOT DERIVABLE: {len(results)} test(s): {why}"))
        out.extend(printable(f"  {r.path} ({r.id}) at {r.location}") for r in results[:5])
        if len(results) > 5:
            out.append(f"  … and {len(results) - 5} more")
    c = report.counts
    nd = f", {c['not-derivable']} not derivable" if c["not-derivable"] else ""
    out.append(
        f"{c['passed']} passed, {c['failed']} failed, {c['error']} error{nd} "
        f"in {report.total_seconds:.2f} s "
        f"(load {report.load_seconds:.2f} s, median {report.median_seconds * 1000:.1f} ms/test, "
        f"profile {report.profile}, jobs {report.jobs})"
    )
    return "\n".join(out) + "\n"
