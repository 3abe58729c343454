"""Runs a loaded spec's AVS tests (``**/*.asl`` under its test root) on the embedded interpreter.

A test passes when its ``main()`` returns 0 and no ``assert`` fails.
Statuses: ``passed``, ``failed`` (an assert or ``as`` check failed, or main
returned non-zero, or the test reached a function defined neither in the
tree nor in specgen's generated ASL: reason ``missing-function:<name>``) and ``error`` (the interpreter could not run it: syntax, unknown
name, unsupported construct, run-time error). Every non-passing result
carries the file:line where it stopped and the ASL stack.

One interpreter per process runs every test it is given: the tree's
functions are compiled once and global state is reset between tests.
``jobs > 1`` hands batches of the sorted test list to worker processes as
they free up (forked after the parent generated the ASL, so no worker
generates or loads again where the platform can fork); each test's result
does not depend on which worker ran it, so the report is identical to
``jobs=1`` except for timings.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable

from ..diagnostics import printable
from ..loader import load_spec
from ..loader.tree import Spec
from ..models.located import AvsTest
from .catalog_modules import generated_modules
from .errors import ASLError, MissingFunction, bounded_stack
from .index import build_index, parse_cached
from .interp import Interpreter
from .profiles import get_profile
from .session import interpreter_for
from .values import show

STATUSES = ("passed", "failed", "error")


@dataclass(frozen=True)
class TestCase:
    """One AVS test as the loader read it, and its path under the test root."""

    test: AvsTest
    rel: str  # the path relative to the configured test root (what selectors match)

    @property
    def path(self) -> str:
        """The root-relative POSIX path."""
        return self.test.path

    @property
    def id(self) -> str:
        """The header's id; empty when the header failed validation (the test still runs)."""
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
        return bool(self.results) and all(r.status == "passed" for r in self.results)

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

    A header that fails validation still makes a test (reported by ``validate``); a file
    without one is not a test the runner runs.
    """
    prefix = spec.config.test_root.rstrip("/") + "/"
    tests = sorted((t for t in spec.tests if 1 <= t.span.line <= 2), key=lambda t: PurePosixPath(t.path).parts)
    return [TestCase(t, t.path.removeprefix(prefix)) for t in tests]


def select(tests: list[TestCase], selectors: list[str]) -> list[TestCase]:
    """Tests whose path under the test root contains a selector or whose id equals one."""
    if not selectors:
        return list(tests)
    return [t for t in tests if any(s == t.id or s in t.rel for s in selectors)]


# ------------------------------------------------------------ execution
_WORKER: dict = {}
_BATCH = 16  # tests per batch sent to a worker (fewer when there are few tests)


def _make_interpreter(spec: Spec, profile: str, max_steps: int | None = None,
                      coverage: bool = False, max_value_bits: int | None = None) -> Interpreter:
    return _make_interpreter_from(spec, None, profile, max_steps, coverage, max_value_bits)


def _make_interpreter_from(spec: Spec, generated: list | None, profile: str, max_steps: int | None,
                           coverage: bool, max_value_bits: int | None = None) -> Interpreter:
    interp = interpreter_for(spec, generated=generated, max_steps=max_steps or spec.config.max_steps,
                             max_value_bits=max_value_bits or spec.config.max_value_bits)
    if coverage:
        interp.measure_coverage()
    get_profile(profile).install(interp)
    return interp


def _init_worker(root: str, profile: str, max_steps: int | None = None, coverage: bool = False,
                 max_value_bits: int | None = None) -> None:
    """A forked worker uses the loaded spec and generated ASL it inherited; a spawned one
    loads the spec itself (cheap from the record cache) and generates again."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    inherited = _WORKER.pop("prepared", None)
    if inherited is not None:
        spec, generated = inherited
    else:
        spec = load_spec(Path(root))
        generated = generated_modules(spec)
    _WORKER["interp"] = _make_interpreter_from(spec, generated, profile, max_steps, coverage, max_value_bits)


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
        if not interp.has_function("main"):
            raise ASLError("the test defines no main()", None, "runtime")
        result = interp.call("main")
        if result != 0:
            status, message = "failed", f"main() returned {show(result)}, expected 0"
            reason = "main-nonzero"
            main = next((d for d in module.decls if getattr(d, "name", None) == "main"), None)
            location = f"{case.path}:{main.line}:{main.col}" if main is not None else f"{case.path}:1:1"
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


def _run_batch(cases: list[TestCase]) -> tuple[list[TestResult], set | None]:
    """A shard's results and the statements it ran (the worker's set is emptied for the next)."""
    interp = _WORKER["interp"]
    results = [run_one(interp, c) for c in cases]
    hits = None
    if interp.coverage is not None:
        hits = set(interp.coverage)
        interp.coverage.clear()
    return results, hits


def run_tests(spec: Spec, selectors: list[str], jobs: int = 1,
              profile: str = "reference", max_steps: int | None = None,
              coverage: bool = False, progress: Callable[[int, int], None] | None = None,
              only: set[str] | None = None, max_value_bits: int | None = None) -> TestRunReport:
    """Run the selected AVS tests of ``spec``; see the module docstring for statuses.

    ``max_steps`` overrides the tree's step budget per test, ``max_value_bits`` its value budget; ``coverage``
    records the statements run (merged over the workers) in the report;
    ``progress(done, total)`` is told as results come in (the command line's progress);
    ``only`` keeps the selected tests with these paths (one shard, :mod:`specgen.asl.sharding`).
    """
    tell = progress or (lambda done, total: None)
    t0 = time.perf_counter()
    cases = select(discover(spec), list(selectors))
    if only is not None:
        cases = [c for c in cases if c.path in only]
    if not cases:
        return TestRunReport([], time.perf_counter() - t0, 0.0, profile, jobs)
    jobs = max(1, min(jobs, len(cases)))
    t_load = time.perf_counter()
    if jobs == 1:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        interp = _make_interpreter(spec, profile, max_steps, coverage, max_value_bits)
        load = time.perf_counter() - t_load
        results = []
        for c in cases:
            results.append(run_one(interp, c))
            tell(len(results), len(cases))
        hits = interp.coverage
    else:
        build_index(spec)  # warm the on-disk cache once, before the workers start
        ctx = _pool_context()
        if ctx is not None:  # generate once here; the forked workers inherit it
            _WORKER["prepared"] = (spec, generated_modules(spec))
        load = time.perf_counter() - t_load
        # small batches, handed out as workers free up: a slow sweep delays only its own batch
        size = max(1, min(_BATCH, len(cases) // (jobs * 4)))
        shards = [cases[i:i + size] for i in range(0, len(cases), size)]
        results = []
        hits = set() if coverage else None
        try:
            with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, mp_context=ctx,
                                     initargs=(str(spec.root), profile, max_steps, coverage, max_value_bits)) as pool:
                for batch, batch_hits in pool.map(_run_batch, shards):
                    results.extend(batch)
                    tell(len(results), len(cases))
                    if hits is not None and batch_hits:
                        hits |= batch_hits
        finally:
            _WORKER.pop("prepared", None)
        results.sort(key=lambda r: r.path)
    return TestRunReport(results, time.perf_counter() - t0, load, profile, jobs, hits)


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
    for r in report.results:
        if r.status == "passed":
            continue
        out.append(printable(f"{r.status.upper()}: {r.path} ({r.id})"))  # spec text: one line each
        out.append(printable(f"  {r.location}: {r.message}"))
        src = _source_line(texts, r.location) if r.location else ""
        if src:
            out.append(printable(f"    | {src}"))
        for frame in r.stack:
            out.append(printable(f"    in {frame}"))
    c = report.counts
    out.append(
        f"{c['passed']} passed, {c['failed']} failed, {c['error']} error "
        f"in {report.total_seconds:.2f} s "
        f"(load {report.load_seconds:.2f} s, median {report.median_seconds * 1000:.1f} ms/test, "
        f"profile {report.profile}, jobs {report.jobs})"
    )
    return "\n".join(out) + "\n"
