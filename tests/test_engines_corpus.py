"""The 0.58.3 corpus site with ProperDocs and with Zensical (issue 28: "the bundled and corpus sites build
with ProperDocs as well as MkDocs, and there is a tested way to build them with Zensical").

The MkDocs build of the corpus is every browser test's fixture (tests/browser/conftest.py); here the same
tree goes through the two other engines, and the pages they wrote are held to each other and to the
instruction pages' landmarks.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TMUL = "en/tile/elementwise-tile-tile/arithmetic/TMUL.html"
pytestmark = [pytest.mark.slow, pytest.mark.corpus, pytest.mark.xdist_group("engines-corpus")]


def _build(root: Path, engine: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "specgen", "build", "--root", str(root), "--engine", engine,
                           "--out", str(out), "--jobs", "2"], cwd=REPO, capture_output=True, text=True,
                          timeout=3600, check=False, env={**os.environ, "SPECGEN_PROGRESS": "1"})


@pytest.fixture(scope="module")
def sites(corpus_root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for engine in ("properdocs", "zensical"):
        site = tmp_path_factory.mktemp(engine) / "site"
        proc = _build(corpus_root, engine, site)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert f"with {engine} into" in proc.stdout and "warnings: 0" in proc.stdout, proc.stdout
        out[engine] = site
    return out


def _pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")
            if p.relative_to(site).parts[0] in ("en", "zh", "source")}


def test_both_engines_write_every_generated_page(sites: dict[str, Path]) -> None:
    properdocs, zensical = _pages(sites["properdocs"]), _pages(sites["zensical"])
    assert len(properdocs) > 4000 and properdocs == zensical
    assert not (sites["zensical"] / "about.html").exists(), "a spec team's site carries no specgen pages"
    assert not (sites["properdocs"] / "plugin.html").exists()


def test_the_tmul_page_is_the_same_page_under_both(sites: dict[str, Path]) -> None:
    import re
    bodies = {}
    for engine, site in sites.items():
        html = (site / TMUL).read_text(encoding="utf-8").replace(" data-search-exclude", "")
        m = re.search(r'<div class="sg-page[^"]*".*?<h2 id="release"', html, re.S)
        assert m, f"{engine}: the TMUL page has no specgen body"
        bodies[engine] = m.group(0)
        for section in ("encoding", "operands", "block-composition", "worked-example", "traceability"):
            assert f'id="{section}"' in html, (engine, section)
    assert bodies["properdocs"] == bodies["zensical"]
    assert 'content="mkdocs-ProperDocs' in (sites["properdocs"] / TMUL).read_text(encoding="utf-8")
