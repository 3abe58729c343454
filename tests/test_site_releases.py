"""A site of two releases: mike's layout, material's selector, changes since the previous release.

The releases are the bundled spec and a scratch copy named 0.2.0 with a known
edit to TMUL and TXOR removed; the oracle is that edit and mike's documented
``versions.json``. The real releases (0.58.0 and 0.58.3) are built once for
every test that reads them (``tests/browser/conftest.py``, ``two_release_site``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from specgen.site.build import build_site
from specgen.site.inputs import SiteInputError, default_config
from specgen.site.releases import Release, order, parse_releases

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_PAGE = "en/tile/elementwise-tile-tile/arithmetic/TMUL.html"
TXOR = "asl/tile/elementwise-tile-tile/logical/TXOR.asl"
TXOR_PAGE = "en/tile/elementwise-tile-tile/logical/TXOR.html"


def rename_release(root: Path, old: str, new: str) -> None:
    for rel in ("specification.toml", "spec/release-manifest.json"):
        p = root / rel
        text = p.read_text(encoding="utf-8")
        assert old in text, f"{old} not in {p} (fixture drifted)"
        p.write_text(text.replace(f'"{old}"', f'"{new}"'), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> Path:
    from treecopy import copy_tree
    tmp = tmp_path_factory.mktemp("releases")
    newer = copy_tree(bundled_root, tmp / "newer")
    rename_release(newer, "0.1.0", "0.2.0")
    tmul = newer / TMUL
    text = tmul.read_text(encoding="utf-8").replace('U32, U16, or U8."', 'U32, or U16."')
    tmul.write_text(text.replace("begin\n    return TileBinaryDataTypeSupported",
                                 "begin\n    // kept\n    return TileBinaryDataTypeSupported"), encoding="utf-8")
    import shutil
    (newer / TXOR).unlink()  # a release that drops an instruction (with its tests and examples)
    for d in ("tests/asl", "examples"):
        shutil.rmtree(newer / d / "tile/elementwise-tile-tile/logical/TXOR")
    out = tmp / "site"
    result = build_site(None, out, default_config(), releases=[newer, bundled_root])  # order given: newest first
    assert result.stats.releases == ["0.1.0", "0.2.0"]
    return out


def test_mike_layout_newest_first_and_default(site: Path) -> None:
    versions = json.loads((site / "versions.json").read_text())
    assert versions == [{"version": "0.2.0", "title": "0.2.0", "aliases": ["latest"]},
                        {"version": "0.1.0", "title": "0.1.0", "aliases": []}]
    assert 'url=0.2.0/index.html"' in (site / "index.html").read_text()
    for name in ("0.1.0", "0.2.0"):
        page = (site / name / TMUL_PAGE).read_text()
        config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>', page, re.S)[1])
        assert config["version"] == {"provider": "mike"}, "material's selector is not switched on"
        assert "specgen-releases.js" in page


def test_a_spec_teams_site_has_no_specgen_pages(site: Path) -> None:
    """The bundled mkdocs.yml lists about.md and plugin.md as ``specgen_pages``: the site of another tree (the
    copy, 0.2.0) has its home page but not specgen's pages; the bundled sample's own release (0.1.0) keeps them."""
    assert (site / "0.2.0" / "index.html").is_file()
    assert not (site / "0.2.0" / "about.html").exists() and not (site / "0.2.0" / "plugin.html").exists()
    assert "plugin.html" not in (site / "0.2.0" / "index.html").read_text(encoding="utf-8")
    assert (site / "0.1.0" / "about.html").is_file() and (site / "0.1.0" / "plugin.html").is_file()


def test_changes_section_on_the_newer_release_only(site: Path) -> None:
    newer = (site / "0.2.0" / TMUL_PAGE).read_text()
    section = newer.split('<h2 id="changes"', 1)[1].split('<h2 id="records"', 1)[0]
    assert "Changes since 0.1.0" in newer
    assert "<code>U8</code>" in section and 'data-aspect="datatypes_prose"' in section
    line = newer.split('class="sg-changes-line"', 1)[1].split("</p>", 1)[0]  # under the summary: what changed
    assert 'href="#changes"' in line and "DataTypes named by the prose" in line and "ASL body" in line
    assert 'id="changes"' not in (site / "0.1.0" / TMUL_PAGE).read_text()
    zh = (site / "0.2.0" / TMUL_PAGE.replace("en/", "zh/", 1)).read_text()
    assert "自 0.1.0 以来的变更" in zh
    # the ASL body and the record as unified diffs, collapsed, coloured, the edit's own lines
    body = section.split('id="diff-body"', 1)[1].split("</details>", 1)[0]
    assert 'class="highlight sg-diff"' in body and '<span class="sg-diff-add">' in body and "// kept" in body
    records = section.split('id="diff-records"', 1)[1].split("</details>", 1)[0]
    assert "PTO-INSTRUCTION" in records and "U8" in records
    assert "line(s)" not in section and "not stated" not in section  # no counts for diffs, no pseudo-changes
    listing = (site / "0.2.0" / "en" / "changes.html").read_text()
    row = listing.split('id="change-TMUL"', 1)[1].split("</tr>", 1)[0]
    assert "sg-diff" not in listing and "<code>U8</code>" not in listing  # the summary holds no diff
    assert 'TMUL.html#changes"' in row and 'data-aspect="datatypes_prose body records' in row
    removed = listing.split('id="change-TXOR"', 1)[1].split("</tr>", 1)[0]
    assert 'data-kind="removed"' in removed and 'href="../../0.1.0/en/tile/elementwise-tile-tile/logical/TXOR.html"' in removed
    assert (site / "0.1.0" / TXOR_PAGE).is_file() and not (site / "0.2.0" / TXOR_PAGE).exists()
    assert not (site / "0.1.0" / "en" / "changes.html").exists()
    assert 'href="changes.html"' in (site / "0.2.0" / "en" / "release.html").read_text()
    assert "changes.html" not in (site / "0.1.0" / "en" / "release.html").read_text()


def test_an_older_release_says_so_and_links_the_same_page_in_the_newest(site: Path) -> None:
    old = (site / "0.1.0" / TMUL_PAGE).read_text()
    banner = old.split('class="sg-release-banner"', 1)[1].split("</p>", 1)[0]
    assert "older release" in banner and 'href="../../../../../0.2.0/' + TMUL_PAGE + '"' in banner
    gone = (site / "0.1.0" / TXOR_PAGE).read_text().split('class="sg-release-banner"', 1)[1].split("</p>", 1)[0]
    assert 'href="../../../../../0.2.0/en/tile/elementwise-tile-tile/logical/index.html"' in gone  # the nearest
    assert "nearest page" in gone
    zh = (site / "0.1.0" / TMUL_PAGE.replace("en/", "zh/", 1)).read_text()
    assert "较早的版本" in zh.split('class="sg-release-banner"', 1)[1].split("</p>", 1)[0]
    assert 'class="sg-release-banner"' not in (site / "0.2.0" / TMUL_PAGE).read_text()


def test_links_and_search_stay_within_a_release(site: Path) -> None:
    """Only the older-release banner, the removed instructions' rows and the 404 page's list of releases link into
    another release, and each such link has its target on disk."""
    for name, other in (("0.1.0", "0.2.0"), ("0.2.0", "0.1.0")):
        index = json.loads((site / name / "search" / "search_index.json").read_text())
        assert index["docs"] and not any(other in d["location"] or d["location"].startswith("..")
                                         for d in index["docs"])
        for page in (site / name / "en").rglob("*.html"):
            text = page.read_text()
            for href in re.findall(rf'href="((?:\.\./)+{re.escape(other)}/[^"#]*)', text):
                assert (page.parent / href).resolve().is_file(), f"{page} links to missing {href}"
            outside = re.sub(r'<p class="sg-release-banner".*?</p>|<tr id="change-[^"]*"[^>]*data-kind="removed".*?</tr>'
                             r'|<p class="sg-notfound-releases">.*?</p>',
                             "", text, flags=re.S)
            assert f"/{other}/" not in outside, f"{page} links into release {other}"


def test_release_names_must_be_distinct_path_segments(tmp_path: Path) -> None:
    with pytest.raises(SiteInputError, match="two releases"):
        order([Release(tmp_path / "a", "1.0"), Release(tmp_path / "b", "1.0")])
    with pytest.raises(SiteInputError, match="path segment"):
        order([Release(tmp_path / "a", "../x")])
    assert [r.name for r in order([Release(tmp_path, "0.58.10"), Release(tmp_path, "0.58.9")])] == ["0.58.9", "0.58.10"]
    with pytest.raises(SiteInputError, match="releases\\[0\\]"):
        parse_releases([{"root": "a", "bogus": 1}], tmp_path)
    assert parse_releases(["a", {"root": "/b", "name": "x"}], tmp_path) == [(tmp_path / "a", None), (Path("/b"), "x")]


def test_two_roots_of_one_release_are_a_usage_error(tmp_path: Path, bundled_root: Path) -> None:
    import io

    from specgen.cli import main
    out, err = io.StringIO(), io.StringIO()
    rc = main(["build", "--root", str(bundled_root), "--root", str(bundled_root), "--out", str(tmp_path / "s")], out, err)
    assert rc == 2 and "two releases are named" in err.getvalue() and "Traceback" not in err.getvalue()
    assert not (tmp_path / "s").exists()
