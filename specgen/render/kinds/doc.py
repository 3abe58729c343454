"""A prose document of the tree (a guide, a governance page, a plan): its Markdown as a page.

The text is the spec's own, in the spec's language on every language's page (a page in another
language says so in its own). Its relative links go to the pages of the files they name
(:mod:`specgen.render.filelinks`); its headings keep the anchors the repository's links use.
"""

from __future__ import annotations

from typing import Any

from ..filelinks import DOCS_INDEX, FILES, files_digest, markdown_resolver, paged_docs
from ..i18n import Messages
from ..links import doc_uri
from ..markdown import render_markdown
from ..pages import Ctx, PageKind, PagePlan
from ..plan import SECTION, Planning


def _same_language(page_lang: str, text_lang: str) -> bool:
    return Messages(page_lang or "en").locale.split("-")[0].lower() == text_lang.split("-")[0].lower()


def doc_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    doc = next(d for d in cx.graph.spec.docs if d.path == plan.subject)
    body, _ = render_markdown(doc.body, markdown_resolver(cx, doc.path))  # the contents: the page's own h2/h3
    lang = cx.plan.lang
    ctx = cx.base()
    ctx.update({
        "title": doc.title, "doc": doc, "body": body,
        "crumbs": [(cx.t("nav.home"), cx.link(f"{lang}/index.md")), (cx.t("nav.docs"), cx.link(f"{lang}/{DOCS_INDEX}"))],
        "translated_note": not _same_language(lang, cx.graph.spec.config.text_language),
        "src_href": cx.src(doc.path, 1, doc.body_line) if cx.source_url else None,
    })
    return ctx


def plan_docs(p: Planning, lang: str) -> list[PagePlan]:
    """A document's page shows its own file, and links resolved through which files have pages."""
    root = p.graph.spec.config.doc_root
    return [PagePlan(doc_uri(lang, d.path, root), KIND, lang, d.path, frozenset({d.path, FILES} | p.common), d.title)
            for d in paged_docs(p.graph)]


#: a leaf of the documents section (the index opens it in the navigation's tail)
KIND = PageKind("doc", "doc.html", doc_context, plan_docs, nav=SECTION, digests=((FILES, files_digest),))
