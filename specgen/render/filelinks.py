"""Where a link written in the tree's own Markdown (an ADR, a prose document) goes on the site.

The tree's Markdown links files of its repository (``../governance/validation.md``,
``../../asl/tile/x/TMUL.asl``, ``../status/decisions/``). Each becomes the page that shows that file:
a document's page (its heading anchor kept), the unit page of an ASL file or of the generated copy of
one (a ``GENERATED FROM`` document has no page of its own: the unit page replaces it), an ADR's page,
the ADR index for the ADR folder, the documents index for the documents folder, a directory's index,
a test's entry on its tests page; with ``source_url`` set, any other file of the tree is linked at the
release commit. What has no page and no source link stays text: a link is made only to a page the
plan has, so the build's link check never meets one of these.
"""

from __future__ import annotations

import hashlib
import posixpath
from typing import Callable

from ..graph import Derived, SpecGraph
from ..models.doc import ProseDoc
from .html import resolve_relative
from .links import adr_uri, dir_index_uri, doc_uri, tests_uri, unit_uri
from .pages import Ctx

DOCS_INDEX = "docs/index.md"  # below the language: the documents index


#: dependency on which files have pages (what a document's links resolve to), not on their contents
FILES = "#files"


def _files_digest(graph: SpecGraph) -> str:
    """Digest of every path a document's link can resolve through: documents (with their sources), units,
    ADRs, tests and artifacts."""
    spec = graph.spec
    rows = [f"d\0{d.path}\0{d.generated_from or ''}" for d in spec.docs]
    rows += [f"u\0{p}" for p in graph.units_by_path]
    rows += [f"a\0{a.path}" for a in graph.adrs]
    rows += [f"t\0{t.path}\0{t.header.source if t.header else ''}\0{t.header.id if t.header else ''}"
             for t in spec.tests]
    rows += [f"j\0{p}" for p in spec.artifacts]
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()


files_digest: Derived[str] = Derived(_files_digest, structural=True)  # paths and test headers: the structure


def paged_docs(graph: SpecGraph) -> list[ProseDoc]:
    """The documents that get a page: free-standing ones, and a generated copy whose source the tree lacks
    (then the copy is the only text there is)."""
    return [d for d in graph.spec.docs if d.generated_from is None or d.generated_from not in graph.units_by_path]


def _docs_by_path(cx: Ctx) -> dict[str, ProseDoc]:
    idx = getattr(cx.data, "_docs_by_path", None)
    if idx is None:
        idx = {d.path: d for d in cx.graph.spec.docs}
        setattr(cx.data, "_docs_by_path", idx)
    return idx


def file_href(cx: Ctx, rel: str, anchor: str = "") -> str | None:
    """The site's address of the page showing the tree file (or folder) ``rel``; None: none shows it."""
    lang, uris, cfg, g = cx.plan.lang, cx.data.uris, cx.graph.spec.config, cx.graph

    def page(uri: str, frag: str = "") -> str | None:
        return cx.link(uri, frag) if uri in uris else None

    doc = _docs_by_path(cx).get(rel)
    if doc is not None:
        if doc.generated_from is not None and doc.generated_from in g.units_by_path:
            return page(unit_uri(lang, doc.generated_from))  # the copy's headings are not the unit page's
        return page(doc_uri(lang, rel, cfg.doc_root), anchor)
    if rel in g.units_by_path:
        return page(unit_uri(lang, rel))
    adr = cx.adr_by_path(rel)
    if adr is not None and adr in g.adrs:
        return page(adr_uri(lang, adr.path))
    if rel == cfg.adr_dir.rstrip("/"):
        return page(f"{lang}/adr/index.md")
    if rel == cfg.doc_root.rstrip("/"):
        return page(f"{lang}/{DOCS_INDEX}")
    if any(rel == r or rel.startswith(r + "/") for r in cfg.source_roots):
        found = page(dir_index_uri(lang, rel))
        if found is not None:
            return found
    if rel.startswith(cfg.test_root + "/"):
        found = _test_href(cx, rel)
        if found is not None:
            return found
    if cx.source_url:
        return cx.src(rel)
    if rel in cx.graph.spec.artifacts:  # a JSON artifact: the release page's table, where the site shows them
        return cx.src(rel)
    return None


def _test_href(cx: Ctx, rel: str) -> str | None:
    """A test file: its entry on the tests page of the unit it tests (a shard: the unit it mirrors)."""
    t = next((t for t in cx.graph.spec.tests if t.path == rel), None)
    test_root = cx.graph.spec.config.test_root
    mirrored = f"{cx.graph.spec.config.source_roots[0]}/{rel.removeprefix(test_root + '/')}" \
        if cx.graph.spec.config.source_roots else rel
    unit = t.header.source if t is not None and t.header is not None else mirrored
    uri = tests_uri(cx.plan.lang, unit)
    if uri not in cx.data.uris:
        return None
    return cx.link(uri, t.header.id if t is not None and t.header is not None else "")


def markdown_resolver(cx: Ctx, base_path: str) -> Callable[[str], str | None]:
    """``resolve`` for :func:`specgen.render.markdown.render_markdown` of the file at ``base_path``."""

    def resolve(href: str) -> str | None:
        if href.startswith(("#", "https://", "http://", "mailto:")):
            return href
        rel = resolve_relative(base_path, href)
        if rel is None:
            return None
        anchor = href.split("#", 1)[1] if "#" in href else ""
        return file_href(cx, posixpath.normpath(rel), anchor)

    return resolve
