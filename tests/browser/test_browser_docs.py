"""A prose document's page in a real browser: the bundled spec's ``docs/development/reading-the-spec.md``.

The oracle is the document itself (its headings and links as the file writes them) and the pages the site
has; the page must open from the Documents section of the navigation, show its headings in the page's
contents, follow a rewritten link to a real page, and on the Chinese page say the text is untranslated.
"""

from __future__ import annotations

import re

import pytest
from browser_harness import BUNDLED, Site, Tab, save_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DOC = BUNDLED / "docs/development/reading-the-spec.md"
PAGE = "{lang}/docs/development/reading-the-spec.html"


def _headings() -> list[str]:
    return [line[3:].strip() for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]


def test_doc_page_opens_from_the_documents_section(site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(site.abs("en/docs/index.html"), wait_until="load")
    page.locator(".md-content a", has_text="Reading this specification").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(PAGE.format(lang="en"))
    assert page.locator("h1").inner_text().strip() == "Reading this specification"
    body = page.locator(".sg-doc-body")
    assert [h.strip().rstrip("¶").strip() for h in body.locator("h2").all_inner_texts()] == _headings()
    toc = page.locator(".md-sidebar--secondary").inner_text()
    assert all(h in toc for h in _headings())  # the page's contents list the document's headings
    nav = page.locator(".md-sidebar--primary").inner_text()
    assert "Documents" in nav
    # no link leads to a repository file; the TMUL link opens TMUL's page
    hrefs = body.locator("a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert not [h for h in hrefs if re.search(r"\.(md|asl|json)(#|$)", h)], hrefs
    body.locator("a", has_text="TMUL").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/en/tile/elementwise-tile-tile/arithmetic/TMUL.html")
    assert not tab.page_errors and not tab.console_errors, tab.console_errors + tab.page_errors


def test_chinese_doc_page_says_it_is_untranslated(site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(site.abs(PAGE.format(lang="zh")), wait_until="load")
    note = page.locator(".sg-doc-lang")
    assert note.is_visible() and re.search(r"[\u4e00-\u9fff]", note.inner_text())
    assert page.locator(".sg-doc-body").get_attribute("lang") == "en"
    assert save_screenshot(page, "doc-page-zh").is_file()
    assert not tab.page_errors, tab.page_errors
