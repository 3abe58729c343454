"""Accessibility: axe-core (vendored, tests/data/axe) finds nothing serious or critical."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import NARROW, REPO, Site, Tab, open_tab, sample_pages

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

AXE = REPO / "tests" / "data" / "axe" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def axe_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return result["violations"]


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:5]]
        lines.append(f"{v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {targets})")
    return "\n".join(lines)


PAGES = ("tmul", "home", "index", "surface-index", "instruction-index", "matrix", "matrix-surface", "release",
         "adr", "adr-index", "tests", "tests-index")


# every kind of page in English; the Chinese pages whose layout differs most (long CJK labels, filters)
CASES = [(w, "en") for w in PAGES] + [(w, "zh") for w in ("tmul", "home", "instruction-index", "matrix-surface", "adr")]


@pytest.mark.parametrize(("which", "lang"), CASES, ids=[f"{w}-{lang}" for w, lang in CASES])
def test_axe_finds_no_serious_violation(site: Site, tab: Tab, which: str, lang: str) -> None:
    rel = sample_pages(site, lang)[which]
    response = tab.page.goto(site.abs(rel), wait_until="load")
    assert response is not None and response.ok
    blocking = [v for v in axe_violations(tab.page) if v["impact"] in BLOCKING]
    assert not blocking, f"axe on {rel}:\n{describe(blocking)}"


@pytest.mark.slow  # ~28 s on the loaded 2-core machine (four axe runs)
def test_axe_finds_no_serious_violation_at_390px(site: Site, browser: Any) -> None:
    """A narrow screen makes diagrams and tables scroll in their boxes: those must stay keyboard-reachable."""
    ctx = browser.new_context(viewport={"width": NARROW, "height": 844})
    try:
        tab = open_tab(ctx)
        for which in ("tmul", "instruction-index", "matrix-surface", "release"):
            rel = sample_pages(site, "en")[which]
            tab.page.goto(site.abs(rel), wait_until="load")
            blocking = [v for v in axe_violations(tab.page) if v["impact"] in BLOCKING]
            assert not blocking, f"axe at {NARROW} px on {rel}:\n{describe(blocking)}"
    finally:
        ctx.close()
