"""The built wheel works where it is installed: validate, check, build and serve from an empty folder.

Issue 15: after a plain (non-editable) ``pip install`` the bundled sample spec
and the default config were not in the package, so ``specgen build`` said "no
mkdocs config" and ``specgen validate`` "spec root spec does not exist". This
builds the wheel from a copy of the sources (the checkout stays untouched),
installs it into a fresh venv and runs the four commands with no argument but
what a user types, from an empty folder, with no path to the checkout.

Speed: the fresh venv sees the test environment's installed dependencies
through one ``.pth`` (pip still resolves the wheel's dependency ranges against
them, offline), so the install takes seconds; ``SPECGEN_WHEEL_FULL=1``
installs every dependency into the venv from the index instead (pip's cache
makes that a couple of minutes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from served import free_port, stop, wait_for

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "PACKAGE.md", "LICENSE", "mkdocs.yml", "specgen", "spec", "site", "templates")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # beside the site builds, not after them


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=kw.pop("timeout", 600), **kw)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the sources (an in-tree build would write build/ into the checkout)."""
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        p = REPO / name
        if p.is_dir():
            shutil.copytree(p, src / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
        else:
            shutil.copy2(p, src / name)
    dist = tmp_path_factory.mktemp("dist")
    proc = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)])
    if proc.returncode != 0:
        why = f"cannot build a wheel (the isolated build needs setuptools from the index): {proc.stderr[-500:]}"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return next(dist.glob("specgen-*.whl"))


def _deps_overlay(where: Path) -> Path:
    """The test environment's installed distributions without specgen itself (its editable hook included)."""
    where.mkdir()
    purelib = Path(sysconfig.get_paths()["purelib"])
    for p in purelib.iterdir():
        name = p.name.lower()
        if name.startswith(("specgen", "__editable__", "_virtualenv", "distutils-precedence")) or name.endswith(".pth"):
            continue
        (where / p.name).symlink_to(p)
    return where


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (not editable); its bin/ directory."""
    root = tmp_path_factory.mktemp("venv")
    env_dir = root / "venv"
    full = os.environ.get("SPECGEN_WHEEL_FULL") == "1"
    proc = _run([sys.executable, "-m", "venv", *([] if full else ["--without-pip"]), str(env_dir)])
    assert proc.returncode == 0, proc.stderr
    py = env_dir / "bin" / "python"
    if full:
        proc = _run([str(py), "-m", "pip", "install", "-q", f"{wheel}[site]"])  # build and serve need the site
    else:
        site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
        (site / "specgen-test-deps.pth").write_text(f"{_deps_overlay(root / 'deps')}\n")
        proc = _run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-index", f"{wheel}[site]"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return env_dir / "bin"


def _env(home: Path) -> dict[str, str]:
    """What a user's shell has: no PYTHONPATH to the checkout, no SPECGEN_ROOT, caches of its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SPECGEN_ROOT", "VIRTUAL_ENV", "PYTHONHOME") and not k.startswith("PYTEST")}
    env.update(HOME=str(home), SPECGEN_CACHE_DIR=str(home / "cache"), XDG_CACHE_HOME=str(home / ".cache"))
    return env


def test_wheel_carries_the_bundled_sample(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for top in ("spec", "site", "templates"):
        files = sorted(p.relative_to(REPO).as_posix() for p in (REPO / top).rglob("*") if p.is_file())
        assert files, top
        missing = [f for f in files if f"specgen/sample/{f}" not in names]
        assert not missing, f"{top}/ files missing from {wheel.name}: {missing[:10]}"
    templates = [p.relative_to(REPO / "templates").as_posix() for p in (REPO / "templates").rglob("*") if p.is_file()]
    assert not [f for f in templates if f"specgen/templates/{f}" not in names]
    assert "specgen/sample/mkdocs.yml" in names
    import specgen
    info = f"specgen-{specgen.__version__}.dist-info"  # the one version source reached the wheel's metadata
    assert f"{info}/licenses/LICENSE" in names, sorted(n for n in names if ".dist-info/" in n)
    metadata = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
    assert f"Version: {specgen.__version__}" in metadata and "License-Expression: BSD-3-Clause" in metadata
    assert "Requires-Dist: wavedrom" not in metadata and "Requires-Dist: platformdirs" in metadata
    # the core installs no site stack (the pre-commit hook's environment); the extra `site` does (issue 41)
    assert "Provides-Extra: site" in metadata
    assert all('extra == "site"' in line for line in metadata.splitlines() if line.startswith("Requires-Dist: mkdocs"))


def test_installed_wheel_validates_checks_builds_and_serves_from_an_empty_folder(venv: Path, tmp_path: Path) -> None:
    work, home = tmp_path / "empty", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    env = _env(home)
    where = _run([str(venv / "python"), "-c", "import specgen; print(specgen.__file__)"], cwd=work, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv.parent), f"specgen imported from {where.stdout}"
    specgen = str(venv / "specgen")

    for command in ("validate", "check", "build"):  # no tree here, none named: exit 2, one line saying where
        proc = _run([specgen, command], cwd=work, env=env)
        assert proc.returncode == 2 and proc.stdout == "", proc.stdout + proc.stderr
        assert proc.stderr.count("\n") == 1 and f"no specification.toml in {work} or any folder above it" in proc.stderr
    assert sorted(p.name for p in work.iterdir()) == []

    proc = _run([specgen, "validate", "--root", "sample"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 error(s)" in proc.stdout and "instruction records" in proc.stdout

    proc = _run([specgen, "check", "--root", "sample"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout and str(venv.parent) in proc.stdout  # the bundled spec, inside the venv
    assert sorted(p.name for p in work.iterdir()) == []

    proc = _run([specgen, "build", "--root", "sample"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    site = work / "build" / "site"
    assert (site / "index.html").is_file() and (site / "sitemap.xml").is_file()
    assert (site / "assets" / "specgen" / "specgen.css").is_file()
    assert "PTO ISA specification" in (site / "index.html").read_text(encoding="utf-8")
    assert len(list(site.rglob("*.html"))) > 200

    port = free_port()
    server = subprocess.Popen([specgen, "serve", "--root", "sample", "--dev-addr", f"127.0.0.1:{port}"], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _code, body = wait_for(server, f"http://127.0.0.1:{port}/en/index.html", 240)
        assert "PTO ISA specification" in body, "serve never answered"
    finally:
        log = stop(server)
    assert server.returncode == 0, log
    assert "Traceback" not in log
