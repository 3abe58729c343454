"""Live conformance: every AVS test's result as a derived result of the layer, for the site and the command line.

Each test's verdict and the statements it executed (its coverage) are one entry of the ``tests``
store of :mod:`specgen.cache.layer`, keyed by the test (:func:`specgen.asl.runner.test_key`: its path,
or ``<path>::<function>`` for a shard's test function), the profile and every budget that changes a
result (``max_steps``, ``max_value_bits``, ``max_memory_bytes``), in a store whose version is specgen's source digest
(issue 24's rule: a result under another key reads "not run"), and valid while nothing it read has
changed: the test file and every ASL definition its run executed or asked about
(:mod:`specgen.asl.trail`). :func:`conformance` is what a build runs: the tests without a valid
result are run (with ``jobs`` workers, coverage on), the rest reused; a unit's coverage is the union of
the hits of the tests that executed it (:func:`unit_coverage`). Under ``specgen serve`` the plugin asks
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
from functools import cached_property
from typing import Callable

from ..workspace import current
from ..cache import package_digest
from ..cache.layer import Reads, Store
from ..graph import Derived, SpecGraph
from ..loader.config import DEFAULT_MAX_MEMORY_BYTES
from .catalog_modules import release_shards
from .coverage import unit_figures
from .revision import REVISION, Revision, asl_keys
from .runkey import DEFAULT_PROFILE
from .runner import Hits, TestCase, TestRunReport, discover, run_cases, test_key, unpack_hits
from ..cache import codec

VERSION = package_digest()  # a result computed by other code is never shown (issue 24)
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
        return self._shown

    @cached_property
    def _shown(self) -> str:  # once per result: a server's rebuild keys 3,362 pages on 20,000 of them
        return hashlib.blake2b(repr((self.id, self.status, self.message, self.location, self.stack,
                                     self.reason)).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class TestOutcome:
    """What a page says about one test: a result valid for this revision, or why there is none."""

    status: str  # passed | failed | error | running | skipped | not-run
    result: Measured | None = None
    stamp: str = ""  # digest of everything the result was measured on
    reads: int = 0  # how many inputs (the file and the ASL definitions) it read

    def digest(self) -> str:
        return f"{self.status}:{self.stamp}:{self.result.shown() if self.result is not None else ''}"


@dataclass
class Conformance:
    """The suite for one revision: each test's outcome, and each unit's coverage from the results that are in."""

    state: str  # complete | running (results pending, under serve) | skipped (the build was told not to run)
    outcomes: dict[str, TestOutcome]
    profile: str
    max_steps: int
    max_value_bits: int
    pending: list[TestCase] = field(default_factory=list)
    coverage: dict[str, dict] = field(default_factory=dict)  # unit path -> figures from the results in
    measuring: frozenset[str] | None = frozenset()  # units a pending test executed last (None: every unit)
    rerun: int = 0
    reused: int = 0
    seconds: float = 0.0
    max_memory: int = DEFAULT_MAX_MEMORY_BYTES  # bytes one test may hold at once
    # what the pages key on, once per page subject (both languages' pages of a unit ask the same)
    page_keys: dict[object, str] = field(default_factory=dict, repr=False, compare=False)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.outcomes.values():
            out[o.status] = out.get(o.status, 0) + 1
        return out

    def summary(self) -> str:
        """The build's line: what ran, what was reused, the verdicts."""
        c = self.counts()
        verdicts = ", ".join(f"{c[s]} {s}" for s in ("passed", "failed", "error", "not-derivable", "running", "skipped")
                             if c.get(s))
        if self.state == "skipped":
            return f"AVS tests: skipped ({len(self.outcomes)} tests; the pages say so)"
        return (f"AVS tests: {verdicts or 'none'} ({self.rerun} run, {self.reused} reused"
                + (f", in {self.seconds:.1f} s" if self.rerun else "") + ")")


def result_key(name: str, profile: str, max_steps: int, max_value_bits: int, max_memory: int) -> str:
    """The layer's key of one test's result (``name``: :func:`specgen.asl.runner.test_key`)."""
    return f"{name}@{_settings(profile, max_steps, max_value_bits, max_memory)}"


def _settings(profile: str, max_steps: int, max_value_bits: int, max_memory: int) -> str:
    return f"{profile}@{max_steps}@{max_value_bits}@{max_memory}"


def case_name(case: TestCase) -> str:
    """What names ``case`` in the suite's outcomes (its path, or ``<path>::<function>`` for a shard's)."""
    return test_key(case.path, case.id)


def tests_store(revision: Revision) -> Store:
    return revision.layer.store("tests", VERSION)


def record(store: Store, revision: Revision, report: TestRunReport, max_steps: int, max_value_bits: int,
           max_memory: int) -> None:
    """Keep each result of ``report`` (a run of ``revision``'s spec under these budgets) with what it read."""
    for r in report.results:
        name = test_key(r.path, r.id)
        key = result_key(name, report.profile, max_steps, max_value_bits, max_memory)
        if report.coverage is None:  # a run without coverage keeps a valid result that has it (same verdict)
            old = store.valid(key, revision.inputs)
            if old is not None and isinstance(old.value, Measured) and old.value.hits is not None:
                continue
        reads = Reads()
        reads.file(r.path)
        reads.config("source_roots")  # which units the names resolve in, and whose statements are counted
        reads.update(asl_keys(report.reads.get(name, frozenset())))
        hits = report.hits.get(name) if report.coverage is not None else None
        value = Measured(r.id, r.path, r.status, r.message, r.location, tuple(r.stack), r.reason,
                         round(r.seconds, 4), hits)
        store.put(key, value, reads, revision.inputs)


def valid_result(store: Store, revision: Revision, case: TestCase, profile: str, max_steps: int,
                 max_value_bits: int, max_memory: int, coverage: bool) -> tuple[Measured, str, int] | None:
    """The result of ``case`` measured on exactly this revision (with coverage when asked), else None."""
    e = store.valid(result_key(case_name(case), profile, max_steps, max_value_bits, max_memory), revision.inputs)
    if e is None or not isinstance(e.value, Measured) or (coverage and e.value.hits is None):
        return None
    return e.value, e.stamp, len(e.reads)


def conformance(graph: SpecGraph, *, jobs: int = 1, run: bool = True, skip: bool = False,
                profile: str = DEFAULT_PROFILE, max_steps: int | None = None, max_value_bits: int | None = None,
                max_memory: int | None = None, progress: Callable[[int, int], None] | None = None) -> Conformance:
    """The suite for ``graph``: valid results reused, the others run (``run``) or left pending.

    ``skip``: nothing runs and every page says the suite was skipped (a quick build).
    """
    spec = graph.spec
    budget = max_steps or spec.config.max_steps
    bits = max_value_bits or spec.config.max_value_bits
    memory = max_memory or spec.config.max_memory_bytes
    cases = discover(spec)
    if skip:
        return Conformance("skipped", {case_name(c): TestOutcome("skipped") for c in cases}, profile, budget, bits,
                           max_memory=memory)
    t0 = time.perf_counter()
    revision = REVISION(graph)
    store = tests_store(revision)
    found: dict[str, tuple[Measured, str, int]] = {}
    pending: list[TestCase] = []
    for c in cases:
        got = valid_result(store, revision, c, profile, budget, bits, memory, coverage=True)
        if got is None:
            pending.append(c)
        else:
            found[case_name(c)] = got
    reused = len(found)
    if run and pending:
        report = run_cases(spec, pending, jobs, profile, budget, coverage=True, progress=progress, max_value_bits=bits,
                           max_memory=memory)
        record(store, revision, report, budget, bits, memory)
        for c in pending:
            got = valid_result(store, revision, c, profile, budget, bits, memory, coverage=True)
            if got is not None:
                found[case_name(c)] = got
        pending = [c for c in pending if case_name(c) not in found]
    settings = _settings(profile, budget, bits, memory)
    live = {result_key(case_name(c), profile, budget, bits, memory) for c in cases}
    store.drop(lambda k: k in live or not k.endswith("@" + settings))
    store.save()
    outcomes = {case_name(c): (TestOutcome(found[case_name(c)][0].status, *found[case_name(c)])
                               if case_name(c) in found else TestOutcome("running")) for c in cases}
    conf = Conformance("running" if pending else "complete", outcomes, profile, budget, bits, pending,
                       rerun=len(found) - reused, reused=reused, seconds=time.perf_counter() - t0,
                       max_memory=memory)
    conf.coverage, conf.measuring = unit_coverage(revision, store, cases, found, pending, settings)
    if run and jobs > 1:  # the workers ran the shards; this process runs none of them
        release_shards(spec)
    return conf


def _figures() -> dict[str, dict]:
    """The workspace's table: unit content + the results that executed it -> its figures (a server's) (it dies with the workspace)."""
    return current().table("asl.conformance._FIGURES")


def unit_coverage(revision: Revision, store: Store, cases: list[TestCase], found: dict[str, tuple[Measured, str, int]],
                  pending: list[TestCase], settings: str) -> tuple[dict[str, dict], frozenset[str] | None]:
    """Per unit path, the figures a unit page shows, and the units whose figures wait for a pending test.

    A unit's coverage is a function of the results of exactly the tests that executed it: the union of
    their hits in that unit, reused while the unit's text and those results are unchanged. A pending test
    (its inputs changed, under serve) makes *measuring* the units its last recorded run executed; every
    other unit keeps its figure, and so does a unit the results in already execute completely (a union of
    hits cannot grow past it). A pending test never measured at all could execute any unit: then every
    unit is measuring (None), as on a first serve.
    """
    by_unit = _results_by_unit(store, cases, found, settings)
    measuring: set[str] | None = set()
    for c in pending:
        last = store.entries.get(f"{case_name(c)}@{settings}")
        hits = last.value.hits if last is not None and isinstance(last.value, Measured) else None
        if hits is None:
            measuring = None
            break
        measuring.update(hits)
    index = revision.index
    out: dict[str, dict] = {}
    for i, path in enumerate(index.files):
        digests, parts = by_unit.get(path, _NO_PARTS)
        key = index.keys[i] + "|" + digests
        hit = _figures().get(key)
        if hit is None:
            executed: set[tuple[int, int]] = set()
            for _d, blob in parts:
                executed.update((line, col) for _p, line, col in unpack_hits({path: blob}))
            hit = unit_figures(index, i, path, executed)
            if len(_figures()) > 50000:
                _figures().clear()
            _figures()[key] = hit
        out[path] = hit
    if measuring is None:
        return out, None
    # hits only add up: a unit whose every statement and function the results in already executed has its
    # final figure whatever the pending tests do (the model's reset and register units, on the corpus)
    return out, frozenset(p for p in measuring if p not in out or not _complete(out[p]))


_NO_PARTS: tuple[str, list[tuple[str, bytes]]] = ("", [])


def _results_by_unit(store: Store, cases: list[TestCase], found: dict[str, tuple[Measured, str, int]],
                     settings: str) -> dict[str, tuple[str, list[tuple[str, bytes]]]]:
    """Per unit path, the results that executed it: their value digests joined (a figure's key) and
    (digest, hits) sorted.

    Gathering them walks every hit of every result (55,000 on 0.58.3, a tenth of a prose rebuild under
    serve), and between two rebuilds the results are mostly the same: the table is kept in the workspace
    and cut off when every result with hits has the value digest it had (an edit that changed no result).
    """
    results = []
    for c in cases:
        name = case_name(c)
        got = found.get(name)
        if got is not None and got[0].hits is not None:
            results.append((name, store.entries[f"{name}@{settings}"].value_digest, got[0]))
    signature = tuple((name, digest) for name, digest, _m in results)
    memo: dict = current().table("asl.conformance.by_unit")
    if memo.get("signature") == signature:
        return memo["by_unit"]  # type: ignore[no-any-return]
    gathered: dict[str, list[tuple[str, bytes]]] = {}
    for _name, digest, measured in results:
        for path, blob in measured.hits.items():  # type: ignore[union-attr]
            gathered.setdefault(path, []).append((digest, blob))
    by_unit = {}
    for path, parts in gathered.items():
        parts.sort()
        by_unit[path] = (",".join(d for d, _b in parts), parts)
    memo.clear()
    memo.update(signature=signature, by_unit=by_unit)
    return by_unit


def _complete(figures: dict) -> bool:
    return figures["executed"] == figures["statements"] and figures["functions_executed"] == figures["functions"]


def _unset(graph: SpecGraph) -> Conformance | None:
    return None


CONFORMANCE: Derived[Conformance | None] = Derived(_unset)
"""The suite a site build measured for this graph (set by the site; None: no build asked)."""


def affected(store: Store, revision: Revision, cases: list[TestCase], what: str, profile: str, max_steps: int,
             max_value_bits: int, max_memory: int, root_rel: Callable[[str], str | None]) -> list[TestCase]:
    """The tests whose last recorded reads include the file or ASL definition ``what``.

    A test read a file when it read the file itself (the test, a text shown) or a definition the file
    holds (:meth:`~specgen.asl.revision.Revision.declared_in`: a unit's names; a catalog's generated ASL).
    """
    keys = {f"asl:{what}", f"file:{what}"}
    for rel in {root_rel(what), what} - {None}:
        keys |= {f"file:{rel}"} | revision.declared_in(rel)  # type: ignore[arg-type]
    out = []
    for c in cases:
        e = store.entries.get(result_key(case_name(c), profile, max_steps, max_value_bits, max_memory))
        if e is not None and not keys.isdisjoint(e.reads):
            out.append(c)
    return out


def changed(store: Store, revision: Revision, cases: list[TestCase], profile: str, max_steps: int,
            max_value_bits: int, max_memory: int) -> list[TestCase]:
    """The tests without a result valid for this revision (never run, or something they read changed)."""
    return [c for c in cases if valid_result(store, revision, c, profile, max_steps, max_value_bits, max_memory,
                                             coverage=False) is None]


__all__ = ["CONFORMANCE", "Conformance", "Measured", "TestOutcome", "VERSION", "affected", "case_name", "changed",
           "conformance", "record", "result_key", "tests_store", "unit_coverage", "valid_result"]


# what the dependency-tracked layer may hold of this module (specgen.cache.codec)
codec.register(Measured, TestOutcome)
