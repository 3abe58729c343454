"""What pages say about the AVS suite this build measured: each test's outcome, a unit's coverage.

The build (or the server) sets the graph's :data:`~specgen.asl.conformance.CONFORMANCE`; a page shows
a result only when it is valid for exactly this revision of the tree (the test and every ASL
definition its run read unchanged, the same profile and step budget), with the digest of what it
was measured on. Otherwise it says why there is none: the suite is running (under ``specgen
serve``), was skipped (``--skip-tests``), or was not run by whatever rendered the page.

Each page's cache key includes the outcomes it shows (:func:`page_key`), so a result that comes in
re-renders exactly the pages showing that test.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable

from ..asl.conformance import CONFORMANCE, Conformance, TestOutcome
from ..graph import SpecGraph
from ..models.located import AslUnit, AvsTest

STATUSES = ("passed", "failed", "error", "not-derivable", "running", "skipped", "not-run")  # runner.STATUSES and more


def _source_line(graph: SpecGraph, location: str) -> str:
    """The text of the line a failure names (``path:line:col``), from the unit or test as loaded."""
    try:
        path, line, _col = location.rsplit(":", 2)
        n = int(line)
    except ValueError:
        return ""
    unit = graph.units_by_path.get(path)
    text = unit.text if unit is not None else next((t.text for t in graph.spec.tests if t.path == path), "")
    lines = text.splitlines()
    return lines[n - 1].strip() if 0 < n <= len(lines) else ""


def names_of(graph: SpecGraph, test: AvsTest) -> list[str]:
    """The names of the tests one file holds in the suite's outcomes: its path, or ``<path>::<function>`` for
    each test function of a shard (an older layout, :func:`specgen.asl.runner.test_key`)."""
    conv = graph.spec.test_functions
    if test.header is None and conv is not None:
        return [conv.key(test.path, name) for name, _line in conv.functions(test.text)]
    return [test.path]


def outcome(graph: SpecGraph, name: str) -> tuple[Conformance | None, TestOutcome]:
    conf = CONFORMANCE(graph)
    if conf is None:
        return None, TestOutcome("not-run")
    return conf, conf.outcomes.get(name, TestOutcome("not-run"))


def test_result(cx: Any, test: AvsTest, name: str | None = None) -> dict[str, Any]:
    """One test's outcome as the templates lay it out (``name``: a shard's test function)."""
    conf, o = outcome(cx.graph, name or test.path)
    out: dict[str, Any] = {"status": o.status, "label": cx.t("test.status." + o.status), "message": "",
                           "location": "", "source": "", "profile": "", "measured": "",
                           "note": cx.t(f"test.note.{o.status}") if o.result is None else ""}
    r = o.result
    if r is not None and conf is not None:
        out.update(message=r.message, location=r.location, profile=conf.profile,
                   source=_source_line(cx.graph, r.location) if r.location and r.status != "passed" else "",
                   measured=cx.t("test.measured", stamp=o.stamp[:12], reads=o.reads, profile=conf.profile,
                                 budget=f"{conf.max_steps:,}", bits=f"{conf.max_value_bits:,}"))
    return out


def unit_tests(graph: SpecGraph, unit: AslUnit) -> list[AvsTest]:
    """The tests an instruction or unit page lists: its own, and those of its clauses."""
    seen: dict[str, AvsTest] = {t.path: t for t in graph.unit_tests(unit)}
    ids = [c.id for c in unit.clauses] + ([unit.instruction.clause_id] if unit.instruction else [])
    for rid in ids:
        for t in graph.tests_by_requirement.get(rid, []):
            seen.setdefault(t.path, t)
    return sorted(seen.values(), key=lambda t: t.path)


def summary(cx: Any, tests: list[AvsTest]) -> dict[str, Any] | None:
    """The line above a unit's trace: how many of its tests passed, failed, errored, are running."""
    if not tests:
        return None
    counts = {s: 0 for s in STATUSES}
    for t in tests:
        for name in names_of(cx.graph, t):
            counts[outcome(cx.graph, name)[1].status] += 1
    parts = [cx.t("test.count." + s, count=n) for s, n in counts.items() if n]
    worst = next((s for s in ("error", "failed", "running", "skipped", "not-run", "not-derivable") if counts[s]), "passed")
    return {"status": worst, "text": ", ".join(parts)}


def coverage_view(graph: SpecGraph, path: str) -> tuple[dict[str, Any] | None, str]:
    """A unit's coverage and the state of its measurement (measured | running | skipped | not-run).

    "running" only while a test that executed this unit in its last recorded run is running again (or, on a
    first serve, while any test has never been measured); every other unit keeps its figure, so a one-test
    edit re-renders the pages of the units that test runs, not every unit page.
    """
    conf = CONFORMANCE(graph)
    if conf is None:
        return None, "not-run"
    if conf.state == "skipped":
        return None, "skipped"
    if conf.measuring is None or path in conf.measuring:
        return None, "running"
    return conf.coverage.get(path), "measured"


def handler_coverage(graph: SpecGraph, unit: AslUnit) -> list[dict[str, Any]]:
    """The semantic handlers an instruction's catalog records call, each with the file that defines it and
    that file's coverage: an instruction's own file holds a few wrapper statements (TMUL: 5, all run), so
    its figure alone read "100 %" while the shared handler that does the work (``ExecuteTileBinary``) was
    at 73 %. A handler defined in the instruction's own file is not repeated."""
    from .symbols import SYMBOLS

    if unit.instruction is None:
        return []
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for rec in unit.instruction.catalog_records:
        name = getattr(rec, "semantic_handler", None)
        if not isinstance(name, str) or name in seen:
            continue
        seen.add(name)
        paths = sorted({d.path for d in SYMBOLS(graph).defs.get(name, ())})
        for path in paths:
            if path != unit.path:
                figure, state = coverage_view(graph, path)
                out.append({"handler": name, "path": path, "coverage": figure, "state": state})
    return out


def page_key(graph: SpecGraph, tests: Iterable[AvsTest], unit_path: str | None = None) -> str:
    """Part of a page's cache key: the outcomes of the tests it shows, and its unit's coverage."""
    conf = CONFORMANCE(graph)
    if conf is None:
        return "-"
    tests = tuple(tests)
    memo = (unit_path, tuple(t.path for t in tests))
    got = conf.page_keys.get(memo)
    if got is None:
        got = conf.page_keys[memo] = _page_key(graph, conf, tests, unit_path)
    return got


def _page_key(graph: SpecGraph, conf: Conformance, tests: tuple[AvsTest, ...], unit_path: str | None) -> str:
    # not the suite's state: a test page changes when one of its own tests' outcome does, not when another
    # test starts running somewhere (which would re-render every test page for a one-test edit)
    # shown with each result
    h = hashlib.blake2b(f"{conf.profile}\0{conf.max_steps}\0{conf.max_value_bits}\0{conf.max_memory}".encode(), digest_size=16)
    for t in tests:
        for p in names_of(graph, t):
            h.update(b"\0" + p.encode() + b"\0" + conf.outcomes.get(p, TestOutcome("not-run")).digest().encode())
    if unit_path is not None:
        h.update(repr(coverage_view(graph, unit_path)).encode())
        unit = graph.units_by_path.get(unit_path)
        if unit is not None:  # the shared handlers' figures are shown beside the file's own
            h.update(repr(handler_coverage(graph, unit)).encode())
    return h.hexdigest()


def suite_key(graph: SpecGraph) -> str:
    """The key part of a page that summarises the whole suite (the tests index)."""
    conf = CONFORMANCE(graph)
    if conf is None:
        return "-"
    return page_key(graph, sorted(graph.spec.tests, key=lambda t: t.path))


__all__ = ["coverage_view", "handler_coverage", "names_of", "outcome", "page_key", "suite_key", "summary", "test_result", "unit_tests"]
