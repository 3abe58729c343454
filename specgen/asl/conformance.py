"""Live conformance: every AVS test's result as a derived result of the layer, for the site and the command line.

Each test's verdict and the statements it executed (its coverage) are one entry of the ``tests``
store of :mod:`specgen.cache.layer`, keyed by the test's path, the profile and the step budget,
and valid while nothing it read has changed: the test file and every ASL definition its run
executed or asked about (:mod:`specgen.asl.trail`). :func:`conformance` is what a build runs:
the tests without a valid result are run (with ``jobs`` workers, coverage on), the rest reused, and
the suite's coverage is the union of every test's own. Under ``specgen serve`` the plugin asks
without running (``run=False``): the missing results are *pending* and run in the background
(:mod:`specgen.site.liveresults`); a page shows "running" for them, never an older result.

``specgen test`` records its results in the same store (:func:`record`), so ``--changed`` (the
tests without a valid result) and ``--affected-by PATH|NAME`` (the tests whose recorded reads
include a file or an ASL definition) answer from it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..cache.layer import Reads, Store, code_digest
from ..graph import Derived, SpecGraph
from ..loader.tree import Spec
from .coverage import Coverage, measure
from .revision import REVISION, Revision, asl_keys
from .runner import Hits, TestCase, TestRunReport, discover, run_cases, unpack_hits

VERSION = code_digest("asl", "catalog_asl", "encoding", "loader", "models", "files.py", "vocabulary.py")
STATES = ("complete", "running", "skipped")


@dataclass(frozen=True)
class Measured:
    """One test's result as the layer keeps it (``hits`` None: run without coverage)."""

    id: str
    path: str
    status: str
    message: str
    location: str
    stack: tuple[str, ...]
    reason: str
    seconds: float
    hits: Hits | None

    def shown(self) -> str:
        """Digest of what a page shows of it (not the time it took): a page is redone only when this changes."""
        return hashlib.blake2b(repr((self.id, self.status, self.message, self.location, self.stack,
                                     self.reason)).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What a page says about one test: a result valid for this revision, or why there is none."""

    status: str  # passed | failed | error | running | skipped | not-run
    result: Measured | None = None
    stamp: str = ""  # digest of everything the result was measured on
    reads: int = 0  # how many inputs (the file and the ASL definitions) it read

    def digest(self) -> str:
        return f"{self.status}:{self.stamp}:{self.result.shown() if self.result is not None else ''}"


@dataclass
class Conformance:
    """The suite for one revision: each test's outcome, and the coverage once every result is in."""

    state: str  # complete | running (results pending, under serve) | skipped (the build was told not to run)
    outcomes: dict[str, Outcome]
    profile: str
    max_steps: int
    pending: list[TestCase] = field(default_factory=list)
    coverage: dict[str, dict] | None = None  # unit path -> figures, when every result is in
    rerun: int = 0
    reused: int = 0
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes.values():
            out[o.status] = out.get(o.status, 0) + 1
        return out

    def summary(self) -> str:
        """The build's line: what ran, what was reused, the verdicts."""
        c = self.counts()
        verdicts = ", ".join(f"{c[s]} {s}" for s in ("passed", "failed", "error", "running", "skipped") if c.get(s))
        if self.state == "skipped":
            return f"AVS tests: skipped ({len(self.outcomes)} tests; the pages say so)"
        return (f"AVS tests: {verdicts or 'none'} ({self.rerun} run, {self.reused} reused"
                + (f", in {self.seconds:.1f} s" if self.rerun else "") + ")")


def test_key(path: str, profile: str, max_steps: int) -> str:
    return f"{path}@{profile}@{max_steps}"


def tests_store(revision: Revision) -> Store:
    return revision.layer.store("tests", VERSION)


def record(store: Store, revision: Revision, report: TestRunReport, max_steps: int) -> None:
    """Keep each result of ``report`` (a run of ``revision``'s spec) with what it read."""
    for r in report.results:
        key = test_key(r.path, report.profile, max_steps)
        if report.coverage is None:  # a run without coverage keeps a valid result that has it (same verdict)
            old = store.valid(key, revision.inputs)
            if old is not None and isinstance(old.value, Measured) and old.value.hits is not None:
                continue
        reads = Reads()
        reads.file(r.path)
        reads.update(asl_keys(report.reads.get(r.path, frozenset())))
        hits = report.hits.get(r.path) if report.coverage is not None else None
        value = Measured(r.id, r.path, r.status, r.message, r.location, tuple(r.stack), r.reason,
                         round(r.seconds, 4), hits)
        store.put(key, value, reads, revision.inputs)


def valid_result(store: Store, revision: Revision, case: TestCase, profile: str, max_steps: int,
                 coverage: bool) -> tuple[Measured, str, int] | None:
    """The result of ``case`` measured on exactly this revision (with coverage when asked), else None."""
    e = store.valid(test_key(case.path, profile, max_steps), revision.inputs)
    if e is None or not isinstance(e.value, Measured) or (coverage and e.value.hits is None):
        return None
    return e.value, e.stamp, len(e.reads)


def conformance(graph: SpecGraph, *, jobs: int = 1, run: bool = True, skip: bool = False,
                profile: str = "reference", max_steps: int | None = None,
                progress: Callable[[int, int], None] | None = None) -> Conformance:
    """The suite for ``graph``: valid results reused, the others run (``run``) or left pending.

    ``skip``: nothing runs and every page says the suite was skipped (a quick build).
    """
    spec = graph.spec
    budget = max_steps or spec.config.max_steps
    cases = discover(spec)
    if skip:
        return Conformance("skipped", {c.path: Outcome("skipped") for c in cases}, profile, budget)
    t0 = time.perf_counter()
    revision = REVISION(graph)
    store = tests_store(revision)
    found: dict[str, tuple[Measured, str, int]] = {}
    pending: list[TestCase] = []
    for c in cases:
        got = valid_result(store, revision, c, profile, budget, coverage=True)
        if got is None:
            pending.append(c)
        else:
            found[c.path] = got
    reused = len(found)
    if run and pending:
        report = run_cases(spec, pending, jobs, profile, budget, coverage=True, progress=progress)
        record(store, revision, report, budget)
        for c in pending:
            got = valid_result(store, revision, c, profile, budget, coverage=True)
            if got is not None:
                found[c.path] = got
        pending = [c for c in pending if c.path not in found]
    live = {test_key(c.path, profile, budget) for c in cases}
    store.drop(lambda k: k in live or not k.endswith(f"@{profile}@{budget}"))
    store.save()
    outcomes = {c.path: (Outcome(found[c.path][0].status, *found[c.path]) if c.path in found
                         else Outcome("running")) for c in cases}
    conf = Conformance("running" if pending else "complete", outcomes, profile, budget, pending,
                       rerun=len(found) - reused, reused=reused, seconds=time.perf_counter() - t0)
    if not pending:
        digests = [store.entries[test_key(c.path, profile, budget)].value_digest for c in cases]
        conf.coverage = unit_coverage(spec, (m.hits for m, _s, _n in found.values() if m.hits is not None),
                                      revision, digests)
    return conf


_COVERAGE: dict[str, dict[str, dict]] = {}  # digest of the tests' hits -> per-unit figures (a server's last few)


def unit_coverage(spec: Spec, hits: Iterable[Hits], revision: Revision, results: list[str]) -> dict[str, dict]:
    """Per unit path, the figures a unit page shows, from the union of every test's own coverage.

    The same figures while the results (``results``: their value digests) and every declaration's
    position (the index's declaration digests) are unchanged: an edit of prose reuses them.
    """
    h = hashlib.blake2b(digest_size=16)
    h.update(str(spec.root).encode())
    h.update("\n".join(sorted(revision.index.digests.values())).encode())
    h.update("\n".join(u.path for u in revision.index.units).encode())
    h.update("\n".join(results).encode())
    key = h.hexdigest()
    hit = _COVERAGE.get(key)
    if hit is None:
        union: set[tuple[str, int, int]] = set()
        for b in hits:
            union |= unpack_hits(b)
        hit = figures(measure(spec, union))
        while len(_COVERAGE) >= 2:
            _COVERAGE.pop(next(iter(_COVERAGE)))
        _COVERAGE[key] = hit
    return hit


def figures(cov: Coverage) -> dict[str, dict]:
    """Per unit path: statements, executed, percent, functions, and what no test reaches."""
    out = {}
    for u in cov.units:
        lines = u.line_hits()
        out[u.path] = {
            "statements": len(u.statements), "executed": u.executed,
            "percent": f"{100.0 * u.executed / len(u.statements):.1f}" if u.statements else "-",
            "functions": len(u.functions), "functions_executed": u.functions_executed,
            "unreached": sorted(n for n, hit in lines.items() if not hit),
            "functions_unreached": [name for name, _line, hit in u.functions if not hit],
        }
    return out


def _unset(graph: SpecGraph) -> Conformance | None:
    return None


CONFORMANCE: Derived[Conformance | None] = Derived(_unset)
"""The suite a site build measured for this graph (set by the site; None: no build asked)."""


def affected(store: Store, cases: list[TestCase], what: str, profile: str, max_steps: int,
             root_rel: Callable[[str], str | None]) -> list[TestCase]:
    """The tests whose last recorded reads include the file or ASL definition ``what``."""
    rel = root_rel(what)
    keys = {f"file:{rel}"} if rel is not None else set()
    keys |= {f"asl:{what}", f"file:{what}"}
    out = []
    for c in cases:
        e = store.entries.get(test_key(c.path, profile, max_steps))
        if e is not None and not keys.isdisjoint(e.reads):
            out.append(c)
    return out


def changed(store: Store, revision: Revision, cases: list[TestCase], profile: str, max_steps: int) -> list[TestCase]:
    """The tests without a result valid for this revision (never run, or something they read changed)."""
    return [c for c in cases if valid_result(store, revision, c, profile, max_steps, coverage=False) is None]


__all__ = ["CONFORMANCE", "Conformance", "Measured", "Outcome", "VERSION", "affected", "changed", "conformance",
           "record", "test_key", "tests_store", "unit_coverage", "valid_result"]
