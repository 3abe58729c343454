"""The page of an ASL unit that is not an instruction: its records, clauses, listings and trace."""

from __future__ import annotations

import posixpath
from typing import Any

from markupsafe import Markup, escape

from ...examples.results import ExampleResult
from ...graph import SpecGraph
from ...models.located import AslUnit
from ..conformance import coverage_view, handler_coverage, page_key, summary, unit_tests
from ..links import tests_uri, unit_uri
from ..pages import Ctx, PageKind, PagePlan, unit_title
from ..plan import TREE, Planning
from ..xref import definitions, linked_listing


def unit_common(cx: Ctx, unit: AslUnit) -> dict[str, Any]:
    """What an instruction page shows too: both kinds describe one ``.asl`` file."""
    ctx = cx.base()
    ctx.update({
        "unit": unit, "title": unit_title(unit), "path": unit.path, "sha256": unit.sha256,
        "crumbs": cx.crumbs(posixpath.dirname(unit.path)),
        "records": cx.records(unit), "clauses": cx.clauses(unit), "listings": cx.doc_listings(unit),
        "trace": cx.trace(unit), "index_record": cx.index_record(unit),
        "view_present": cx.graph.spec.traceability_view is not None,
        "source_href": cx.src(unit.path),
        "tests_href": cx.link(tests_uri(cx.plan.lang, unit.path)) if cx.graph.unit_tests(unit) else None,
        "coverage": coverage_view(cx.graph, unit.path)[0],
        "coverage_state": coverage_view(cx.graph, unit.path)[1],
        "handler_coverage": [dict(h, href=cx.src(h["path"])) for h in handler_coverage(cx.graph, unit)],
        "conformance": summary(cx, unit_tests(cx.graph, unit)),
        "definitions": definitions(cx, unit.path),
        "depends_on": [(d, cx.requirement_href(d)) for d in
                       ((unit.instruction or unit.unit).depends_on if (unit.instruction or unit.unit) else [])],
    })
    return ctx


def unit_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ctx = unit_common(cx, unit)
    listing = linked_listing(cx, unit.text, anchor="L") if unit.text else None
    if listing is not None and ctx["coverage"]:
        listing = mark_unreached(listing, ctx["coverage"]["unreached"], cx.t("listing.unreached"))
    ctx["full_listing"] = listing
    return ctx


def mark_unreached(listing: Markup, lines: list[int], title: str) -> Markup:
    """The listing with each unreached line marked (class ``sg-unreached``: its number in the gutter)."""
    text = str(listing)
    attr = str(escape(title))
    for n in lines:
        text = text.replace(f'<span class="ln" id="L-{n}">',
                            f'<span class="ln sg-unreached" id="L-{n}" title="{attr}">', 1)
    return Markup(text)


def unit_key(graph: SpecGraph, plan: PagePlan, _results: dict[str, list[ExampleResult]]) -> str:
    """The outcomes of the unit's tests and its coverage: a result that comes in re-renders the page."""
    unit = graph.units_by_path[plan.subject]
    return page_key(graph, unit_tests(graph, unit), unit.path)


def plan_units(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(unit_uri(lang, u.path), KIND, lang, u.path, p.unit_deps(u), unit_title(u))
            for u in p.graph.spec.units if u.instruction is None]


KIND = PageKind("unit", "unit.html", unit_context, plan_units, nav=TREE, key=unit_key)
