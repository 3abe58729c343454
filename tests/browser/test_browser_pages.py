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
from browser_harness import (ARTIFACTS, BUNDLED, NARROW, Site, Tab, open_tab, sample_pages, save_screenshot,
                             section_body_text, section_svgs, sideways)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SECTIONS = ("summary", "operands", "block-composition", "fields", "encoding", "asl", "records",
            "ndf", "semantics", "examples", "traceability", "index-record", "release")
TMUL_SOURCE = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
CJK = re.compile(r"[\u4e00-\u9fff]")


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
    shot = save_screenshot(page, "tmul-en-1280")
    assert shot.parent == ARTIFACTS and shot.stat().st_size > 10_000
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height > 900, "the TMUL page should be longer than one screen"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tmul_narrow_screenshot_and_readable_diagram(site: Site, browser: Any, lang: str) -> None:
    """At 390 px the TMUL page fits the screen; the diagram keeps its size and scrolls in its own box."""
    ctx = browser.new_context(viewport={"width": NARROW, "height": 844})
    try:
        tab = open_tab(ctx)
        page = goto(tab, site, site.instruction(lang, "TMUL"))
        wide = sideways(page)
        assert wide["scrollWidth"] <= NARROW, f"TMUL ({lang}) scrolls sideways at {NARROW} px: {wide}"
        boxes = section_svgs(page, "encoding")
        assert boxes and all(b["texts"] > 0 for b in boxes)
        # labels stay legible: the diagram is not shrunk to the screen (it is at least 36rem = 720 px wide)
        assert max(b["width"] for b in boxes) >= 600, boxes
        shot = save_screenshot(page, f"tmul-{lang}-{NARROW}")
        assert shot.stat().st_size > 10_000
        assert not tab.page_errors and not tab.console_errors, (tab.page_errors, tab.console_errors)
    finally:
        ctx.close()


@pytest.mark.slow  # ~25 s on the loaded 2-core machine: 24 page loads per parameter
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_no_sample_page_scrolls_sideways_at_390px(site: Site, browser: Any, js: bool) -> None:
    """Every kind of page (instruction, indexes, matrix, ADR, release, home, tests) fits a phone screen."""
    ctx = browser.new_context(viewport={"width": NARROW, "height": 844}, java_script_enabled=js)
    try:
        tab = open_tab(ctx)
        failures = {}
        for lang in ("en", "zh"):
            for name, rel in sample_pages(site, lang).items():
                page = goto(tab, site, rel)
                wide = sideways(page)
                if wide["scrollWidth"] > NARROW or wide["culprits"]:
                    failures[f"{lang}:{name}"] = wide
        assert not failures, f"pages wider than {NARROW} px: {failures}"
    finally:
        ctx.close()


def _rows(page: Any, table: str) -> list[str]:
    return page.evaluate(f"() => Array.from(document.querySelectorAll('#{table} tbody tr'))"
                         ".filter(r => !r.hidden).map(r => r.cells[0].innerText.trim())")


def test_instruction_index_is_complete_without_javascript(site: Site, browser: Any) -> None:
    ctx = browser.new_context(java_script_enabled=False)
    try:
        tab = open_tab(ctx)
        page = goto(tab, site, "en/instructions/index.html")
        rows = _rows(page, "instruction-table")
        assert sorted(rows) == sorted(instruction_mnemonics()), "every instruction of spec/, once"
        assert page.locator(".sg-table-filter").is_hidden(), "no dead controls without JavaScript"
        assert page.locator("#instruction-table thead th").count() == 6
    finally:
        ctx.close()


def test_instruction_index_filters_and_sorts(site: Site, tab: Tab) -> None:
    page = goto(tab, site, "en/instructions/index.html")
    box = page.locator(".sg-table-filter")
    assert box.is_visible()
    everything = _rows(page, "instruction-table")
    count = page.locator(".sg-table-count")
    assert str(len(everything)) in count.inner_text()
    page.select_option(".sg-table-filter select[data-key=surface]", "tile")
    tile = _rows(page, "instruction-table")
    assert 0 < len(tile) < len(everything) and "TMUL" in tile and "B.DIM" not in tile
    assert f"{len(tile)} of {len(everything)}" in count.inner_text()
    page.fill(".sg-table-filter input[data-key=text]", "tmul")
    assert _rows(page, "instruction-table") == ["TMUL"]
    page.fill(".sg-table-filter input[data-key=text]", "")
    page.select_option(".sg-table-filter select[data-key=surface]", "")
    assert len(_rows(page, "instruction-table")) == len(everything)
    head = page.locator("#instruction-table thead th").first
    head.locator("button.sg-sort").click()
    assert head.get_attribute("aria-sort") == "ascending"
    asc = _rows(page, "instruction-table")
    assert asc == sorted(asc, key=str.lower)
    head.locator("button.sg-sort").click()
    assert head.get_attribute("aria-sort") == "descending"
    assert _rows(page, "instruction-table") == list(reversed(asc))
    assert not tab.page_errors and not tab.console_errors


def test_matrix_surface_page_filters_by_status_and_class(site: Site, tab: Tab) -> None:
    page = goto(tab, site, "en/traceability/tile.html")
    everything = _rows(page, "matrix-table")
    assert "TMUL" in everything
    classes = page.eval_on_selector_all(".sg-table-filter select[data-key=class] option", "os => os.map(o => o.value)")
    assert classes[0] == "" and len(classes) >= 2
    page.select_option(".sg-table-filter select[data-key=class]", classes[1])
    some = _rows(page, "matrix-table")
    want = page.evaluate(f"() => Array.from(document.querySelectorAll('#matrix-table tbody tr'))"
                         f".filter(r => r.dataset.class === {json.dumps(classes[1])}).length")
    assert len(some) == want > 0
    page.select_option(".sg-table-filter select[data-key=class]", "")
    statuses = page.eval_on_selector_all(".sg-table-filter select[data-key=status] option", "os => os.map(o => o.value)")
    for status in statuses[1:]:
        page.select_option(".sg-table-filter select[data-key=status]", status)
        shown = page.evaluate("() => Array.from(document.querySelectorAll('#matrix-table tbody tr'))"
                              ".filter(r => !r.hidden).map(r => r.dataset.status)")
        assert shown and set(shown) == {status}
    assert not tab.page_errors and not tab.console_errors


def instruction_mnemonics(root: Path = BUNDLED) -> list[str]:
    """Every ``// PTO-INSTRUCTION:`` record's mnemonic under ``asl/`` (the oracle: the spec, not the page)."""
    out = []
    for path in sorted((root / "asl").rglob("*.asl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("// PTO-INSTRUCTION: "):
                out.append(json.loads(line[len("// PTO-INSTRUCTION: "):])["mnemonic"])
                break
    return out
