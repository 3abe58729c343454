"""The README's two-release site of the real releases (0.58.0 and 0.58.3), in chromium with JavaScript on.

One build serves every test here (``two_release_build``): it must succeed (the README's command), every page
must fit the page budget, and a reader must be able to use what changed: the summary and its filter, each
instruction's diffs, the older release's banner, a switch to a page the other release lacks, search by ASL
name and Chinese word, Chinese pages, the layout at 1280 and 390 px, and 404 pages under a sub-path.
The oracle for what changed is ``specgen diff --format json`` of the same two trees.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from browser_harness import CORPUS, OLD_CORPUS, REPO, Site, Tab, save_screenshot, sideways
from test_browser_search import search

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.corpus, pytest.mark.slow]

NEW, OLD = "0.58.3", "0.58.0"
BUDGET = 1024 * 1024  # specgen's default page budget: no page of the site may exceed it
FIRST_VISIT = 800_000  # bytes a first visit to TMUL may transfer (issue 27)
SHOTS = Path("/work/notes/shots")  # where the evidence for the lead goes when it exists (CI keeps build/)


@pytest.fixture(scope="module")
def diff() -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "specgen", "diff", str(OLD_CORPUS), str(CORPUS), "--format", "json"],
                          cwd=REPO, capture_output=True, text=True, timeout=900, check=True)
    return dict(json.loads(proc.stdout))


def shot(page: Any, name: str) -> Path:
    path = save_screenshot(page, f"i27-{name}", full_page=False)
    if SHOTS.is_dir():
        (SHOTS / path.name).write_bytes(path.read_bytes())
    return path


def tmul(site: Site, release: str, lang: str = "en") -> str:
    hits = sorted((site.dir / release / lang).rglob("TMUL.html"))
    hits = [p for p in hits if "/tests/" not in p.as_posix()]
    assert hits, f"no TMUL page in {release}/{lang}"
    return site.rel_url(hits[0])


def test_the_two_release_build_succeeds_and_no_page_exceeds_the_budget(two_release_build: Path) -> None:
    out = (two_release_build.parent / f"{two_release_build.name}.stdout").read_text(encoding="utf-8")
    assert f"for releases {OLD}, {NEW}" in out and "warnings: 0" in out, out
    sizes = sorted(((p.stat().st_size, p) for p in two_release_build.rglob("*.html")), reverse=True)
    assert sizes[0][0] <= BUDGET, f"{sizes[0][1]} is {sizes[0][0]} bytes"
    changes = two_release_build / NEW / "en" / "changes.html"
    assert changes.stat().st_size < BUDGET // 2 and "sg-diff" not in changes.read_text(encoding="utf-8")  # no diffs
    for name in ("404.html", f"{NEW}/404.html", f"{NEW}/en/404.html", f"{NEW}/zh/404.html", f"{OLD}/zh/404.html"):
        boot = (two_release_build / name).read_text(encoding="utf-8")
        assert "<link" not in boot and "src=" not in boot, f"{name} loads something: it must work at any address"
    for release in (OLD, NEW):
        for lang in ("en", "zh"):
            assert (two_release_build / release / lang / "not-found.html").is_file()


def test_changes_summary_counts_filter_and_links(two_release_site: Site, tab: Tab, diff: dict[str, Any]) -> None:
    page = tab.page
    page.goto(two_release_site.abs(f"{NEW}/en/changes.html"), wait_until="load")
    rows = page.locator("#changes-table tbody tr")
    total = len(diff["added"]) + len(diff["removed"]) + len(diff["changed"])
    assert rows.count() == total
    totals = page.locator("tr.sg-total td").all_inner_texts()
    assert totals[:3] == [str(len(diff["added"])), str(len(diff["removed"])), str(len(diff["changed"]))]
    nodes = page.evaluate("document.getElementsByTagName('*').length")
    assert nodes < 20_000, nodes
    page.locator(".sg-table-filter select[data-key=surface]").select_option("tile")
    page.locator(".sg-table-filter select[data-key=kind]").select_option("changed")
    want = sum(1 for c in diff["changed"] if c["surface"] == "tile")
    assert page.locator("#changes-table tbody tr:not([hidden])").count() == want
    assert "surface=tile" in page.url and "kind=changed" in page.url
    page.reload(wait_until="load")  # the filter is in the address
    assert page.locator("#changes-table tbody tr:not([hidden])").count() == want
    shot(page, "changes-en")
    # a removed instruction links to its page in the older release, which exists
    page.goto(two_release_site.abs(f"{NEW}/en/changes.html"), wait_until="load")
    href = page.locator("#changes-table tbody tr[data-kind=removed] a").first.get_attribute("href")
    assert href and f"../../{OLD}/en/" in href, href
    with page.expect_navigation():
        page.locator("#changes-table tbody tr[data-kind=removed] a").first.click()
    assert f"/{OLD}/en/" in page.url and page.locator("h1").first.inner_text().strip() == diff["removed"][0]
    assert not tab.page_errors, tab.page_errors


def test_an_instructions_changes_are_collapsed_coloured_unified_diffs(two_release_site: Site, tab: Tab,
                                                                        diff: dict[str, Any]) -> None:
    page = tab.page
    page.goto(two_release_site.abs(tmul(two_release_site, NEW)), wait_until="load")
    line = page.locator(".sg-changes-line")
    assert line.is_visible() and "ASL body" in line.inner_text()
    body = page.locator("details#diff-body")
    assert body.count() == 1 and body.get_attribute("open") is None  # collapsed
    body.locator("summary").click()
    added = body.locator(".sg-diff-add").first
    assert added.is_visible()
    colour = added.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent"), colour
    assert body.locator(".sg-diff-add .k, .sg-diff-add .kt, .sg-diff-add .nf").count() > 0  # ASL colours
    text = page.locator("#changes").evaluate("e => { let s = ''; for (let n = e; n && !(n !== e && n.tagName === 'H2');"
                                             " n = n.nextElementSibling) s += n.innerText + '\\n'; return s; }")
    assert "not stated" not in text and "line(s)" not in text
    tmul_change = next(c for c in diff["changed"] if c["mnemonic"] == "TMUL")
    assert "Not compared" in text and all(k in tmul_change["not_compared"] for k in ("operands",))
    page.locator("#changes").scroll_into_view_if_needed()
    shot(page, "instruction-changes-en")
    assert not tab.page_errors, tab.page_errors


def test_an_older_release_says_so_and_links_the_same_page(two_release_site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(two_release_site.abs(tmul(two_release_site, OLD)), wait_until="load")
    banner = page.locator(".sg-release-banner")
    assert banner.is_visible() and NEW in banner.inner_text()
    with page.expect_navigation():
        banner.locator("a").click()
    assert page.url == two_release_site.abs(tmul(two_release_site, NEW))
    assert page.locator(".sg-release-banner").count() == 0


def test_a_switch_to_a_page_the_other_release_lacks_lands_nearest_with_a_notice(two_release_site: Site, tab: Tab,
                                                                                 diff: dict[str, Any]) -> None:
    page = tab.page
    added = diff["added_where"][0]
    rel = "/".join(added["path"].removeprefix("asl/").removesuffix(".asl").split("/"))
    page.goto(two_release_site.abs(f"{NEW}/en/{rel}.html"), wait_until="load")
    current = page.locator(".md-version__current")
    current.wait_for()
    current.hover(force=True)
    page.locator(".md-version__link", has_text=OLD).click()
    page.wait_for_url(re.compile(rf"/{re.escape(OLD)}/en/.*index\.html$"))
    notice = page.locator(".sg-release-notice")
    notice.wait_for(state="visible")
    assert added["mnemonic"] in notice.inner_text() and OLD in notice.inner_text()
    nearest = "/".join(rel.split("/")[:-1])
    assert page.url.endswith(f"/{OLD}/en/{nearest}/index.html") or "/en/" in page.url, page.url
    assert not tab.page_errors, tab.page_errors


def test_search_finds_asl_names_exactly_and_chinese_words(two_release_site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(two_release_site.abs(f"{NEW}/en/index.html"), wait_until="load")
    for name in ("ExecuteTileBinary", "TileOperandsLegal_ExecuteTileBinary", "TileIndex"):
        search(page, name)
        # the definitions are in the index's second part: once it is in, the site script asks the query
        # again (no key pressed) and the definition moves first; typed before, pages mentioning it show
        page.wait_for_function("window.__sgWhole === true", timeout=60_000)
        first = page.locator(".md-search-result__list > li").first
        heading = first.locator("article > h1, article > h2", has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"))
        try:
            heading.first.wait_for(state="attached", timeout=15_000)
        except PlaywrightTimeout:
            pass
        titles = first.locator("article > h1, article > h2").all_inner_texts()
        assert name in [x.strip() for x in titles], (name, titles[:5])
        # material marks the query inside the heading (<mark>), so match the heading's whole text, not :text-is
        heading = page.locator("article > h1, article > h2", has_text=re.compile(rf"^\s*{re.escape(name)}\s*$"))
        hit = first.locator("a", has=heading).first
        assert re.search(r"L-\d+$", hit.get_attribute("href") or ""), hit.get_attribute("href")
    texts = page.locator(".md-search-result__list").inner_text()
    assert "Copy" not in texts and "中文" not in texts
    page.goto(two_release_site.abs(f"{NEW}/zh/index.html"), wait_until="load")
    # words of the Chinese text specgen writes on every instruction page (its semantics' first paragraph, in
    # each page's one entry; the spec's own text is English): 执行/引擎 on every page, 乘法 where the record
    # passes a MUL member to its handler (TMUL the shortest such mnemonic, so the first hit), 乘 by wildcard
    for word in ("执行", "引擎", "乘", "乘法"):
        hrefs = search(page, word)
        assert hrefs and all(f"/{NEW}/zh/" in h for h in hrefs[:10]), (word, hrefs[:5])
    assert hrefs[0].endswith("/TMUL.html"), hrefs[:5]
    assert "复制" not in page.locator(".md-search-result__list").inner_text()


def test_a_first_visit_to_tmul_does_not_fetch_the_index_until_search_is_used(two_release_site: Site,
                                                                              tab: Tab) -> None:
    page = tab.page
    sizes: list[int] = []
    index: list[str] = []

    def on_finished(request: Any) -> None:
        s = request.sizes()
        sizes.append(s["responseBodySize"] + s["responseHeadersSize"])
        if "search_index" in request.url:
            index.append(request.url)
    page.on("requestfinished", on_finished)
    page.goto(two_release_site.abs(tmul(two_release_site, NEW)), wait_until="networkidle")
    assert not index, index
    transferred = sum(sizes)
    assert transferred <= FIRST_VISIT, transferred
    page.locator("input.md-search__input").focus()  # (material's label opens it on a phone)
    page.wait_for_timeout(300)
    page.wait_for_load_state("networkidle")
    assert index and index[0].endswith("/search/search_index.json"), index
    nodes = page.evaluate("document.getElementsByTagName('*').length")
    print(f"first visit to {NEW} TMUL: {transferred} bytes, {nodes} elements")


ENGLISH_WALK = """() => {
  const out = [];
  const skip = new Set(['CODE', 'PRE', 'SCRIPT', 'STYLE', 'KBD', 'SAMP']);
  const walk = (el, lang) => {
    if (skip.has(el.tagName) || el.hidden) return;
    lang = el.getAttribute('lang') || lang;
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && !lang.startsWith('en') && /[A-Za-z][a-z]{2,}(\\s+[a-z]{2,}){2,}/.test(n.textContent)) {
        out.push(n.textContent.trim().slice(0, 120));
      } else if (n.nodeType === 1) { walk(n, lang); }
    }
  };
  walk(document.querySelector('.sg-page'), document.documentElement.lang);
  for (const t of document.querySelectorAll('.sg-page svg title, .sg-page svg desc')) {
    if (/[A-Za-z][a-z]{2,}\\s+[a-z]{2,}\\s+[a-z]{2,}/.test(t.textContent)) out.push('svg: ' + t.textContent.slice(0, 80));
  }
  return out;
}"""


def test_chinese_pages_have_no_english_scaffolding(two_release_site: Site, tab: Tab) -> None:
    page = tab.page
    for rel in (tmul(two_release_site, NEW, "zh"), f"{NEW}/zh/changes.html", f"{NEW}/zh/instructions/index.html",
                f"{NEW}/zh/traceability.html", tmul(two_release_site, OLD, "zh")):
        page.goto(two_release_site.abs(rel), wait_until="load")
        found = page.evaluate(ENGLISH_WALK)
        assert not found, (rel, found[:5])
    page.goto(two_release_site.abs(tmul(two_release_site, NEW, "zh")), wait_until="load")
    assert page.locator(".sg-summary[lang=en]").count() == 1
    title = page.locator("figure.sg-diagram svg title").first.text_content() or ""
    assert "编码" in title, title


def test_instruction_page_order_title_and_wide_tables(two_release_site: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(two_release_site.abs(tmul(two_release_site, NEW)), wait_until="load")
    order = page.evaluate("() => Array.from(document.querySelectorAll('.sg-page h2[id]')).map(h => h.id)")
    want = ["summary", "encoding", "fields", "operands", "block-composition", "semantics"]
    assert [x for x in order if x in want] == want, order
    assert order.index("semantics") < order.index("records") and order.index("semantics") < order.index("asl")
    h1 = page.locator(".sg-page > h1").evaluate(
        "e => { const s = getComputedStyle(e); return [parseInt(s.fontWeight), s.color]; }")
    assert h1[0] >= 600 and "0.54" not in h1[1], h1  # bold, not material's 54 % grey
    top = page.locator("figure.sg-diagram").first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    assert top < 1000, top
    shot(page, "tmul-en")
    for rel, table in ((f"{NEW}/en/instructions/index.html", "#instruction-table"),
                       (f"{NEW}/en/traceability/tile.html", "#matrix-table")):
        page.goto(two_release_site.abs(rel), wait_until="load")
        fit = page.locator(table).evaluate("t => { const box = t.closest('.sg-table');"
                                           " return [t.getBoundingClientRect().width, box.clientWidth]; }")
        assert fit[0] <= fit[1] + 1, (rel, fit)
        if "traceability" in rel:  # the matrix's rows were ~170 px tall (one ADR per line)
            heights = page.locator(f"{table} tbody tr").evaluate_all("rs => rs.slice(0, 50).map(r => r.offsetHeight)")
            assert max(heights) < 110, (rel, max(heights))
        shot(page, "index-en" if "instructions" in rel else "matrix-en")


def test_the_index_filter_puts_the_exact_mnemonic_first_and_keeps_state_in_the_url(two_release_site: Site,
                                                                                    tab: Tab) -> None:
    page = tab.page
    page.goto(two_release_site.abs(f"{NEW}/en/instructions/index.html"), wait_until="load")
    page.locator(".sg-table-filter input[data-key=text]").fill("tmul")
    first = page.locator("#instruction-table tbody tr:not([hidden])").first
    assert first.locator("td").first.inner_text().strip() == "TMUL"
    assert "text=tmul" in page.url
    page.reload(wait_until="load")
    assert page.locator(".sg-table-filter input[data-key=text]").input_value() == "tmul"
    assert page.locator("#instruction-table tbody tr:not([hidden])").first.locator("td").first.inner_text().strip() \
        == "TMUL"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_width_pages_stack_rows_and_do_not_scroll_sideways(two_release_site: Site, browser: Any,
                                                                 lang: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        for name, rel in (("tmul", tmul(two_release_site, NEW, lang)), ("changes", f"{NEW}/{lang}/changes.html"),
                          ("index", f"{NEW}/{lang}/instructions/index.html"),
                          ("matrix", f"{NEW}/{lang}/traceability/tile.html")):
            page.goto(two_release_site.abs(rel), wait_until="load")
            got = sideways(page)
            assert got["scrollWidth"] <= 391 and not got["culprits"], (rel, got)
            if name == "tmul":
                for sel in (".sg-composition td[data-label]", ".sg-operands td[data-label]"):
                    right = page.locator(sel).evaluate_all("cs => Math.max(...cs.map(c => c.getBoundingClientRect().right))")
                    assert right <= 391, (sel, right)
                page.locator("#block-composition").scroll_into_view_if_needed()
            shot(page, f"{name}-{lang}-390")
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshots_of_the_chinese_and_english_pages(two_release_site: Site, tab: Tab, lang: str) -> None:
    """The evidence screenshots (en and zh): TMUL, the changes summary, an instruction's changes, index, matrix."""
    page = tab.page
    for name, rel, anchor in (("tmul", tmul(two_release_site, NEW, lang), ""),
                              ("changes", f"{NEW}/{lang}/changes.html", ""),
                              ("instruction-changes", tmul(two_release_site, NEW, lang), "changes"),
                              ("index", f"{NEW}/{lang}/instructions/index.html", ""),
                              ("matrix", f"{NEW}/{lang}/traceability/tile.html", "")):
        page.goto(two_release_site.abs(rel) + (f"#{anchor}" if anchor else ""), wait_until="load")
        if anchor:
            page.locator("details#diff-body summary").click()
            page.locator(f"#{anchor}").scroll_into_view_if_needed()
        assert shot(page, f"{name}-{lang}").stat().st_size > 10_000


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_missing_page_under_a_sub_path_gets_a_styled_404_in_its_language(two_release_subpath: Site, tab: Tab,
                                                                          lang: str) -> None:
    """Served like GitHub Pages (the site root's 404.html for any missing address) under /docs/pto/."""
    page = tab.page
    asked = f"{NEW}/{lang}/tile/no-such-class/TFOO.html"
    resp = page.goto(two_release_subpath.abs(asked), wait_until="commit")
    assert resp is not None and resp.status == 404
    page.wait_for_url(re.compile(r"/not-found\.html\?from="))
    page.wait_for_load_state("networkidle")
    assert page.url.startswith(two_release_subpath.abs(f"{NEW}/{lang}/not-found.html?from="))
    # the missing address itself is the one request allowed to fail: the 404 page's script leaves it for
    # not-found.html, and when it does so before its document finished loading chromium reports it aborted
    failed = [u for u in tab.failed_requests if u != two_release_subpath.abs(asked)]
    assert not failed, failed
    header = page.locator(".md-header").evaluate("e => getComputedStyle(e).backgroundColor")
    assert header not in ("rgba(0, 0, 0, 0)", "transparent"), "unstyled: material's stylesheet did not load"
    assert page.locator(".sg-page > h1").inner_text() == ("Page not found" if lang == "en" else "页面未找到")
    assert page.locator("#sg-notfound-path").inner_text() == "/docs/pto/" + asked
    assert page.locator("#sg-notfound-search").get_attribute("href").endswith("index.html?q=TFOO")
    shot(page, f"404-{lang}")
    with page.expect_navigation():
        page.locator(".sg-notfound-links a").nth(1).click()
    assert page.url == two_release_subpath.abs(f"{NEW}/{lang}/instructions/index.html")
    # an address in the older release gets the older release's page; one naming no release, the newest's
    page.goto(two_release_subpath.abs(f"{OLD}/{lang}/nothing-here.html"), wait_until="commit")
    page.wait_for_url(re.compile(rf"/{re.escape(OLD)}/{lang}/not-found\.html\?from="))
    page.goto(two_release_subpath.abs("nothing-at-all"), wait_until="commit")
    page.wait_for_url(re.compile(rf"/docs/pto/{re.escape(NEW)}/en/not-found\.html\?from="))
    assert not tab.page_errors, tab.page_errors
