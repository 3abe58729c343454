"""The site beyond MkDocs 1.x and Material: ProperDocs runs the plugin, Zensical renders the export.

Issue 28: MkDocs 1.x is unmaintained and MkDocs 2.0 drops plugins; ProperDocs is the maintained 1.x fork
and Zensical (the Material team's successor) reads mkdocs.yml but runs no plugin. These tests build the
bundled spec with each engine (CI's smoke builds; the corpus builds are in test_engines_corpus.py) and hold
each generated page to the renderer's own HTML, byte for byte, so "it builds" means "it shows the same
pages". The screenshots of the TMUL page from each engine are in tests/browser/test_browser_engines.py.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from served import free_port, stop, wait_for

from specgen.cli import main
from specgen.cli.exitcodes import ExitCode
from specgen.site.export import nav_pages

REPO = Path(__file__).resolve().parent.parent
TMUL = "en/tile/elementwise-tile-tile/arithmetic/TMUL"
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("engines")]


def _specgen(*argv: str, cwd: Path | None = None, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "specgen", *argv], capture_output=True, text=True, cwd=cwd or REPO,
                          timeout=timeout, check=False, env={**os.environ, "SPECGEN_PROGRESS": "1"})


def _rendered(root: Path) -> dict[str, str]:
    """What the renderer itself makes of ``root``: each generated page's HTML by its URL."""
    from specgen.render import RenderOptions, render_site
    from specgen.site.prepare import prepare
    graph, _ = prepare(root, None, lambda stage: None)  # the worked examples run, as in every build
    return {p.url: p.content for p in render_site(graph, RenderOptions(langs=("en", "zh")))}


def _same_page(html: str, content: str) -> bool:
    """The engine's page carries the renderer's HTML unchanged (Zensical drops the search plugin's
    ``data-search-exclude`` marker attribute once it has read it, as material's search does)."""
    return content.replace(" data-search-exclude", "") in html.replace(" data-search-exclude", "")


@pytest.fixture(scope="module")
def rendered(bundled_root: Path) -> dict[str, str]:
    return _rendered(bundled_root)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``specgen export`` of the bundled spec, run in a fresh interpreter that must never import mkdocs."""
    out = tmp_path_factory.mktemp("export") / "project"
    code = ("import sys\nfrom specgen.cli import main\n"
            f"rc = main(['export', '--root', 'sample', '--out', {str(out)!r}, '--jobs', '1'])\n"
            "print('RESULT', rc, 'mkdocs' in sys.modules, 'properdocs' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=600,
                          check=False)
    assert "RESULT 0 False False" in proc.stdout, proc.stdout + proc.stderr
    return out


def test_export_is_a_plain_project_without_mkdocs(exported: Path, rendered: dict[str, str]) -> None:
    docs = exported / "docs"
    text = (exported / "mkdocs.yml").read_text(encoding="utf-8")
    cfg = yaml.safe_load(text)
    assert cfg == json.loads(text.split("\n", 2)[2]), "the config is JSON, which YAML reads the same"
    assert cfg["theme"]["name"] == "material" and cfg["theme"]["variant"] == "classic"
    assert cfg["docs_dir"] == "docs" and "plugins" not in cfg, "nothing in the export needs a plugin"
    for uri in cfg["extra_css"] + cfg["extra_javascript"]:
        assert (docs / uri).is_file(), uri
    listed = nav_pages(cfg["nav"])
    assert len(listed) == len(set(listed)) and all((docs / p).is_file() for p in listed)
    assert f"{TMUL}.md" in listed and "index.md" in listed and "about.md" in listed, "specgen's own site"
    for url, content in rendered.items():
        page = (docs / url).read_text(encoding="utf-8")
        assert page.startswith("---\ntitle: "), url
        assert f'<div class="specgen-page" markdown="0">\n{content}\n</div>\n' in page, url
    assert "search:\n  exclude: true" in (docs / "source/asl/tile/elementwise-tile-tile/arithmetic/TMUL.md").read_text()


def test_zensical_builds_the_export_with_the_renderers_pages(exported: Path, rendered: dict[str, str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "zensical", "build", "-f", str(exported / "mkdocs.yml")],
                          cwd=exported, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = exported / "site"
    for url, content in rendered.items():
        html = (site / url.replace(".md", ".html")).read_text(encoding="utf-8")
        assert _same_page(html, content), f"{url}: Zensical changed the page's HTML"
    tmul = (site / f"{TMUL}.html").read_text(encoding="utf-8")
    assert "assets/specgen/specgen-instr.js" in tmul and "<title>TMUL" in tmul


def test_export_refuses_a_folder_that_is_not_an_export_and_replaces_one(exported: Path, tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    err = io.StringIO()
    assert main(["export", "--root", "sample", "--out", str(tmp_path / "mine")], io.StringIO(), err) == ExitCode.USAGE
    assert err.getvalue().startswith("specgen export: error: ") and "not an earlier export" in err.getvalue()
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_a_spec_teams_export_has_no_specgen_pages(bundled_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "team"
    proc = _specgen("export", "--root", str(bundled_copy), "--out", str(out), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert (out / "docs" / "index.md").is_file() and (out / "docs" / f"{TMUL}.md").is_file()
    assert not (out / "docs" / "about.md").exists() and not (out / "docs" / "plugin.md").exists()
    assert "plugin.md" not in nav_pages(yaml.safe_load((out / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])


def test_build_with_zensical(tmp_path: Path, rendered: dict[str, str]) -> None:
    """CI's smoke build of the bundled spec with Zensical: the export, zensical build, the atomic publish."""
    out = tmp_path / "site"
    proc = _specgen("build", "--engine", "zensical", "--root", "sample", "--out", str(out), "--jobs", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"built \d+ generated pages \(.*\) with zensical into", proc.stdout)
    assert [ln.split(":")[1].split("(")[0].strip() for ln in proc.stderr.splitlines() if ln.startswith("specgen build:")] \
        == ["config", "load", "examples", "tests", "render", "write", "zensical", "swap"]
    assert _same_page((out / f"{TMUL}.html").read_text(encoding="utf-8"), rendered[f"{TMUL}.md"])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".specgen-")], "scratch or temp folders left"
    for where in ("", "en/", "zh/"):  # specgen's small 404 pages, not Zensical's /assets/-bound one
        page = (out / f"{where}404.html").read_text(encoding="utf-8")
        assert "not-found.html" in page and "/assets/" not in page, where


def test_a_failed_zensical_build_leaves_the_previous_site(bundled_copy: Path, tmp_path: Path) -> None:
    from specgen.outputs import MARKER, write_marker
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("the previous site")
    write_marker(out)  # a site specgen wrote (any other folder is refused before any work: test_output_safety)
    (bundled_copy / "spec" / "catalog" / "command-forms.json").write_text("{", encoding="utf-8")
    proc = _specgen("build", "--engine", "zensical", "--root", str(bundled_copy), "--out", str(out), "--jobs", "1")
    assert proc.returncode == ExitCode.FINDINGS, proc.stdout + proc.stderr
    assert "specgen build: error: the build failed: specgen: spec/catalog/command-forms.json:" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(["index.html", MARKER])
    assert (out / "index.html").read_text() == "the previous site"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".specgen-")], "scratch or temp folders left"


def test_build_with_properdocs_runs_the_plugin_unchanged(tmp_path: Path, rendered: dict[str, str]) -> None:
    """CI's smoke build with ProperDocs. Called in process, where mkdocs is already imported: the build runs in
    a fresh interpreter, where ProperDocs can take mkdocs' place."""
    import mkdocs  # noqa: F401  (as in any process that built with mkdocs before)
    out, err = io.StringIO(), io.StringIO()
    site = tmp_path / "site"
    rc = main(["build", "--engine", "properdocs", "--root", "sample", "--out", str(site), "--jobs", "1"], out, err)
    assert rc == ExitCode.OK, err.getvalue()
    assert "with properdocs into" in out.getvalue() and "warnings: 0" in out.getvalue()
    page = (site / f"{TMUL}.html").read_text(encoding="utf-8")
    assert 'content="mkdocs-ProperDocs 1.' in page, "built by ProperDocs"
    assert rendered[f"{TMUL}.md"] in page and (site / "zh" / "search" / "search_index.json").is_file()


def test_properdocs_counts_the_plugins_warnings_in_strict_mode(bundled_copy: Path, tmp_path: Path) -> None:
    """The plugin logs under ``mkdocs.plugins.specgen``; under ProperDocs that logger must still reach the
    strict-mode counter, or an over-budget page would pass."""
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    proc = _specgen("build", "--engine", "properdocs", "--root", str(bundled_copy), "--out", str(tmp_path / "s"),
                    "--jobs", "1")
    assert proc.returncode == ExitCode.FINDINGS, proc.stdout + proc.stderr
    assert "over the page budget of 20000" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("config, message", [
    ("site_name: x\nplugins: [search]\n", "does not enable the specgen plugin"),
    ("site_name: x\nplugins: [{specgen: {lang: [fr]}}]\n", "option 'lang'"),
    ("site_name: x\nplugins: [{specgen: {releases: [{root: a}]}}]\n", "export one release at a time"),
    ("site_name: x\nplugins: [{specgen: nonsense}]\n", "must be a mapping"),
    ("site_name: [\n", "configuration error in"),
    ("site_name: x\nplugins: [{specgen: {page_budget: lots}}]\n", "option 'page_budget'"),
])
def test_export_refuses_a_config_it_cannot_use(config: str, message: str, tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    err = io.StringIO()
    rc = main(["export", "--config", str(tmp_path / "mkdocs.yml"), "--out", str(tmp_path / "out")], io.StringIO(), err)
    assert rc == ExitCode.USAGE and err.getvalue().startswith("specgen export: error: ") and message in err.getvalue()
    assert not (tmp_path / "out").exists()


def test_the_export_and_zensical_keep_the_page_budget(bundled_copy: Path, tmp_path: Path) -> None:
    """A page over the budget stops the export before anything is written, as it fails the strict MkDocs
    build; ``--page-budget`` (the site owner's) lifts the tree's smaller one for both commands."""
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = main(["export", "--root", str(bundled_copy), "--out", str(tmp_path / "x"), "--jobs", "1"], out, err)
    assert rc == ExitCode.FINDINGS, err.getvalue()
    assert "over the page budget of 20000 ([specgen] page_budget_bytes)" in err.getvalue()
    assert not (tmp_path / "x").exists()
    proc = _specgen("build", "--engine", "zensical", "--root", str(bundled_copy), "--out", str(tmp_path / "s"),
                    "--jobs", "1", "--page-budget", "2 MiB")
    assert proc.returncode == ExitCode.OK, proc.stdout + proc.stderr
    assert (tmp_path / "s" / f"{TMUL}.html").is_file()


def test_properdocs_in_a_fresh_process_keeps_the_page_budget(bundled_copy: Path, tmp_path: Path) -> None:
    """``--page-budget`` is parsed before ``--engine`` chooses ProperDocs (it must not import mkdocs, or every
    fresh interpreter would find mkdocs imported again) and reaches the fresh process's build."""
    import mkdocs  # noqa: F401  (the in-process caller imported mkdocs first: the build runs in a fresh process)
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = main(["build", "--engine", "properdocs", "--root", str(bundled_copy), "--out", str(tmp_path / "s"),
               "--jobs", "1", "--page-budget", "2 MiB"], out, err)
    assert rc == ExitCode.OK, err.getvalue()
    assert "with properdocs into" in out.getvalue() and "warnings: 0" in out.getvalue()


def test_zensical_builds_one_release_only(bundled_root: Path, tmp_path: Path) -> None:
    err = io.StringIO()
    rc = main(["build", "--engine", "zensical", "--root", str(bundled_root), "--root", str(bundled_root),
               "--out", str(tmp_path / "s")], io.StringIO(), err)
    assert rc == ExitCode.USAGE and "one release" in err.getvalue()


def test_serve_with_properdocs(bundled_copy: Path) -> None:
    """``specgen serve --engine properdocs`` (a README command): ProperDocs' dev server runs the plugin, answers
    the TMUL page with the renderer's page, and stops on an interrupt with exit 0 and no traceback."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "specgen", "serve", "--engine", "properdocs", "--root",
                               str(bundled_copy), "--dev-addr", f"127.0.0.1:{port}"], cwd=REPO, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env={**os.environ, "SPECGEN_PROGRESS": "0"})
    try:
        _code, body = wait_for(server, f"http://127.0.0.1:{port}/{TMUL}.html", 600)
    finally:
        log = stop(server)
    assert body, f"serve never answered:\n{log[-3000:]}"
    assert 'content="mkdocs-ProperDocs 1.' in body, "served by ProperDocs"
    assert '<h1 id="page-title">TMUL</h1>' in body
    assert server.returncode == 0 and "Traceback" not in log, log[-3000:]


@pytest.mark.parametrize("argv", [["export"], ["build", "--engine", "zensical"]])
def test_the_output_safety_rule_holds_for_the_export_and_zensical(argv: list[str], bundled_copy: Path) -> None:
    """Issue 24's rule for every engine: an output inside the spec tree, or the tree itself, is refused before
    any work (exit 2, one line naming both paths), and the tree is left as it was."""
    before = sorted(p.relative_to(bundled_copy).as_posix() for p in bundled_copy.rglob("*"))
    for out, says in ((bundled_copy / "site", "lies inside the spec root"), (bundled_copy, "is the spec root")):
        err = io.StringIO()
        rc = main([*argv, "--root", str(bundled_copy), "--out", str(out), "--jobs", "1"], io.StringIO(), err)
        assert rc == ExitCode.USAGE, err.getvalue()
        assert says in err.getvalue() and str(bundled_copy) in err.getvalue(), err.getvalue()
    assert sorted(p.relative_to(bundled_copy).as_posix() for p in bundled_copy.rglob("*")) == before
