"""Spreading an AVS suite over the jobs of a CI matrix, and putting the shards' reports back together.

A CI system runs ``specgen test --shard K/N`` in N jobs that share nothing but the commit (and any
file the workflow hands every job). Each job must therefore compute the same partition on its own:
:func:`partition` depends only on the selected tests (their paths and ASL text) and on the recorded
durations given to every job alike, never on the machine, the clock or a local cache. It is
deterministic, disjoint and covering by construction (every test is placed exactly once) and balanced
by longest-processing-time-first: tests sorted by recorded duration, longest first, each placed on the
shard with the least total so far (the lowest index on a tie). A test without a recorded duration is
weighed at the median recorded one; with no record at all, every test is weighed by the length of its
ASL text, which is what each job can read from the commit alone.

Each shard's report says which shard of which suite it is (:class:`ShardInfo`: K, N, the number of
tests and a digest of their paths), so :func:`merge` can refuse a missing shard, a shard of another
suite or a test run twice, instead of merging them into a report that looks complete.
"""

from __future__ import annotations

import hashlib
import heapq
import re
import statistics
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence, TypeVar

from .runner import TestResult, TestRunReport, test_key

T = TypeVar("T")
SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class ShardError(ValueError):
    """A shard spec that is not ``K/N``, or shard reports that do not make one suite."""


@dataclass(frozen=True)
class ShardInfo:
    """Which shard of which suite a report covers: shard ``index`` (1-based) of ``count``, over a suite of
    ``suite_tests`` tests whose sorted paths digest to ``suite_digest``."""

    index: int
    count: int
    suite_tests: int
    suite_digest: str

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "count": self.count, "suite_tests": self.suite_tests,
                "suite_digest": self.suite_digest}

    @classmethod
    def from_json(cls, data: object) -> "ShardInfo":
        if not isinstance(data, dict):
            raise ShardError(f"shard is {type(data).__name__}, not an object")
        try:
            return cls(int(data["index"]), int(data["count"]), int(data["suite_tests"]), str(data["suite_digest"]))
        except (KeyError, TypeError, ValueError) as e:
            raise ShardError(f"shard lacks {e}") from None


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/4"`` → ``(2, 4)``; :class:`ShardError` for anything else (``0/4``, ``5/4``, ``x``)."""
    m = SHARD.match(text)
    if m is None:
        raise ShardError(f"--shard {text!r}: expected K/N, e.g. 2/4 (shard 2 of 4)")
    k, n = int(m[1]), int(m[2])
    if n < 1 or not 1 <= k <= n:
        raise ShardError(f"--shard {text!r}: K must be between 1 and N (N at least 1)")
    return k, n


def suite_digest(paths: Iterable[str]) -> str:
    """What identifies a suite across jobs: the digest of its tests' sorted paths."""
    return hashlib.sha256("\n".join(sorted(paths)).encode()).hexdigest()


def weights(items: Sequence[tuple[str, int]], durations: Mapping[str, float]) -> dict[str, float]:
    """Each test's weight from ``(path, text length)`` pairs: its recorded duration, else the median
    recorded one; with nothing recorded for any of them, its text length."""
    recorded = [durations[p] for p, _ in items if p in durations]
    if not recorded:
        return {p: float(size) for p, size in items}
    typical = statistics.median(recorded)
    return {p: float(durations.get(p, typical)) for p, _ in items}


def partition(keys: Sequence[str], weight: Mapping[str, float], count: int) -> list[list[str]]:
    """``keys`` in ``count`` disjoint shards that cover them, balanced by ``weight`` (longest first onto the
    lightest shard); each shard in the order the keys were given."""
    if count < 1:
        raise ShardError("the number of shards must be at least 1")
    order = sorted(keys, key=lambda k: (-weight.get(k, 0.0), k))
    heap = [(0.0, i) for i in range(count)]
    placed: dict[str, int] = {}
    for key in order:
        load, i = heapq.heappop(heap)
        placed[key] = i
        heapq.heappush(heap, (load + weight.get(key, 0.0), i))
    shards: list[list[str]] = [[] for _ in range(count)]
    for key in keys:
        shards[placed[key]].append(key)
    return shards


def select_shard(cases: Sequence[T], key: Callable[[T], str], size: Callable[[T], int], durations: Mapping[str, float],
                 index: int, count: int) -> tuple[list[T], ShardInfo]:
    """Shard ``index`` of ``count`` of ``cases`` and what identifies it (``key(case)`` its path,
    ``size(case)`` its text length)."""
    keys = [key(c) for c in cases]
    w = weights([(k, size(c)) for k, c in zip(keys, cases)], durations)
    mine = set(partition(keys, w, count)[index - 1])
    return [c for c in cases if key(c) in mine], ShardInfo(index, count, len(keys), suite_digest(keys))


def durations_of(results: Iterable[TestResult]) -> dict[str, float]:
    """The recorded duration of each test a report ran: its CPU time where the report has it (a JSON report
    of specgen test), else its wall time (JUnit carries only that). CPU time is what stays put between CI
    runs on shared runners; wall time there is mostly the neighbours' load."""
    return {test_key(r.path, r.id): float(r.cpu_seconds if r.cpu_seconds > 0 else r.seconds) for r in results}


# ------------------------------------------------------------------ merging the shards' reports
@dataclass
class ShardReport:
    """One shard's report as read back: its results, its timings and which shard it was (None: a report
    of a whole suite, or a JUnit file of another tool)."""

    source: str  # the file it came from (for messages)
    results: list[TestResult]
    total_seconds: float
    load_seconds: float
    profile: str
    jobs: int
    shard: ShardInfo | None


def merge(reports: Sequence[ShardReport]) -> tuple[TestRunReport, list[ShardInfo]]:
    """One report of every shard's results (sorted by path); the wall time is the slowest shard's.

    Refuses (:class:`ShardError`) a test that two reports ran, shards of different suites or counts, a
    shard given twice, a missing shard, and results that do not add up to the suite's size.
    """
    if not reports:
        raise ShardError("nothing to merge")
    seen: dict[str, str] = {}
    results: list[TestResult] = []
    for rep in reports:
        for r in rep.results:
            key = test_key(r.path, r.id)
            if key in seen:
                raise ShardError(f"{key} is in both {seen[key]} and {rep.source}: shards must be disjoint")
            seen[key] = rep.source
            results.append(r)
    infos = [rep.shard for rep in reports if rep.shard is not None]
    if infos:
        _check_shards(reports, infos, len(results))
    profiles = sorted({rep.profile for rep in reports})
    results.sort(key=lambda r: (r.path, r.id))
    merged = TestRunReport(results, max(rep.total_seconds for rep in reports),
                           max(rep.load_seconds for rep in reports), ",".join(profiles),
                           sum(rep.jobs for rep in reports))
    return merged, sorted(infos, key=lambda i: i.index)


def _check_shards(reports: Sequence[ShardReport], infos: list[ShardInfo], tests: int) -> None:
    plain = [rep.source for rep in reports if rep.shard is None]
    if plain:
        raise ShardError(f"{', '.join(plain)}: not a shard report (no shard information) beside shard reports")
    first = infos[0]
    for rep, info in zip(reports, infos):
        if (info.count, info.suite_digest, info.suite_tests) != (first.count, first.suite_digest, first.suite_tests):
            raise ShardError(f"{rep.source} is shard {info.index}/{info.count} of another suite than "
                             f"{reports[0].source} ({info.suite_tests} vs {first.suite_tests} tests)")
    given = [i.index for i in infos]
    twice = sorted({i for i in given if given.count(i) > 1})
    if twice:
        raise ShardError(f"shard {', '.join(map(str, twice))} of {first.count} given more than once")
    missing = sorted(set(range(1, first.count + 1)) - set(given))
    if missing:
        raise ShardError(f"shard {', '.join(f'{k}/{first.count}' for k in missing)} missing: the merged report "
                         f"would not cover the suite")
    if tests != first.suite_tests:
        raise ShardError(f"the shards ran {tests} tests, the suite has {first.suite_tests}")
