"""The documents index: every prose document of the tree by folder, the section the navigation opens."""

from __future__ import annotations

import posixpath
from typing import Any

from ..filelinks import DOCS_INDEX, paged_docs
from ..links import doc_uri
from ..markdown import github_slug
from ..pages import Ctx, PageKind, PagePlan
from ..plan import Planning, tail


def doc_index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    lang, root = cx.plan.lang, cx.graph.spec.config.doc_root
    folders: dict[str, list[dict[str, str]]] = {}
    for d in sorted(paged_docs(cx.graph), key=lambda d: d.path):
        folder = posixpath.dirname(d.path.removeprefix(root.rstrip("/") + "/"))
        folders.setdefault(folder, []).append({"title": d.title, "path": d.path,
                                               "href": cx.link(doc_uri(lang, d.path, root))})
    ctx.update({"title": cx.t("nav.docs"), "crumbs": cx.crumbs(None), "root": root,
                "folders": [{"name": f or root, "anchor": "folder-" + (github_slug(f) or "root"), "docs": ds}
                            for f, ds in sorted(folders.items())]})
    return ctx


def plan_doc_index(p: Planning, lang: str) -> list[PagePlan]:
    """Only a tree with a document that has a page has the index; it lists their titles."""
    docs = paged_docs(p.graph)
    if not docs:
        return []
    return [PagePlan(f"{lang}/{DOCS_INDEX}", KIND, lang, None, frozenset({d.path for d in docs}) | p.common, "")]


KIND = PageKind("doc-index", "doc_index.html", doc_index_context, plan_doc_index, nav=tail(3))
