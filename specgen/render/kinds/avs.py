"""The AVS tests of one unit (kind ``tests``): each test's header, requirements, result and listing.

A test's result is the one this build measured for exactly this content and configuration (the test
file and every ASL definition its run read, the profile, the step and value budgets, specgen's code):
the suite runs as part of the build, reusing each result while nothing it read changed
(:mod:`specgen.asl.conformance`). Under ``specgen serve`` a test whose inputs changed says "running"
until its new result is in; a build told to skip the suite says so (:mod:`specgen.render.conformance`).
A shard of an older layout shows each of its test functions with its own result. Listings are data,
not prose: the site keeps them out of the search index.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ...examples.results import ExampleResult
from ...graph import SpecGraph
from ...models.located import AvsTest
from ..conformance import page_key, test_result
from ..links import tests_uri
from ..pages import Ctx, PageKind, PagePlan, unit_title
from ..plan import Planning, Search
from ..xref import linked_listing


def tests_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ctx = cx.base()
    tests = []
    for tst in cx.graph.unit_tests(unit):
        h = tst.header
        if h is None:  # a shard of test functions: each function with its own last result
            tests.append(_shard(cx, tst))
            continue
        s, e = tst.span.lines
        tests.append({
            "id": h.id, "shard": False, "kind": h.kind, "summary": h.summary, "pass_condition": h.pass_condition,
            "path": tst.path, "sha256": tst.sha256,
            "requirements": [(r, cx.requirement_href(r)) for r in h.requirements],
            "related": [(p, cx.unit_href(p) if p in cx.graph.units_by_path else None) for p in h.related_sources],
            "header_src": cx.src(tst.path, s, e) if cx.source_url else None,
            "html": linked_listing(cx, tst.text, anchor=h.id),
            "result": test_result(cx, tst),
        })
    ctx.update({"unit": unit, "title": unit_title(unit), "path": unit.path, "tests": tests,
                "unit_href": cx.unit_href(unit.path), "crumbs": cx.crumbs(posixpath.dirname(unit.path))})
    return ctx


def _shard(cx: Ctx, tst: AvsTest) -> dict[str, Any]:
    conv = cx.graph.spec.test_functions
    functions = conv.functions(tst.text) if conv is not None else []
    return {"id": posixpath.basename(tst.path), "shard": True, "path": tst.path, "sha256": tst.sha256,
            "functions": [{"name": name, "line": line, "result": test_result(cx, tst, conv.key(tst.path, name))}
                          for name, line in functions],
            "html": linked_listing(cx, tst.text, anchor=posixpath.basename(tst.path))}


def results_key(graph: SpecGraph, plan: PagePlan, _results: dict[str, list[ExampleResult]]) -> str:
    """The outcomes the page shows: a result that comes in re-renders it."""
    return page_key(graph, graph.unit_tests(graph.units_by_path[plan.subject]))


def plan_tests(p: Planning, lang: str) -> list[PagePlan]:
    out = []
    for u in p.graph.spec.units:
        tests = p.graph.unit_tests(u)
        if tests:
            deps = {u.path, *(t.path for t in tests)} | p.common | p.shown(None, tuple(t.text for t in tests))
            out.append(PagePlan(tests_uri(lang, u.path), KIND, lang, u.path, frozenset(deps), unit_title(u)))
    return out


KIND = PageKind("tests", "tests.html", tests_context, plan_tests, search=Search.IDS, key=results_key)
