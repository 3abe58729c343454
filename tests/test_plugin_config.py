"""The plugin as one line: every configuration key validated, defaults a user's project expects,
``--config`` honoured, and a fresh ``mkdocs new`` project that builds with only the plugin line added."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.config.base import ValidationError

from specgen.cli import main
from specgen.cli.common import UsageError
from specgen.site.inputs import SiteInputError, load_mkdocs_config
from specgen.site.options import Languages, Navigation, SiteNames, declared_languages

REPO = Path(__file__).resolve().parent.parent
TMUL = "tile/elementwise-tile-tile/arithmetic/TMUL.html"


def _project(tmp: Path, plugin_line: str, theme: str | None = None) -> Path:
    """``mkdocs new`` and the one plugin line (and a theme line for material)."""
    subprocess.run([sys.executable, "-m", "mkdocs", "new", str(tmp / "proj")], check=True, capture_output=True)
    cfg = tmp / "proj" / "mkdocs.yml"
    text = cfg.read_text()
    if theme:
        text += f"theme: {theme}\n"
    cfg.write_text(text + plugin_line + "\n")
    return cfg


@pytest.mark.parametrize("value, message", [
    ("fr", "unknown language 'fr'"),
    ([], "no language given"),
    (["en", "en"], "listed twice"),
    ([3], "unknown language 3"),
])
def test_bad_lang_is_a_validation_error(value: object, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Languages().run_validation(value)


def test_lang_forms() -> None:
    assert Languages().run_validation("en, zh") == ["en", "zh"]
    assert Languages().run_validation(["zh"]) == ["zh"]
    assert Languages().run_validation(None) is None
    assert SiteNames().run_validation({"zh": "规范"}) == {"zh": "规范"}
    with pytest.raises(ValidationError):
        SiteNames().run_validation({"fr": "x"})
    with pytest.raises(ValidationError):
        Navigation().run_validation("sideways")


def test_languages_default_to_what_mkdocs_yml_declares(tmp_path: Path) -> None:
    cfg = _project(tmp_path, f"plugins: [{{specgen: {{root: {REPO / 'spec'}}}}}]")
    assert declared_languages(load_mkdocs_config(cfg, None, None, strict=True)) == ["en"]
    cfg.write_text(cfg.read_text() + "theme: {name: material, language: zh}\n"
                   "extra: {alternate: [{name: English, link: /en/, lang: en}]}\n")
    assert declared_languages(load_mkdocs_config(cfg, None, None, strict=True)) == ["zh", "en"]


def test_lang_fr_is_a_configuration_error_not_a_traceback(tmp_path: Path) -> None:
    cfg = _project(tmp_path, f"plugins: [{{specgen: {{root: {REPO / 'spec'}, lang: fr}}}}]")
    with pytest.raises(SiteInputError, match="lang.*unknown language 'fr'"):
        load_mkdocs_config(cfg, None, None, strict=True)
    out, err = io.StringIO(), io.StringIO()
    code = main(["build", "--config", str(cfg), "--out", str(tmp_path / "site")], out, err)
    assert code == 2 and "unknown language 'fr'" in err.getvalue() and "Traceback" not in err.getvalue()
    assert not (tmp_path / "site").exists()
    # plain mkdocs reports it as a configuration error too
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(cfg)], capture_output=True, text=True)
    assert proc.returncode != 0 and "unknown language 'fr'" in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_key_and_missing_plugin_are_usage_errors(tmp_path: Path) -> None:
    cfg = _project(tmp_path, f"plugins: [{{specgen: {{root: {REPO / 'spec'}, colour: red}}}}]")
    out, err = io.StringIO(), io.StringIO()
    assert main(["build", "--config", str(cfg), "--out", str(tmp_path / "s")], out, err) == 2
    cfg.write_text(cfg.read_text().replace("colour: red", "search: maybe"))
    assert main(["build", "--config", str(cfg), "--out", str(tmp_path / "s")], out, err) == 2
    (tmp_path / "plain" / "docs").mkdir(parents=True)
    plain = tmp_path / "plain" / "mkdocs.yml"
    plain.write_text("site_name: x\n")
    err = io.StringIO()
    assert main(["build", "--config", str(plain), "--out", str(tmp_path / "s")], out, err) == 2
    assert "does not enable the specgen plugin" in err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("theme", [None, "material"])
def test_fresh_mkdocs_new_project_builds_with_only_the_plugin_line(tmp_path: Path, bundled_root: Path,
                                                                    theme: str | None) -> None:
    """Default theme and material: English only, search kept, a supplied nav that stays small."""
    cfg = _project(tmp_path, f"plugins: [{{specgen: {{root: {bundled_root}}}}}]", theme)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(cfg)], capture_output=True,
                          text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    site = cfg.parent / "site"
    page = (site / "en" / TMUL.replace(".html", "/index.html")).read_text()  # mkdocs new: directory URLs
    assert "<h1" in page and 'id="summary"' in page
    assert not (site / "zh").exists(), "English only: mkdocs.yml declares no other language"
    index = json.loads((site / "search" / "search_index.json").read_text())
    tmul = [d for d in index["docs"] if d["location"].split("#")[0] == "en/" + TMUL.replace(".html", "/")]
    # one entry for the page; the others are the ASL definitions its listings show, each at its line
    assert len([d for d in tmul if "#" not in d["location"]]) == 1, "search kept, an instruction page one entry"
    assert all(re.search(r"#(decode|operation)-L-\d+$", d["location"]) for d in tmul if "#" in d["location"])
    assert (site / "index.html").is_file()  # the user's own home page
    links = page.count("<a ")
    assert links < 400, f"{links} links on the TMUL page: the supplied nav is not small"
    if theme == "material":  # the tree, pruned to the page's path even though mkdocs.yml lists no feature
        assert "TADD/" in page and page.count('class="md-nav__link') < 120


@pytest.mark.slow
def test_build_config_root_is_honoured(tmp_path: Path, bundled_copy: Path) -> None:
    """``specgen build --config X`` builds X's root:, not the bundled sample (the copy has an edited summary)."""
    src = bundled_copy / "asl" / TMUL.replace(".html", ".asl")
    text = src.read_text()
    old = json.loads(text.split("\n", 1)[0][len("// PTO-INSTRUCTION: "):])["summary"]
    src.write_text(text.replace(json.dumps(old)[1:-1], "Summary of the copy named by root.", 1))
    cfg = _project(tmp_path, f"plugins: [{{specgen: {{root: {bundled_copy}}}}}]", "material")
    out, err = io.StringIO(), io.StringIO()
    code = main(["build", "--config", str(cfg), "--out", str(tmp_path / "site"), "--jobs", "1"], out, err)
    assert code == 0, err.getvalue()
    page = tmp_path / "site" / "en" / TMUL.replace(".html", "/index.html")
    assert "Summary of the copy named by root." in page.read_text()


def test_serve_config_root_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundled_root: Path) -> None:
    """``specgen serve --config X`` hands no root of its own down, so X's root: is served."""
    seen: dict[str, object] = {}
    import specgen.site.serve_server as serve_mod
    monkeypatch.setattr(serve_mod, "serve", lambda config_file, dev_addr, root=None: seen.update(
        config=config_file, root=root))
    cfg = tmp_path / "x.yml"
    cfg.write_text("site_name: x\n")
    from specgen.cli.serve import run as cmd_serve
    assert cmd_serve(argparse.Namespace(config=cfg, dev_addr="127.0.0.1:0"), io.StringIO(), io.StringIO()) == 0
    assert seen == {"config": cfg, "root": None}
    monkeypatch.delenv("SPECGEN_ROOT", raising=False)
    monkeypatch.chdir(tmp_path)  # no --config, no --root, no tree found from here: a usage error, nothing served
    seen.clear()
    with pytest.raises(UsageError, match="no spec tree"):
        cmd_serve(argparse.Namespace(config=None, dev_addr="127.0.0.1:0"), io.StringIO(), io.StringIO())
    assert seen == {}
    monkeypatch.chdir(bundled_root / "asl")  # the tree found upward from the working directory
    assert cmd_serve(argparse.Namespace(config=None, dev_addr="127.0.0.1:0"), io.StringIO(), io.StringIO()) == 0
    assert seen["root"] == bundled_root.absolute() and seen["config"] != cfg
