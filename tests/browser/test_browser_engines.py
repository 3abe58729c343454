"""The bundled TMUL page built by MkDocs, ProperDocs and Zensical, in chromium with JavaScript on (issue 28).

Each engine's site is built by the real ``specgen build --engine``; the page must load without a script
error, show its bit-field diagram, run specgen's own JavaScript (the copy buttons copy) and carry the
theme's chrome. A screenshot of each is saved (``build/test-artifacts/engine-<engine>-tmul.png``) for people
to compare; the docs say what differs (docs-internal/site.md, "Engines").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_harness import BUNDLED, REPO, Site, open_tab, save_screenshot, serve

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _built(engine: str, tmp: Path) -> Path:
    out = tmp / f"site-{engine}"
    proc = subprocess.run([sys.executable, "-m", "specgen", "build", "--engine", engine, "--root", str(BUNDLED),
                           "--out", str(out), "--jobs", "2"], cwd=REPO, capture_output=True, text=True,
                          timeout=900, check=False)
    if proc.returncode != 0:
        pytest.fail(f"specgen build --engine {engine} failed ({proc.returncode}):\n{proc.stderr[-4000:]}",
                    pytrace=False)
    return out


@pytest.mark.parametrize("engine", ["mkdocs", "properdocs", "zensical"])
def test_tmul_page_under_each_engine(engine: str, site: Site, context: Any,
                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    if engine == "mkdocs":
        _check(site, context, engine)
        return
    out = _built(engine, tmp_path_factory.mktemp(engine))
    with serve(out) as url:
        _check(Site(out, url), context, engine)


def _check(site: Site, context: Any, engine: str) -> None:
    tab = open_tab(context)
    page = tab.page
    url = site.abs(site.instruction("en", "TMUL"))
    page.goto(url, wait_until="networkidle")
    assert page.locator("h1").first.inner_text().strip() == "TMUL"
    svg = page.locator("figure.sg-diagram svg.specgen-bitfield").first
    assert svg.is_visible() and svg.bounding_box()["width"] > 200  # type: ignore[index]
    assert page.locator(".md-header").first.is_visible(), "the theme's header"
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url.rstrip("/"))
    button = page.locator(".sg-encoding button.sg-copy[data-copy]").first
    expected = button.get_attribute("data-copy")
    button.click()
    page.wait_for_function("(b) => b.getAttribute('data-copied') !== null", arg=button.element_handle())
    assert page.evaluate("() => navigator.clipboard.readText()") == expected, "specgen.js did not run"
    page.evaluate("() => window.scrollTo(0, 0)")
    shot = save_screenshot(page, f"engine-{engine}-tmul", full_page=False)
    assert shot.stat().st_size > 20_000
    assert not tab.page_errors, tab.page_errors
    assert not [e for e in tab.console_errors if "favicon" not in e], tab.console_errors
