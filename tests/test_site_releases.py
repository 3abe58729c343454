"""A site of two releases: mike's layout, material's selector, changes since the previous release.

The releases are the bundled spec and a scratch copy named 0.2.0 with a known
edit to TMUL; the oracle is that edit and mike's documented ``versions.json``.
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
    out = tmp / "site"
    result = build_site(None, out, default_config(), releases=[newer, bundled_root])  # order given: newest first
    assert result.stats["releases"] == ["0.1.0", "0.2.0"]
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
    section = newer.split('id="changes"', 1)[1].split('<h2 id="operands"', 1)[0]
    assert "Changes since 0.1.0" in newer
    assert "<code>U8</code>" in section and 'data-aspect="datatypes_prose"' in section
    assert 'id="changes"' not in (site / "0.1.0" / TMUL_PAGE).read_text()
    zh = (site / "0.2.0" / TMUL_PAGE.replace("en/", "zh/", 1)).read_text()
    assert "自 0.1.0 以来的变更" in zh
    listing = (site / "0.2.0" / "en" / "changes.html").read_text()
    assert 'id="change-TMUL"' in listing and "<code>U8</code>" in listing
    assert "sg-diff-" in section and 'class="highlight sg-diff"' in section  # the page has the unified diff
    entry = listing.split('id="change-TMUL"', 1)[1].split("</section>", 1)[0]
    assert 'class="highlight sg-diff"' not in entry and "#changes" in entry  # the listing links to it
    assert not (site / "0.1.0" / "en" / "changes.html").exists()
    assert 'href="changes.html"' in (site / "0.2.0" / "en" / "release.html").read_text()
    assert "changes.html" not in (site / "0.1.0" / "en" / "release.html").read_text()


def test_links_and_search_stay_within_a_release(site: Path) -> None:
    for name, other in (("0.1.0", "0.2.0"), ("0.2.0", "0.1.0")):
        index = json.loads((site / name / "search" / "search_index.json").read_text())
        assert index["docs"] and not any(other in d["location"] or d["location"].startswith("..")
                                         for d in index["docs"])
        for page in (site / name / "en").rglob("*.html"):
            assert f"/{other}/" not in page.read_text(), f"{page} links into release {other}"


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
