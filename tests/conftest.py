"""Shared fixtures: the bundled spec, the real corpus, and scratch copies of either.

Tests that need ``../shared/corpus`` skip with a message when it is absent,
except under CI (``CI`` set), where its absence is a failure: CI always has it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from treecopy import copy_tree


def pytest_configure(config: pytest.Config) -> None:
    """Every test session (each xdist worker too) gets its own empty cache directory.

    specgen's caches are keyed by content, but what a developer's ``~/.cache/specgen``
    holds (a stored coverage measurement, a result from another checkout) would make
    page bytes and timings depend on the machine's history; a suite must not.
    """
    if "SPECGEN_TEST_KEEP_CACHE" not in os.environ:
        os.environ["SPECGEN_CACHE_DIR"] = _SESSION_CACHE.name


_SESSION_CACHE = tempfile.TemporaryDirectory(prefix="specgen-test-cache-")  # removed at exit

from specgen.loader import load_spec
from specgen.vocabulary import Vocabulary, vocabulary_of

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "spec"
CORPUS = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"


def corpus_or_skip() -> Path:
    """The corpus path, or skip (fail under CI) when it is not beside the checkout."""
    if CORPUS.is_dir():
        return CORPUS
    if os.environ.get("CI"):
        pytest.fail(f"the corpus must be at {CORPUS} under CI")
    pytest.skip(f"corpus not found at {CORPUS}")


@pytest.fixture(scope="session")
def corpus_root() -> Path:
    return corpus_or_skip()


@pytest.fixture(scope="session")
def bundled_root() -> Path:
    return BUNDLED


@pytest.fixture(scope="session")
def bundled_vocabulary() -> Vocabulary:
    """The bundled spec's DataType, PadValue and CMODE names, as programs and example files are read with."""
    return vocabulary_of(load_spec(BUNDLED))


@pytest.fixture()
def corpus_copy(tmp_path: Path, corpus_root: Path) -> Path:
    return copy_tree(corpus_root, tmp_path / "corpus")


@pytest.fixture()
def bundled_copy(tmp_path: Path, bundled_root: Path) -> Path:
    return copy_tree(bundled_root, tmp_path / "spec")
