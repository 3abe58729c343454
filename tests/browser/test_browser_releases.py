"""The release switcher in a real browser: from TMUL of the newest release to TMUL of the other.

Two releases: the bundled spec and a scratch copy named 0.2.0. The oracle is
the path of the page a reader was on, which must survive the switch.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_harness import BUNDLED, REPO, Site, Tab, serve

sys.path.insert(0, str(REPO / "tests"))
from treecopy import copy_tree  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
TMUL = "en/tile/elementwise-tile-tile/arithmetic/TMUL.html"


@pytest.fixture(scope="module")
def releases(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("releases")
    newer = copy_tree(BUNDLED, tmp / "newer")
    for rel in ("specification.toml", "spec/release-manifest.json"):
        p = newer / rel
        p.write_text(p.read_text(encoding="utf-8").replace('"0.1.0"', '"0.2.0"'), encoding="utf-8")
    out = tmp / "site"
    proc = subprocess.run([sys.executable, "-m", "specgen", "build", "--root", str(BUNDLED), "--root", str(newer),
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with serve(out) as url:
        yield Site(out, url)


def test_switching_release_on_tmul_lands_on_the_other_releases_tmul(releases: Site, tab: Tab) -> None:
    page = tab.page
    page.goto(releases.url, wait_until="load")
    page.wait_for_url(re.compile(r"/0\.2\.0/index\.html$"))  # the newest is the default
    page.goto(releases.abs(f"0.2.0/{TMUL}"), wait_until="load")
    assert page.locator("#changes").is_visible(), "no changes section on the newer release's TMUL"
    current = page.locator(".md-version__current")
    current.wait_for()
    assert current.inner_text().strip() == "0.2.0"
    current.hover(force=True)
    page.locator(".md-version__link", has_text="0.1.0").click()
    page.wait_for_url(releases.abs(f"0.1.0/{TMUL}"))
    assert "TMUL" in page.locator("h1").first.inner_text()
    assert page.locator(".md-version__current").inner_text().strip() == "0.1.0"
    page.locator(".md-version__current").hover(force=True)
    page.locator(".md-version__link", has_text="0.2.0").click()
    page.wait_for_url(releases.abs(f"0.2.0/{TMUL}"))
    assert not tab.page_errors, tab.page_errors
    assert not tab.console_errors, tab.console_errors
