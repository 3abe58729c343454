"""The index of AVS tests (kind ``tests-index``): units with tests, by surface, and orphan tests."""

from __future__ import annotations

from typing import Any

from ...examples.results import ExampleResult
from ...graph import SpecGraph
from ..conformance import suite_key, summary
from ..links import tests_uri
from ..pages import Ctx, PageKind, PagePlan, unit_title
from ..plan import RECORD_OF, Planning, tail


def tests_index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    groups: dict[str, list[dict[str, Any]]] = {}
    for u in cx.graph.spec.units:
        tests = cx.graph.unit_tests(u)
        if not tests:
            continue
        groups.setdefault(u.surface, []).append({
            "title": unit_title(u), "path": u.path, "count": len(tests),
            "semantic": sum(1 for x in tests if x.header and x.header.semantic),
            "results": summary(cx, tests),
            "href": cx.link(tests_uri(cx.plan.lang, u.path))})
    owned = {t.path for ts in cx.graph.tests_by_source.values() for t in ts}  # a shard is its mirrored unit's
    orphans = [t for t in cx.graph.spec.tests if t.path not in owned and (
        t.header is None or t.header.source not in cx.graph.units_by_path)]
    ctx.update({"title": cx.t("nav.tests"), "crumbs": cx.crumbs(None),
                "groups": [(cx.t("surface." + k), k, v) for k, v in sorted(groups.items())],
                "total": len(cx.graph.spec.tests),
                "orphans": [{"path": t.path, "sha256": t.sha256, "id": t.header.id if t.header else ""}
                            for t in orphans]})
    return ctx


def suite_key_of(graph: SpecGraph, plan: PagePlan, _results: dict[str, list[ExampleResult]]) -> str:
    return suite_key(graph)


def plan_tests_index(p: Planning, lang: str) -> list[PagePlan]:
    """The tests index lists each unit with tests (its record's title) and every test (its header)."""
    deps = ({RECORD_OF + u.path for u in p.graph.spec.units if p.graph.unit_tests(u)}
            | {t.path for t in p.graph.spec.tests})
    return [PagePlan(f"{lang}/tests/index.md", KIND, lang, None, frozenset(deps), "")]


KIND = PageKind("tests-index", "tests_index.html", tests_index_context, plan_tests_index, nav=tail(2),
                key=suite_key_of)
