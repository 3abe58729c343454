"""A unit's whole source, language-neutral; planned only when sources are not linked elsewhere.

Listings are data, not prose: the site keeps them out of the search index.
"""

from __future__ import annotations

from typing import Any

from ..i18n import Messages
from ..links import source_uri, unit_uri
from ..pages import Ctx, PageKind, PagePlan
from ..plan import Planning, Search
from ..xref import linked_listing, symbol_deps


def source_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    path = plan.subject
    unit = cx.graph.units_by_path[path]
    ctx = cx.base()
    ctx.update({"title": path, "unit": unit, "path": path, "sha256": unit.sha256, "crumbs": [],
                "pages": [(Messages(lang)("lang.name"),
                           cx.link(unit_uri(lang, path))) for lang in cx.langs],
                "html": linked_listing(cx, unit.text, anchor="L")})
    return ctx


def plan_sources(p: Planning, lang: str) -> list[PagePlan]:
    """Planned only when no ``source_url`` links sources elsewhere."""
    if not p.local_sources:
        return []
    return [PagePlan(source_uri(u.path), KIND, "", u.path, frozenset({u.path} | symbol_deps(p.graph, u.path)), u.path)
            for u in p.graph.spec.units]


KIND = PageKind("source", "source.html", source_context, plan_sources, search=Search.EXCLUDED, per_language=False)
