"""Issue 42 in the browser: the index's sort is kept in the address; a Chinese page's nav and footer are
Chinese; screenshots of the Chinese TMUL page at 1280 and 390 px (s36-*)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import NARROW, Site, Tab, open_tab
from test_browser_search_rank import shot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_the_index_sort_is_kept_in_the_address(site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(site.abs("en/instructions/index.html"), wait_until="load")
    page.locator("#instruction-table thead th:nth-child(3) button.sg-sort").click()
    page.locator("#instruction-table thead th:nth-child(3) button.sg-sort").click()
    assert "sort=3" in page.url and "order=desc" in page.url, page.url
    first = page.locator("#instruction-table tbody tr td:nth-child(3)").first.inner_text()
    page.reload(wait_until="load")
    th = page.locator("#instruction-table thead th:nth-child(3)")
    assert th.get_attribute("aria-sort") == "descending"
    assert page.locator("#instruction-table tbody tr td:nth-child(3)").first.inner_text() == first
    assert not tab.page_errors, tab.page_errors


def test_a_chinese_page_has_a_chinese_nav_and_footer(site: Site, tab: Tab) -> None:
    page = tab.page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site.abs(site.instruction("zh", "TMUL")), wait_until="load")
    shot(page, "zh-tmul-1280")
    nav = page.locator("nav.md-nav--primary").first.inner_text()
    assert "English" not in nav and "PTO ISA specification" not in nav, nav[:300]
    assert "Made with" not in page.locator("footer").inner_text()


def test_the_chinese_tmul_page_on_a_phone(site: Site, browser: Any) -> None:
    context = browser.new_context(viewport={"width": NARROW, "height": 844})
    try:
        tab = open_tab(context)
        tab.page.goto(site.abs(site.instruction("zh", "TMUL")) + "#worked-1-head", wait_until="load")
        shot(tab.page, "zh-tmul-390-worked")
        width = tab.page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW + 1, width
    finally:
        context.close()


def test_the_worked_example_reads_on_a_phone(site: Site, browser: Any) -> None:
    """Each label of the worked example on its own row, the program's word column inside the screen."""
    context = browser.new_context(viewport={"width": NARROW, "height": 844})
    try:
        tab = open_tab(context)
        tab.page.goto(site.abs(site.instruction("zh", "TMUL")) + "#worked-1-head", wait_until="load")
        tops = tab.page.evaluate("""() => Array.from(document.querySelectorAll('.sg-worked-head dl.sg-attrs > dt'))
            .map(e => Math.round(e.getBoundingClientRect().top))""")
        assert len(tops) >= 3 and len(set(tops)) == len(tops), tops  # one label a row
        right = tab.page.evaluate("""() => Math.max(...Array.from(
            document.querySelectorAll('.sg-worked-head table.sg-worked-words tr > :last-child'))
            .map(e => e.getBoundingClientRect().right))""")
        assert right <= NARROW, right
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_traceability_table_fits_at_1280(site: Site, tab: Tab, lang: str) -> None:
    """No header wraps (the zh one wrapped a character a line) and nothing scrolls or is clipped."""
    page = tab.page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site.abs(site.instruction(lang, "TMUL")) + "#traceability", wait_until="load")
    got = page.evaluate("""() => { const t = document.querySelector('table.sg-trace-head');
        const ths = Array.from(t.querySelectorAll('thead th'));
        const lh = ths.map(h => h.getBoundingClientRect().height);
        const boxes = [t, t.parentElement].map(e => [e.scrollWidth, e.clientWidth]);
        return {heights: lh, boxes: boxes}; }""")
    assert max(got["heights"]) < 2 * min(got["heights"]) and max(got["heights"]) < 48, got
    assert all(sw <= cw + 1 for sw, cw in got["boxes"]), got
    shot(page, f"{lang}-trace-1280")
