"""ASL listings in a real browser with JavaScript on (material's scripts running).

Material's script turns a code block whose ``<code>`` has ``span[id]`` children
into a grid of them; listings must then still show one visual line per source
line (issue 14). The oracle is the spec tree: the number of lines of each
listed file or region, and the text of the lines a link must land on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_harness import BUNDLED, CORPUS, Site, Tab

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"

# Per listing: its source lines, and the visual line boxes of its text (distinct rows of the
# text's client rects, plus each line element's own box so that empty lines count).
COUNT_JS = """() => Array.from(document.querySelectorAll('.sg-asl pre > code')).map(code => {
  const d = code.closest('details'); if (d && !d.open) { d.open = true; }
  const lines = Array.from(code.querySelectorAll(':scope > .ln'));
  const lh = parseFloat(getComputedStyle(code).lineHeight);
  const centers = [];
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) { if (r.height > 0) { centers.push((r.top + r.bottom) / 2); } }
  }
  for (const l of lines) { const r = l.getBoundingClientRect(); if (r.height > 0) { centers.push(r.top + lh / 2); } }
  centers.sort((a, b) => a - b);
  let boxes = 0, last = -1e9;
  for (const c of centers) { if (c - last > lh / 2) { boxes += 1; last = c; } }
  return {id: lines.length ? lines[0].id : '', lines: lines.length, boxes: boxes,
          tall: lines.filter(l => l.getBoundingClientRect().height > lh * 1.5).length,
          grid: code.classList.contains('md-code__content'),
          copy: !!code.parentElement.querySelector('button[data-md-type="copy"]')};
})"""


def listing_pages(site: Site, lang: str) -> dict[str, str]:
    """The four kinds of page with listings: instruction, model unit, tests, source."""
    out = {"instruction": site.instruction(lang, "TMUL"),
           "tests": site.rel_url(site.dir / lang / "tests" / "tile" / "elementwise-tile-tile" / "arithmetic" / "TMUL.html"),
           "source": site.rel_url(site.dir / "source" / TMUL.replace(".asl", ".html"))}
    units = sorted(p for p in (site.dir / lang / "tile" / "model").rglob("*.html") if p.name != "index.html")
    assert units, f"no model unit page under {site.dir / lang / 'tile' / 'model'}"
    out["unit"] = site.rel_url(units[0])
    return out


def open_page(tab: Tab, site: Site, rel: str) -> Any:
    response = tab.page.goto(site.abs(rel), wait_until="load")
    assert response is not None and response.ok, f"GET {rel}: {response and response.status}"
    tab.page.wait_for_function("() => document.querySelector('.sg-asl code.md-code__content') !== null")
    return tab.page


def assert_one_box_per_line(page: Any, rel: str) -> list[dict[str, Any]]:
    listings = page.evaluate(COUNT_JS)
    assert listings, f"{rel}: no ASL listing"
    bad = [x for x in listings if x["lines"] != x["boxes"] or x["tall"]]
    assert not bad, f"{rel}: listings whose line boxes differ from their source lines: {bad[:5]}"
    assert all(x["grid"] for x in listings), f"{rel}: material's script did not run on every listing"
    assert all(x["copy"] for x in listings), f"{rel}: a listing without material's copy button"
    return listings


def source_lines(root: Path, rel: str) -> int:
    return len((root / rel).read_text(encoding="utf-8").rstrip("\n").split("\n"))


def check_listing_pages(site: Site, root: Path, tab: Tab) -> None:
    for lang in ("en", "zh"):
        for kind, rel in listing_pages(site, lang).items():
            if kind == "source" and lang == "zh":
                continue  # language-neutral
            page = open_page(tab, site, rel)
            listings = assert_one_box_per_line(page, rel)
            if kind == "source":
                assert listings[0]["lines"] == source_lines(root, TMUL)
    assert not tab.page_errors, tab.page_errors


def test_every_listing_renders_one_line_box_per_source_line(site: Site, tab: Tab) -> None:
    check_listing_pages(site, BUNDLED, tab)


def test_source_line_anchor_is_visible_numbered_and_highlighted(site: Site, tab: Tab) -> None:
    rel = listing_pages(site, "en")["source"]
    page = open_page(tab, site, rel + "#L-3")
    info = page.evaluate("""() => {
      const el = document.getElementById('L-3'); const code = el.closest('code'); const r = el.getBoundingClientRect();
      const before = getComputedStyle(el, '::before');
      return {target: el.matches(':target'), bg: getComputedStyle(el).backgroundColor,
              other: getComputedStyle(document.getElementById('L-4')).backgroundColor,
              top: r.top, bottom: r.bottom, vh: window.innerHeight, gutter: parseFloat(before.width),
              content: before.content, scrollLeft: code.scrollLeft};
    }""")
    assert info["target"] and info["bg"] != info["other"], info
    assert 0 <= info["top"] and info["bottom"] <= info["vh"], f"line 3 is not in view: {info}"
    assert info["gutter"] > 10 and "counter" in info["content"], f"no line-number gutter: {info}"
    assert info["scrollLeft"] == 0, f"the jump scrolled the line sideways: {info}"
    # a range, marked by the script; a click on a number puts its line in the address bar
    page.goto(site.abs(rel + "#L-5:7"))
    page.wait_for_function("() => document.querySelectorAll('.sg-asl .ln.sg-hl').length > 0")
    marked = page.evaluate("() => Array.from(document.querySelectorAll('.sg-asl .ln.sg-hl')).map(e => e.id)")
    assert marked == ["L-5", "L-6", "L-7"]
    box = page.locator("#L-9").bounding_box()
    page.mouse.click(box["x"] + 8, box["y"] + box["height"] / 2)
    page.wait_for_function("() => window.location.hash === '#L-9'")
    assert page.evaluate("() => document.getElementById('L-9').matches(':target')")


def test_copy_takes_the_source_text_without_numbers(site: Site, tab: Tab) -> None:
    page = open_page(tab, site, listing_pages(site, "en")["source"])
    # what material's copy button takes: the code's innerText while data-md-copying is set
    copied = page.evaluate("""() => { const c = document.querySelector('.sg-asl code');
      c.setAttribute('data-md-copying', ''); const t = c.innerText; c.removeAttribute('data-md-copying');
      return t.trimEnd(); }""")
    assert copied == (BUNDLED / TMUL).read_text(encoding="utf-8").rstrip()


def _line_text(page: Any, href: str) -> str:
    page.goto(href, wait_until="load")
    anchor = href.split("#", 1)[1]
    return page.evaluate("(id) => { const el = document.getElementById(id); return el ? el.textContent : null; }",
                         anchor) or ""


def test_identifiers_link_to_their_definition_line_with_signature(site: Site, tab: Tab) -> None:
    page = open_page(tab, site, site.instruction("en", "TMUL"))
    links = page.evaluate("""() => Array.from(document.querySelectorAll('#asl ~ * .sg-asl a.sg-ref, .sg-listing a.sg-ref'))
      .map(a => ({name: a.textContent, href: a.href, title: a.title}))""")
    assert len(links) >= 5, links
    seen = set()
    for link in links:
        if link["name"] in seen:
            continue
        seen.add(link["name"])
        assert link["name"] in link["title"].split("\n")[0], f"title is not the signature: {link}"
        text = _line_text(page, link["href"])
        assert link["name"] in text, f"{link['href']} does not land on {link['name']}'s definition: {text!r}"
        if len(seen) == 6:
            break


def test_unit_page_lists_where_each_function_is_used(site: Site, tab: Tab) -> None:
    for p in sorted((site.dir / "en").rglob("*.html")):
        if 'class="sg-used-by"><ul>' in p.read_text(encoding="utf-8"):
            rel = site.rel_url(p)
            break
    else:
        pytest.fail("no unit page lists a use of its functions")
    page = open_page(tab, site, rel)
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('table.sg-defs tr[id]')).map(tr => ({
      name: tr.id.slice(4), def: tr.querySelector('td a').href,
      users: Array.from(tr.querySelectorAll('.sg-used-by a')).map(a => ({name: a.textContent, href: a.href}))}))""")
    used = [r for r in rows if r["users"]]
    assert used, rows
    row = used[0]
    assert row["name"] in _line_text(page, row["def"])
    user = row["users"][0]
    assert user["name"] in _line_text(page, user["href"])


def test_listings_keep_one_line_per_source_line_without_javascript(site: Site, browser: Any) -> None:
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        rel = listing_pages(site, "en")["source"]
        page.goto(site.abs(rel + "#L-3"), wait_until="load")
        listings = page.evaluate(COUNT_JS)  # evaluate runs even when the page's scripts are off
        assert listings[0]["lines"] == listings[0]["boxes"] == source_lines(BUNDLED, TMUL)
        assert page.evaluate("() => document.getElementById('L-3').matches(':target')")
    finally:
        ctx.close()




@pytest.mark.corpus
@pytest.mark.slow
def test_corpus_listings_render_one_line_box_per_source_line(corpus_site: Site, tab: Tab) -> None:
    check_listing_pages(corpus_site, CORPUS, tab)
