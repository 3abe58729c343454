"""specgen's own search entries (specgen.site.searchentries): the sections Material's indexer made of each
generated page, made by specgen without the theme, so the search behaves as before while no indexer is
shadowed."""

from __future__ import annotations

from html import escape
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from material.plugins.search.plugin import SearchIndex

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import Page, RenderOptions, render_site
from specgen.render.plan import Search
from specgen.site.build import toc_tokens
from specgen.site.searchentries import page_entries, section_entries


def _material(page: Page, url: str) -> list[dict[str, Any]]:
    """What Material's search made of ``page`` when it indexed it (the plugin's title and table of contents)."""
    from mkdocs.structure.toc import get_toc
    index = SearchIndex()
    index.add_entry_from_context(SimpleNamespace(content=page.content, toc=get_toc(toc_tokens(page.toc)), url=url,
                                                 meta={"title": escape(page.title)}, title=escape(page.title)))
    return index.entries


@pytest.fixture(scope="module")
def pages(bundled_root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    mp = pytest.MonkeyPatch()
    mp.setenv("SPECGEN_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        return render_site(SpecGraph.build(load_spec(bundled_root)), RenderOptions())
    finally:
        mp.undo()


def test_every_generated_page_gets_the_sections_materials_indexer_made(pages: list[Page]) -> None:
    """On every page of the bundled site (both languages, every kind): the same entries, in the same order,
    as Material's own indexer, Chinese segmentation included."""
    compared = zh = 0
    for page in pages:
        url = page.url.removesuffix(".md") + ".html"
        ours = section_entries(url, escape(page.title), page.content)
        assert ours == _material(page, url), page.url
        compared += 1
        zh += page.lang == "zh" and any("\u200b" in e["text"] for e in ours)
    assert compared > 100 and zh > 10


@pytest.mark.parametrize("html, expected", [
    ('<h1 id="t">T</h1><p>one <code>x</code></p><h2 id="a">A<a class="headerlink" href="#a">¶</a></h2><p>two</p>',
     [{"location": "p.html", "title": "T", "text": "<p>one <code>x</code></p>"},
      {"location": "p.html#a", "title": "A", "text": "<p>two</p>"}]),
    ('<p>lead</p><div data-search-exclude><p>listing</p></div><p></p><ul><li> </li></ul>',
     [{"location": "p.html", "title": "Page &amp; co", "text": "<p>lead</p><p></p>"}]),  # the theme's own quirk
    ('<h2 id="x" data-search-exclude>X</h2><p>hidden</p><h2 id="y">Y</h2><script>no()</script><p>seen</p>',
     [{"location": "p.html", "title": "Page &amp; co", "text": ""},
      {"location": "p.html#y", "title": "Y", "text": "<p>seen</p>"}]),
])
def test_sections_follow_the_themes_rules(html: str, expected: list[dict[str, str]]) -> None:
    assert section_entries("p.html", escape("Page & co"), html) == expected
    from mkdocs.structure.toc import get_toc
    index = SearchIndex()
    index.add_entry_from_context(SimpleNamespace(content=html, toc=get_toc([]), url="p.html",
                                                 meta={"title": escape("Page & co")}, title=""))
    assert index.entries == expected


def test_an_instruction_page_is_one_entry_and_a_listing_none(pages: list[Page]) -> None:
    tmul = next(p for p in pages if p.url.endswith("/TMUL.md") and p.kind.search is Search.ONE_ENTRY
                and p.lang == "en")
    [entry] = page_entries(tmul, "en/TMUL.html")
    assert entry["title"] == "TMUL" and entry["kind"] == "instruction" and "TMUL" in entry["tags"]
    listing = next(p for p in pages if p.kind.search is Search.EXCLUDED)
    assert page_entries(listing, "x.html") == []


def test_entries_are_made_again_only_when_the_search_key_changes(pages: list[Page]) -> None:
    from dataclasses import replace

    from specgen.render.searchtext import CLOSE, OPEN
    from specgen.site.pagestate import PageStates
    from specgen.workspace import fresh, use
    page = next(p for p in pages if OPEN in p.content and p.kind.search is not Search.EXCLUDED)
    before = use(fresh())
    try:
        states = PageStates()
        states.hand([page])
        first = states.entries([(page, "u.html")])
        assert states.made == 1 and states.changed == 1 and first
        states.hand([page])
        states.entries([(page, "u.html")])
        assert states.made == 0 and states.changed == 0  # the same page object
        start = page.content.index(OPEN) + len(OPEN)
        inside = replace(page, content=page.content[:start]
                         + page.content[start:].replace(CLOSE, "<!-- -->" + CLOSE, 1))
        assert states.hand([inside]) == {page.url: True}  # mkdocs must write it again...
        assert states.entries([(inside, "u.html")]) == first and states.made == 0  # ...but not index it
        outside = replace(page, content=page.content.replace("</h1>", " edited</h1>", 1) + "<p>more words</p>")
        states.hand([outside])
        again = states.entries([(outside, "u.html")])
        assert states.made == 1 and states.changed == 1 and again != first
        states.hand([])
        assert states.entries([]) == [] and states.changed == 1  # the page that went
        assert not any(isinstance(k[1], tuple) and k[1][:1] == (states.holder,) for k in states.workspace._memos)
        states.hand([page])
        states.entries([(page, "u.html")])
        ws, holder = states.workspace, states.holder
        del states
        import gc
        gc.collect()  # a plugin gone (a release built): its pages and entries leave the workspace
        assert not any(isinstance(k[1], tuple) and k[1][:1] == (holder,) for k in ws._memos)
        assert ws.changed_since(f"page:{holder}:", 0) == set()
    finally:
        use(before)
