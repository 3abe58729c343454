"""A page's search key: two states with the same key give the same search entries (what lets a server template a
page again without making its entries again, specgen.site.searchentries)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from html import escape
from types import SimpleNamespace
from typing import Any

import pytest

from specgen.asl.conformance import CONFORMANCE, conformance
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import Page, RenderOptions, render_site
from specgen.render.searchtext import CLOSE, OPEN, _REGION, search_key
from specgen.site.searchentries import section_entries


def _entries(page: Page, content: str | None = None) -> list[dict[str, Any]]:
    """The search entries specgen makes of ``page`` (with ``content`` instead of its own)."""
    return section_entries(page.url, escape(page.title), page.content if content is None else content)


@pytest.fixture(scope="module")
def site(bundled_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Page], list[Page]]:
    """The bundled site rendered twice: without the suite's results ("not run") and with them."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SPECGEN_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        before = render_site(SpecGraph.build(load_spec(bundled_root)), RenderOptions())
        graph = SpecGraph.build(load_spec(bundled_root))
        CONFORMANCE.set(graph, conformance(graph, jobs=1))
        after = render_site(graph, RenderOptions())
    finally:
        mp.undo()
    return before, after


def test_leaving_out_the_unsearched_regions_leaves_every_pages_entries_as_they_are(
        site: tuple[list[Page], list[Page]]) -> None:
    """The invariant the key rests on, on every page of the bundled site: the entries of the page equal
    those of the page with each marked region cut out (listings, results, coverage figures)."""
    marked = 0
    for page in site[1]:
        if OPEN not in page.content:
            continue
        marked += 1
        assert search_key(page) is not None, page.url
        assert _entries(page) == _entries(page, _REGION.sub("", page.content)), page.url
    assert marked > 50


def test_results_coming_in_change_pages_but_not_their_search_entries(site: tuple[list[Page], list[Page]]) -> None:
    """Unit and instruction pages change when the suite's results come in (conformance line, coverage figures,
    unreached lines in a listing); their key does not, and neither do their entries."""
    before = {p.url: p for p in site[0]}
    changed: dict[str, int] = {}
    for page in site[1]:
        old = before[page.url]
        if old.content == page.content:
            continue
        changed[page.kind.name] = changed.get(page.kind.name, 0) + 1
        if search_key(old) == search_key(page):
            assert _entries(old) == _entries(page), page.url
        else:  # the tests' index, whose table of results is its text
            assert page.kind.name == "tests-index", page.url
    assert changed.get("unit", 0) > 10 and changed.get("instruction", 0) > 10, changed


def _page(content: str, title: str = "T") -> Page:
    return Page(url="en/x.md", title=title, kind=SimpleNamespace(name="unit"), lang="en",  # type: ignore[arg-type]
                content=content, depends_on=frozenset(), links=frozenset())


def test_the_key_follows_everything_outside_the_regions_and_nothing_inside() -> None:
    a = _page(f"<p>text</p>{OPEN}<div class=\"x\" data-search-exclude>one</div>{CLOSE}<p>more</p>")
    b = replace(a, content=a.content.replace(">one<", ">two, longer<"))
    assert search_key(a) == search_key(b) is not None
    assert search_key(a) != search_key(replace(a, content=a.content.replace("more", "less")))
    assert search_key(a) != search_key(replace(a, title="U"))
    assert search_key(a) != search_key(replace(a, toc=((2, "x", "X"),)))


@pytest.mark.parametrize("region", [
    '<div class="x">not excluded</div>',  # search would read it
    '<div data-search-exclude><h2 id="h">A heading</h2></div>',  # a section and a toc entry even when excluded
    'text before <div data-search-exclude>x</div>',  # not one element
])
def test_a_region_search_could_read_gives_no_key(region: str) -> None:
    assert search_key(_page(f"<p>a</p>{OPEN}{region}{CLOSE}")) is None
