"""Incremental equals clean: random edit sequences, rebuilt as a server rebuilds, give a clean build's bytes.

Each example copies the bundled spec, serves it (in process, as ``mkdocs serve`` with the plugin
does: spec rebuilds, full builds when the set of pages changes, the AVS tests in the background),
applies a random sequence of the edits an author makes (NDF prose, one instruction's ASL, a helper
many instructions execute, a catalog value, the step budget in ``specification.toml``, a unit added
and removed; ``tests/incremental.py``), rebuilding after each, and compares every file of the
served site with ``specgen build`` of the same tree in a fresh process with an empty cache. Every plan
the server keeps between revisions is also compared with a new plan (``SPECGEN_CHECK_PLAN``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from incremental import EDITS, ServedSite, clean_build, differences
from treecopy import copy_tree

pytestmark = pytest.mark.slow

edits = st.lists(st.tuples(st.sampled_from(sorted(EDITS)), st.integers(min_value=0, max_value=50)),
                 min_size=2, max_size=3)


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sequence=edits)
def test_incremental_rebuilds_equal_a_clean_build(sequence: list[tuple[str, int]], bundled_root: Path,
                                                  tmp_path_factory: pytest.TempPathFactory,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = tmp_path_factory.mktemp("incremental")
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp / "cache"))
    monkeypatch.setenv("SPECGEN_CHECK_PLAN", "1")  # every kept plan is also compared with a new one
    root = copy_tree(bundled_root, tmp / "spec")
    site = ServedSite(root, tmp / "served")
    site.first()
    done = []
    for kind, k in sequence:
        done.append(EDITS[kind](root, k))
        site.rebuild()
        site.settle()
    clean_build(root, tmp / "clean", tmp / "clean-cache")
    diff = differences(tmp / "served", tmp / "clean")
    assert diff == [], f"after {done} (rebuilds: {site.kinds}): {diff[:10]}"
    shutil.rmtree(tmp, ignore_errors=True)
