"""The revisioned workspace (issue 38 item 3): inputs with a durability, queries memoised per revision,
early cutoff, and the tables that replaced module-level caches."""

from __future__ import annotations

import pytest

from specgen.workspace import CycleError, Durability, Query, Workspace, current, fresh, memoised, use

CALLS: list[str] = []


def _length(ws: Workspace, name: str) -> int:
    CALLS.append("length:" + name)
    return len(ws.input("file:" + name) or "")


def _parity(ws: Workspace, name: str) -> str:
    CALLS.append("parity:" + name)
    return "even" if LENGTH(ws, name) % 2 == 0 else "odd"


def _theme(ws: Workspace, _arg: object) -> str:
    CALLS.append("theme")
    return str(ws.input("theme")).upper()


LENGTH = Query("length", _length)
PARITY = Query("parity", _parity)
THEME = Query("theme", _theme)


@pytest.fixture(autouse=True)
def _clear() -> None:
    CALLS.clear()


def test_a_query_is_computed_once_per_revision_and_again_only_when_what_it_read_changed() -> None:
    ws = Workspace()
    ws.set_input("file:a", "abcd")
    ws.set_input("file:b", "xy")
    assert PARITY(ws, "a") == "even" and PARITY(ws, "a") == "even"
    assert CALLS == ["parity:a", "length:a"]
    assert not ws.set_input("file:a", "abcd")  # an equal value is no change, no new revision
    ws.set_input("file:b", "xyz")  # not read by parity(a)
    CALLS.clear()
    assert PARITY(ws, "a") == "even" and CALLS == []
    ws.set_input("file:a", "abcdef")
    assert PARITY(ws, "a") == "even"
    assert CALLS == ["length:a", "parity:a"], "length changed: parity is recomputed"


def test_early_cutoff_keeps_the_dependents_of_an_equal_value() -> None:
    def _first(ws: Workspace, _a: object) -> str:
        CALLS.append("first")
        return str(ws.input("file:a"))[:1]

    def _shout(ws: Workspace, _a: object) -> str:
        CALLS.append("shout")
        return FIRST(ws).upper()

    FIRST, SHOUT = Query("first", _first), Query("shout", _shout)
    ws = Workspace()
    ws.set_input("file:a", "alpha")
    assert SHOUT(ws) == "A"
    CALLS.clear()
    ws.set_input("file:a", "apple")  # first letter unchanged: first recomputes, equal, shout does not
    assert SHOUT(ws) == "A" and CALLS == ["first"]
    assert ws.cut_off == 1
    ws.set_input("file:a", "beta")
    CALLS.clear()
    assert SHOUT(ws) == "B" and CALLS == ["first", "shout"]


def test_a_memo_of_durable_inputs_is_verified_without_walking_its_reads() -> None:
    ws = Workspace()
    ws.set_input("theme", "material", Durability.HIGH)
    ws.set_input("file:a", "x")
    assert THEME(ws) == "MATERIAL"
    memo = ws._memos[(THEME, None)]
    assert memo.durability == Durability.HIGH
    ws.set_input("file:a", "y")  # a LOW input: nothing HIGH changed since the memo was verified
    assert ws._verify(memo) and memo.deps == (("input", "theme"),)
    assert THEME(ws) == "MATERIAL" and CALLS == ["theme"]
    ws.set_input("theme", "mkdocs", Durability.HIGH)
    assert THEME(ws) == "MKDOCS" and CALLS == ["theme", "theme"]


def test_set_inputs_under_a_prefix_removes_what_is_gone() -> None:
    ws = Workspace()
    assert ws.set_inputs({"file:a": "1", "file:b": "2"}, prefix="file:")
    assert LENGTH(ws, "b") == 1
    rev = ws.revision
    assert not ws.set_inputs({"file:a": "1", "file:b": "2"}, prefix="file:") and ws.revision == rev
    assert ws.set_inputs({"file:a": "1"}, prefix="file:")
    assert ws.revision == rev + 1 and LENGTH(ws, "b") == 0
    # a removed input is removed once: the same values again are no change
    assert not ws.set_inputs({"file:a": "1"}, prefix="file:") and ws.revision == rev + 1
    assert ws.changed_since("file:", rev) == {"b"} and ws.changed_since("file:", rev + 1) == set()
    assert ws.set_inputs({"file:a": "1", "file:b": "2"}, prefix="file:")  # set again: a change
    assert ws.changed_since("file:", rev + 1) == {"b"} and LENGTH(ws, "b") == 1
    assert ws.changed_under(("file:", "file:b", "x:"), rev) == {"file:": {"b"}, "file:b": {""}, "x:": set()}
    ws.drop_inputs("file:")
    assert ws.peek("file:a") is None and ws.changed_since("file:", 0) == set()


def test_a_holder_takes_its_inputs_and_memos_with_it() -> None:
    import gc

    class Owner:
        pass

    ws = Workspace()
    owner = Owner()
    ws.hold(owner, "own:", lambda arg: arg == "mine")
    ws.set_inputs({"own:a": "1", "other:a": "2"})
    assert LENGTH(ws, "mine") == 0 and LENGTH(ws, "theirs") == 0
    assert ws.computed[LENGTH.name] == 2
    del owner
    gc.collect()
    assert ws.peek("own:a") is None and ws.peek("other:a") == "2"
    assert {k[1] for k in ws._memos} == {"theirs"}


def test_a_render_cache_keeps_its_key_parts_in_the_workspace_while_it_lives(bundled_root: object) -> None:
    import gc
    from pathlib import Path

    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    from specgen.render import RenderCache, RenderOptions, render_site
    before = use(fresh())
    try:
        ws = current()
        graph = SpecGraph.build(load_spec(Path(str(bundled_root))))
        cache = RenderCache()
        render_site(graph, RenderOptions(langs=("en",)), cache)
        prefix = f"render:{cache.holder}:"
        assert cache.revision and ws.peek(prefix + "fixed")
        again = render_site(graph, RenderOptions(langs=("en",)), cache)
        assert cache.rendered == 0 and cache.reused == len(again)
        assert render_site(graph, RenderOptions(langs=("en",)), cache, only=lambda p: False) == []
        assert cache.revision == 0  # a partial call: the next whole call computes every key, renders none
        render_site(graph, RenderOptions(langs=("en",)), cache)
        assert cache.rendered == 0 and cache.revision
        del cache
        gc.collect()
        assert ws.changed_since(prefix, 0) == set()  # its inputs went with it
    finally:
        use(before)


def test_a_query_that_reads_itself_is_an_error() -> None:
    def _loop(ws: Workspace, _a: object) -> int:
        return LOOP(ws) + 1

    LOOP = Query("loop", _loop)
    with pytest.raises(CycleError, match="loop"):
        LOOP(Workspace())


def test_tables_per_object_memos_and_memoised_functions_die_with_their_workspace() -> None:
    seen: list[int] = []

    @memoised(maxsize=4)
    def square(n: int) -> int:
        seen.append(n)
        return n * n

    before = current()
    try:
        ws = fresh()
        assert [square(i) for i in (1, 2, 1, 2)] == [1, 4, 1, 4] and seen == [1, 2]
        for i in range(10):
            square(i)
        assert len(ws.table(square.name)) <= 4, "bounded"
        owner = object()
        assert ws.per(owner, "x", lambda: [1]) is ws.per(owner, "x", lambda: [2])
        fresh()
        seen.clear()
        square(1)
        assert seen == [1], "a new workspace remembers nothing of the last"
    finally:
        use(before)


def test_the_result_store_and_the_per_load_index_belong_to_the_workspace(bundled_root: object) -> None:
    """What a load derives (the ASL index, the result store's layer) is held by the workspace, and a new
    workspace holds none of it: nothing a process remembers outlives its workspace."""
    from specgen.asl.revision import REVISION
    from specgen.cache.layer import layer_for
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec

    before = current()
    try:
        ws = fresh()
        graph = SpecGraph.build(load_spec(bundled_root))  # type: ignore[arg-type]
        revision = REVISION(graph)
        assert ws.stats()["owners"] >= 1 and ws.table("cache.layers")
        assert layer_for(graph.spec.root) is revision.layer
        other = fresh()
        assert other.stats()["owners"] == 0 and not other.table("cache.layers")
        assert layer_for(graph.spec.root) is not revision.layer, "a new workspace opens its own store"
    finally:
        use(before)
