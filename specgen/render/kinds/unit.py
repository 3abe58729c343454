"""The page of an ASL unit that is not an instruction: its records, clauses, listings and trace."""

from __future__ import annotations

import posixpath
from typing import Any

from ...models.located import AslUnit
from ..html import highlight_asl
from ..links import tests_uri
from ..pages import Ctx, PageKind, PagePlan, unit_title


def unit_common(cx: Ctx, unit: AslUnit) -> dict[str, Any]:
    """What an instruction page shows too: both kinds describe one ``.asl`` file."""
    ctx = cx.base()
    ctx.update({
        "unit": unit, "title": unit_title(unit), "path": unit.path, "sha256": unit.sha256,
        "crumbs": cx.crumbs(posixpath.dirname(unit.path)),
        "records": cx.records(unit), "clauses": cx.clauses(unit), "listings": cx.doc_listings(unit),
        "trace": cx.trace(unit), "index_record": cx.index_record(unit),
        "source_href": cx.src(unit.path),
        "tests_href": cx.link(tests_uri(cx.plan.lang, unit.path)) if cx.graph.unit_tests(unit) else None,
        "depends_on": [(d, cx.requirement_href(d)) for d in
                       ((unit.instruction or unit.unit).depends_on if (unit.instruction or unit.unit) else [])],
    })
    return ctx


def unit_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ctx = unit_common(cx, unit)
    ctx["full_listing"] = highlight_asl(unit.text, anchor="L") if unit.text else None
    return ctx


KIND = PageKind("unit", "unit.html", unit_context)
