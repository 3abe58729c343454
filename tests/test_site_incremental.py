"""The plugin's serve loop: only changed pages are re-templated, and the result equals a full build.

The plugin instance persists across rebuilds as under ``mkdocs serve`` (it
defines ``on_startup``); each rebuild re-reads the config like the server does.
A server's build leaves the AVS tests without a valid result pending; they run
in the background and the rebuild that follows shows their results, exactly as a
full build (which runs the suite itself) shows them.
"""

from __future__ import annotations

import json
import logging
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


def _config(root: Path, out: Path, *, serve: bool, dirty: bool = False):  # type: ignore[no-untyped-def]
    cfg = load_mkdocs_config(REPO / "mkdocs.yml", root, out, strict=False)
    cfg.plugins.on_startup(command="serve" if serve else "build", dirty=dirty)
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


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from an empty layer: what is measured here is this test's own reuse."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))


def test_dirty_rebuild_rewrites_only_changed_pages_and_equals_a_full_build(bundled_copy: Path,
                                                                            tmp_path: Path) -> None:
    """``mkdocs serve --dirty`` (mkdocs' own dirty builds, no spec rebuild) still rewrites only changed pages."""
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    out = tmp_path / "serve-site"
    first = _config(bundled_copy, out, serve=True, dirty=True)
    mk_build(first, dirty=True)
    plugin = first.plugins.get("specgen")
    tadd = out / "en" / TADD
    tadd_before = (tadd.read_bytes(), tadd.stat().st_mtime_ns)
    assert EDIT not in (out / "en" / TMUL).read_text()

    _edit_summary(bundled_copy)
    again = _config(bundled_copy, out, serve=True, dirty=True)
    assert again.plugins.get("specgen") is plugin  # the server's plugin instance, with its caches
    mk_build(again, dirty=True)
    stats = plugin.stats
    assert 0 < stats.changed < stats.rendered < stats.pages // 4, stats
    for lang in ("en", "zh"):
        assert EDIT in (out / lang / TMUL).read_text(), lang
    assert (tadd.read_bytes(), tadd.stat().st_mtime_ns) == tadd_before  # not re-templated
    # the theme never indexes a generated page (specgen writes their entries), so the index Material keeps
    # under dirty builds cannot hold a stale or doubled entry of one
    assert _doubled(_search(out)) == []


def _served_build(root: Path, tmp_path: Path) -> tuple[Path, Any]:
    """A first build as ``mkdocs serve`` makes it (not dirty): its folder and the plugin holding the serve state."""
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    out = tmp_path / "serve-site"
    cfg = _config(root, out, serve=True)
    mk_build(cfg)
    plugin = cfg.plugins.get("specgen")
    return out, plugin


def _rebuilt(plugin: Any) -> None:
    """What the server does after an edit: the spec rebuild, and the one it asks for at once while pages are owed."""
    from incremental import spec_rebuilds
    assert spec_rebuilds(plugin) is True


def _settled(plugin: Any) -> None:
    """Wait for the background tests, then let a spec rebuild record and show their results."""
    assert plugin.serving.live.wait(600)
    _rebuilt(plugin)


def test_spec_rebuild_templates_only_changed_pages_like_a_full_build(bundled_copy: Path, tmp_path: Path) -> None:
    """The plugin's fast path under plain ``mkdocs serve``: same page bytes and search index as a full build
    (test results included, once the background run is in); other edits fall back."""
    out, plugin = _served_build(bundled_copy, tmp_path)
    running = (out / "en" / "tests" / TMUL).read_text()
    assert 'data-status="running"' in running  # the first serve does not wait for the suite
    _settled(plugin)
    assert 'data-status="running"' not in (out / "en" / "tests" / TMUL).read_text()
    tadd = out / "en" / TADD
    tadd_before = (tadd.read_bytes(), tadd.stat().st_mtime_ns)

    _edit_summary(bundled_copy)
    _rebuilt(plugin)
    assert 0 < plugin.stats.changed <= plugin.stats.rendered
    assert (tadd.read_bytes(), tadd.stat().st_mtime_ns) == tadd_before
    # a template or hand page changed since the last full build (another digest): no fast path
    assert plugin.serving is not None and plugin.serving.last_build is not None
    assert serve.spec_rebuild(plugin, "not the digest of this tree") is False
    _settled(plugin)

    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, serve=False))
    for lang in ("en", "zh"):
        for page in (TMUL, "tests/" + TMUL):
            assert (out / lang / page).read_bytes() == (full / lang / page).read_bytes(), (lang, page)
    assert EDIT in (out / "en" / TMUL).read_text()
    assert _search_all(out) == _search_all(full)
    assert _doubled(_search_all(out)) == []


def test_a_helper_edit_reruns_exactly_the_tests_that_executed_it(bundled_copy: Path, tmp_path: Path) -> None:
    """Editing a helper reruns the tests and worked examples whose recorded reads include it, in the
    background; the pages say "running" until the results are in, then equal a full build's."""
    out, plugin = _served_build(bundled_copy, tmp_path)
    _settled(plugin)
    from specgen.cache.layer import layer_for
    worked = layer_for(bundled_copy).stores["worked"]
    readers = sum(1 for e in worked.entries.values() if "asl:ExecuteTileBinary" in e.reads)
    tests = layer_for(bundled_copy).stores["tests"]
    test_readers = sum(1 for e in tests.entries.values() if "asl:ExecuteTileBinary" in e.reads)
    helper = bundled_copy / "asl/tile/model/execution/elementwise.asl"
    text = helper.read_text(encoding="utf-8")
    begin = text.index("\nbegin\n", text.index("func ExecuteTileBinary(")) + 1  # same line: nothing else moves
    helper.write_text(text[:begin] + "begin let edited_marker = 1;" + text[begin + len("begin"):], encoding="utf-8")
    tests_page = out / "en" / "tests" / TMUL
    before = tests_page.read_bytes()
    assert serve.spec_rebuild(plugin) is True
    # first the pages whose own inputs changed (the helper's shows the statement); the pages it only turns to
    # "running" are owed to the rebuild the server asks for at once, which also writes the search index
    owed = plugin.serving.render_cache.owed
    assert owed and "en/tests/" + TMUL.replace(".html", ".md") in owed, sorted(owed)[:5]
    assert "edited_marker" in (out / "en" / "tile/model/execution/elementwise.html").read_text()
    assert tests_page.read_bytes() == before
    _rebuilt(plugin)
    # the pages that only turned to "running" keep their search entries: templated, their entries not made again
    assert 0 < plugin.serving.unindexed < plugin.stats.changed
    times = plugin._times
    total = len(times.conformance.outcomes)
    pending = len(times.conformance.pending)
    assert 0 < pending == test_readers < total  # the tests that executed ExecuteTileBinary, not all
    # the worked examples that executed it run in the background too: their sections say "running"
    assert times.worked_rerun == 0 and 0 < len(times.worked_pending) == readers
    assert 'data-status="running"' in (out / "en" / "tests" / TMUL).read_text()
    tmul = (out / "en" / TMUL).read_text()
    assert "TMUL" in times.worked_pending and 'data-worked="running"' in tmul
    assert 'class="sg-worked"' not in tmul  # never the example measured on the helper as it was
    _settled(plugin)
    assert plugin._times.conformance.state == "complete" and not plugin._times.worked_pending
    assert 'data-worked="running"' not in (out / "en" / TMUL).read_text()
    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, serve=False))
    for lang in ("en", "zh"):
        for page in (TMUL, "tests/" + TMUL, TADD):
            assert (out / lang / page).read_bytes() == (full / lang / page).read_bytes(), (lang, page)
    assert _search_all(out) == _search_all(full)


def test_a_page_state_templated_before_is_written_again_exactly(bundled_copy: Path, tmp_path: Path) -> None:
    """A second edit of the same helper turns the same pages to "running" and back: those states come from what
    mkdocs made of them at the first edit, and the site still equals a clean build byte for byte."""
    out, plugin = _served_build(bundled_copy, tmp_path)
    _settled(plugin)
    helper = bundled_copy / "asl/tile/model/execution/elementwise.asl"
    original = helper.read_text(encoding="utf-8")
    begin = original.index("\nbegin\n", original.index("func ExecuteTileBinary(")) + 1

    def edit(marker: str) -> None:
        helper.write_text(original[:begin] + f"begin let {marker} = 1;" + original[begin + len("begin"):],
                          encoding="utf-8")

    edit("first_marker")
    _rebuilt(plugin)
    assert plugin.serving.reused_states == 0  # nothing templated since the full build
    first = plugin.stats.changed
    _settled(plugin)
    edit("second_marker")
    _rebuilt(plugin)
    # every page but the helper's own (en, zh: it shows the new statement) is in a state seen at the first edit
    assert 0 < plugin.serving.reused_states and plugin.stats.changed - plugin.serving.reused_states <= 4, (
        plugin.serving.reused_states, plugin.stats.changed, first)
    assert "second_marker" in (out / "en" / "tile/model/execution/elementwise.html").read_text()
    assert 'data-worked="running"' in (out / "en" / TMUL).read_text()
    _settled(plugin)
    assert plugin.serving.reused_states > 0  # the results bring back the states of the first edit's results
    full = tmp_path / "full-site"
    mk_build(_config(bundled_copy, full, serve=False))
    from incremental import differences
    assert differences(out, full) == []


def test_templated_states_are_the_last_two_per_page_within_the_budget() -> None:
    """What the kept page states hold: a page's last two states and the budget in bytes."""
    import zlib

    from specgen.site.servesearch import Templated
    x, y, z, w = (bytes(range(i, i + 30)) for i in (0, 40, 80, 120))
    stored = len(zlib.compress(x, 1))  # kept compressed: the budget counts what is held
    assert all(len(zlib.compress(b, 1)) == stored for b in (y, z, w))
    t = Templated()
    t.BUDGET = 2 * stored + stored // 2
    t.put("a", "d1", x)
    t.put("a", "d2", y)
    t.put("a", "d3", z)
    assert t.get("a", "d1") is None and t.get("a", "d2") == y and t.size == 2 * stored
    t.put("a", "d2", y)  # the same state again: kept once
    assert t.size == 2 * stored
    t.put("b", "e1", w)  # over the budget: the page used least recently goes
    assert t.get("a", "d3") is None and t.get("b", "e1") == w and t.size == stored


def test_a_server_settles_its_heap_only_when_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a spec rebuild the heap is collected and frozen once the server is idle: not when another build
    started meanwhile. Background work runs in the pool's processes, so it does not hold the settle back."""
    import threading
    settled = threading.Event()
    monkeypatch.setattr(serve, "settle_heap", settled.set)
    state = serve.ServeState()
    state.settle_when_idle(0.05)
    assert settled.wait(5)
    settled.clear()
    state.settle_when_idle(0.2)
    state.builds += 1  # a build started before the server was idle for long
    assert not settled.wait(0.6)
    monkeypatch.setattr(type(state.live), "busy", property(lambda self: True))
    settled.clear()
    state.settle_when_idle(0.05)
    assert settled.wait(5)
