"""ASL errors are findings: one per cause, at file:line:col, from ``validate`` and ``check``
(syntax, unknown name, arity, result type);
the tests that need a broken unit fail naming it; ASL stacks in reports are bounded."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from specgen.asl.errors import bounded_stack
from specgen.asl.runner import format_text, run_tests
from specgen.asl.static import asl_findings
from specgen.cli import main
from specgen.diagnostics import Span
from specgen.loader import load_spec

TAND = "asl/tile/elementwise-tile-tile/logical/TAND.asl"
TAND_TESTS = "tile/elementwise-tile-tile/logical/TAND/"
CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def _cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue() + err.getvalue()


def _edit(root: Path, old: str, new: str) -> int:
    """Replace one line of TAND.asl, record the change in the manifest; return its 1-based line."""
    path = root / TAND
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip() == old)
    lines[at] = new
    path.write_text("\n".join(lines), encoding="utf-8")
    assert _cli("manifest", "--root", str(root), "--write")[0] == 0  # only the ASL is wrong
    return at + 1


def _asl_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if ": asl-" in line]


def _check_findings(root: Path) -> list[str]:
    # the edit also makes the recorded traceability evidence stale: a true finding of its own
    rc, text = _cli("check", "--root", str(root), "--format", "text", "--disable", "evidence-stale")
    assert rc == 1, text
    return [line.strip() for line in text.splitlines() if " error " in line]


@pytest.mark.parametrize(
    ("old", "new", "col", "rule", "says"),
    [
        ("pure func InstructionContractSelector_TAND() => integer", "%%% ;;; (((", 1, "asl-syntax",
         "syntax error: unexpected character '%'"),
        ("return TileBinaryDataTypeSupported(TileBinary_AND, data_type);",
         "    return TileBinaryDataTypeSupportd(TileBinary_AND, data_type);", 12, "asl-unknown-name",
         "did you mean 'TileBinaryDataTypeSupported'?"),
        ("return TEPLSelector(0, 6);", "    return TEPLSelector(0);", 12, "asl-arity",
         "'TEPLSelector' takes 2 argument(s), called with 1"),
        ("ExecuteTileBinary(TileBinary_AND, destination, source_left,",
         "    let done = ExecuteTileBinary(TileBinary_AND, destination, source_left,", 16, "asl-type",
         "'ExecuteTileBinary' returns no value but is used as one"),
        ("return TEPLSelector(0, 6);", "    return TRUE;", 12, "asl-type",
         "'InstructionContractSelector_TAND' returns integer but this returns a boolean value"),
        ("return TEPLSelector(0, 6);", "    let selector : integer = '0110'; return selector;", 30, "asl-type",
         "'selector' is declared integer but given a bits(4) value"),  # the literal's width (issue 24)
        ("return TileBinaryDataTypeSupported(TileBinary_AND, data_type);",
         "    if TEPLSelector(0, 6) then return TRUE; end; return FALSE;", 8, "asl-type",
         "the condition is an integer value, not a boolean"),
        ("return TileBinaryDataTypeSupported(TileBinary_AND, data_type);",
         "    return TileBinaryDataTypeSupported(TileBinary_AND, data_type) && 1;", 70, "asl-type",
         "an operand of '&&' is an integer value, not a boolean"),
    ],
    ids=["syntax", "unknown-name", "arity", "type", "return-kind", "declared-kind", "condition", "logic-operand"],
)
def test_one_broken_line_is_one_finding_from_validate_and_check(
        bundled_copy: Path, old: str, new: str, col: int, rule: str, says: str) -> None:
    line = _edit(bundled_copy, old, new)
    rc, text = _cli("validate", "--root", str(bundled_copy))
    assert rc == 1
    assert _asl_lines(text) == [f"{TAND}:{line}:{col}: {rule}: {_message(text, rule)}"]
    assert says in text and "1 error(s)" in text
    findings = _check_findings(bundled_copy)
    assert len(findings) == 1, findings  # no cascade: the examples of TAND are not reported again
    assert findings[0].startswith(f"{line}:{col}") and rule in findings[0], findings


def _message(text: str, rule: str) -> str:
    return next(line for line in text.splitlines() if f": {rule}: " in line).split(f": {rule}: ", 1)[1]


def test_tests_that_need_a_unit_that_does_not_parse_fail_naming_it(bundled_copy: Path) -> None:
    line = _edit(bundled_copy, "pure func InstructionContractSelector_TAND() => integer", "%%% ;;; (((")
    report = run_tests(load_spec(bundled_copy), [TAND_TESTS])
    assert len(report.results) == 2
    for r in report.results:
        assert r.status == "error" and r.reason == "broken-unit", r
        assert f"{TAND}, which does not parse ({TAND}:{line}:1:" in r.message


def test_a_local_name_nothing_binds_is_unknown(bundled_copy: Path) -> None:
    line = _edit(bundled_copy, "ExecuteTileBinary(TileBinary_AND, destination, source_left,",
                 "    ExecuteTileBinary(TileBinary_AND, destinaton, source_left,")
    found = [f.format() for f in asl_findings(load_spec(bundled_copy))]
    assert found == [f"{TAND}:{line}:39: asl-unknown-name: unknown identifier 'destinaton': "
                     "no parameter, local or definition of that name"]


def test_a_return_that_disagrees_with_the_result_type_is_a_type_finding(bundled_copy: Path) -> None:
    line = _edit(bundled_copy, "return TEPLSelector(0, 6);", "    return;")
    found = [f.format() for f in asl_findings(load_spec(bundled_copy))]
    assert found == [f"{TAND}:{line}:5: asl-type: 'InstructionContractSelector_TAND' returns a value of its "
                     "declared type, but this return gives none"]


def test_deep_recursion_reports_a_bounded_stack_with_the_cycle_collapsed(bundled_copy: Path) -> None:
    header = (bundled_copy / "tests/asl" / TAND_TESTS / "tile-exec-tand-widths-001.asl").read_text().split("\n")[0]
    test = bundled_copy / "tests/asl" / TAND_TESTS / "tile-rec-001.asl"
    test.write_text(header.replace("PTO-AVS-TILE-TAND-", "PTO-AVS-TILE-TAND-REC-") + "\n"
                    "func Rec(n: integer) => integer\nbegin\n    return Rec(n + 1) + 1;\nend;\n\n"
                    "func main() => integer\nbegin\n    return Rec(0);\nend;\n", encoding="utf-8")
    spec = load_spec(bundled_copy)
    report = run_tests(spec, ["tile-rec-001"])
    (r,) = report.results
    assert r.status == "error"
    assert len(r.stack) <= 21, len(r.stack)
    collapsed = [line for line in r.stack if "more frames of Rec → Rec" in line]
    assert len(collapsed) == 1 and int(collapsed[0].split()[1].replace(",", "")) > 100
    assert len(format_text(report, spec).splitlines()) < 30


def test_bounded_stack_keeps_both_ends_of_a_stack_without_cycles() -> None:
    frames = [(f"F{i}", Span("a.asl", i)) for i in range(50)]
    lines = bounded_stack(frames)
    assert lines[:10] == [f"F{i} at a.asl:{i}" for i in range(10)]
    assert lines[10] == "… 30 more frames"
    assert lines[11:] == [f"F{i} at a.asl:{i}" for i in range(40, 50)]
    two = bounded_stack([("main", Span("t.asl", 1))] + [("A", Span("a.asl", 2)), ("B", Span("a.asl", 3))] * 40)
    assert two == ["main at t.asl:1", "A at a.asl:2", "B at a.asl:3", "… 78 more frames of A → B → A"]


def test_the_bundled_spec_has_no_asl_finding(bundled_root: Path) -> None:
    assert asl_findings(load_spec(bundled_root)) == []


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_the_real_releases_have_no_asl_finding(release: str) -> None:
    root = CORPORA / release
    if not root.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the corpus must be at {root} under CI")
        pytest.skip(f"corpus not found at {root}")
    assert [f.format() for f in asl_findings(load_spec(root))] == []


def test_the_check_reads_the_asl_index_once_to_find_and_to_drop_consequences(bundled_copy: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """One cause, one finding, from one index: the check's tail drops what follows from a broken unit
    with the index its findings were made from (issue 29), not a second read of the index cache."""
    import specgen.asl.static as static
    from specgen.check import run_checks
    from specgen.graph import SpecGraph

    _edit(bundled_copy, "pure func InstructionContractSelector_TAND() => integer", "%%% ;;; (((")
    reads: list[object] = []
    real = static.build_index
    monkeypatch.setattr(static, "build_index", lambda spec, *a, **k: reads.append(spec) or real(spec, *a, **k))
    findings, _ = run_checks(SpecGraph.build(load_spec(bundled_copy)), only=("asl-syntax", "instruction-untested",
                                                                             "example-fault"))
    assert [f.rule for f in findings if f.rule.startswith("asl-")] == ["asl-syntax"]
    assert not [f for f in findings if TAND in f.message]  # its consequences were dropped
    assert len(reads) == 1
