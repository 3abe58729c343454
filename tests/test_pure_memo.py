"""Repeated calls of state-free functions answered from a table (specgen/asl/pure_memo.py).

Each scenario runs the same calls on an interpreter that answers and on one that does not
(``memoize=False``) and compares what a run observes: results, steps charged, the names its trail
notes, and where a budget runs out. Answering must be invisible except in time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from specgen.asl import ASLError, Interpreter, parse_source
from specgen.loader import load_spec

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

_TREE = """
constant K = 3;
var G : integer;
type Colour of enumeration { Red, Green, Blue };
type Rec of record { x : integer };

func Width(c : Colour) => integer
begin
    if c == Red then
        return 8;
    elsif c == Green then
        return 16;
    end;
    return 32 * K;
end;

func Slow(n : integer) => integer
begin
    var s : integer = 0;
    for i = 0 to n - 1 do
        s = s + i;
    end;
    return s;
end;

func ReadsG(n : integer) => integer
begin
    return n + G;
end;

func CallsReadsG(n : integer) => integer
begin
    return ReadsG(n) * 2;
end;

func Field(r : Rec) => integer
begin
    return r.x + 1;
end;

func Sweep(n : integer) => integer
begin
    var t : integer = 0;
    var r : Rec;
    for i = 0 to n - 1 do
        r.x = i;
        t = t + Width(Green) + Width(Blue) + Slow(10) + CallsReadsG(i MOD 2) + Field(r);
    end;
    return t;
end;

func PlusSlow(n : integer) => integer
begin
    return Slow(n) + 1;
end;

func Three(a : integer, b : integer, c : Colour) => integer
begin
    return a * b + Width(c);
end;

func BigArg(a : integer, b : integer, x : bits(70000)) => integer
begin
    return a + b;
end;

func Wide(n : integer) => integer
begin
    var t : integer = 0;
    for i = 0 to n - 1 do
        t = t + Three(i MOD 3, 2, Blue) + BigArg(i, 1, Ones{70000});
    end;
    return t;
end;

func SetG(v : integer)
begin
    G = v;
end;

func Depth(n : integer) => integer
begin
    if n == 0 then
        return 0;
    end;
    return Depth(n - 1) + 1;
end;

func Nest(k : integer, n : integer) => integer
begin
    if k == 0 then
        return Depth(n) + G * 0;
    end;
    return Nest(k - 1, n);
end;
"""


def _pair() -> tuple[Interpreter, Interpreter]:
    """The same tree functions (``generated``: tree code, not a test's overlay) twice."""
    mod = parse_source(_TREE, "tree.asl")
    return Interpreter(None, generated=[mod]), Interpreter(None, generated=[mod], memoize=False)


def _table(it: Interpreter, name: str, arity: int = 1) -> dict:
    answers = it.answering.get(id(it._funcs[(name, arity)]))
    return answers.table if answers is not None else {}


def _callees_first(it: Interpreter) -> None:
    """Compile the answered functions before their callers: a caller compiled after its callee answers
    the callee's calls inline (fuse_rules._answered), one compiled before calls its implementation."""
    it.call("Width", "Red")
    it.call("Slow", 1)
    it.call("Depth", 0)


@pytest.mark.parametrize("inline", [False, True])
def test_answers_are_the_run_without_them_and_state_is_never_answered(inline: bool) -> None:
    fast, slow = _pair()
    for it in (fast, slow):
        if inline:
            _callees_first(it)
        it.call("SetG", 1)
    assert fast.call("Sweep", 40) == slow.call("Sweep", 40)
    assert fast.steps_used == slow.steps_used
    # what is state-free and called with scalars is kept; what reaches a global or takes a record is not
    assert {"Green", "Blue"} <= set(_table(fast, "Width")) and 10 in _table(fast, "Slow")
    assert _table(fast, "CallsReadsG") == {} and _table(fast, "ReadsG") == {}
    assert ("Field", 1) in fast._funcs and id(fast._funcs[("Field", 1)]) not in fast.answering
    assert fast.state_free["ReadsG"] == {1: False} and fast.state_free["CallsReadsG"] == {1: True}
    for it in (fast, slow):
        it.call("SetG", 5)  # a result that read G would now be wrong
    assert fast.call("Sweep", 40) == slow.call("Sweep", 40)
    assert fast.steps_used == slow.steps_used
    assert slow.answering == {}


def test_three_arguments_and_a_bitvector_too_big_to_hash_for_free() -> None:
    """A function of three scalars is answered too; one called with a bitvector over FREE_BITS never is
    (hashing it would charge steps the call does not take), and the steps stay equal."""
    fast, slow = _pair()
    assert fast.call("Wide", 30) == slow.call("Wide", 30)
    assert fast.steps_used == slow.steps_used
    assert set(_table(fast, "Three", 3)) == {(0, 2, "Blue"), (1, 2, "Blue"), (2, 2, "Blue")}
    assert _table(fast, "BigArg", 3) == {}


@pytest.mark.parametrize("inline", [False, True])
def test_an_answered_call_notes_what_the_call_ran_in_every_recording(inline: bool) -> None:
    fast, slow = _pair()
    if inline:
        _callees_first(fast)
        _callees_first(slow)
    seen = []
    for it in (fast, slow, fast):  # the last: every call of Width and Slow answered
        it.trail.push()
        it.call("Sweep", 3)
        seen.append(it.trail.pop())
    assert seen[0] == seen[1] == seen[2]
    assert {"Sweep", "Width", "Slow", "CallsReadsG", "ReadsG", "Field"} <= seen[2]


def test_a_budget_that_runs_out_inside_an_answered_call_fails_where_the_body_would() -> None:
    fast, slow = _pair()
    for it in (fast, slow):
        _callees_first(it)
        it.call("Sweep", 40)
    assert _table(fast, "Slow")
    failures = []
    for it in (fast, slow):
        it.max_steps = 95  # Sweep(8) takes about 17 steps an iteration: this runs out inside a call of Slow
        with pytest.raises(ASLError) as exc:
            it.call("Sweep", 8)
        failures.append((exc.value.kind, str(exc.value.span), [str(s) for s in exc.value.asl_stack], str(exc.value)))
    assert failures[0] == failures[1] and failures[0][0] == "budget"
    assert any("Slow" in s for s in failures[0][2]), failures[0]


def test_a_call_deeper_than_the_one_that_computed_it_fails_at_the_depth_budget_as_the_body_would() -> None:
    fast, slow = _pair()
    for it in (fast, slow):
        _callees_first(it)
        assert it.call("Nest", 0, 30) == 30  # Depth(0..30) computed near the top of the stack
        assert it.call("Nest", 0, 30) == 30  # and answered there (Nest reads G: it runs each time)
    failures = []
    for it in (fast, slow):
        with pytest.raises(ASLError) as exc:
            it.call("Nest", 1985, 30)  # the same calls 1,985 frames deeper: past the depth budget
        failures.append((exc.value.kind, str(exc.value.span), str(exc.value)))
    assert failures[0] == failures[1] and failures[0][0] == "budget"
    for it in (fast, slow):
        assert it.call("Nest", 100, 30) == 30


def test_a_result_that_ran_a_test_s_own_function_is_not_kept() -> None:
    """A result whose call ran a function of a name the loaded test declares is not kept (the
    interpreter binds a call to the test's function where it has not compiled the tree's), and both
    interpreters agree before and after the test."""
    test = parse_source("func Slow(n : integer) => integer\nbegin\n    return 1000;\nend;\n", "test.asl")
    fast, slow = _pair()
    results = []
    for it in (fast, slow):
        it.call("Sweep", 2)  # the tree's Slow compiled (and state-free) first
        it.load_module(test)
        results.append([it.call("PlusSlow", 10), it.call("PlusSlow", 10), it.call("Width", "Blue")])
        results[-1].append(sorted(_table(it, "PlusSlow")))
        it.reset()
        results[-1] += [it.call("PlusSlow", 10), it.call("Width", "Blue"), it.steps_used]
    assert results[0] == results[1] and results[0][2] == 96  # nothing kept while the test was loaded
    assert sorted(_table(fast, "PlusSlow")) == [10] and "Blue" in _table(fast, "Width")  # kept after it


def test_a_changed_body_drops_every_kept_result(bundled_copy: Path) -> None:
    """A server carries its interpreter over a body edit (carry.py): a result the edited callee
    computed is not answered again, even by a caller whose own body did not change."""
    from specgen.asl.carry import carry_over
    from specgen.asl.index import build_index
    from specgen.asl.session import interpreter_for

    it = interpreter_for(load_spec(bundled_copy))
    for _ in range(2):
        assert it.call("InstructionContractDataTypeLegal_TMUL", "TileDataType_S32") is True
    assert _table(it, "InstructionContractDataTypeLegal_TMUL")
    unit = bundled_copy / "asl/tile/model/legality/binary-operands.asl"
    text = unit.read_text(encoding="utf-8")
    assert "return TileVecArithmeticDataTypeSupported(data_type);" in text
    unit.write_text(text.replace("return TileVecArithmeticDataTypeSupported(data_type);", "return FALSE;"),
                    encoding="utf-8")
    assert carry_over(it, build_index(load_spec(bundled_copy)))
    assert it.call("InstructionContractDataTypeLegal_TMUL", "TileDataType_S32") is False


def test_return_tracing_sees_every_return_of_an_answered_function() -> None:
    """Tracing swaps every function to its traced variant (returntrace.py): a caller that answers a
    callee's calls inline must call the traced callee instead, as a plain interpreter does."""
    from specgen.asl.returntrace import tracing

    fast, slow = _pair()
    traced = []
    for it in (fast, slow):
        _callees_first(it)
        it.call("Sweep", 20)  # kept results, the loop fused with its answered calls inline
        events: list = []
        with tracing(it, events):
            it.call("Sweep", 12)
        traced.append([(e.function, e.value, str(e.span)) for e in events])
    assert traced[0] == traced[1] and sum(f == "Width" for f, _v, _s in traced[0]) == 24
