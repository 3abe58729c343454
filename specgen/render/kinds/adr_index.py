"""The list of architecture decision records, by id."""

from __future__ import annotations

from typing import Any

from ..links import adr_uri
from ..pages import Ctx, PageKind, PagePlan
from ..plan import Planning, tail


def adr_index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    lang = cx.plan.lang
    ctx.update({"title": cx.t("nav.adrs"), "crumbs": cx.crumbs(None),
                "adrs": [{"id": a.front.id, "title": a.front.title, "status": a.front.status,
                          "created": str(a.front.created), "href": cx.link(adr_uri(lang, a.path))}
                         for a in sorted(cx.graph.adrs, key=lambda a: a.front.id)]})  # type: ignore[union-attr]
    return ctx


def plan_adr_index(p: Planning, lang: str) -> list[PagePlan]:
    # it lists the ADRs: their files, not the whole tree
    return [PagePlan(f"{lang}/adr/index.md", KIND, lang, None, frozenset(a.path for a in p.graph.adrs), "")]


KIND = PageKind("adr-index", "adr_index.html", adr_index_context, plan_adr_index, nav=tail(3))
