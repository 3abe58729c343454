"""Accessibility: axe-core (vendored, tests/data/axe) finds nothing serious or critical."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import REPO, Site, Tab

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


def adr_page(site: Site) -> str:
    pages = sorted(p for p in (site.dir / "en" / "adr").glob("0*.html") if not p.name.startswith("0000"))
    assert pages, "no ADR page under en/adr/"
    return site.rel_url(pages[0])


@pytest.mark.parametrize("which", ["tmul", "index", "adr"])
def test_axe_finds_no_serious_violation(site: Site, tab: Tab, which: str) -> None:
    rel = {"tmul": lambda: site.instruction("en", "TMUL"),
           "index": lambda: site.find("en", "arithmetic"),
           "adr": lambda: adr_page(site)}[which]()
    response = tab.page.goto(site.abs(rel), wait_until="load")
    assert response is not None and response.ok
    blocking = [v for v in axe_violations(tab.page) if v["impact"] in BLOCKING]
    assert not blocking, f"axe on {rel}:\n{describe(blocking)}"
