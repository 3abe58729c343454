"""Hostile text in the spec renders as text: no script runs, no template is evaluated.

A copy of the bundled spec gets the payload in the TMUL summary (header JSON),
in the TMUL NDF clause body and in an ADR body; tools/bundled_spec.py --write
then regenerates the derived evidence so the tree stays valid, and the real
``specgen build`` renders it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import BUNDLED, REPO, Site, Tab, build_site, open_tab, serve

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SCRIPT = "<script>alert(1)</script>"
PAYLOAD = f"{SCRIPT} <img src=x onerror=alert(1)> [x](javascript:alert(1)) {{{{ 7*7 }}}}"
TEMPLATE = "{{ 7*7 }}"
TMUL_ASL = Path("asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl")
NDF_ID = "PTO-TMUL-CONTRACT-001"
ADR = Path("docs/status/decisions/0001-executable-datatype-sets.md")


def poison(root: Path) -> None:
    """Put PAYLOAD into the TMUL summary, the TMUL NDF body and ADR 0001's body."""
    asl = root / TMUL_ASL
    out = []
    for line in asl.read_text(encoding="utf-8").splitlines():
        if line.startswith("// PTO-INSTRUCTION: "):
            header = json.loads(line[len("// PTO-INSTRUCTION: "):])
            header["summary"] = f"{header['summary']} {PAYLOAD}"
            line = "// PTO-INSTRUCTION: " + json.dumps(header, separators=(",", ":"))
        if line == f"// NDF-END: {NDF_ID}":
            out.append(f"// {PAYLOAD}")
        out.append(line)
    asl.write_text("\n".join(out) + "\n", encoding="utf-8")
    adr = root / ADR
    adr.write_text(adr.read_text(encoding="utf-8") + f"\n{PAYLOAD}\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "bundled_spec.py"), "--write",
                           "--root", str(root)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"bundled_spec.py --write failed:\n{proc.stdout}\n{proc.stderr}"


@pytest.fixture(scope="module")
def hostile_site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The poisoned copy of the bundled spec, built and served for this module."""
    base = tmp_path_factory.mktemp("hostile")
    root = Path(shutil.copytree(BUNDLED, base / "spec"))
    poison(root)
    out = build_site(root, base / "site")
    with serve(out) as url:
        yield Site(out, url)


def element_text(page: Any, selector: str) -> str:
    loc = page.locator(selector)
    assert loc.count() >= 1, f"{selector} not found on {page.url}"
    return loc.first.inner_text()


def assert_inert(tab: Tab) -> None:
    page = tab.page
    assert not tab.dialogs, f"a dialog opened on {page.url}: {tab.dialogs}"
    assert not tab.page_errors, f"uncaught errors on {page.url}: {tab.page_errors}"
    assert not tab.console_errors, f"console errors on {page.url}: {tab.console_errors}"
    hostile = page.evaluate(
        "() => ({img: document.querySelectorAll('img[src=\"x\"], img[onerror]').length,"
        " js: document.querySelectorAll('a[href^=\"javascript:\" i]').length,"
        " flag: Array.from(document.scripts).filter(s => s.textContent.includes('alert(1)')).length})")
    assert hostile == {"img": 0, "js": 0, "flag": 0}, f"live hostile markup on {page.url}: {hostile}"


def assert_literal(text: str, where: str) -> None:
    assert SCRIPT in text, f"{where}: the literal {SCRIPT!r} is not shown as text: {text[-300:]!r}"
    assert TEMPLATE in text, f"{where}: {TEMPLATE!r} is not shown verbatim: {text[-300:]!r}"
    assert "49" not in text, f"{where}: {TEMPLATE!r} was evaluated to 49: {text[-300:]!r}"


def test_hostile_text_renders_as_text(hostile_site: Site, browser: Any) -> None:
    ctx = browser.new_context()
    try:
        for lang in ("en", "zh"):
            tab = open_tab(ctx)
            tab.page.goto(hostile_site.abs(hostile_site.instruction(lang, "TMUL")), wait_until="load")
            assert_literal(element_text(tab.page, ".sg-summary"), f"{lang} TMUL summary")
            assert_literal(element_text(tab.page, f'[id="{NDF_ID}"] .sg-ndf-body'), f"{lang} NDF body")
            assert_inert(tab)
        tab = open_tab(ctx)
        adr = hostile_site.find("en", ADR.stem)
        tab.page.goto(hostile_site.abs(adr), wait_until="load")
        para = tab.page.locator("p", has_text="alert(1)")
        assert para.count() >= 1, f"the ADR payload paragraph is not on {adr}"
        assert_literal(para.last.inner_text(), f"ADR body {adr}")
        assert_inert(tab)
    finally:
        ctx.close()
