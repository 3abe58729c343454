"""Fixtures of the browser tests; the machinery lives in browser_harness.py (importable by tests)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_harness import (  # noqa: E402
    BUNDLED, CHROMIUM_ARGS, CORPUS, OLD_CORPUS, Site, Tab, chromium_or_skip, open_tab, serve, shared_build,
)



@pytest.fixture(scope="session")
def chromium() -> Path:
    return chromium_or_skip()


@pytest.fixture(scope="session")
def site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The bundled spec, built once per run (shared by xdist workers) and served locally."""
    out = shared_build(BUNDLED, tmp_path_factory, "bundled")
    with serve(out) as url:
        yield Site(out, url)


@pytest.fixture(scope="session")
def corpus_site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The corpus 0.58.3, built once per run for every browser test that reads it, and served locally."""
    if not CORPUS.is_dir():  # as tests/conftest.py: a failure under CI, a skip elsewhere
        if os.environ.get("CI"):
            pytest.fail(f"the corpus must be at {CORPUS} under CI")
        pytest.skip(f"corpus not found at {CORPUS}")
    out = shared_build(CORPUS, tmp_path_factory, "corpus")
    with serve(out) as url:
        yield Site(out, url)


@pytest.fixture(scope="session")
def two_release_build(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's two-release site (``--root 0.58.0 --root 0.58.3``), built once per run for every test that
    reads it, browser or not (the build is the slowest fixture of the suite: one is enough)."""
    for root in (OLD_CORPUS, CORPUS):
        if not root.is_dir():
            if os.environ.get("CI"):
                pytest.fail(f"the corpus must be at {root} under CI")
            pytest.skip(f"corpus not found at {root}")
    return shared_build((OLD_CORPUS, CORPUS), tmp_path_factory, "releases")


@pytest.fixture(scope="session")
def two_release_site(two_release_build: Path) -> Iterator[Site]:
    """The two-release site served at the server's root."""
    with serve(two_release_build) as url:
        yield Site(two_release_build, url)


@pytest.fixture(scope="session")
def two_release_subpath(two_release_build: Path) -> Iterator[Site]:
    """The same site served under ``/docs/pto/`` with the root ``404.html`` for any missing address (GitHub Pages)."""
    with serve(two_release_build, prefix="/docs/pto/", not_found="404.html") as url:
        yield Site(two_release_build, url)


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # a declared test dependency

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browsing context per test (no shared cookies, storage or cache)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(15_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture()
def tab(context: Any) -> Tab:
    return open_tab(context)

