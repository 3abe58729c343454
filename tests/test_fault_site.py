"""A fault names the ASL line that decided it (issue 16 item 2).

When ASL that specgen generates from the catalogs (the tile dispatch) raises ``Fault_TileLegality`` because
a spec predicate returned FALSE, the site is the spec's ``return`` that decided that FALSE, found by
re-running the predicate with its returns traced (``specgen.asl.returntrace``) and following the FALSE
down (``specgen.executor.faultsite.deciding_chain``). The first tests run small ASL of their own through
the interpreter (any spec's predicates, no named functions); the corpus tests compute every expected line
from the spec file's text.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from specgen.asl import Interpreter, parse_source
from specgen.asl.returntrace import ReturnEvent, traced_calls, tracing
from specgen.executor.executor import TileInput, executor_for
from specgen.executor.faultsite import deciding_chain
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program

PREDICATES = """\
func IsSmall(x: integer) => boolean
begin
    return x < 10;
end;

func BothSmall(a: integer, b: integer) => boolean
begin
    return IsSmall(a) && IsSmall(b);
end;

func Guarded(a: integer, b: integer) => boolean
begin
    if !IsSmall(a) ||
       !BothSmall(a, b) then
        return FALSE;
    end;
    return TRUE;
end;

func IsZero2(x: integer) => boolean
begin
    return x == 0;
end;

func NoZero(a: integer, b: integer) => boolean
begin
    if IsZero2(a) then return FALSE; end;
    if IsZero2(b) then
        return FALSE;
    end;
    return TRUE;
end;

func LaterCheck(a: integer) => boolean
begin
    let small = IsSmall(a);
    if a == 3 then return FALSE; end;
    return small;
end;

func Negated(a: integer) => boolean
begin
    return !IsSmall(a);
end;

func Top(a: integer, b: integer) => boolean
begin
    return Guarded(a, b);
end;
"""
LINES = PREDICATES.splitlines()


def _line_of(text: str, after: str = "") -> int:
    """The 1-based line of PREDICATES whose text contains ``text`` (after the line containing ``after``)."""
    start = next(i for i, x in enumerate(LINES) if after in x) if after else 0
    return next(i for i, x in enumerate(LINES) if i >= start and text in x) + 1


def _chain(name: str, *args: int) -> list[ReturnEvent]:
    it = Interpreter(None, modules=[parse_source(PREDICATES, "p.asl")])
    assert it.call(name, *args) is False or name == "Top"  # compiled plain first, as a run has it
    events: list[ReturnEvent] = []
    with traced_calls(it, [name], events):
        it.call(name, *args)
    return deciding_chain(events, lambda path, n: LINES[n - 1] if path == "p.asl" and 0 < n <= len(LINES) else "")


def _sites(chain: list[ReturnEvent]) -> list[tuple[str, int]]:
    return [(e.function, e.span.line) for e in chain]


def test_negated_guard_descends_into_the_false_callee_and_its_and_operand() -> None:
    # a = 1 is small, b = 20 is not: !BothSmall holds; inside, IsSmall(b) is the FALSE operand of &&
    assert _sites(_chain("Guarded", 1, 20)) == [
        ("Guarded", _line_of("return FALSE;", "func Guarded")),
        ("BothSmall", _line_of("return IsSmall(a) && IsSmall(b);")),
        ("IsSmall", _line_of("return x < 10;"))]


def test_short_circuit_stops_at_the_first_false_operand() -> None:
    # a = 20: !IsSmall(a) holds and BothSmall is never called
    assert _sites(_chain("Guarded", 20, 1))[1:] == [("IsSmall", _line_of("return x < 10;"))]


def test_a_guard_whose_call_returned_true_is_the_deciding_return_false() -> None:
    # IsZero2 returned TRUE (not a FALSE passed up): the site is the ``return FALSE;`` it guards
    assert _sites(_chain("NoZero", 1, 0)) == [("NoZero", _line_of("        return FALSE;", "func NoZero"))]
    assert _sites(_chain("NoZero", 0, 1)) == [("NoZero", _line_of("if IsZero2(a) then return FALSE;"))]


def test_a_false_call_outside_the_deciding_statement_is_not_followed() -> None:
    # IsSmall(3) returned TRUE anyway; with a = 30 it returns FALSE but ``return small;`` calls nothing
    assert _sites(_chain("LaterCheck", 3)) == [("LaterCheck", _line_of("if a == 3 then return FALSE;"))]
    assert _sites(_chain("LaterCheck", 30)) == [("LaterCheck", _line_of("return small;"))]


def test_a_negated_call_in_a_return_is_not_followed() -> None:
    assert _sites(_chain("Negated", 1)) == [("Negated", _line_of("return !IsSmall(a);"))]


def test_a_predicate_that_returned_true_has_no_chain() -> None:
    assert _chain("Top", 1, 1) == []


def test_tracing_is_off_after_a_session_and_plain_runs_record_nothing() -> None:
    it = Interpreter(None, modules=[parse_source(PREDICATES, "p.asl")])
    assert it.call("Top", 1, 20) is False
    plain = {id(f): f.impl for f in it.compiled.values()}
    events: list[ReturnEvent] = []
    with tracing(it, events):
        assert it.trace is not None
        assert it.call("Top", 1, 20) is False
    assert it.trace is None and {id(f): f.impl for f in it.compiled.values() if id(f) in plain} == plain
    count = len(events)
    assert count >= 4
    assert it.call("Top", 1, 20) is False and len(events) == count  # the plain variants again
    again: list[ReturnEvent] = []
    with tracing(it, again):  # a second session records into its own list (traced variants are reused)
        it.call("Top", 1, 20)
    assert [(e.function, e.span) for e in again] == [(e.function, e.span) for e in events]
    assert len(events) == count


# -- the corpus ----------------------------------------------------------------------------------------

def _function_lines(root: Path, path: str, name: str) -> tuple[int, list[str]]:
    """The first line of function ``name`` in ``path`` and its lines up to ``end;``."""
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    start = next(i for i, x in enumerate(lines) if re.search(r"\bfunc\s+" + name + r"\s*\(", x))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("end;"))
    return start + 1, lines[start:end + 1]


def _declaring_file(root: Path, name: str) -> str:
    for f in sorted((root / "asl").rglob("*.asl")):
        if re.search(r"\bfunc\s+" + name + r"\s*\(", f.read_text(encoding="utf-8")):
            return f.relative_to(root).as_posix()
    raise AssertionError(f"{name} is not declared under {root}/asl")


RELEASES = {"0.58.3": "BSTART.SFU TDIV, S32", "0.58.0": "BSTART.TEPL 0, 3, S32"}  # TDIV's first word
BLOCK = "; B.DIM LB0=4; B.DIM LB1=2; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP"


@pytest.fixture(scope="module", params=sorted(RELEASES))
def release(request: pytest.FixtureRequest, corpus_root: Path) -> tuple[str, Path, object]:
    root = corpus_root.parent / f"pto-spec-{request.param}"
    spec = load_spec(root)
    return request.param, root, executor_for(SpecGraph.build(spec))


def _s32(reg: str, rows: list[list[int]], columns: int = 4) -> TileInput:
    return TileInput(reg, "S32", 8, 4, len(rows), columns, tuple(tuple(v & 0xFFFFFFFF for v in r) for r in rows))


def _run(ex: object, text: str, tiles: list[TileInput]):
    return ex.run(parse_program(text, ex.vocabulary), tiles)  # type: ignore[attr-defined]


@pytest.mark.corpus
def test_tdiv_zero_divisor_names_the_return_false_in_the_nonzero_predicate(release: tuple[str, Path, object]) -> None:
    name, root, ex = release
    run = _run(ex, RELEASES[name] + BLOCK, [_s32("T1", [[1, 2, 3, 4], [5, 6, 7, 8]]),
                                            _s32("T2", [[1, 1, 1, 1], [1, 1, 0, 1]])])
    f = run.fault
    assert f is not None and f.name == "Fault_TileLegality" and f.statement.text == "BSTOP"
    path = _declaring_file(root, "TilePayloadNonzero")
    first, body = _function_lines(root, path, "TilePayloadNonzero")
    # the `return FALSE;` the zero element reaches (not the definedness guard before the loop)
    # (0.58.3: a line of its own under `if IsZero(…) then`; 0.58.0: `if IsZero(…) then return FALSE; end;`)
    line = next(first + i for i, x in enumerate(body)
                if x.strip() == "return FALSE;" or ("IsZero(" in x and "return FALSE;" in x))
    assert f.asl_span is not None and (f.asl_span.path, f.asl_span.line) == (path, line)
    text = (root / path).read_text().splitlines()[line - 1]
    assert text[f.asl_span.col - 1:].startswith("return FALSE;")
    assert f.asl_function == "TilePayloadNonzero"
    assert [fn for fn, _ in f.asl_chain] == ["TileOperandsLegal_ExecuteTileBinary"]
    caller_path = f.asl_chain[0][1].path
    assert "return TilePayloadNonzero(source_right);" in (root / caller_path).read_text().splitlines()[
        f.asl_chain[0][1].line - 1]
    assert f"at {path}:{line}:{f.asl_span.col} (in TilePayloadNonzero, from TileOperandsLegal_ExecuteTileBinary " \
           f"at {caller_path.rsplit('/', 1)[-1]}:{f.asl_chain[0][1].line})" in f.describe()


@pytest.mark.corpus
def test_shape_mismatch_names_a_return_in_the_shape_predicate(release: tuple[str, Path, object]) -> None:
    _, root, ex = release
    run = _run(ex, "BSTART.VEC TADD, S32" + BLOCK, [_s32("T1", [[1, 2, 3, 4], [5, 6, 7, 8]]),
                                                    _s32("T2", [[1, 2, 3], [4, 5, 6]], columns=3)])
    f = run.fault
    assert f is not None and f.name == "Fault_TileLegality" and f.asl_span is not None
    names = [fn for fn, _ in f.asl_chain] + [f.asl_function]  # outermost first
    assert names[0] == "TileOperandsLegal_ExecuteTileBinary" and "TileShapeAndTypeMatch" in names
    first, body = _function_lines(root, f.asl_span.path, f.asl_function)
    assert first <= f.asl_span.line < first + len(body)  # inside the function it names
    assert body[f.asl_span.line - first].lstrip().startswith("return ")
    guard = f.asl_chain[0][1]  # the guard of the handler the generated check called
    handler = (root / guard.path).read_text().splitlines()
    assert "TileShapeAndTypeMatch(" in " ".join(handler[guard.line - 2:guard.line])


@pytest.mark.corpus
def test_undefined_source_names_the_definedness_predicate(release: tuple[str, Path, object]) -> None:
    _, root, ex = release
    run = _run(ex, "BSTART.VEC TADD, S32" + BLOCK, [_s32("T1", [[1, 2, 3, 4], [5, 6, 7, 8]])])
    f = run.fault
    assert f is not None and f.name == "Fault_TileLegality" and f.asl_span is not None
    assert not f.asl_span.path.startswith("<generated>")
    assert "TileSourceContentsDefined" in [fn for fn, _ in f.asl_chain] + [f.asl_function]
    first, body = _function_lines(root, f.asl_span.path, f.asl_function)
    assert body[f.asl_span.line - first].lstrip().startswith("return ")


@pytest.mark.corpus
def test_a_fault_the_spec_raises_itself_is_unchanged(release: tuple[str, Path, object]) -> None:
    """A second ``B.DIM LB0`` is rejected by the spec's own ASL: its SetFault line, no chain, no re-run."""
    _, root, ex = release
    run = _run(ex, "BSTART.VEC TADD, S32; B.DIM LB0=4; B.DIM LB0=8; BSTOP", [])
    f = run.fault
    assert f is not None and f.name == "Fault_BundleControl"
    assert f.asl_span is not None and not f.asl_span.path.startswith("<generated>")
    assert f.asl_chain == ()
    line = (root / f.asl_span.path).read_text().splitlines()[f.asl_span.line - 1]
    assert "Fault" in line  # the SetFault call (or the call choosing the kind it forwards)


@pytest.mark.corpus
def test_run_cli_prints_and_writes_the_deciding_site(corpus_root: Path, tmp_path: Path) -> None:
    from specgen.cli import main
    example = {"id": "PTO-EX-TDIV-ZERO", "instruction": "TDIV", "program": RELEASES["0.58.3"] + BLOCK,
               "tiles": {"T1": {"data_type": "S32", "rows": 8, "columns": 4, "valid_rows": 2,
                                "values": [[1, 2, 3, 4], [5, 6, 7, 8]]},
                         "T2": {"data_type": "S32", "rows": 8, "columns": 4, "valid_rows": 2,
                                "values": [[1, 1, 1, 1], [1, 1, 0, 1]]}}}
    file = tmp_path / "tdiv.json"
    file.write_text(json.dumps(example), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", "--root", str(corpus_root), str(file)], out=out, err=err) == 1, err.getvalue()
    assert "(in TilePayloadNonzero, from TileOperandsLegal_ExecuteTileBinary at operand-schema.asl:" in out.getvalue()
    out = io.StringIO()
    assert main(["run", "--root", str(corpus_root), "--format", "json", str(file)], out=out, err=err) == 1
    fault = json.loads(out.getvalue())["fault"]
    assert fault["asl_function"] == "TilePayloadNonzero"
    assert fault["asl_path"] == _declaring_file(corpus_root, "TilePayloadNonzero")
    assert [c["function"] for c in fault["asl_chain"]] == ["TileOperandsLegal_ExecuteTileBinary"]
    assert (corpus_root / fault["asl_chain"][0]["path"]).read_text().splitlines()[
        fault["asl_chain"][0]["line"] - 1].strip() == "return TilePayloadNonzero(source_right);"
