"""The TMUL instruction page in a real browser: sections, diagram, language switch, filter.

The oracle for what must be on the page is the spec tree itself (the AVS tests
whose ``source`` is TMUL.asl) and the documented element ids of
docs-internal/site.md, never the rendered HTML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_harness import BUNDLED, REPO, Site, Tab, open_tab, section_body_text, section_svgs

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SECTIONS = ("summary", "operands", "block-composition", "fields", "encoding", "asl", "records",
            "ndf", "semantics", "examples", "traceability", "index-record", "release")
TMUL_SOURCE = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
CJK = re.compile(r"[\u4e00-\u9fff]")
ARTIFACTS = REPO / "artifacts"


def tmul_test_ids(root: Path = BUNDLED) -> list[str]:
    """Ids of the AVS tests that the spec says exercise TMUL.asl."""
    ids = []
    for path in sorted((root / "tests" / "asl").rglob("*.asl")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first.startswith("// PTO-TEST: "):
            header = json.loads(first[len("// PTO-TEST: "):])
            if header.get("source") == TMUL_SOURCE:
                ids.append(header["id"])
    return ids


def goto(tab: Tab, site: Site, rel: str) -> Any:
    response = tab.page.goto(site.abs(rel), wait_until="load")
    assert response is not None and response.ok, f"GET {rel}: {response and response.status}"
    return tab.page


def trace_entries(page: Any) -> Any:
    return page.locator("#trace-list > li")


def visible_count(page: Any) -> int:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('#trace-list > li'))"
        ".filter(li => li.getClientRects().length > 0).length")


def count_number(text: str) -> int:
    numbers = re.findall(r"\d+", text)
    assert len(numbers) == 1, f"#trace-count should state one number, got {text!r}"
    return int(numbers[0])


def test_tmul_page_shows_every_section_and_inline_diagram(site: Site, tab: Tab) -> None:
    page = goto(tab, site, site.instruction("en", "TMUL"))
    assert "TMUL" in page.locator("h1").first.inner_text()
    missing = [s for s in SECTIONS if page.locator(f"#{s}").count() != 1]
    assert not missing, f"section ids missing or duplicated on the TMUL page: {missing}"
    for sid in SECTIONS:
        heading = page.locator(f"#{sid}")
        assert heading.is_visible(), f"#{sid} is not visible"
        assert heading.inner_text().strip(" ¶\n"), f"#{sid} has no title text"
        body = section_body_text(page, sid)
        assert body, f"section #{sid} has no visible content"
    boxes = section_svgs(page, "encoding")
    assert boxes, "no inline <svg> bit-field diagram in the #encoding section"
    assert all(b["texts"] > 0 for b in boxes), f"diagram without any <text> labels: {boxes}"
    assert not tab.page_errors, tab.page_errors
    assert not tab.console_errors, tab.console_errors


def test_diagram_and_trace_list_work_without_javascript(site: Site, browser: Any) -> None:
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        tab = open_tab(ctx)
        page = goto(tab, site, site.instruction("en", "TMUL"))
        boxes = section_svgs(page, "encoding")  # evaluate() runs even when page JS is off
        assert boxes, "no inline <svg> in #encoding without JavaScript"
        for box in boxes:
            assert box["width"] > 0 and box["height"] > 0, f"diagram has an empty box: {box}"
        entries = trace_entries(page)
        total = entries.count()
        assert total > 0, "the traceability list is empty without JavaScript"
        assert visible_count(page) == total, "some trace entries are hidden without JavaScript"
        assert count_number(page.locator("#trace-count").inner_text()) == total
        listed = entries.all_inner_texts()
        expected = tmul_test_ids()
        assert expected, "the bundled spec has no TMUL test (fixture broken)"
        absent = [t for t in expected if not any(t in text for text in listed)]
        assert not absent, f"TMUL tests missing from the traceability list: {absent}"
    finally:
        ctx.close()


def test_language_switch_round_trip(site: Site, tab: Tab) -> None:
    en = site.instruction("en", "TMUL")
    page = goto(tab, site, en)
    assert page.evaluate("() => document.documentElement.lang").lower().startswith("en")
    suffix = en.split("/", 1)[1]
    page.locator("#lang-switch").click()
    page.wait_for_url(re.compile(r"/zh/"))
    zh_rel = page.url[len(site.url):]
    assert zh_rel.startswith("zh/") and zh_rel.split("/", 1)[1] == suffix, page.url
    html_lang = page.evaluate("() => document.documentElement.lang")
    assert html_lang.lower().startswith("zh"), f"<html lang> on {zh_rel} is {html_lang!r}"
    for sid in ("summary", "encoding", "traceability"):
        title = page.locator(f"#{sid}").inner_text()
        assert CJK.search(title), f"#{sid} heading on the zh page is not Chinese: {title!r}"
    page.locator("#lang-switch").click()
    page.wait_for_url(re.compile(r"/en/"))
    assert page.url == site.abs(en), page.url
    assert page.evaluate("() => document.documentElement.lang").lower().startswith("en")
    assert not CJK.search(page.locator("#summary").inner_text())
    assert not tab.page_errors, tab.page_errors


def test_trace_filter_narrows_and_clearing_restores(site: Site, tab: Tab) -> None:
    page = goto(tab, site, site.instruction("en", "TMUL"))
    box = page.locator("#trace-filter")
    box.wait_for(state="visible")
    count = page.locator("#trace-count")
    total = trace_entries(page).count()
    full_text = count.inner_text()
    assert count_number(full_text) == total and visible_count(page) == total
    texts = [t.lower() for t in trace_entries(page).all_inner_texts()]
    fragment = tmul_test_ids()[0].lower()
    expected = sum(fragment in t for t in texts)
    assert 0 < expected < total, f"{fragment!r} should match some but not all of {total} entries"

    box.fill(fragment)
    page.wait_for_function("n => document.getElementById('trace-count').innerText !== n", arg=full_text)
    assert visible_count(page) == expected
    assert count_number(count.inner_text()) == expected

    box.fill("no-such-entry-zzz")
    page.wait_for_function("() => /\\b0\\b/.test(document.getElementById('trace-count').innerText)")
    assert visible_count(page) == 0

    box.fill("")
    page.wait_for_function("n => document.getElementById('trace-count').innerText === n", arg=full_text)
    assert visible_count(page) == total
    assert not tab.page_errors, tab.page_errors


def test_tmul_full_page_screenshot(site: Site, tab: Tab) -> None:
    page = goto(tab, site, site.instruction("en", "TMUL"))
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "tmul.png"
    data = page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size == len(data) > 10_000
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height > 900, "the TMUL page should be longer than one screen"
