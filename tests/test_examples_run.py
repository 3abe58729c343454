"""Checked examples: the bundled ones pass, wrong promises are caught, the corpus stays at one error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.check import run_checks
from specgen.cli import main
from specgen.diagnostics import Severity
from specgen.diagnostics import Span
from specgen.examples.results import example_results, run_suite
from specgen.executor.executor import TileInput, executor_for
from specgen.executor.faultsite import fault_site
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.prose import DataTypeSentence, datatype_sentence
from specgen.vocabulary import Vocabulary

EXAMPLE_RULES = ["example-mismatch", "example-fault", "example-sketch", "example-legality"]
TMUL_DIR = "examples/tile/elementwise-tile-tile/arithmetic/TMUL"


def graph(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


def test_every_bundled_example_passes(bundled_root: Path) -> None:
    g = graph(bundled_root)
    findings, _ = run_checks(g, only=EXAMPLE_RULES)
    assert [f.format() for f in findings] == []
    results = example_results(g)
    checked = [r for rs in results.values() for r in rs if r.kind == "checked"]
    assert len(checked) == len(list((bundled_root / "examples").rglob("*.json")))
    assert all(r.verified for r in checked)
    mnemonics = {u.instruction.mnemonic for u in g.iter_instruction_units()}  # type: ignore[union-attr]
    assert mnemonics <= {r.mnemonic for r in checked}, "every instruction has a checked example"


def test_bundled_examples_cover_the_promised_cases(bundled_root: Path) -> None:
    docs = [json.loads(p.read_text()) for p in (bundled_root / "examples").rglob("*.json")]
    progs = [d["program"] if isinstance(d["program"], str) else "\n".join(d["program"]) for d in docs]
    assert any("fault" in d["expect"] for d in docs)
    for pad in ("Zero", "Max", "Min", "Null"):
        assert any(f"PadValue={pad}" in p for p in progs), pad
    for dt in ("FP16", "BF16"):
        for prof in ("reference", "hardware-ieee"):
            assert any(f", {dt};" in p and d.get("profile", "reference") == prof for d, p in zip(docs, progs)), (dt, prof)
    assert any("T1, T1" in p for p in progs)  # both sources one register
    assert any("B.IOT T0," in p for p in progs)  # a destination read back as a source


def test_results_api_for_pages(bundled_root: Path) -> None:
    res = {r.id: r for r in example_results(graph(bundled_root))["TMUL"]}
    r = res["PTO-EX-TMUL-FP64-PAD-MAX"]
    assert r.kind == "checked" and r.verified and r.profile == "hardware-ieee"
    assert r.path == f"{TMUL_DIR}/fp64-pad-max.json"
    # one way to run a program: every command's word through the spec's ExecuteCommandInstruction
    assert [ln.entry for ln in r.lines] == ["ExecuteCommandInstruction"] * 7
    assert [ln.word for ln in r.lines] == ["0x00219181", "0x09F01023", "0x00200043", "0x00201043", "0x00402043",
                                           "0x0818C813", "0x00000001"]
    assert r.lines[-1].destination == "T0"
    out = r.outputs[0]
    assert (out.register, out.rows, out.columns) == ("T0", 4, 4)
    assert out.values[0][0] == "6.0" and out.words[0][0] == "0x4018000000000000"
    assert out.words[3][3] == "0x7fefffffffffffff" and out.defined[3][3] is True
    assert [t.register for t in r.inputs] == ["T1", "T2"]
    contract = res["PTO-TILE-TMUL#example-1"]
    assert contract.kind == "contract" and contract.verified and contract.outputs


def test_fault_is_reported_with_its_asl_location(bundled_root: Path) -> None:
    ex = executor_for(SpecGraph.build(load_spec(bundled_root)), "reference")
    run = ex.run(parse_program("BSTART.VEC TADD, S32\nB.DIM LB0=4\nB.DIM LB0=8\nBSTOP", ex.vocabulary), [])
    assert run.fault is not None
    assert run.fault.name == "Fault_BundleControl"
    assert run.fault.statement.line == 3
    assert run.fault.asl_span is not None and run.fault.asl_span.path == "asl/block/attributes/B.DIM.asl"
    assert run.fault.asl_function == "SetBundleDimension"
    text = (bundled_root / "asl/block/attributes/B.DIM.asl").read_text().splitlines()
    # the line that chose the fault (RejectCommand only forwards the kind it is given)
    assert "RejectCommand(Fault_BundleControl)" in text[run.fault.asl_span.line - 1]
    assert run.fault.word == "0x00800043"
    assert "'B.DIM LB0=8' [0x00800043] at asl/block/attributes/B.DIM.asl:" in run.fault.describe()


def test_commit_fault_names_the_spec_predicate_not_the_generated_dispatch(bundled_root: Path) -> None:
    """The tile dispatch that rejects an operation is generated from the catalog; the fault's site is the
    spec's return that decided the legality handler's FALSE (the TF32 source's low bits are not zero),
    reached from the handler the generated check called; the stack still shows the generated frames."""
    ex = executor_for(SpecGraph.build(load_spec(bundled_root)), "reference")
    tiles = [TileInput(r, "TF32", 8, 4, 1, 4, ((w, 0, 0, 0),)) for r, w in (("T1", 0x3F800001), ("T2", 0x3F800000))]
    program = "BSTART.VEC TMAX, TF32; B.DIM LB0=4; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP"
    run = ex.run(parse_program(program, ex.vocabulary), tiles)
    assert run.fault is not None and run.fault.name == "Fault_TileLegality"
    assert run.fault.statement.text == "BSTOP" and run.fault.word == "0x00000001"
    assert run.fault.asl_function == "FloatEncodingValid"
    assert run.fault.asl_span is not None and run.fault.asl_span.path == "asl/arch/data-types/floating-formats.asl"
    text = (bundled_root / run.fault.asl_span.path).read_text().splitlines()
    assert "when TileDataType_TF32 => return value[12:0] == Zeros{13};" in text[run.fault.asl_span.line - 1]
    assert [name for name, _ in run.fault.asl_chain] == ["TileOperandsLegal_ExecuteTileBinary",
                                                          "TileSourceEncodingsValid"]
    assert any(site.path.startswith("<generated>/") for _, site in run.fault.asl_stack)
    assert not run.outputs and "T0" not in run.tiles  # the tentative destination was restored


def test_fault_site_walks_out_of_generated_asl() -> None:
    """Without a spec predicate in the generated check, the site is the innermost call site in a spec file."""
    stack = (("ExecuteCommandInstruction", Span("asl/a.asl", 2)), ("Commit", Span("asl/a.asl", 30)),
             ("ExecuteTileInstruction", Span("asl/b.asl", 7)), ("Dispatch", Span("<generated>/d.asl", 9)),
             ("SetFault", Span("<generated>/d.asl", 12)))
    lines = {("<generated>/d.asl", 11): "    if index == PTO_TILE_OPERATION_COUNT then"}
    span, func = fault_site(stack, lambda p, n: lines.get((p, n), ""), lambda n: None)
    assert (span, func) == (Span("asl/b.asl", 7), "Commit")
    lines[("<generated>/d.asl", 11)] = "    if !Legal_X(operands.source0) then"
    span, func = fault_site(stack, lambda p, n: lines.get((p, n), ""),
                            lambda n: Span("asl/x.asl", 40) if n == "Legal_X" else None)
    assert (span, func) == (Span("asl/x.asl", 40), "Legal_X")


def _edit(path: Path, fn) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc, indent=2))


def test_wrong_value_is_an_example_mismatch_naming_the_element(bundled_copy: Path) -> None:
    p = bundled_copy / TMUL_DIR / "u64-wraps.json"
    _edit(p, lambda d: d["expect"]["tiles"]["T0"]["values"][1].__setitem__(1, 41))
    findings, _ = run_checks(graph(bundled_copy), only=EXAMPLE_RULES)
    assert [(f.rule, f.severity, f.path) for f in findings] == [
        ("example-mismatch", Severity.ERROR, f"{TMUL_DIR}/u64-wraps.json")]
    assert "T0[1][1]: expected 41, got 0 (0x0000000000000000)" in findings[0].message


def test_expected_fault_that_does_not_happen(bundled_copy: Path) -> None:
    p = bundled_copy / TMUL_DIR / "u64-wraps.json"
    _edit(p, lambda d: d.__setitem__("expect", {"fault": "Fault_TileLegality"}))
    findings, _ = run_checks(graph(bundled_copy), only=EXAMPLE_RULES)
    assert [f.rule for f in findings] == ["example-fault"]
    assert "expected Fault_TileLegality, but the program completed without a fault" in findings[0].message


def test_unexpected_fault_and_broken_files(bundled_copy: Path) -> None:
    d = bundled_copy / TMUL_DIR
    _edit(d / "u64-wraps.json", lambda doc: doc.__setitem__("program", doc["program"].replace("LB0=2", "LB0=3")))
    (d / "broken.json").write_text('{"id": "PTO-EX-X", "instruction": "TMUL",\n "oops": 1}')
    (d / "syntax.json").write_text(json.dumps({"id": "PTO-EX-Y", "instruction": "TMUL", "summary": "s",
                                               "program": "BSTART.VEC TMUL FP16", "expect": {"fault": "Fault_X"}}))
    findings, _ = run_checks(graph(bundled_copy), only=EXAMPLE_RULES)
    by_path = {f.path.rsplit("/", 1)[1]: f for f in findings}
    assert set(by_path) == {"u64-wraps.json", "broken.json", "syntax.json"}
    assert all(f.rule == "example-fault" for f in findings)
    assert "unexpected fault: Fault_TileLegality" in by_path["u64-wraps.json"].message
    assert "invalid example" in by_path["broken.json"].message
    assert "does not parse" in by_path["syntax.json"].message and "found 'FP16'" in by_path["syntax.json"].message


def test_the_datatype_sentence_is_read_with_the_specs_names(bundled_vocabulary: Vocabulary) -> None:
    legality = ["Nothing about types.", "DataType is one of S32, U32, FP32, S16, U16, FP16, or BF16."]
    assert datatype_sentence(legality, bundled_vocabulary) == DataTypeSentence(
        1, frozenset({"S32", "U32", "FP32", "S16", "U16", "FP16", "BF16"}), True)
    open_list = datatype_sentence(["The selected DataType is exactly S32, U32 or FP32."], bundled_vocabulary)
    assert open_list is not None and not open_list.closed and open_list.names == {"S32", "U32", "FP32"}
    assert datatype_sentence(["DataType is one of FP99 or XYZ."], bundled_vocabulary) is None
    assert datatype_sentence(["Nothing about types."], bundled_vocabulary) is None


def test_corpus_tmul_example_is_a_sketch_note_and_check_keeps_one_error(corpus_root: Path) -> None:
    g = graph(corpus_root)
    findings, _ = run_checks(g)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    assert len(errors) == 1, [f.format() for f in errors]
    assert not any(f.rule.startswith("example-") and f.severity is not Severity.NOTE for f in findings
                   if f.rule != "example-legality")
    tmul = [f for f in run_suite(g).findings if f.path.endswith("/TMUL.asl")]
    assert [(f.rule, f.severity) for f in tmul] == [("example-sketch", Severity.NOTE)]
    assert "symbolic operands ValidCol, SrcLeft, SrcRight, PE_MASK, DstTile<TSize>" in tmul[0].message
    assert "DataType U64 is excluded by the legality prose" in tmul[0].message
    assert "admitted by the ASL" in tmul[0].message


# ---------------------------------------------------------------- specgen run
def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(["run", *argv], out, err)
    return rc, out.getvalue(), err.getvalue()


def test_run_hand_written_program_with_tiles_file(tmp_path: Path, bundled_root: Path) -> None:
    prog = tmp_path / "mine.s"
    prog.write_text("# squares, by hand\nBSTART.VEC TMUL, S32\nB.DIM LB0=2   // two columns\n"
                    "B.IOT T3, T3, mask=0b0001, <last>, ->T<1>\nBSTOP\n")
    (tmp_path / "mine.tiles.json").write_text(json.dumps(
        {"T3": {"data_type": "S32", "rows": 16, "columns": 2, "valid_rows": 1, "values": [[-7, 46341]]}}))
    rc, out, err = _run(["--root", str(bundled_root), str(prog), "--format", "json"])
    assert (rc, err) == (0, "")
    doc = json.loads(out)
    assert doc["outputs"]["T0"]["values"][0] == ["49", str((46341 * 46341) - (1 << 32))]
    assert doc["outputs"]["T0"]["words"][0][0] == "0x0000000000000031"
    rc, out, _ = _run(["--root", str(bundled_root), str(prog)])
    assert rc == 0 and "-> T0" in out and "49" in out


def test_run_fault_exits_1_and_names_the_asl_site(tmp_path: Path, bundled_root: Path) -> None:
    prog = tmp_path / "f.s"
    prog.write_text("BSTOP\n")
    rc, out, _ = _run(["--root", str(bundled_root), str(prog)])
    assert rc == 1
    assert "fault: Fault_BundleControl raised by line 1 'BSTOP' [0x00000001] at asl/block/lifecycle/BSTOP.asl:" in out
    rc, out, _ = _run(["--root", str(bundled_root), str(prog), "--format", "json"])
    fault = json.loads(out)["fault"]
    assert rc == 1 and fault["word"] == "0x00000001" and fault["asl_path"] == "asl/block/lifecycle/BSTOP.asl"
    assert fault["asl_function"] == "ExecuteBundleStop"


def test_run_syntax_error_exits_2_with_location(tmp_path: Path, bundled_root: Path) -> None:
    prog = tmp_path / "bad.s"
    prog.write_text("BSTART.VEC TMUL, FP16\nB.IOT T1 T2\n")
    rc, out, err = _run(["--root", str(bundled_root), str(prog)])
    assert rc == 2 and out == ""
    assert err.startswith(f"{prog}:2:10: syntax error: expected ',' after the left source")


def test_run_example_file_checks_expectation(bundled_root: Path, tmp_path: Path) -> None:
    src = bundled_root / TMUL_DIR / "u64-wraps.json"
    rc, out, _ = _run(["--root", str(bundled_root), str(src)])
    assert rc == 0 and "expectation met" in out
    doc = json.loads(src.read_text())
    doc["expect"]["tiles"]["T0"]["values"][0][0] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    rc, out, _ = _run(["--root", str(bundled_root), str(bad)])
    assert rc == 1 and "expectation NOT met: T0[0][0]: expected 1, got 0" in out


def test_run_unknown_profile_is_usage_error(bundled_root: Path) -> None:
    rc, _, err = _run(["--root", str(bundled_root), str(bundled_root / TMUL_DIR / "u64-wraps.json"),
                       "--profile", "nope"])
    assert rc == 2 and "unknown profile 'nope'" in err


ALIAS = f"{TMUL_DIR}/destination-aliases-left-source.json"


@pytest.mark.parametrize("fast", [True, False])
def test_execute_destination_aliasing_left_source_uses_old_values(bundled_root: Path, fast: bool,
                                                                  bundled_vocabulary: Vocabulary) -> None:
    doc = json.loads((bundled_root / ALIAS).read_text())
    assert doc["program"] == "EXECUTE TMUL T0, T0, T1"
    from specgen.examples.model import parse_example
    ex = parse_example((bundled_root / ALIAS).read_text(), bundled_vocabulary)
    run = executor_for(SpecGraph.build(load_spec(bundled_root)), "reference", fast=fast).run(parse_program(ex.program_text, bundled_vocabulary),
                                                                 ex.inputs(bundled_vocabulary))
    assert run.fault is None
    assert [(s.entry, s.destination) for s in run.steps] == [("InstructionContractExecute_TMUL", "T0")]
    left, right = doc["tiles"]["T0"]["values"], doc["tiles"]["T1"]["values"]
    want = [[str(a * b % 2**32) for a, b in zip(lr, rr)] for lr, rr in zip(left, right)]
    t0 = run.outputs["T0"]
    assert [row[:2] for row in t0.values()[:2]] == want
    assert t0.values()[1][1] != str(left[1][1] * right[1][1])  # the U32 product wrapped
    assert [row[:2] for row in run.tiles["T1"].values()[:2]] == [[str(v) for v in r] for r in right]
    assert t0.defined[0] == [True, True, False, False]  # no Block: Null padding outside the valid region


def test_execute_example_is_verified_on_the_page_api_and_a_wrong_value_is_caught(bundled_root: Path,
                                                                                  bundled_copy: Path) -> None:
    res = {r.id: r for r in example_results(graph(bundled_root))["TMUL"]}
    r = res["PTO-EX-TMUL-DESTINATION-ALIASES-LEFT-SOURCE"]
    assert r.kind == "checked" and r.verified and not r.mismatches
    assert [(ln.mnemonic, ln.entry, ln.destination) for ln in r.lines] == [
        ("EXECUTE", "InstructionContractExecute_TMUL", "T0")]
    _edit(bundled_copy / ALIAS, lambda d: d["expect"]["tiles"]["T0"]["values"][0].__setitem__(0, 3 * 3))
    findings, _ = run_checks(graph(bundled_copy), only=EXAMPLE_RULES)
    assert [(f.rule, f.path) for f in findings] == [("example-mismatch", ALIAS)]
    assert "T0[0][0]: expected 9, got 21" in findings[0].message


def test_execute_illegal_operands_fault_at_the_predicate_and_write_nothing(bundled_root: Path,
                                                                          bundled_vocabulary: Vocabulary) -> None:
    from specgen.executor.executor import TileInput
    t0 = TileInput("T0", "U32", 8, 4, 2, 2, ((3, 5), (7, 9)))
    t1 = TileInput("T1", "U16", 16, 4, 2, 2, ((1, 2), (3, 4)))  # another DataType: operands disagree
    run = executor_for(SpecGraph.build(load_spec(bundled_root)), "reference").run(parse_program("EXECUTE TMUL T0, T0, T0\n"
                                                                    "EXECUTE TMUL T0, T0, T1\n"
                                                                    "EXECUTE TMUL T0, T0, T0",
                                                                    bundled_vocabulary), [t0, t1])
    assert run.fault is not None and run.fault.name == "Fault_TileLegality"
    assert run.fault.statement.line == 2 and len(run.steps) == 2
    # the site is the return that decided the FALSE, reached from the contract predicate EXECUTE called
    assert run.fault.asl_chain[0][0] == "InstructionContractOperandsLegal_TMUL"
    assert run.fault.asl_span is not None
    text = (bundled_root / run.fault.asl_span.path).read_text().splitlines()
    assert text[run.fault.asl_span.line - 1].lstrip().startswith("return ")
    assert [row[:2] for row in run.tiles["T0"].values()[:2]] == [["9", "25"], ["49", "81"]]  # line 1 only


def test_execute_unknown_mnemonic_cannot_run_and_names_it(bundled_root: Path, bundled_vocabulary: Vocabulary) -> None:
    from specgen.executor.executor import RunError, TileInput
    t0 = TileInput("T0", "U32", 8, 4, 2, 2, ((3, 5), (7, 9)))
    with pytest.raises(RunError) as info:
        executor_for(SpecGraph.build(load_spec(bundled_root)), "reference").run(parse_program("EXECUTE TFOO T0, T0, T0", bundled_vocabulary), [t0])
    assert "TFOO" in info.value.message and "InstructionContractExecute_TFOO" in info.value.message


def test_stored_results_are_keyed_by_the_code_that_assembles_their_words(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The executor assembles every statement's word with ``specgen/encoding``: an edit there is a new version
    of the examples' and worked examples' stores in the layer, never a stored result of the old code (issue 29)."""
    import shutil

    from specgen.cache import layer
    from specgen.examples.runner import CODE

    copy = tmp_path / "specgen"
    shutil.copytree(layer._PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "templates", "locales"))
    monkeypatch.setattr(layer, "_PACKAGE", copy)
    before = layer.code_digest(*CODE)
    for rel in ("encoding/asm.py", "executor/words.py"):
        (copy / rel).write_text((copy / rel).read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        assert layer.code_digest(*CODE) != before, rel
        before = layer.code_digest(*CODE)
