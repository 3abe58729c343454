"""A directory index under ``asl/``: its subdirectories and the units directly in it."""

from __future__ import annotations

import posixpath
from typing import Any

from ..links import dir_index_uri
from ..pages import IDS, Ctx, PageKind, PagePlan, ids_digest, unit_title


def index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    d = plan.subject
    ctx = cx.base()
    units = sorted(cx.data.dir_units.get(d, []), key=lambda u: unit_title(u).lower())
    subdirs = cx.data.dirs.get(d, [])
    ctx.update({
        "title": d.removeprefix("asl/"), "dir": d,
        "crumbs": cx.crumbs(posixpath.dirname(d)) if d.count("/") > 1 else cx.crumbs(None),
        "subdirs": [{"name": s.rsplit("/", 1)[-1], "href": cx.link(dir_index_uri(cx.plan.lang, s)),
                     "count": sum(1 for u in cx.graph.spec.units if u.path.startswith(s + "/"))}
                    for s in subdirs],
        "units": [{"title": unit_title(u), "href": cx.unit_href(u.path), "id": u.id or "",
                   "summary": u.instruction.summary if u.instruction else "",
                   "kind": "instruction" if u.instruction else "unit",
                   "tests": len(cx.graph.unit_tests(u))} for u in units],
    })
    return ctx


KIND = PageKind("index", "index.html", index_context, digests=((IDS, ids_digest),))
