"""What a run read of the ASL (specgen/asl/trail.py) is the run's own: never the history of the interpreter.

A worker runs many tests on one interpreter: functions compile once, constants are initialised once,
resets are replayed after their second call. The reads recorded for a test must not depend on which
tests ran before it on the same worker, or a result would be reused (or not) by accident.
"""

from __future__ import annotations

from pathlib import Path

from specgen.asl import Interpreter, parse_source
from specgen.asl.runner import discover, run_cases
from specgen.asl.trail import Definitions
from specgen.loader import load_spec


def test_each_tests_reads_are_the_same_in_any_order_and_on_any_worker(bundled_root: Path) -> None:
    spec = load_spec(bundled_root)
    cases = discover(spec)
    forward = run_cases(spec, cases, jobs=1)
    backward = run_cases(spec, list(reversed(cases)), jobs=1)
    two = run_cases(spec, cases, jobs=2)
    assert forward.reads and forward.reads == backward.reads == two.reads
    assert all(r.status == "passed" for r in forward.results)


_TREE = """
constant Width : integer = Helper();
type Word of bits(Width);
func Helper() => integer
begin
    return 8;
end;
func Used() => integer
begin
    let w : Word = Zeros{Width};
    return Width;
end;
func NeverCalled() => integer
begin
    return Used();
end;
func Entry(flag : boolean) => integer
begin
    if flag then
        return NeverCalled();
    end;
    return Used();
end;
"""


def test_a_trail_holds_what_ran_and_the_data_it_used_not_what_was_only_named() -> None:
    mod = parse_source(_TREE, "tree.asl")
    it = Interpreter(None, generated=[mod])
    defs = Definitions(None, [mod])
    for _ in range(2):  # the second run finds everything compiled and the constant initialised
        it.trail.push()
        it.reset()
        assert it.call("Entry", False) == 8
        reads = defs.reads(it.trail.pop())
        assert {"Entry", "Used", "Width", "Word", "Helper"} <= reads
        assert "NeverCalled" not in reads
    assert defs.digest("Helper") and defs.digest("Nothing") == ""
