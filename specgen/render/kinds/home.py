"""A language's home page: the surfaces with their counts, and the site-wide pages."""

from __future__ import annotations

import hashlib
from typing import Any

from ..filelinks import DOCS_INDEX
from ..links import dir_index_uri
from ...graph import SpecGraph
from ..pages import Ctx, PageKind, PagePlan, human_label
from ..plan import FACTS, HOME, Planning
from .instruction_index import instruction_index_uri


def home_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    spec = cx.graph.spec
    surfaces = sorted({u.path.split("/")[1] for u in spec.units if u.path.count("/") >= 2})
    lang = cx.plan.lang
    ctx.update({
        "title": spec.config.name or cx.t("site.title"),
        "crumbs": [],
        "surfaces": [{"name": cx.t("surface." + s), "key": s, "href": cx.link(dir_index_uri(lang, "asl/" + s)),
                      "instructions": sum(1 for u in spec.units if u.instruction and u.path.startswith(f"asl/{s}/")),
                      "units": sum(1 for u in spec.units if u.path.startswith(f"asl/{s}/"))} for s in surfaces],
        "links": ([(cx.t("index.title"), cx.link(instruction_index_uri(lang)))]
                  if any(u.instruction is not None for u in spec.units) else [])
        + [(cx.t("nav.adrs"), cx.link(f"{lang}/adr/index.md"))]
        + ([(cx.t("nav.docs"), cx.link(f"{lang}/{DOCS_INDEX}"))] if f"{lang}/{DOCS_INDEX}" in cx.data.uris else [])
        + [(cx.t("nav.tests"), cx.link(f"{lang}/tests/index.md")),
           (cx.t("nav.traceability"), cx.link(f"{lang}/traceability.md")),
           (cx.t("nav.release"), cx.link(f"{lang}/release.md"))]
        + ([(cx.t("nav.changes", previous=cx.data.changes.old), cx.link(f"{lang}/changes.md"))]
           if cx.data.changes is not None else []),
        "counts": [(human_label(cx.t, "count.", k), k, v) for k, v in spec.counts().items()],
    })
    return ctx


def home_digest(graph: SpecGraph) -> str:
    """What the home page shows: the units by surface (and which are instructions), the counts, the name."""
    spec = graph.spec
    rows = [f"{u.path}\0{u.instruction is not None}" for u in spec.units]
    return hashlib.sha256(repr((rows, sorted(spec.counts().items()), spec.config.name)).encode()).hexdigest()


def plan_home(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(f"{lang}/index.md", KIND, lang, None, frozenset({FACTS}), "")]


KIND = PageKind("home", "home.html", home_context, plan_home, nav=HOME, digests=((FACTS, home_digest),))
