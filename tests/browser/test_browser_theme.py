"""Theme chrome per language and the language switch (issue 14 items 6 and 9), in chromium with JavaScript on."""

from __future__ import annotations

import re

import pytest
from browser_harness import Site, Tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_zh_page_shows_material_chrome_in_chinese(site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(site.abs(site.instruction("zh", "TMUL")), wait_until="load")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator("input.md-search__input").get_attribute("placeholder") == "搜索"
    assert page.locator(".md-skip").inner_text().strip() == "跳转至"
    assert page.locator(".md-sidebar--secondary .md-nav__title").first.inner_text().strip() == "目录"
    assert "PTO ISA 规范" in page.locator(".md-header__title").inner_text()
    assert page.title().endswith("PTO ISA 规范")
    assert not tab.page_errors, tab.page_errors


def test_en_page_keeps_english_chrome(site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(site.abs(site.instruction("en", "TMUL")), wait_until="load")
    assert page.locator("input.md-search__input").get_attribute("placeholder") == "Search"
    assert page.locator(".md-sidebar--secondary .md-nav__title").first.inner_text().strip() == "Table of contents"


def test_sidebar_has_the_instruction_tree(site: Site, tab: Tab) -> None:
    """surface → class → instruction: TMUL's siblings are listed, the path to it is open."""
    page = tab.page
    page.goto(site.abs(site.instruction("en", "TMUL")), wait_until="load")
    primary = page.locator(".md-sidebar--primary")
    active = primary.locator("a.md-nav__link--active")
    assert active.first.inner_text().strip() == "TMUL"
    # in the page (the drawer on a narrow screen); a desktop instruction page gives the sidebar's width to
    # its tables (specgen-instr.css, docs-internal/site.md), so the visible tree is checked on the class page
    assert primary.locator("a.md-nav__link", has_text=re.compile(r"^\s*TADD\s*$")).count() == 1
    page.goto(site.abs("en/tile/elementwise-tile-tile/arithmetic/index.html"), wait_until="load")
    assert page.locator(".md-sidebar--primary").get_by_role("link", name="TMUL", exact=True).count() == 1


def test_language_switch_keeps_the_anchor(site: Site, tab: Tab) -> None:
    page = tab.page
    en = site.abs(site.instruction("en", "TMUL"))
    page.goto(en + "#ndf", wait_until="load")
    switch = page.locator("#lang-switch")
    assert "#" not in (switch.get_attribute("href") or ""), "without JavaScript it is a plain link"
    switch.click()
    page.wait_for_url(re.compile(r".*/zh/.*TMUL\.html#ndf$"))
    assert page.url == site.abs(site.instruction("zh", "TMUL")) + "#ndf"
