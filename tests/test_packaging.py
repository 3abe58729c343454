"""Packaging: one version, a licence, a changelog, dependencies that are exactly what specgen imports,
the cache where the platform keeps caches, and ``make serve`` without the test extras.

Issue 28: ``wavedrom`` was declared and never imported, ``watchdog`` imported and never declared, the
version written twice, no LICENSE, the cache under a hard-coded ``~/.cache``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
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


# the packages of the site (build, serve, export): what they import is the ``site`` extra, not the core
SITE_PACKAGES = ("site", "render")
# the module ``executor.fast_paths_installed`` gates: what it imports is the ``fast`` extra
FAST_MODULES = ("executor/fastpath.py",)


def _part(path: Path) -> str:
    rel = path.relative_to(REPO / "specgen")
    return "fast" if rel.as_posix() in FAST_MODULES else "site" if rel.parts[0] in SITE_PACKAGES else "core"


def _imported_modules(site: bool = False, part: str | None = None) -> tuple[set[str], set[str]]:
    """Top-level modules ``specgen/`` imports that are neither the standard library nor specgen: those it
    always needs, and those imported only inside ``try: … except ImportError`` (an optional engine). ``site``:
    those of the site packages (:data:`SITE_PACKAGES`) instead of those of the rest; ``part`` "fast": those of
    :data:`FAST_MODULES`."""
    found: set[str] = set()
    guarded: set[str] = set()
    want = part or ("site" if site else "core")
    for path in (REPO / "specgen").rglob("*.py"):
        if _part(path) != want:
            continue
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


def _distributions(modules: set[str]) -> dict[str, str]:
    dists = packages_distributions()
    out = {}
    for module in modules:
        providers = dists.get(module)
        assert providers, f"specgen imports {module!r}, which no installed distribution provides"
        out[_name(providers[0])] = module
    return out


def test_runtime_dependencies_are_exactly_what_specgen_imports() -> None:
    """The core dependencies are what specgen imports outside the site packages; the ``site`` extra is what the
    site packages import beyond the core, plus the theme the bundled mkdocs.yml names (issue 41: the hook's
    environment installed the whole site stack to run ``check``)."""
    declared = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    extras = PYPROJECT["project"]["optional-dependencies"]
    site = {_name(r) for r in extras["site"] if not r.startswith("specgen[")}
    engines = {_name(r) for r in extras["engines"]}
    fast = {_name(r) for r in extras["fast"]}
    required, optional = _imported_modules()
    site_required, site_optional = _imported_modules(site=True)
    fast_required, _ = _imported_modules(part="fast")
    for name in _distributions(optional | site_optional):  # imported when the user chooses it: an extra
        assert name in engines | declared | site | fast, f"{name}: optional import in no dependency list"
    # the fast paths' imports are the extra `fast` (plus ml_dtypes, which they import by name on first use)
    assert set(_distributions(fast_required)) | {"ml-dtypes"} == fast, sorted(fast)
    assert "specgen[fast]" in extras["site"] and not fast & declared, "the site has the fast paths, the core not"
    core = set(_distributions(required))
    assert sorted(core - declared) == [], f"imported but not declared: {sorted(core - declared)}"
    assert sorted(declared - core) == [], f"declared but never imported: {sorted(declared - core)}"
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["theme"]["name"] == "material"  # used through mkdocs' entry points, not imported
    # the site's guarded imports (jieba, watchdog: a plain mkdocs build runs without them) are the site's too
    site_used = (set(_distributions(site_required | site_optional)) - declared - engines) | {"mkdocs-material"}
    assert sorted(site_used - site) == [], f"the site imports, [site] lacks: {sorted(site_used - site)}"
    assert sorted(site - site_used) == [], f"in [site], never imported: {sorted(site - site_used)}"
    assert not declared & site and "wavedrom" not in declared | site and {"watchdog"} <= site
    assert {"mkdocs", "jinja2", "jieba", "pygments"} & declared == set(), "the hook installs no site stack"
    for r in PYPROJECT["project"]["dependencies"] + extras["site"] + extras["fast"]:
        assert r.startswith("specgen[") or ("<" in r and ">=" in r), f"{r}: every dependency has a lower and an upper bound"
    from specgen.cli import SITE_MODULES
    assert {m for m in _imported_modules(site=True)[0] if _name(packages_distributions()[m][0]) in site} \
        <= SITE_MODULES, "specgen.cli.SITE_MODULES names every module of the site extra"


def test_test_only_tools_stay_out_of_the_runtime_dependencies() -> None:
    runtime = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    test = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert {"pre-commit", "properdocs", "zensical", "playwright", "hypothesis", "pytest"} <= test
    assert not runtime & test, runtime & test
    assert "specgen[site]" in PYPROJECT["project"]["optional-dependencies"]["test"], "the tests build sites"
    for r in PYPROJECT["project"]["optional-dependencies"]["test"]:
        assert r == "specgen[site]" or ("<" in r and ">=" in r), f"{r}: bounded"


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
    assert any("'.[site]'" in line for line in installs), "make serve installs the site stack"
    test = _make_dry_run("test", tmp_path)
    assert any("'.[test]'" in line for line in test.splitlines()), test


_WITHOUT_SITE = """
import sys
from specgen.cli import SITE_MODULES, main

BLOCKED = SITE_MODULES | {"numpy", "ml_dtypes"}

class Blocker:  # the site stack and the fast paths are not installed (a core install: pip install specgen, the hook)
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, Blocker())
for name in [m for m in sys.modules if m.split(".")[0] in BLOCKED]:
    del sys.modules[name]
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv", [["validate"], ["check", "--no-cache"], ["test", "--jobs", "1"], ["rules"],
                                  ["trace", "TADD"], ["decode", "0x1"]])
def test_core_commands_run_without_the_site_stack(argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", _WITHOUT_SITE, *(["--root", "sample"] if argv[0] != "rules" else []), *argv], capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=600, check=False)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    assert "specgen[site]" not in proc.stderr
    if argv[0] != "decode":  # an unknown word is exit 1, the command ran
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("argv", [["build", "--skip-tests"], ["export"], ["serve"]])
def test_site_commands_without_the_site_stack_say_what_to_install(argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", _WITHOUT_SITE, *(["--root", "sample"] if argv[0] != "serve" else []), *argv, "--out" if argv[0] != "serve" else "--root",
                           str(tmp_path / "out") if argv[0] != "serve" else str(REPO / "spec")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600, check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and "install specgen[site]" in lines[0] and "Traceback" not in proc.stderr, proc.stderr


def test_the_package_description_stands_alone_on_an_index_page() -> None:
    """The index shows ``readme`` without the repository around it: a relative link there is dead
    (issue 41). Every link of the description is absolute and the page is declared with its URLs."""
    project = PYPROJECT["project"]
    text = (REPO / project["readme"]).read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links, "the description links to the documentation"
    assert all(re.match(r"https://", link) for link in links), links
    urls = project["urls"]
    assert {"Homepage", "Source", "Changelog"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in project["classifiers"])
    assert "License ::" not in " ".join(project["classifiers"]), "the SPDX expression states the licence"


def test_the_changelog_dates_the_current_version() -> None:
    """A released version has its own dated section (Keep a Changelog), not only "Unreleased"."""
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(specgen.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.M), \
        specgen.__version__


def test_the_core_checks_the_examples_as_the_fast_paths_do(tmp_path: Path) -> None:
    """Without the extra ``fast`` (NumPy, ml_dtypes: 73 MB of the hook's environment) the examples a check
    runs go through the spec's ASL element by element and the formats through plain Python: on a copy of the
    sample whose FP16 and BF16 examples expect wrong words, the findings are the same, word for word."""
    import shutil
    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec", root)
    wrong = 0
    for path in sorted((root / "examples").rglob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        tiles = (doc.get("expect") or {}).get("tiles") or {}
        kinds = {t.get("data_type") for t in (doc.get("tiles") or {}).values() if isinstance(t, dict)}
        if not kinds & {"FP16", "BF16"} or not tiles:
            continue
        tile = next(iter(tiles.values()))
        tile["values"][0][0] = 3.0 if tile["values"][0][0] != 3.0 else 5.0
        path.write_text(json.dumps(doc), encoding="utf-8")
        wrong += 1
    assert wrong >= 3

    def findings(script: list[str], cache: str) -> list[str]:
        env = {**os.environ, "SPECGEN_CACHE_DIR": str(tmp_path / cache)}
        proc = subprocess.run([sys.executable, *script, "--root", str(root), "check", "--format", "json"],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600, check=False)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        return sorted(json.dumps(f, sort_keys=True) for f in json.loads(proc.stdout)["findings"])

    core = findings(["-c", _WITHOUT_SITE], "core")
    assert sum('"example-mismatch"' in f for f in core) >= wrong, core
    assert core == findings(["-m", "specgen"], "full")
