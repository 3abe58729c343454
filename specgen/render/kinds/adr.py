"""An architecture decision record: its front matter as a table and its body as Markdown.

Relative links in the body resolve to the pages of the files they name, or to
the source when the site links sources elsewhere.
"""

from __future__ import annotations

from typing import Any

from ..html import markdown_body, resolve_relative
from ..links import adr_uri
from ..pages import IDS, Ctx, PageKind, PagePlan, ids_digest


def adr_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    adr = cx.adr_by_path(plan.subject)
    assert adr is not None and adr.front is not None
    ctx = cx.base()
    lang = cx.plan.lang

    def resolve(href: str) -> str | None:
        if href.startswith("#"):
            return href
        if href.startswith("https://") or href.startswith("http://"):
            return href
        rel = resolve_relative(adr.path, href)
        if rel is None:
            return None
        if rel in cx.graph.units_by_path:
            return cx.unit_href(rel)
        other = cx.adr_by_path(rel)
        if other is not None and other in cx.graph.adrs:
            return cx.link(adr_uri(lang, other.path))
        if cx.source_url:
            return cx.src(rel)
        return None

    front = adr.raw if isinstance(adr.raw, dict) else adr.front.model_dump(mode="json")
    rows = []
    for k in sorted(front):
        v = front[k]
        if isinstance(v, list):
            v = ", ".join(str(x) for x in v) if v else "—"
        elif v is None:
            v = "—"
        rows.append((k, str(v)))
    f = adr.front
    ctx.update({
        "title": f"{f.id}: {f.title}", "adr": adr, "front": f, "front_rows": rows,
        "crumbs": [(cx.t("nav.home"), cx.link(f"{lang}/index.md")), (cx.t("nav.adrs"), cx.link(f"{lang}/adr/index.md"))],
        "body": markdown_body(adr.body, resolve),
        # an older ADR generation (markdown headers) never recorded some of these: None, shown as none
        "units": [(uid, cx.requirement_href(uid)) for uid in f.affected_units or ()],
        "ndf": [(nid, cx.requirement_href(nid)) for nid in f.affected_ndf or ()],
        "related": [(x, cx.adr_href(x)) for x in sorted({*(f.resolves or ()), *(f.supersedes or ()),
                                                         *(f.superseded_by or ())})],
        "issue": f.implementation_issue if f.implementation_issue and f.implementation_issue.startswith("https://") else None,
        "src_href": cx.src(adr.path, 1, adr.span.lines[1]),
    })
    return ctx


KIND = PageKind("adr", "adr.html", adr_context, digests=((IDS, ids_digest),))
