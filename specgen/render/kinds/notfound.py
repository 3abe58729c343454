"""The "page not found" page of each language (``<lang>/not-found.md``): what to do next, in the reader's language.

Every ``404.html`` of the site sends a reader here with the address asked for
(``?from=``; :mod:`specgen.site.notfound`), so this is an ordinary page at its
own address under any sub-path. It links the search (the site wing's script
makes the missing page's name its query), the instruction index and the home
page, and on a multi-release site every release. It is never a search result.
"""

from __future__ import annotations

from typing import Any

from ..links import release_relative
from ..pages import Ctx, PageKind, PagePlan
from ..plan import Planning, Search
from .instruction_index import instruction_index_uri

URI = "not-found.md"  # below each language directory


def notfound_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    lang, t = plan.lang, cx.t
    rs = cx.data.releases
    has_index = any(u.instruction is not None for u in cx.graph.spec.units)
    ctx.update({
        "title": t("notfound.title"), "crumbs": cx.crumbs(None), "banner": None,
        "home": cx.link(f"{lang}/index.md"),
        "search": cx.link(f"{lang}/index.md"),  # the script adds ?q=<the missing page's name>
        "index": cx.link(instruction_index_uri(lang)) if has_index else None,
        "releases": [(name, release_relative(plan.uri, name, f"{lang}/index.md", cx.link.directory_urls))
                     for name in reversed(rs.names)] if rs is not None else [],
    })
    return ctx


def plan_notfound(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(f"{lang}/{URI}", KIND, lang, None, frozenset(), "")]


KIND = PageKind("not-found", "notfound.html", notfound_context, plan_notfound, search=Search.EXCLUDED)
