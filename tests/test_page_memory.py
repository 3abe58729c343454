"""What a rendered site holds in memory (issue 40's peak): page bodies narrow, links and dependency sets shared.

A corpus build holds every page body until mkdocs has written the last one; CPython stores a string at the
width of its widest character, so a body with one "—" took two bytes per character. ``narrow`` writes the
rare non-ASCII characters of a body as references (the same text to a browser and to the search entries);
a page with many keeps them. Page links and dependency sets are the site's own objects, not copies.
"""

from __future__ import annotations

import html
import sys
from pathlib import Path

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.core import RenderOptions, narrow, render_site
from specgen.site.searchindex import page_labels


def test_a_body_with_rare_non_ascii_characters_is_narrowed_to_the_same_text() -> None:
    body = "<p title=\"a — b\">x ≤ y → z</p>" + "<p>plain text</p>" * 200
    out = narrow(body)
    assert out.isascii() and "&#8212;" in out and "&#8804;" in out
    assert html.unescape(out) == body  # the same characters to any HTML reader
    assert sys.getsizeof(out) < sys.getsizeof(body) * 0.6  # one byte a character, not two


def test_an_ascii_body_is_the_same_object_and_a_chinese_one_keeps_its_characters() -> None:
    ascii_body = "<p>only ASCII</p>"
    assert narrow(ascii_body) is ascii_body
    chinese = "<p>填充值与加载操作数</p>" * 50
    assert narrow(chinese) is chinese  # references would grow it far beyond 1 %: its source stays readable


def test_rendered_pages_share_their_links_and_dependency_sets_and_english_bodies_are_ascii(
        bundled_root: Path) -> None:
    graph = SpecGraph.build(load_spec(bundled_root))
    pages = render_site(graph, RenderOptions(examples=False, jobs=2))
    uris = {p.url: p.url for p in pages}
    links = [u for p in pages for u in p.links]
    assert links and all(u is uris[u] for u in links)  # the pages' own URI strings, not one copy a link
    by_uri = {p.url: p for p in pages}
    assert len({id(p.depends_on) for p in pages}) < len(pages)  # the plans' sets (pages share them)
    english = [p for p in pages if p.lang == "en"]
    held, chars = sum(sys.getsizeof(p.content) for p in english), sum(len(p.content) for p in english)
    assert english and held < chars * 1.1  # about a byte a character (a few small pages keep their "中文" link)
    assert any(not p.content.isascii() for p in pages if p.lang == "zh")
    narrowed = [p for p in english if "&#" in p.content]
    assert narrowed  # English bodies had non-ASCII characters: they are references now


def test_a_label_is_searched_by_its_characters_not_their_reference() -> None:
    assert page_labels(narrow("<dt>Pad — value</dt>" + "<p>x</p>" * 300)) == ["Pad — value"]
    assert page_labels("<dt>A &amp; B</dt>") == ["A &amp; B"]  # still HTML text
