"""The installed package finds its defaults: the wheel carries the top-level ``templates/``, ``spec/``, ``site/`` and mkdocs.yml.

The full check (install the wheel into a fresh venv, run it from an empty folder) is tests/test_wheel.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen import bundled
from specgen.render.core import DEFAULT_TEMPLATES

REPO = Path(__file__).resolve().parent.parent


def test_checkout_uses_the_top_level_templates() -> None:
    assert bundled.templates_dir() == (REPO / "templates").resolve()
    assert DEFAULT_TEMPLATES == bundled.templates_dir() / "pages"
    link = REPO / "specgen" / "templates"
    assert link.is_symlink() and link.resolve() == (REPO / "templates").resolve()


def test_checkout_uses_the_top_level_sample() -> None:
    """In a checkout the defaults are the top-level files (paths in findings stay ``spec/...``)."""
    assert bundled.sample_dir() == REPO
    assert bundled.spec_root() == REPO / "spec"
    assert bundled.mkdocs_config() == REPO / "mkdocs.yml"
    from specgen.cli.common import default_root
    from specgen.site.inputs import default_config
    assert default_root("sample") == REPO / "spec" and default_config() == REPO / "mkdocs.yml"


def test_package_sample_links_point_at_the_top_level() -> None:
    """specgen/sample/ is what the wheel carries: each entry must lead to the top-level original."""
    sample = REPO / "specgen" / "sample"
    for name in ("spec", "site", "templates", "mkdocs.yml"):
        link = sample / name
        assert link.is_symlink(), f"{link} must be a symlink to ../../{name}"
        assert link.resolve() == (REPO / name).resolve()


def test_installed_layout_is_found_without_a_checkout(tmp_path, monkeypatch) -> None:
    """A package directory whose parent is not a checkout finds the sample under itself."""
    pkg = tmp_path / "site-packages" / "specgen"
    (pkg / "sample" / "spec").mkdir(parents=True)
    (pkg / "sample" / "site").mkdir()
    (pkg / "sample" / "mkdocs.yml").write_text("site_name: x\n")
    (pkg / "templates" / "pages").mkdir(parents=True)
    (tmp_path / "site-packages" / "spec").mkdir()  # a stray spec/ in site-packages is not the sample
    monkeypatch.setattr(bundled, "_PKG", pkg)
    monkeypatch.setattr(bundled, "_CHECKOUT", pkg.parent)
    assert bundled.spec_root() == pkg / "sample" / "spec"
    assert bundled.mkdocs_config() == pkg / "sample" / "mkdocs.yml"
    assert bundled.templates_dir() == (pkg / "templates").resolve()
    (pkg / "sample" / "mkdocs.yml").unlink()
    with pytest.raises(bundled.BundledMissing, match="reinstall specgen"):
        bundled.spec_root()


def test_a_broken_install_is_a_usage_error_not_a_traceback(tmp_path, monkeypatch) -> None:
    import io

    from specgen.cli import main
    monkeypatch.delenv("SPECGEN_ROOT", raising=False)
    monkeypatch.setattr(bundled, "_PKG", tmp_path / "specgen")
    monkeypatch.setattr(bundled, "_CHECKOUT", tmp_path)
    for argv in (["validate", "--root", "sample"], ["build", "--root", str(REPO / "spec"), "--out", str(tmp_path / "out")]):
        err = io.StringIO()
        assert main(argv, io.StringIO(), err) == 2, argv
        assert "bundled sample is missing" in err.getvalue() and "reinstall specgen" in err.getvalue()
    assert not (tmp_path / "out").exists()
