"""Listings with linked pseudocode, as one page sees them.

Every identifier of a listing that the spec defines links to the line of its
definition (:mod:`specgen.render.symbols`), with the signature as the link's
title, so hovering shows it without JavaScript. Where a definition is shown:

* a model unit's definition: that unit's page in the same language, whose full
  listing numbers every line (``#L-<n>``);
* an instruction unit's definition: the instruction page's ``decode`` /
  ``operation`` listing holding the line, else its numbered source page
  (``source/…#L-<n>``) when the site has source pages, else the repository
  (``source_url``);
* from a language-neutral source page: the defining unit's source page.

Resolvers are shared by every page of one directory, in both languages (their
hrefs are relative to it and the same under ``en/`` and ``zh/``), so highlighted
lines and listings stay cached across pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..graph import Derived, SpecGraph
from .html import escape_text, highlight_asl
from .links import dest_url, relative, source_uri, unit_uri
from .symbols import SYMBOLS, Definition, SymbolTable, words

OVERLOADS_SHOWN = 3  # signatures in one title; the rest are counted


@dataclass(eq=False)
class PageRefs:
    """The definition table seen from one page directory (its linked lines and listings kept in ``memo``)."""

    graph: SpecGraph
    table: SymbolTable
    page_uri: str
    lang: str
    directory_urls: bool
    local_sources: bool
    source_link: Callable[[str, int], str]  # repository URL of a path and line (source_url set)
    _hrefs: dict[str, tuple[str, str, str] | None] = field(default_factory=dict)
    memo: dict[Any, str] = field(default_factory=dict)  # lines and listings linked from here (html.RefLinks)

    def target(self, d: Definition, lang: str | None = None) -> tuple[str, str]:
        """(page URI or absolute URL, anchor) where the definition's line is shown (to ``lang`` readers)."""
        lang = self.lang if lang is None else lang
        unit = self.graph.units_by_path.get(d.path)
        if not lang:
            return source_uri(d.path), f"L-{d.line}"
        if unit is not None and unit.instruction is None:
            return unit_uri(lang, d.path), f"L-{d.line}"
        for doc in (unit.docs if unit is not None else ()):
            start, end = doc.span.lines
            if start <= d.line <= end:
                return unit_uri(lang, d.path), f"{doc.name}-L-{d.line}"
        if self.local_sources:
            return source_uri(d.path), f"L-{d.line}"
        return self.source_link(d.path, d.line), ""

    def resolve(self, name: str) -> tuple[str, str, str] | None:
        """(href, title, target page URI or "") of ``name``'s first definition."""
        if name in self._hrefs:
            return self._hrefs[name]
        ds = self.table.defs.get(name)
        hit = None
        if ds:
            uri, anchor = self.target(ds[0])
            if anchor:
                href = relative(self.page_uri, uri, self.directory_urls, anchor)
            else:
                href, uri = uri, ""
            hit = (href, title_of(ds), uri)
        self._hrefs[name] = hit
        return hit

    def ref(self, name: str) -> tuple[str, str] | None:
        hit = self.resolve(name)
        return (hit[0], hit[1]) if hit else None


def title_of(ds: tuple[Definition, ...]) -> str:
    """What hovering a use shows: each signature (where it is defined is the link itself).

    Only the signature: a title is repeated on every use (143,000 links on the corpus
    site), and the defining path and line added 7 MB to it.
    """
    sigs = [d.signature for d in ds[:OVERLOADS_SHOWN]]
    if len(ds) > OVERLOADS_SHOWN:
        sigs.append(f"(+{len(ds) - OVERLOADS_SHOWN})")
    return "\n".join(sigs)


def _resolvers(graph: SpecGraph) -> dict[tuple[Any, ...], PageRefs]:
    """A graph's resolvers, made when it first renders a listing. Each keeps the lines and listings it
    linked (:class:`specgen.render.html.RefLinks`), so they live on the graph and die with it."""
    return {}


_RESOLVERS: Derived[dict[tuple[Any, ...], PageRefs]] = Derived(_resolvers)


def page_refs(cx: Any) -> PageRefs:
    """The resolver for the page ``cx`` renders (one per page directory, language and link mode)."""
    plan = cx.plan
    directory = dest_url(plan.uri, cx.link.directory_urls).rsplit("/", 1)[0]
    if plan.lang:  # en/x and zh/x see the same relative hrefs: share the resolver (and the line cache)
        directory = directory.removeprefix(plan.lang)
    key = (directory, bool(plan.lang), cx.link.directory_urls, cx.source_url, cx.commit)
    store = _RESOLVERS(cx.graph)
    refs = store.get(key)
    if refs is None:
        refs = store[key] = PageRefs(cx.graph, SYMBOLS(cx.graph), plan.uri, plan.lang, cx.link.directory_urls,
                                     not cx.source_url, lambda path, line: cx.src(path, line, line))
    return refs


def linked_listing(cx: Any, text: str, *, first_line: int = 1, anchor: str | None = None) -> Markup:
    """A numbered listing whose defined identifiers link to their definitions; records the link targets."""
    refs = page_refs(cx)
    html = highlight_asl(text, first_line=first_line, anchor=anchor, refs=refs)
    other = refs.lang + "/" if refs.lang and refs.lang != cx.plan.lang else ""
    for w in words(text) & refs.table.defs.keys():
        hit = refs.resolve(w)
        if hit is not None and hit[2]:
            uri = hit[2]
            cx.link.targets.add(cx.plan.lang + "/" + uri[len(other):] if other and uri.startswith(other) else uri)
    return html


def definitions(cx: Any, path: str) -> list[dict[str, Any]]:
    """The unit's own definitions, each linked to its line, with the declarations using each function."""
    refs = page_refs(cx)
    out = []
    for d in refs.table.by_unit.get(path, ()):
        if d.kind == "enum_member":
            continue
        out.append({"name": d.name, "kind": d.kind, "line": d.line, "signature": d.signature,
                    "href": _href(cx, refs, d),
                    "used_by": [{"name": u.name, "path": u.path, "line": u.line,
                                 "href": _href(cx, refs, Definition(u.name, "func", u.path, u.line, ""))}
                                for u in refs.table.used_by.get(d.name, ())]})
    return out


def _href(cx: Any, refs: PageRefs, d: Definition) -> str:
    uri, anchor = refs.target(d, cx.plan.lang)
    return cx.link(uri, anchor) if anchor else uri


SYMBOLS_OF = "#symbols:"  # a page's dependency on what another unit shows through its symbols


def definition_entries(graph: SpecGraph, lang: str, directory_urls: bool, source_url: str | None = None,
                       commit: str | None = None) -> list[dict[str, str]]:
    """One search entry per ASL definition of the spec, for the pages of ``lang``: its name as the title,
    its signature as the text, its location the line that defines it (as a listing's link goes).

    Locations are relative to the site root, the way the theme's search writes its own; a definition
    shown only in the repository (``source_url``) points there.
    """
    def repo(path: str, line: int) -> str:
        try:
            return (source_url or "").format(commit=commit or "HEAD", path=path, start=line, end=line)
        except (KeyError, IndexError, ValueError):
            return source_url or ""

    refs = PageRefs(graph, SYMBOLS(graph), f"{lang}/index.md", lang, directory_urls, not source_url, repo)
    out = []
    for name, ds in sorted(refs.table.defs.items()):
        for d in ds:
            uri, anchor = refs.target(d)
            location = f"{dest_url(uri, directory_urls)}#{anchor}" if anchor else uri
            out.append({"location": location, "title": name,
                        "text": f"<code>{escape_text(d.signature)}</code>"})
    return out


def symbol_deps(graph: SpecGraph, path: str | None = None, texts: tuple[str, ...] = ()) -> frozenset[str]:
    """What a page showing ``path`` (and listings of ``texts``) reads of other units through its symbol links.

    The units defining the names its listings use (their lines and signatures are
    on the page) and, for a unit, those whose declarations use its functions
    (its "used by" list), each as ``#symbols:<path>``: the digest of that unit's
    definitions and the names it uses (:attr:`SymbolTable.digest_of_unit`), not of
    its file, so an edit of its prose re-renders none of them.
    """
    table = SYMBOLS(graph)
    names = set(table.names_of_unit.get(path, frozenset())) if path else set()
    for t in texts:
        names |= words(t)
    deps = table.definers(names & table.defs.keys())
    for d in table.by_unit.get(path, ()) if path else ():
        deps |= {u.path for u in table.used_by.get(d.name, ())}
    deps.discard(path or "")
    return frozenset(SYMBOLS_OF + p for p in deps)


__all__ = ["SYMBOLS_OF", "PageRefs", "page_refs", "linked_listing", "definitions", "definition_entries", "symbol_deps",
           "title_of"]
