"""A directory index under ``asl/``: its subdirectories and the units directly in it."""

from __future__ import annotations

import posixpath
from typing import Any

from ..links import dir_index_uri
from ...models.located import AslUnit
from ..pages import IDS, Ctx, PageKind, PagePlan, human_label, ids_digest, unit_title
from ..plan import DIRECTORY, Planning


def dir_title(cx: Ctx, d: str) -> str:
    """A reader's title for ``asl/<surface>/…``: the surface by its catalog name, a deeper directory
    by its last name as words ("elementwise-tile-tile" → "Elementwise tile tile")."""
    parts = d.split("/")
    if len(parts) == 2:
        return human_label(cx.t, "surface.", parts[1])
    words = parts[-1].replace("-", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    d = plan.subject
    ctx = cx.base()
    units = sorted(cx.data.dir_units.get(d, []), key=lambda u: unit_title(u).lower())
    subdirs = cx.data.dirs.get(d, [])

    def row(u: AslUnit) -> dict[str, Any]:
        ins = u.instruction
        return {"title": unit_title(u), "href": cx.unit_href(u.path), "id": u.id or "",
                "summary": ins.summary if ins else "",
                "classification": " / ".join(u.unit.classification) if ins is None and u.unit is not None else "",
                "engine": (ins.engine or "") if ins else "", "tests": len(cx.graph.unit_tests(u))}

    parts = d.split("/")
    ctx.update({
        "title": dir_title(cx, d), "dir": d,
        "surface": human_label(cx.t, "surface.", parts[1]) if len(parts) > 2 else "",
        "crumbs": cx.crumbs(posixpath.dirname(d)) if d.count("/") > 1 else cx.crumbs(None),
        "title_lang": cx.graph.spec.config.text_language if d.count("/") > 1 else "",
        "subdirs": [{"name": dir_title(cx, s), "key": s.rsplit("/", 1)[-1],
                     "lang": cx.graph.spec.config.text_language if s.count("/") > 1 else "", "href": cx.link(dir_index_uri(cx.plan.lang, s)),
                     "instructions": sum(1 for u in cx.graph.spec.units if u.instruction and u.path.startswith(s + "/")),
                     "count": sum(1 for u in cx.graph.spec.units if u.path.startswith(s + "/"))}
                    for s in subdirs],
        "instructions": [row(u) for u in units if u.instruction is not None],
        "units": [row(u) for u in units if u.instruction is None],
    })
    return ctx


def plan_indexes(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(dir_index_uri(lang, d), KIND, lang, d, p.dir_deps[d], d) for d in p.dirs]


KIND = PageKind("index", "index.html", index_context, plan_indexes, nav=DIRECTORY, digests=((IDS, ids_digest),))
