"""Deferred per-file scanning: the cache, then worker processes, then the same order as a serial scan.

``load_spec`` reads every file in tree order and hands each ASL unit and AVS
test here instead of scanning it on the spot. A placeholder keeps its place
in the record list and in the finding list; :meth:`Scans.resolve` fills the
places from the record cache (an unchanged file is not parsed again) and
scans the rest, across processes when there are enough of them. The output is
the same, record for record and finding for finding, as scanning each file in
turn: every scan is a pure function of (path, hash, text).
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
from dataclasses import dataclass
from typing import Any, Callable

from ..workers import forked_worker
from ..cache import RecordCache
from ..diagnostics import Finding
from ..models.located import AslUnit, AvsTest
from .asl_units import scan_unit
from .avs import scan_test

#: Below this many files to parse, process start-up costs more than it saves.
MIN_PARALLEL = 256


@dataclass(slots=True)
class _Pending:
    """Stands in a record list and a finding list until :meth:`Scans.resolve` fills it."""

    kind: str
    path: str
    sha256: str
    text: str
    record: Any = None
    findings: list[Finding] | None = None
    shown: str | None = None  # the text later stages see, when not ``text`` (an oversized unit)


_SCANNERS: dict[str, Callable[[str, str, str, list[Finding]], Any]] = {"unit": scan_unit, "test": scan_test}
_RECORD_TYPES = {"unit": AslUnit, "test": AvsTest}
# what the on-disk pack keeps: a unit's records unpickle in half the time the scan takes; an AVS
# test's header unpickles in about the time its scan takes (0.034 s against 0.05 s for the corpus's
# 3,352), so pickling 6.8 MB of them on a cold run bought nothing (docs-internal/performance.md, item 15)
_PERSISTED = frozenset({"unit"})
_TASKS: list[_Pending] = []  # set before forking: workers read texts from here instead of a pipe


def _scan(p: _Pending) -> tuple[Any, list[Finding]]:
    found: list[Finding] = []
    rec = _SCANNERS[p.kind](p.path, p.sha256, p.text, found)
    rec.text = ""  # the caller has the text; do not ship or store it twice
    return rec, found


def _scan_chunk(bounds: tuple[int, int]) -> bytes:
    gc.disable()
    return pickle.dumps([_scan(p) for p in _TASKS[bounds[0]:bounds[1]]], protocol=pickle.HIGHEST_PROTOCOL)


def default_jobs() -> int:
    """Serial unless ``SPECGEN_JOBS`` says otherwise: on the 2-core reference machine, forking
    workers and pickling records back cost more than parsing saved (docs-internal/performance.md)."""
    try:
        return max(1, int(os.environ.get("SPECGEN_JOBS", "1")))
    except ValueError:
        return 1


class Scans:
    """The deferred ASL-unit and AVS-test scans of one load."""

    def __init__(self, cache: RecordCache | None = None, jobs: int | None = None) -> None:
        self.cache = cache
        self.jobs = default_jobs() if jobs is None else max(1, jobs)
        self.pending: list[_Pending] = []
        self.parallel_used = 0  # worker processes used by the last resolve (0: serial)

    def unit(self, path: str, sha256: str, text: str, findings: list[Any], shown: str | None = None) -> Any:
        p = self._defer("unit", path, sha256, text, findings)
        p.shown = shown
        return p

    def test(self, path: str, sha256: str, text: str, findings: list[Any]) -> Any:
        return self._defer("test", path, sha256, text, findings)

    def _defer(self, kind: str, path: str, sha256: str, text: str, findings: list[Any]) -> _Pending:
        p = _Pending(kind, path, sha256, text)
        self.pending.append(p)
        findings.append(p)
        return p

    @staticmethod
    def _key(p: _Pending) -> str:
        return f"{p.kind}\0{p.path}\0{p.sha256}"

    def resolve(self, records: list[list[Any]], findings: list[Any]) -> None:
        """Fill every placeholder in ``records`` (lists of records) and ``findings``, in place."""
        todo: list[_Pending] = []
        for p in self.pending:
            hit = (self.cache.get(self._key(p), tuple, disk=p.kind in _PERSISTED) if self.cache is not None
                   else None)
            if (hit is not None and len(hit) == 2 and isinstance(hit[0], _RECORD_TYPES[p.kind])
                    and isinstance(hit[1], list)):
                p.record, p.findings = hit
            else:
                todo.append(p)
        self._run(todo)
        for p in self.pending:
            p.record.text = p.text if p.shown is None else p.shown
        for lst in records:
            lst[:] = [x.record if isinstance(x, _Pending) else x for x in lst]
        out: list[Any] = []
        for f in findings:
            if isinstance(f, _Pending):
                # an oversized unit's size finding covers its long lines (the line limit is larger)
                out.extend(x for x in f.findings or () if f.shown is None or x.rule != "line-too-long")
            else:
                out.append(f)
        findings[:] = out
        self.pending = []

    def _run(self, todo: list[_Pending]) -> None:
        self.parallel_used = 0
        results: list[tuple[Any, list[Finding]]]
        # fork is only safe without other threads (mkdocs serve runs a server thread): serial then
        if self.jobs > 1 and len(todo) >= MIN_PARALLEL and threading.active_count() == 1 and _can_fork():
            results = self._parallel(todo)
        else:
            results = [_scan(p) for p in todo]
        for p, (rec, found) in zip(todo, results):
            p.record, p.findings = rec, found
            if self.cache is not None:
                self.cache.put(self._key(p), (rec, found), disk=p.kind in _PERSISTED)

    def _parallel(self, todo: list[_Pending]) -> list[tuple[Any, list[Finding]]]:
        import multiprocessing

        global _TASKS
        n = self.jobs
        # a few chunks per worker, so one slow chunk does not leave the other worker idle
        step = max(1, -(-len(todo) // (n * 4)))
        bounds = [(i, min(i + step, len(todo))) for i in range(0, len(todo), step)]
        _TASKS = todo
        try:
            with multiprocessing.get_context("fork").Pool(n, initializer=forked_worker) as pool:
                blobs = pool.map(_scan_chunk, bounds, chunksize=1)
        finally:
            _TASKS = []
        self.parallel_used = n
        out: list[tuple[Any, list[Finding]]] = []
        for b in blobs:
            out.extend(pickle.loads(b))
        return out


def _can_fork() -> bool:
    import multiprocessing
    return "fork" in multiprocessing.get_all_start_methods()


def memo(cache: RecordCache | None, key: str, compute: Callable[[], Any], kind: type = tuple, *,
         disk: bool = True) -> Any:
    """``compute()``, or its cached value under ``key`` (a pure function of what the key names).

    ``disk=False`` for a value that unpickles no faster than ``compute`` makes it: kept only by
    a long-lived process (:meth:`RecordCache.put`).
    """
    if cache is not None:
        hit = cache.get(key, kind, disk=disk)
        if hit is not None:
            return hit
    value = compute()
    if cache is not None:
        cache.put(key, value, disk=disk)
    return value
