"""Scalar (and other template) commands inside block programs, and the BSTART variant spelling.

A scalar command's word runs through the spec's own ``ExecuteScalarInstruction``
(as its tests/asl/scalar AVS tests call it) and the GPRs it wrote are read back
with the spec's ``ReadGPR``; a Block then reads the GPR through B.IOR. The
variant rows of the command-forms catalog (``encoding_variants``) are written
``BSTART.TMOV U8 [TMOV.L2S.INSERT form]``, as the spec's own sketches write them.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.encoding.asm import AsmError, assemble_command, disassemble, variants_of
from specgen.encoding.asm_template import disassemble_form, forms_of, shape_of
from specgen.encoding.decode import decode, primary_matches
from specgen.encoding.from_spec import spec_encodings
from specgen.encoding.model import Encoding, EncodingSet
from specgen.executor.executor import TileInput, executor_for, register_name
from specgen.executor.scalar import destination_fields
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import ProgramError, parse_program
from specgen.vocabulary import Vocabulary, vocabulary_of

RELEASES = ("pto-spec-0.58.3", "pto-spec-0.58.0")


def _root(corpus_root: Path, release: str) -> Path:
    root = corpus_root.parent / release
    if not root.is_dir():
        pytest.fail(f"the {release} corpus must be at {root}")
    return root


def _encodings(root: Path) -> tuple[EncodingSet, Vocabulary]:
    spec = load_spec(root)
    return spec_encodings(SpecGraph.build(spec)), vocabulary_of(spec)


def _addi(es: EncodingSet, src: int, imm: int, dst: int) -> str:
    """``addi`` written by the assembler's own canonical text (whatever its register syntax is)."""
    (enc,) = [e for e in forms_of(es, "addi") if e.width == 32]
    (d,) = destination_fields(enc)
    rest = [n for n in shape_of(enc).positional if n != d]
    widest = max(rest, key=lambda n: enc.field(n).width)  # type: ignore[union-attr]
    (s,) = [n for n in rest if n != widest]
    values = {f.name: 0 for f in enc.fields} | {s: src, widest: imm, d: dst}
    return disassemble_form(enc, values)  # registers as numbers, which the template reader also reads


# -- parsing (no corpus) ------------------------------------------------------------------
def test_a_non_block_head_is_kept_as_written_with_its_position(bundled_vocabulary: Vocabulary) -> None:
    p = parse_program("BSTART.VEC TADD, FP16\n  lbu [R3, R4, 0], ->R5, SrcRType=1\nBSTOP", bundled_vocabulary,
                      any_form=True)
    st = p.statements[1]
    assert st.is_template and (st.mnemonic, st.line, st.col) == ("LBU", 2, 3)
    assert st.text == "lbu [R3, R4, 0], ->R5, SrcRType=1"
    assert not p.statements[0].is_template and not p.is_sketch
    # a Block command keeps its strict syntax: a stray character is still one finding at its place
    with pytest.raises(ProgramError) as info:
        parse_program("addi R1, -5, ->R2\nB.DIM LB0=4 $", bundled_vocabulary, any_form=True)
    assert (info.value.kind, info.value.line, info.value.col) == ("character", 2, 13)
    # without any_form (contract examples, which may be prose) the head is an unknown command, as before
    with pytest.raises(ProgramError) as info:
        parse_program("addi R1, 5, ->R2", bundled_vocabulary)
    assert info.value.kind == "unknown-command"


def test_the_variant_spelling_parses(bundled_vocabulary: Vocabulary) -> None:
    p = parse_program("BSTART.TMOV FP16 [TMOV.L2S.INSERT form]; BSTART.TSTORE FP16 [tstore.spart]",
                      bundled_vocabulary)
    assert [s.fields.get("variant") for s in p.statements] == ["TMOV.L2S.INSERT", "TSTORE.SPART"]
    with pytest.raises(ProgramError) as info:
        parse_program("BSTART.TMOV FP16 [TMOV.L2S.INSERT form", bundled_vocabulary)
    assert "']' closing the variant" in info.value.message


def test_the_bundled_spec_names_the_missing_scalar_path(bundled_root: Path, tmp_path: Path) -> None:
    prog = tmp_path / "p.s"
    prog.write_text("addi zero, 5, ->R3\nBSTART.VEC TADD, FP16\nBSTOP\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", "--root", str(bundled_root), str(prog)], out=out, err=err) == 1
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and "line 1" in lines[0] and "does not define ExecuteScalarInstruction" in lines[0]
    assert "Traceback" not in err.getvalue()


# -- running on the corpus ----------------------------------------------------------------
@pytest.mark.corpus
@pytest.mark.parametrize("release", RELEASES)
def test_a_gpr_set_by_addi_feeds_a_block_and_reads_back(corpus_root: Path, release: str, tmp_path: Path) -> None:
    root = _root(corpus_root, release)
    es, vocabulary = _encodings(root)
    value = 1234
    lines = [_addi(es, 0, value, 5),                       # R5 = zero + 1234, before the Block
             "BSTART.VEC TADDS, S32", "B.DIM LB0=3", "B.DIM LB1=2", "B.DIM LB2=4",
             _addi(es, 5, 1, 6),                           # R6 = R5 + 1, inside the Block's ordering
             "B.IOR R5", "B.IOT T1, mask=0b0001, <last>, ->T<1>", "BSTOP"]
    program = parse_program("\n".join(lines), vocabulary, any_form=True)
    src = [[1, 2, 3], [-4, 100, 2147483647]]
    words = tuple(tuple(v & (1 << 64) - 1 for v in row) for row in src)
    tile = TileInput("T1", "S32", 8, 4, 2, 3, words)
    ex = executor_for(SpecGraph.build(load_spec(root)))
    run = ex.run(program, [tile])
    assert run.fault is None, run.fault and run.fault.describe()
    assert run.gprs == {"R5": value, "R6": value + 1}
    assert [s.entry for s in run.steps][0] == "ExecuteScalarInstruction" and run.steps[0].gprs == (5,)
    (out,) = run.outputs.values()
    for r in range(2):
        for c in range(3):
            want = (src[r][c] + value + (1 << 31)) % (1 << 32) - (1 << 31)  # S32 wraps
            got = out.words[r][c] & 0xFFFFFFFF
            assert (got - (1 << 32) if got >> 31 else got) == want, (r, c)
    # the same program as an example file's "program", through `specgen run`, with its expectation
    want_rows = [[(v + value + (1 << 31)) % (1 << 32) - (1 << 31) for v in row] for row in src]
    doc = {"program": lines, "tiles": {"T1": {"data_type": "S32", "rows": 8, "columns": 4, "valid_rows": 2,
                                              "valid_columns": 3, "values": src}},
           "expect": {"tiles": {"T0": {"values": want_rows}}}}
    f = tmp_path / "adds.json"
    f.write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", "--root", str(root), str(f)], out=out, err=err) == 0, err.getvalue()
    text = out.getvalue()
    assert "expectation met" in text and f"R5   = {value}  [0x{value:016x}]" in text
    assert f"R6   = {value + 1}" in text


@pytest.mark.corpus
def test_a_scalar_fault_is_the_spec_s_with_its_asl_line(corpus_root: Path, tmp_path: Path) -> None:
    """``setc.tgt`` outside a Block: 0.58.3's ScalarOperationApplicable refuses it (Fault_BundleControl)."""
    root = _root(corpus_root, RELEASES[0])
    es, _ = _encodings(root)
    (enc,) = forms_of(es, "setc.tgt")
    prog = tmp_path / "f.s"
    values = {f.name: 0 for f in enc.fields} | {n: 3 for n in shape_of(enc).positional}
    prog.write_text(_addi(es, 0, 5, 3) + "\n" + disassemble_form(enc, values) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["run", "--root", str(root), str(prog), "--format", "json"], out=out, err=err) == 1, err.getvalue()
    doc = json.loads(out.getvalue())
    assert doc["fault"]["name"] == "Fault_BundleControl" and doc["fault"]["line"] == 2
    assert doc["fault"]["asl_path"].startswith("asl/scalar/") and doc["fault"]["asl_line"] > 0
    assert doc["gprs"] == {"R3": {"value": 5, "word": "0x0000000000000005"}}


@pytest.mark.corpus
def test_an_unknown_mnemonic_is_one_finding_at_its_place(corpus_root: Path) -> None:
    root = str(_root(corpus_root, RELEASES[0]))
    err = io.StringIO()
    assert main(["asm", "--root", root, "BSTART.VEC TADD, S32\n  adi R1, 2, ->R3"], out=io.StringIO(), err=err) == 1
    (line,) = err.getvalue().strip().splitlines()
    assert line.startswith("<program>:2:3: ") and "unknown command 'adi'" in line
    assert "ADDI" in line and "B.IOT" in line and "scalar form" in line


# -- the variant spelling -----------------------------------------------------------------
def _variant_rows(es: EncodingSet) -> list[Encoding]:
    return [e for e in es if e.kind == "command-form" and e.variant]


@pytest.mark.corpus
@pytest.mark.parametrize("release", RELEASES)
def test_every_variant_row_round_trips(corpus_root: Path, release: str) -> None:
    root = _root(corpus_root, release)
    es, vocabulary = _encodings(root)
    rows = _variant_rows(es)
    assert rows, "the catalog's encoding_variants rows"
    names = lambda c: vocabulary.datatype_of_code(c).name if vocabulary.datatype_of_code(c) else str(c)  # noqa: E731
    for e in rows:
        (dt,) = [f for f in e.free_fields]
        for code in sorted({et.code for et in vocabulary.datatypes} & set(range(1 << dt.width)))[:6]:
            word = e.encode({dt.name: code})
            m = primary_matches(decode(es, word, e.width))[0]
            text = disassemble(m.encoding, m.values, register_name, names, None, es)
            assert text == disassemble(e, e.decode_fields(word), register_name, names)
            assert text.endswith(f" [{e.variant} form]") and text.startswith(e.mnemonic + " "), text
            (st,) = parse_program(text, vocabulary).statements
            again = assemble_command(es, st.mnemonic, st.fields)
            assert (again.word, again.encoding.form_id) == (word, e.form_id), text
    for e in rows:  # `specgen decode` writes the word back in the same spelling
        word = e.encode({e.free_fields[0].name: vocabulary.datatypes[0].code})
        out = io.StringIO()
        assert main(["decode", "--root", str(root), f"0x{word:08X}"], out=out, err=io.StringIO()) == 0
        assert f"  block: {e.mnemonic} {vocabulary.datatypes[0].name} [{e.variant} form]\n" in out.getvalue()
    out = io.StringIO()
    e = rows[0]
    code = vocabulary.datatypes[0].code
    assert main(["asm", "--root", str(root), f"{e.mnemonic} {vocabulary.datatypes[0].name} [{e.variant} form]"],
                out=out, err=io.StringIO()) == 0
    assert out.getvalue().startswith(f"0x{e.encode({e.free_fields[0].name: code}):08X} ")


@pytest.mark.corpus
def test_the_brief_s_insert_word(corpus_root: Path) -> None:
    """0.58.3: BSTART.TMOV with TMOV.L2S.INSERT is match 0x00911181 with the DataType in bits 27..31."""
    es, vocabulary = _encodings(_root(corpus_root, RELEASES[0]))
    u8 = vocabulary.datatype("U8")
    assert u8 is not None
    (st,) = parse_program("BSTART.TMOV U8 [TMOV.L2S.INSERT form]", vocabulary).statements
    assert assemble_command(es, st.mnemonic, st.fields).word == 0x00911181 | u8.code << 27


@pytest.mark.corpus
def test_an_unknown_variant_lists_the_spec_s(corpus_root: Path) -> None:
    es, vocabulary = _encodings(_root(corpus_root, RELEASES[0]))
    for carrier in dict.fromkeys(e.mnemonic for e in _variant_rows(es)):
        (st,) = parse_program(f"{carrier} U8 [NO.SUCH form]", vocabulary).statements
        with pytest.raises(AsmError) as info:
            assemble_command(es, st.mnemonic, st.fields)
        known = variants_of(es, carrier)
        assert known and all(f"[{v} form]" in str(info.value) for v in known)
        assert "NO.SUCH" in str(info.value)


@pytest.mark.corpus
def test_a_checked_example_file_may_hold_scalar_commands(corpus_root: Path, tmp_path: Path) -> None:
    """An example file beside a corpus release: its scalar lines run, and the page shows their words."""
    from specgen.examples.results import example_results

    tree = _root(corpus_root, RELEASES[0])
    es, _ = _encodings(tree)
    link = tmp_path / tree.name
    link.symlink_to(tree, target_is_directory=True)
    rel = "tile/tile-scalar-and-immediate/arithmetic/TADDS/scalar-gpr.json"
    folder = tmp_path / f"{tree.name}-examples" / rel
    folder.parent.mkdir(parents=True)
    src = [[1, 2, 3], [-4, 100, 2147483647]]
    want = [[(v + 40 + (1 << 31)) % (1 << 32) - (1 << 31) for v in row] for row in src]
    folder.write_text(json.dumps({
        "id": "PTO-EX-TADDS-SCALAR-GPR", "instruction": "TADDS", "summary": "the scalar comes from addi",
        "program": [_addi(es, 0, 40, 5), "BSTART.VEC TADDS, S32", "B.DIM LB0=3", "B.DIM LB1=2", "B.DIM LB2=4",
                    "B.IOR R5", "B.IOT T1, mask=0b0001, <last>, ->T<1>", "BSTOP"],
        "tiles": {"T1": {"data_type": "S32", "rows": 8, "columns": 4, "valid_rows": 2, "valid_columns": 3,
                         "values": src}},
        "expect": {"tiles": {"T0": {"values": want}}}}))
    graph = SpecGraph.build(load_spec(link))
    (res,) = [r for r in example_results(graph).get("TADDS", []) if r.kind == "checked"]
    assert res.verified and not res.error and not res.mismatches, (res.error, res.mismatches)
    assert res.lines[0].entry == "ExecuteScalarInstruction" and res.lines[0].word.startswith("0x")
