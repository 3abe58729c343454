"""Issue 24's data-loss probes: an output folder or report that is not specgen's own is never replaced.

Each probe uses real folders in a temporary directory (a copy of the bundled
spec, a project folder around it, a user's folder with files in it) and runs
the command line in process; after a refusal every file is still there, byte
for byte. The rule is :mod:`specgen.outputs` (docs-internal/robustness.md,
"Output safety").
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.cli import main
from specgen.outputs import MARKER, Input, OutputRefused, check_report_file, check_site_dir

REPO = Path(__file__).resolve().parent.parent


def _snapshot(top: Path) -> dict[str, bytes]:
    return {p.relative_to(top).as_posix(): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(top.rglob("*"))}


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def project(tmp_path: Path, bundled_root: Path) -> Path:
    """A project folder P holding the spec at P/spec and a user's folder P/mine with files in it."""
    p = tmp_path / "project"
    copy_tree(bundled_root, p / "spec")
    (p / "mine" / "sub").mkdir(parents=True)
    (p / "mine" / "notes.txt").write_text("my notes\n")
    (p / "mine" / "sub" / "data.csv").write_text("a,b\n1,2\n")
    return p


def _refused(err: str, *paths: Path) -> str:
    """The one stderr line of a refusal, naming every path given."""
    lines = [x for x in err.splitlines() if "output-refused" in x]
    assert len(lines) == 1, err
    for p in paths:
        assert str(p.resolve()) in lines[0], (p, lines[0])
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("where", ["user-folder", "spec-root", "project-above-root", "inside-root", "link-to-root"])
def test_build_refuses_an_output_that_would_lose_data(project: Path, where: str) -> None:
    root = project / "spec"
    out, other = {
        "user-folder": (project / "mine", project / "mine" / "notes.txt"),
        "spec-root": (root, root),
        "project-above-root": (project, root),
        "inside-root": (root / "site", root),
        "link-to-root": (project / "link", root),
    }[where]
    if where == "link-to-root":
        out.symlink_to(root)
    before = _snapshot(project)
    code, stdout, err = _run("build", "--root", str(root), "--out", str(out), "--jobs", "1")
    assert code == 2, err
    line = _refused(err, root if where != "user-folder" else out, other)
    assert line.startswith(f"{out}:0:0: output-refused: ")
    assert _snapshot(project) == before, "a refused build changed a file"
    assert stdout == ""


def test_force_does_not_lift_the_inputs_rule(project: Path) -> None:
    root = project / "spec"
    before = _snapshot(project)
    code, _, err = _run("build", "--root", str(root), "--out", str(project), "--force")
    assert code == 2
    _refused(err, project, root)
    assert _snapshot(project) == before


def test_docs_dir_config_folder_and_checkout_top_are_refused(tmp_path: Path, bundled_root: Path) -> None:
    """The bundled config's folder (the checkout's top level) and its docs_dir ``site/``."""
    for out, named in ((REPO, REPO), (REPO / "site", REPO / "site"), (REPO / "site" / "x", REPO / "site")):
        code, _, err = _run("build", "--root", str(bundled_root), "--out", str(out))
        assert code == 2, (out, err)
        _refused(err, out, named)
    checkout = tmp_path / "other-checkout"
    (checkout / ".git").mkdir(parents=True)
    code, _, err = _run("build", "--root", str(bundled_root), "--out", str(checkout), "--force")
    assert code == 2 and ".git" in _refused(err, checkout)
    assert (checkout / ".git").is_dir()


def test_rule_allows_new_empty_and_own_folders_and_force(tmp_path: Path) -> None:
    root = tmp_path / "spec"
    root.mkdir()
    inputs = [Input("the spec root", root, True), Input("the folder of the mkdocs config", tmp_path, False)]
    check_site_dir(tmp_path / "build" / "site", inputs)  # new (the default place)
    (tmp_path / "empty").mkdir()
    check_site_dir(tmp_path / "empty", inputs)
    own = tmp_path / "own"
    own.mkdir()
    (own / "index.html").write_text("x")
    with pytest.raises(OutputRefused, match="not empty"):
        check_site_dir(own, inputs)
    check_site_dir(own, inputs, force=True)
    (own / MARKER).write_text("")
    check_site_dir(own, inputs)
    legacy = tmp_path / "legacy"  # a site specgen wrote before the marker existed
    (legacy / "assets" / "specgen").mkdir(parents=True)
    (legacy / "assets" / "specgen" / "specgen.css").write_text("")
    check_site_dir(legacy, inputs)
    releases = tmp_path / "releases"  # the same, a multi-release site
    (releases / "0.1" / "assets" / "specgen").mkdir(parents=True)
    (releases / "0.1" / "assets" / "specgen" / "specgen.css").write_text("")
    (releases / "versions.json").write_text("[]")
    check_site_dir(releases, inputs)
    hidden = tmp_path / "hidden"  # a dot file counts: the swap would delete it
    hidden.mkdir()
    (hidden / ".env").write_text("SECRET=1")
    with pytest.raises(OutputRefused, match=r"\.env"):
        check_site_dir(hidden, inputs)


def test_check_output_refuses_a_file_of_the_tree(project: Path) -> None:
    root = project / "spec"
    manifest = root / "spec" / "release-manifest.json"
    before = _snapshot(project)
    for target in (manifest, root / "new-report.json", root):
        code, _, err = _run("check", "--root", str(root), "--format", "json", "--output", str(target))
        assert code == 2, err
        _refused(err, target, root)
    assert _snapshot(project) == before
    code, _, err = _run("check", "--root", str(root), "--format", "json", "--output", str(project / "report.json"))
    assert code in (0, 1) and (project / "report.json").is_file(), err


def test_check_output_through_a_hard_link_to_the_manifest_is_refused(project: Path) -> None:
    """Issue 37: a report path outside the tree that is a hard link to the manifest is the manifest (same
    device and inode); writing it would overwrite the release's manifest."""
    root = project / "spec"
    manifest = root / "spec" / "release-manifest.json"
    link = project / "mine" / "report.json"
    os.link(manifest, link)
    before = _snapshot(project)
    code, _, err = _run("check", "--root", str(root), "--format", "json", "--output", str(link))
    assert code == 2, err
    line = _refused(err, link, manifest)
    assert "hard link" in line
    assert _snapshot(project) == before
    code, _, err = _run("test", "--root", str(root), "--lcov", str(link), "TADD")
    assert code == 2 and "hard link" in _refused(err, link, manifest)
    assert _snapshot(project) == before


def test_test_coverage_files_refuse_the_tree(project: Path) -> None:
    root = project / "spec"
    before = _snapshot(project)
    code, _, err = _run("test", "--root", str(root), "--lcov", str(root / "lcov.info"), "TADD")
    assert code == 2
    _refused(err, root / "lcov.info", root)
    assert _snapshot(project) == before


def _mkdocs_project(tmp_path: Path, root: Path, extra: str = "") -> Path:
    proj = tmp_path / "mk"
    (proj / "docs").mkdir(parents=True)
    (proj / "docs" / "index.md").write_text("# Home\n")
    (proj / "mkdocs.yml").write_text(f"site_name: t\nplugins:\n  - specgen:\n      root: {root}\n      lang: [en]\n{extra}")
    return proj


def test_plain_mkdocs_build_refuses_a_site_dir_it_did_not_write(tmp_path: Path, bundled_root: Path) -> None:
    proj = _mkdocs_project(tmp_path, bundled_root)
    (proj / "site").mkdir()
    (proj / "site" / "notes.txt").write_text("keep me\n")
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=proj, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode != 0
    assert "output-refused" in res.stderr and "replace_site_dir: true" in res.stderr, res.stderr
    assert (proj / "site" / "notes.txt").read_text() == "keep me\n"


def test_plugin_site_dir_inside_the_spec_root_is_refused(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    proj = _mkdocs_project(tmp_path, root)
    with open(proj / "mkdocs.yml", "a") as f:
        f.write(f"site_dir: {root}\n")
    before = _snapshot(root)
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=proj, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode != 0 and "is the spec root" in res.stderr, res.stderr
    assert _snapshot(root) == before


def test_report_file_rule(tmp_path: Path) -> None:
    (tmp_path / "spec").mkdir()
    check_report_file(tmp_path / "report.sarif", tmp_path / "spec")
    with pytest.raises(OutputRefused):
        check_report_file(tmp_path / "spec" / "x" / "report.sarif", tmp_path / "spec")
    (tmp_path / "link").symlink_to(tmp_path / "spec")
    with pytest.raises(OutputRefused):
        check_report_file(tmp_path / "link" / "report.sarif", tmp_path / "spec")
    (tmp_path / "spec" / "kept.txt").write_text("a file of the tree\n")
    os.link(tmp_path / "spec" / "kept.txt", tmp_path / "twin.txt")
    with pytest.raises(OutputRefused, match="hard link"):
        check_report_file(tmp_path / "twin.txt", tmp_path / "spec")
    (tmp_path / "plain.txt").write_text("x")
    os.link(tmp_path / "plain.txt", tmp_path / "plain-twin.txt")  # a hard link outside the tree is fine
    check_report_file(tmp_path / "plain-twin.txt", tmp_path / "spec")


@pytest.mark.slow
@pytest.mark.xdist_group("site-build")
def test_force_replaces_a_user_folder_then_the_site_is_specgens_own(tmp_path: Path, bundled_root: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``--force`` replaces a folder specgen did not write; the site it leaves carries the marker, so the
    next build replaces it without ``--force`` (atomically, as ever); the default ``build/site`` works."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("x")
    code, _, err = _run("build", "--root", str(bundled_root), "--out", str(mine), "--force", "--jobs", "1")
    assert code == 0, err
    assert not (mine / "notes.txt").exists() and (mine / MARKER).is_file() and (mine / "index.html").is_file()
    code, _, err = _run("build", "--root", str(bundled_root), "--jobs", "1")  # default build/site, twice
    assert code == 0, err
    code, _, err = _run("build", "--root", str(bundled_root), "--jobs", "1")
    assert code == 0, err
    assert (tmp_path / "build" / "site" / MARKER).is_file()
    assert sorted(os.listdir(tmp_path / "build")) == ["site"]
