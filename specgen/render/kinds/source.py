"""A unit's whole source, language-neutral; planned only when sources are not linked elsewhere.

Listings are data, not prose: the site keeps them out of the search index.
"""

from __future__ import annotations

from typing import Any

from ..i18n import Messages
from ..links import unit_uri
from ..pages import Ctx, PageKind, PagePlan
from ..xref import linked_listing


def source_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    path = plan.subject
    unit = cx.graph.units_by_path[path]
    ctx = cx.base()
    ctx.update({"title": path, "unit": unit, "path": path, "sha256": unit.sha256, "crumbs": [],
                "pages": [(Messages(lang)("lang.name"),
                           cx.link(unit_uri(lang, path))) for lang in cx.langs],
                "html": linked_listing(cx, unit.text, anchor="L")})
    return ctx


KIND = PageKind("source", "source.html", source_context, searchable=False)
