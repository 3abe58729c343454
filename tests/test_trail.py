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


def test_a_compiled_interpreter_is_carried_over_only_when_function_bodies_changed(bundled_copy: Path) -> None:
    """``carry.py``: a body edit keeps the compiled interpreter and runs the new body; a constant's edit
    (folded into compiled code) is refused, so the caller builds a new interpreter."""
    from specgen.asl.carry import carry_over
    from specgen.asl.index import build_index
    from specgen.asl.session import interpreter_for

    unit = bundled_copy / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    spec = load_spec(bundled_copy)
    it = interpreter_for(spec)
    before = it.call("InstructionContractSelector_TMUL")
    assert it.call("InstructionContractDataTypeLegal_TMUL", "TileDataType_S32") is True
    unit.write_text(unit.read_text(encoding="utf-8").replace("return TEPLSelector(0, 2);", "return 77;"),
                    encoding="utf-8")
    assert carry_over(it, build_index(load_spec(bundled_copy)))
    assert before != 77 and it.call("InstructionContractSelector_TMUL") == 77
    assert it.call("InstructionContractDataTypeLegal_TMUL", "TileDataType_S32") is True  # the rest still runs

    types = bundled_copy / "asl/arch/data-types/tile-data-types.asl"
    types.write_text(types.read_text(encoding="utf-8").replace("DTYPE_NONE_CODE = 31;", "DTYPE_NONE_CODE = 30;"),
                     encoding="utf-8")
    index = it.index
    assert not carry_over(it, build_index(load_spec(bundled_copy)))
    assert it.index is index  # refused: nothing was touched
