"""The AVS tests of one unit (kind ``tests``): each test's header, requirements and listing.

Listings are data, not prose: the site keeps them out of the search index.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ..pages import Ctx, PageKind, PagePlan, unit_title
from ..xref import linked_listing


def tests_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ctx = cx.base()
    tests = []
    for tst in cx.graph.unit_tests(unit):
        h = tst.header
        assert h is not None
        s, e = tst.span.lines
        tests.append({
            "id": h.id, "kind": h.kind, "summary": h.summary, "pass_condition": h.pass_condition,
            "path": tst.path, "sha256": tst.sha256,
            "requirements": [(r, cx.requirement_href(r)) for r in h.requirements],
            "related": [(p, cx.unit_href(p) if p in cx.graph.units_by_path else None) for p in h.related_sources],
            "header_src": cx.src(tst.path, s, e) if cx.source_url else None,
            "html": linked_listing(cx, tst.text, anchor=h.id),
        })
    ctx.update({"unit": unit, "title": unit_title(unit), "path": unit.path, "tests": tests,
                "unit_href": cx.unit_href(unit.path), "crumbs": cx.crumbs(posixpath.dirname(unit.path))})
    return ctx


KIND = PageKind("tests", "tests.html", tests_context, searchable=False)
