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
    BUNDLED, CHROMIUM_ARGS, CORPUS, Site, Tab, chromium_or_skip, open_tab, serve, shared_build,
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

