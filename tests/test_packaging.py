"""Packaging: one version, a licence, a changelog, dependencies that are exactly what specgen imports,
the cache where the platform keeps caches, and ``make serve`` without the test extras.

Issue 28: ``wavedrom`` was declared and never imported, ``watchdog`` imported and never declared, the
version written twice, no LICENSE, the cache under a hard-coded ``~/.cache``.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import yaml

import specgen

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement (``ml_dtypes>=0.4`` → ``ml-dtypes``)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name[0]).lower()


def _names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        return {a.name.split(".")[0] for a in node.names}
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return {node.module.split(".")[0]}
    return set()


def _imported_modules() -> tuple[set[str], set[str]]:
    """Top-level modules ``specgen/`` imports that are neither the standard library nor specgen: those it
    always needs, and those imported only inside ``try: … except ImportError`` (an optional engine)."""
    found: set[str] = set()
    guarded: set[str] = set()
    for path in (REPO / "specgen").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            found |= _names(node)
            if isinstance(node, ast.Try) and any(
                    isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                    for h in node.handlers):
                for inner in node.body:
                    for sub in ast.walk(inner):
                        guarded |= _names(sub)
    keep = {m for m in found if m not in sys.stdlib_module_names and m != "specgen"}
    return keep - guarded, keep & guarded


def test_runtime_dependencies_are_exactly_what_specgen_imports() -> None:
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    dists = packages_distributions()
    imported: dict[str, str] = {}
    required, optional = _imported_modules()
    engines = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["engines"]}
    for module in optional:  # imported when the user chooses it (an engine): an extra, not a dependency
        name = _name(dists[module][0])
        assert name in engines or name in declared, f"{module}: optional import in neither the dependencies nor 'engines'"
        if name in declared:
            imported[name] = module
    for module in required:
        providers = dists.get(module)
        assert providers, f"specgen imports {module!r}, which no installed distribution provides"
        imported[_name(providers[0])] = module
    # the theme the bundled mkdocs.yml names is used through mkdocs' entry points, not imported
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"
    used = set(imported) | {"mkdocs-material"}
    assert sorted(used - declared) == [], f"imported but not declared: {sorted(used - declared)}"
    assert sorted(declared - used) == [], f"declared but never imported: {sorted(declared - used)}"
    assert "wavedrom" not in declared and {"watchdog", "platformdirs"} <= declared
    for r in PYPROJECT["project"]["dependencies"]:
        assert "<" in r and ">=" in r, f"{r}: every dependency has a lower and an upper bound"


def test_test_only_tools_stay_out_of_the_runtime_dependencies() -> None:
    runtime = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    test = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert {"pre-commit", "properdocs", "zensical", "playwright", "hypothesis", "pytest"} <= test
    assert not runtime & test, runtime & test
    for r in PYPROJECT["project"]["optional-dependencies"]["test"]:
        assert "<" in r and ">=" in r, f"{r}: bounded"


def test_one_version_source() -> None:
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "specgen.__version__"}
    texts = [p for p in (REPO / "specgen").rglob("*.py") if f'"{specgen.__version__}"' in p.read_text(encoding="utf-8")]
    assert texts == [REPO / "specgen" / "__init__.py"], f"the version is written more than once: {texts}"
    out = subprocess.run([sys.executable, "-m", "specgen", "--version"], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == f"specgen {specgen.__version__}"


def test_licence_and_changelog() -> None:
    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("BSD 3-Clause License") and "Redistribution and use" in licence
    assert PYPROJECT["project"]["license"] == "BSD-3-Clause" and PYPROJECT["project"]["license-files"] == ["LICENSE"]
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(specgen.__version__)}\]", changelog, re.M), \
        "CHANGELOG.md has no section for the current version"
    assert "## [Unreleased]" in changelog


def _cache_base(env: dict[str, str]) -> str:
    code = "from specgen.cache import cache_base; print(cache_base())"
    clean = {k: v for k, v in os.environ.items() if k not in ("SPECGEN_CACHE_DIR", "XDG_CACHE_HOME")}
    return subprocess.run([sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_cache_directory_follows_the_platform(tmp_path: Path) -> None:
    assert _cache_base({"XDG_CACHE_HOME": str(tmp_path / "xdg")}) == str(tmp_path / "xdg" / "specgen")
    assert _cache_base({"HOME": str(tmp_path / "home")}) == str(tmp_path / "home" / ".cache" / "specgen")
    assert _cache_base({"XDG_CACHE_HOME": str(tmp_path / "xdg"), "SPECGEN_CACHE_DIR": str(tmp_path / "mine")}) \
        == str(tmp_path / "mine")


def _make_dry_run(target: str, tmp_path: Path) -> str:
    """The commands ``make TARGET`` would run in a fresh venv (none exists at ``VENV``)."""
    proc = subprocess.run(["make", "-n", "-C", str(REPO), target, f"VENV={tmp_path / 'venv'}"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_make_serve_installs_runtime_dependencies_only(tmp_path: Path) -> None:
    serve = _make_dry_run("serve", tmp_path)
    installs = [line for line in serve.splitlines() if "pip install" in line and "--upgrade pip" not in line]
    assert installs and all("[test]" not in line for line in installs), serve
    assert "specgen serve --root sample" in serve  # the sample is served only because it is named (issue 41)
    test = _make_dry_run("test", tmp_path)
    assert any("'.[test]'" in line for line in test.splitlines()), test
