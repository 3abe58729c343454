"""``specgen serve``'s dirty rebuilds: only changed pages are re-templated, and the result equals a full build.

The plugin instance persists across rebuilds as under ``mkdocs serve`` (it
defines ``on_startup``); each rebuild re-reads the config like the server does.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mkdocs.commands.build import build as mk_build

from specgen.site import serve
from specgen.site.inputs import load_mkdocs_config

REPO = Path(__file__).resolve().parent.parent
TMUL_ASL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL = "tile/elementwise-tile-tile/arithmetic/TMUL.html"
TADD = "tile/elementwise-tile-tile/arithmetic/TADD.html"
EDIT = "Edited summary for the dirty rebuild test."


def _config(root: Path, out: Path, *, dirty: bool):  # type: ignore[no-untyped-def]
    cfg = load_mkdocs_config(REPO / "mkdocs.yml", root, out, strict=False)
    cfg.plugins.on_startup(command="serve" if dirty else "build", dirty=dirty)
    return cfg


def _edit_summary(root: Path) -> None:
    src = root / TMUL_ASL
    text = src.read_text()
    head, rest = text.split("\n", 1)
    rec = json.loads(head[len("// PTO-INSTRUCTION: "):])
    rec["summary"] = EDIT
    src.write_text("// PTO-INSTRUCTION: " + json.dumps(rec) + "\n" + rest)


def _search(out: Path) -> list[tuple[str, str, str]]:
    doc = json.loads((out / "search" / "search_index.json").read_text())
    return sorted((d["location"], d["title"], d["text"]) for d in doc["docs"])


def _search_all(out: Path) -> list[tuple[str, str, str]]:
    """Every language's index (the main one plus ``zh/search/search_index.json``)."""
    docs = _search(out)
    zh = out / "zh" / "search" / "search_index.json"
    if zh.is_file():
        docs += [(d["location"], d["title"], d["text"]) for d in json.loads(zh.read_text())["docs"]]
    return sorted(docs)


def _doubled(index: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return [k for k, n in Counter(index).items() if n > 1][:3]


def _specgen_test(root: Path, *extra: str) -> None:
    """``specgen test`` as a user runs it beside a server: it stores results (and coverage) outside the spec."""
    proc = subprocess.run([sys.executable, "-m", "specgen", "test", "--root", str(root), "--jobs", "1", *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Test results another test stored for the same content would turn every test page on the edit
    (stored results are keyed by the whole ASL): what is measured here is the renderer's own reuse."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))


def test_dirty_rebuild_rewrites_only_changed_pages_and_equals_a_full_build(bundled_copy: Path,
                                                                            tmp_path: Path) -> None:
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    out = tmp_path / "serve-site"
    first = _config(bundled_copy, out, dirty=True)
    mk_build(first, dirty=True)
    plugin = first.plugins.get("specgen")
    tadd = out / "en" / TADD
    tadd_before = (tadd.read_bytes(), tadd.stat().st_mtime_ns)
    assert EDIT not in (out / "en" / TMUL).read_text()

    _edit_summary(bundled_copy)
    again = _config(bundled_copy, out, dirty=True)
    assert again.plugins.get("specgen") is plugin  # the server's plugin instance, with its caches
    mk_build(again, dirty=True)
    stats = plugin.stats
    assert 0 < stats["changed"] < stats["rendered"] < stats["pages"] // 4, stats
    for lang in ("en", "zh"):
        assert EDIT in (out / lang / TMUL).read_text(), lang
    assert (tadd.read_bytes(), tadd.stat().st_mtime_ns) == tadd_before  # not re-templated

    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, dirty=False))
    for lang in ("en", "zh"):
        assert (out / lang / TMUL).read_bytes() == (full / lang / TMUL).read_bytes()
    # material keeps the last index under dirty builds; the plugin prunes every rebuilt page's
    # old entries, so the merged index is the full build's (no stale or doubled entries)
    dirty_index = _search(out)
    assert _doubled(dirty_index) == []
    assert dirty_index == _search(full)


def _served_build(root: Path, tmp_path: Path) -> tuple[Path, Any, str]:
    """A dirty build as ``specgen serve`` makes it: its folder, the plugin holding the serve state, the inputs digest."""
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    out = tmp_path / "serve-site"
    cfg = _config(root, out, dirty=True)
    mk_build(cfg, dirty=True)
    plugin = cfg.plugins.get("specgen")
    return out, plugin, serve.other_inputs_digest(cfg, plugin)


def test_spec_rebuild_templates_only_changed_pages_like_a_full_build(bundled_copy: Path, tmp_path: Path) -> None:
    """``specgen serve``'s fast path: same page bytes and search index as a full build; other edits fall back."""
    out, plugin, inputs = _served_build(bundled_copy, tmp_path)
    tadd = out / "en" / TADD
    tadd_before = (tadd.read_bytes(), tadd.stat().st_mtime_ns)

    _edit_summary(bundled_copy)
    assert serve.spec_rebuild(plugin, inputs) is True
    assert 0 < plugin.stats["changed"] <= plugin.stats["rendered"]
    assert (tadd.read_bytes(), tadd.stat().st_mtime_ns) == tadd_before
    # a template or hand page changed since the last full build (another digest): no fast path
    assert plugin.serving is not None and plugin.serving.last_build is not None
    assert serve.spec_rebuild(plugin, "not the digest of this tree") is False

    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, dirty=False))
    for lang in ("en", "zh"):
        assert EDIT in (out / lang / TMUL).read_text()
        assert (out / lang / TMUL).read_bytes() == (full / lang / TMUL).read_bytes()
    assert _search(out) == _search(full)


@pytest.mark.slow
def test_stored_results_and_coverage_keep_the_search_index_exact(bundled_copy: Path, tmp_path: Path) -> None:
    """Stored test results (test pages) and coverage (unit and instruction pages) change pages without a spec
    edit; the rebuild that follows (spec rebuild, then mkdocs' dirty build) keeps every language's index equal
    to a full build's, no entry twice (material merges its kept index with the rebuilt pages' entries)."""
    out, plugin, inputs = _served_build(bundled_copy, tmp_path)
    first = _search_all(out)
    assert _doubled(first) == []

    _specgen_test(bundled_copy)  # results only: test pages change, and they are not searchable
    assert serve.spec_rebuild(plugin, inputs) is True
    assert plugin.stats["changed"] > 0, plugin.stats  # the stored results did change pages
    assert _search_all(out) == first

    _specgen_test(bundled_copy, "--coverage")  # coverage: unit and instruction pages (searchable) change
    mk_build(_config(bundled_copy, out, dirty=True), dirty=True)
    assert plugin.stats["changed"] > 0, plugin.stats
    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, dirty=False))
    served = _search_all(out)
    assert _doubled(served) == []
    assert served == _search_all(full)
    assert served != first  # the coverage sentences are in the index: the comparison saw the change
