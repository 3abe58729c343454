"""Replay of state-independent zero-argument functions (specgen/asl/memo.py).

Each scenario runs the same calls on an interpreter that replays and on one
that does not (``memoize=False``) and compares every global, the results and
the steps charged: replay must be invisible except in time.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from specgen.asl import ASLError, Interpreter, parse_source
from specgen.asl import memo

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

_DECLS = """
constant N = 600;
var A : array [[N]] of bits(8);
var B : array [[N]] of bits(8);
var C : array [[4]] of integer;
var R : Rec;
var S : array [[3]] of Rec;
var Y : integer;
var Flag : boolean;
type Rec of record { x : integer, b : bits(4), e : Colour };
type Colour of enumeration { Red, Green, Blue };

func Dirty(k : integer)
begin
    A[[k]] = '11111111';
    B[[k + 1]] = '10101010';
    C[[0]] = k;
    C[[1]] = k;
    R.x = k;
    R.b = '1111';
    S[[2]].e = Green;
    S[[1]].x = k;
    Y = k;
    Flag = FALSE;
end;
"""

_RESET = """
func Reset()
begin
    for i = 0 to N - 1 do
        A[[i]] = Zeros{8};
        B[[i]] = '00000001';
    end;
    C[[1]] = 7;
    R.x = 3;
    S[[2]].e = Blue;
    Flag = TRUE;
end;

"""


def _proc(name: str, *tail: str, fill: str = "Zeros{8}", returns: str = "") -> str:
    """A zero-argument function that first fills ``A`` (enough steps to be worth replaying), then ``tail``."""
    head = f"func {name}(){returns}\nbegin\n    for i = 0 to N - 1 do\n        A[[i]] = {fill};\n    end;\n"
    return head + "".join(f"    {line}\n" for line in tail) + "end;\n"


def _pair(src: str) -> tuple[Interpreter, Interpreter]:
    """The same tree functions (``generated``: tree code, not a test's overlay) twice."""
    mod = parse_source(_DECLS + src, "tree.asl")
    return Interpreter(None, generated=[mod]), Interpreter(None, generated=[mod], memoize=False)


def _same(fast: Interpreter, slow: Interpreter, calls: list[tuple]) -> list[object]:
    out = []
    for name, *args in calls:
        r1, r2 = fast.call(name, *args), slow.call(name, *args)
        assert r1 == r2
        assert fast.steps_used == slow.steps_used, name
        assert fast.globals == slow.globals, name
        out.append(r1)
    return out


def _replaying(it: Interpreter, name: str) -> bool:
    return it._funcs[(name, 0)].impl.__name__ == "replay"


def test_a_reset_is_replayed_and_keeps_what_it_does_not_write() -> None:
    fast, slow = _pair(_RESET)
    calls = [("Reset",), ("Dirty", 5), ("Reset",), ("Dirty", 9), ("Reset",), ("Dirty", 2), ("Reset",)]
    _same(fast, slow, calls)
    assert _replaying(fast, "Reset")
    # what Reset does not write survives it: C[[0]], R.b, S[[1]].x, Y
    assert fast.globals["C"][0] == 2 and fast.globals["Y"] == 2
    assert fast.globals["R"]["b"].v == 0b1111 and fast.globals["S"][1]["x"] == 2
    assert fast.globals["S"][2]["e"] == "Blue"


def test_a_replay_records_the_coverage_and_the_trail_a_run_would() -> None:
    """Coverage and the trail of definitions read (specgen/asl/trail.py) see a replayed reset as if it ran."""
    src = _RESET.replace("    Flag = TRUE;\n", "    Flag = Helper();\n") + "func Helper() => boolean\nbegin\n    return TRUE;\nend;\n"
    mod = parse_source(_DECLS + src, "tree.asl")
    fast, slow = Interpreter(None, generated=[mod]), Interpreter(None, generated=[mod], memoize=False)
    for it in (fast, slow):
        it.measure_coverage()
    trails: dict[int, list[frozenset[str]]] = {id(fast): [], id(slow): []}
    for step in range(4):
        for it in (fast, slow):
            it.coverage.clear()  # type: ignore[union-attr]
            it.trail.push()
            it.call("Dirty", step)
            it.call("Reset")
            trails[id(it)].append(it.trail.pop())
        assert fast.coverage == slow.coverage, step
        assert fast.globals == slow.globals, step
    assert _replaying(fast, "Reset")
    assert trails[id(fast)] == trails[id(slow)]
    assert trails[id(fast)][-1] >= {"Dirty", "Reset", "Helper"}


def test_the_recorded_values_are_never_changed_by_later_stores() -> None:
    fast, slow = _pair(_RESET)
    _same(fast, slow, [("Reset",), ("Reset",)])
    replay = fast._funcs[("Reset", 0)].impl
    effect = next(c.cell_contents for c in replay.__closure__ if isinstance(c.cell_contents, memo.Effect))
    recorded = copy.deepcopy((effect.values, {k: (n.values, n.subs) for k, n in effect.nodes.items()}))
    _same(fast, slow, [("Dirty", 4), ("Reset",), ("Dirty", 6), ("Reset",), ("Dirty", 8)])
    # copy-on-write copied before every store into a replayed value
    assert (effect.values, {k: (n.values, n.subs) for k, n in effect.nodes.items()}) == recorded


def test_each_test_starts_from_one_shared_reset_tree_and_changes_only_its_own_copy() -> None:
    """A test's first replay of a reset updates the variables' initial values; tests after it (the globals
    cleared between them) share that tree, and a test's stores copy what they change, never the shared one."""
    fast, slow = _pair(_RESET)
    shared = None
    for k in range(4):
        for it in (fast, slow):
            it.reset()
        _same(fast, slow, [("Reset",), ("Dirty", k), ("Reset",), ("Dirty", k + 1)])
        if k == 1:  # the recording took the first two tests; the replays' tree is now made
            effect = next(c.cell_contents for c in fast._funcs[("Reset", 0)].impl.__closure__
                          if isinstance(c.cell_contents, memo.Effect))
            shared = effect._initial["S"]
            kept = copy.deepcopy(dict(effect._initial))
        elif k > 1:
            fast.reset()
            fast.call("Reset")
            assert fast.globals["S"] is shared  # made once, not copied per test
            assert dict(effect._initial) == kept  # no store of a test changed it
    assert _replaying(fast, "Reset")


def test_a_test_that_declares_more_than_functions_makes_its_own_initial_values() -> None:
    """A test module with a type, constant or variable of its own is not given the shared tree (a
    declaration could reach an initial value); its results are those of a run."""
    fast, slow = _pair(_RESET)
    for _ in range(3):
        for it in (fast, slow):
            it.reset()
        _same(fast, slow, [("Reset",), ("Dirty", 1)])
    effect = next(c.cell_contents for c in fast._funcs[("Reset", 0)].impl.__closure__
                  if isinstance(c.cell_contents, memo.Effect))
    own = parse_source("type Local of record { z : integer };\nvar L : Local;", "test.asl")
    for it in (fast, slow):
        it.reset()
        it.load_module(own)
    _same(fast, slow, [("Reset",), ("Dirty", 2), ("Reset",)])
    assert _replaying(fast, "Reset") and fast.globals["S"] is not effect._initial["S"]


def test_a_function_that_reads_state_it_did_not_write_is_run_as_written() -> None:
    fast, slow = _pair(_proc("Bump", "Y = Y + 1;"))
    _same(fast, slow, [("Bump",), ("Bump",), ("Bump",), ("Bump",)])
    assert fast.globals["Y"] == 4
    assert not _replaying(fast, "Bump")


def test_reading_what_it_wrote_first_is_allowed_and_returns_the_same_value() -> None:
    fast, slow = _pair(_proc("Copy", "B = A;", "return UInt(B[[7]]);", fill="'00000011'", returns=" => integer"))
    assert _same(fast, slow, [("Copy",), ("Dirty", 1), ("Copy",), ("Dirty", 3), ("Copy",)]) == [3, None, 3, None, 3]
    assert _replaying(fast, "Copy")


def test_a_partial_bit_store_into_an_unwritten_leaf_refuses_replay() -> None:
    fast, slow = _pair(_proc("Low", "R.b[1:0] = '01';"))
    _same(fast, slow, [("Dirty", 1), ("Low",), ("Low",), ("Dirty", 2), ("Low",)])
    assert fast.globals["R"]["b"].v == 0b1101
    assert not _replaying(fast, "Low")


def test_print_refuses_replay() -> None:
    fast, _ = _pair(_proc("Noisy", 'print "reset";'))
    fast.call("Noisy")
    fast.call("Noisy")
    assert not _replaying(fast, "Noisy")


def test_a_cheap_function_is_left_alone() -> None:
    fast, slow = _pair("func Small()\nbegin\n    Y = 1;\nend;\n")
    _same(fast, slow, [("Small",), ("Small",), ("Small",)])
    assert fast._funcs[("Small", 0)].impl.__name__ == "run"


def test_a_budget_that_runs_out_inside_a_replayed_function_fails_as_the_body_would() -> None:
    fast, slow = _pair(_RESET)
    _same(fast, slow, [("Reset",), ("Reset",)])
    assert _replaying(fast, "Reset")
    messages = []
    for it in (fast, slow):
        it.max_steps = 300  # Reset takes 1 + 600 + 1 (the call, the loop, nothing else)
        with pytest.raises(ASLError) as exc:
            it.call("Reset")
        messages.append((exc.value.kind, str(exc.value.span)))
    assert messages[0] == messages[1] and messages[0][0] == "budget"


def test_record_reports_the_written_globals_only() -> None:
    fast, _ = _pair(_RESET)
    effect = memo.record(fast, "Reset")
    assert effect is not None
    assert set(effect.values) == {"A", "B", "Flag"}  # replaced whole
    assert set(effect.nodes) == {"C", "R", "S"}  # partly updated
    assert effect.nodes["C"].values == {1: 7} and not effect.nodes["C"].subs
    assert effect.steps == 1 + 600


def test_perturbation_changes_every_leaf_in_every_bit() -> None:
    from fractions import Fraction

    from specgen.asl.values import Bits

    v = {"a": [Bits(0b0101, 4)] * 3, "b": (True, 0, "Red"), "c": Fraction(1, 2)}
    p = memo.perturb(v)
    assert p["a"] == [Bits(0b1010, 4)] * 3
    assert p["b"][0] is False and p["b"][1] == -1 and p["b"][2] != "Red"
    assert p["c"] == Fraction(3, 2)
    with pytest.raises(memo.Refused):
        memo.diff(Bits(0b0001, 4), Bits(0b1101, 4))  # bits 2..3 differ, 0..1 equal: a partial store


@pytest.mark.corpus
def test_corpus_reset_is_replayed_and_equals_a_real_run(corpus_root: Path) -> None:
    """ResetProfileState of the corpus: replayed, and from a dirty state equal to running it."""
    from specgen.asl.catalog_modules import generated_modules
    from specgen.asl.session import interpreter_for
    from specgen.loader import load_spec

    spec = load_spec(corpus_root)
    gen = generated_modules(spec)
    fast = interpreter_for(spec, generated=gen)
    slow = interpreter_for(spec, generated=gen, memoize=False)
    for it in (fast, slow):
        it.call("ResetProfileState")
        it.call("ResetProfileState")
    assert _replaying(fast, "ResetProfileState")
    for it in (fast, slow):  # dirty memory, a system register, a queue entry and a tile
        it.call("ResetProfileState")
        for name in ("_Memory", "_ExtendedSystemRegisters", "_TQueue"):
            arr = list(it.get_global(name))
            arr[1] = type(arr[1])(arr[1].v ^ 1, arr[1].n)
            it.set_global(name, arr)
        tiles = copy.deepcopy(it.get_global("_Tiles"))
        tiles[3]["rows"] = 9
        it.set_global("_Tiles", tiles)
        before = it.steps_used
        it.call("ResetProfileState")
        it.after = it.steps_used - before  # type: ignore[attr-defined]
    assert fast.globals == slow.globals
    assert fast.after == slow.after  # type: ignore[attr-defined]
    assert fast.get_global("_Tiles")[3]["rows"] == 0


def test_a_straight_update_makes_the_tree_walks_copies_and_errors() -> None:
    """memo.straight(): the replayed update compiled to straight-line code equals PartialUpdate.apply: the
    same values, fresh copies on the updated path, untouched elements shared, the same TypeError."""
    leaf = [1, 2]
    inner = memo.PartialUpdate()
    inner.values.update({"x": 7, "flag": True})
    mid = memo.PartialUpdate()
    mid.values[0] = leaf
    mid.subs[2] = inner
    top = memo.PartialUpdate()
    top.subs["rows"] = mid
    top.values["n"] = (1 << 80)
    state = {"rows": [[9], "keep", {"x": 1, "flag": False, "y": 3}], "n": 0, "other": ["shared"]}
    walked, straight = top.apply(state), memo.straight(top)(state)
    assert straight == walked == {"rows": [leaf, "keep", {"x": 7, "flag": True, "y": 3}], "n": 1 << 80,
                                  "other": ["shared"]}
    assert straight["other"] is state["other"] and straight["rows"][0] is leaf  # shared, not copied
    assert straight["rows"] is not state["rows"] and state["rows"][2]["x"] == 1  # the input is untouched
    # a tree handed over (no other holder) is changed in place; a child another value holds is copied
    other = ["shared"]
    g = {"t": memo.straight(top)({"rows": [[9], "keep", {"x": 1, "flag": False, "y": 3}], "n": 0, "other": other})}
    top_id, rows_id = id(g["t"]), id(g["t"]["rows"])  # ids only: a variable holding them would count
    g["t"] = memo.straight(top)(memo._handed(g, "t"))
    assert id(g["t"]) == top_id and id(g["t"]["rows"]) == rows_id and g["t"]["other"] is other
    assert g["t"] == walked
    held = g["t"]["rows"][2]  # another holder of one child: that child is copied, its parents are not
    g["t"] = memo.straight(top)(memo._handed(g, "t"))
    assert id(g["t"]["rows"]) == rows_id and g["t"]["rows"][2] is not held and held == {"x": 7, "flag": True, "y": 3}
    kept = g["t"]  # a caller that keeps the tree it passes gets a new one
    assert memo.straight(top)(memo._handed(g, "t")) is not kept
    for bad in ({"rows": (1, 2, 3), "n": 0}, 5):
        with pytest.raises(TypeError) as walked_err:
            top.apply(bad)
        with pytest.raises(TypeError) as straight_err:
            memo.straight(top)(bad)
        assert str(straight_err.value) == str(walked_err.value)
