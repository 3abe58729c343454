"""The page of an ASL unit that is not an instruction: its records, clauses, listings and trace."""

from __future__ import annotations

import hashlib
import json
import posixpath
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from ...asl.coverage import stored_path, tree_key
from ...graph import Derived, SpecGraph
from ...models.located import AslUnit
from ..links import tests_uri, unit_uri
from ..pages import COVERAGE, Ctx, PageKind, PagePlan, unit_title
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
        "coverage": STORED_COVERAGE(cx.graph).get(unit.path) if STORED_COVERAGE(cx.graph) is not None else None,
        "coverage_measured": STORED_COVERAGE(cx.graph) is not None,
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


def _stored_coverage(graph: SpecGraph) -> dict[str, dict[str, Any]] | None:
    """Per unit path, the coverage ``specgen test --coverage`` stored for exactly this ASL content.

    None when no run measured this content (the page then says so, rather
    than showing nothing); see docs-internal/asl-interpreter.md.
    """
    try:
        doc = json.loads(_coverage_file(graph).read_text(encoding="utf-8"))
        units = doc["units"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    out = {}
    for u in units:
        lines = u.get("lines", {})
        out[u["path"]] = {
            "statements": u["statements"], "executed": u["executed"],
            "percent": f"{100.0 * u['executed'] / u['statements']:.1f}" if u["statements"] else "-",
            "functions": u["functions"], "functions_executed": u["functions_executed"],
            "unreached": sorted(int(n) for n, hit in lines.items() if not hit),
            "functions_unreached": [f["name"] for f in u.get("function_list", []) if not f["executed"]],
        }
    return out


STORED_COVERAGE = Derived(_stored_coverage)


def _coverage_file(graph: SpecGraph) -> Path:
    """Where a plain ``specgen test --coverage`` of exactly this tree, with its own budgets, stored its coverage."""
    return stored_path(tree_key(graph.spec))


def coverage_digest(graph: SpecGraph) -> str:
    """The stored coverage's digest ("-" for none): a new measurement re-renders the unit pages."""
    try:
        return hashlib.sha256(_coverage_file(graph).read_bytes()).hexdigest()
    except OSError:
        return "-"


def mark_unreached(listing: Markup, lines: list[int], title: str) -> Markup:
    """The listing with each unreached line marked (class ``sg-unreached``: its number in the gutter)."""
    text = str(listing)
    attr = str(escape(title))
    for n in lines:
        text = text.replace(f'<span class="ln" id="L-{n}">',
                            f'<span class="ln sg-unreached" id="L-{n}" title="{attr}">', 1)
    return Markup(text)


def plan_units(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(unit_uri(lang, u.path), KIND, lang, u.path, p.unit_deps(u), unit_title(u))
            for u in p.graph.spec.units if u.instruction is None]


KIND = PageKind("unit", "unit.html", unit_context, plan_units, nav=TREE, digests=((COVERAGE, coverage_digest),))
