"""The instruction page in chromium with JavaScript on, 1280 px wide: half the height, copy buttons, listings.

Issue 14: the corpus TMUL page was 13,500 px tall (13,632 measured in chromium before this change); it must
be at most half of that (6,750 px) with every section of the reference page still on it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import Site, Tab, open_tab, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

MAX_HEIGHT = 6750  # half of the 13,500 px the issue measured: the whole page, the worked example (issue 16) included
SECTIONS = ("summary", "operands", "block-composition", "fields", "encoding", "related", "asl", "records",
            "ndf", "semantics", "examples", "traceability", "index-record", "release")


def _height(tab: Tab, url: str) -> int:
    response = tab.page.goto(url, wait_until="load")
    assert response is not None and response.ok, url
    tab.page.wait_for_function("() => document.querySelector('button.sg-copy:not([hidden])') !== null")
    return int(tab.page.evaluate("() => document.documentElement.scrollHeight"))


# Sections other areas fill (the checked examples, the worked example, the listings' definitions table):
# their height is theirs to budget; the rest of the page is this page's layout.
OTHER_AREAS = ("examples", "worked-example", "definitions")
SECTION_HEIGHT_JS = """(id) => { const h = document.getElementById(id); if (!h || h.tagName !== 'H2') { return 0; }
  let n = h.nextElementSibling; while (n && n.tagName !== 'H2') { n = n.nextElementSibling; }
  const top = h.getBoundingClientRect().top;
  return (n ? n.getBoundingClientRect().top : document.querySelector('.sg-page').getBoundingClientRect().bottom) - top; }"""


def _check_page(tab: Tab, url: str, *, whole: bool, exclude: tuple[str, ...] = OTHER_AREAS) -> int:
    """Height checks; returns the whole page's height. ``whole``: the whole page must fit, else the page
    without the sections ``exclude`` names (reported separately)."""
    height = _height(tab, url)
    page = tab.page
    others = sum(int(page.evaluate(SECTION_HEIGHT_JS, s)) for s in exclude)
    measured = height if whole else height - others
    assert measured <= MAX_HEIGHT, (f"{url}: {measured} px tall{'' if whole else ' without ' + ', '.join(exclude)}"
                                    f" (whole page {height}; at most {MAX_HEIGHT})")
    missing = [s for s in SECTIONS if page.locator(f"#{s}").count() != 1]
    assert not missing, missing
    # the listings are one line per source line, not one token per row (material's code grid)
    listing = page.locator("#asl-operation pre code")
    lines = listing.inner_text().count("\n") + 1
    box = listing.bounding_box()
    assert box is not None and box["height"] < lines * 30, f"{lines} lines drawn {box['height']} px tall"
    # records are collapsed, their JSON still in the page
    assert page.locator("details.sg-record:not([open])").count() >= 2
    assert not tab.page_errors, tab.page_errors
    return height


def test_bundled_tmul_is_at_most_half_height_and_copies(site: Site, tab: Tab, context: Any) -> None:
    """The bundled TMUL has eight checked examples with full tile tables (the examples area, not this page's
    layout: 6,800 px of them); everything else on the page keeps the corpus page's budget."""
    url = site.abs(site.instruction("en", "TMUL"))
    _check_page(tab, url, whole=False)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url.rstrip("/"))
    button = tab.page.locator(".sg-encoding button.sg-copy[data-copy]").first
    expected = button.get_attribute("data-copy")
    assert expected and expected.startswith("0x")
    button.click()
    tab.page.wait_for_function("(b) => b.getAttribute('data-copied') !== null", arg=button.element_handle())
    assert tab.page.evaluate("() => navigator.clipboard.readText()") == expected
    listing_button = tab.page.locator("#asl-decode button.sg-copy")
    listing_button.click()
    tab.page.wait_for_function("(b) => b.getAttribute('data-copied') !== null", arg=listing_button.element_handle())
    copied = listing_button.get_attribute("data-copied") or ""
    assert "func" in copied and not copied[:1].isdigit(), f"listing copied with its line numbers: {copied[:80]!r}"
    _check_page(tab, site.abs(site.instruction("zh", "TMUL")), whole=False)




@pytest.mark.corpus
@pytest.mark.slow
def test_corpus_tmul_is_at_most_half_height(corpus_site: Site, browser: Any) -> None:
    """The issue's criterion on the page it measured: the whole page, every section counted, the worked example
    (issue 16, added after the measurement) included with what it must show (program, words, Tiles, pad region)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        tab = open_tab(ctx)
        for lang in ("en", "zh"):
            url = corpus_site.abs(corpus_site.instruction(lang, "TMUL"))
            _check_page(tab, url, whole=True)
            page = tab.page
            worked = page.locator("section.sg-worked").first
            assert worked.locator("table.sg-worked-words code.sg-word").count() >= 2, f"{url}: no program words"
            assert worked.locator("table.sg-worked-tile").count() >= 3, f"{url}: input and output Tiles"
            assert worked.locator("td.sg-pad").count() > 0, f"{url}: no pad region marked"
            assert worked.is_visible(), f"{url}: the first worked example is folded away"
            save_screenshot(page, f"corpus-tmul-{lang}")
    finally:
        ctx.close()

