"""``specgen asm`` is the exact inverse of ``specgen decode``, on the bundled spec and the corpus.

For every encodable form the block syntax spells (tile operations under their
BSTART spelling, BSTART.TEPL, the BSTART spellings that name their operation (BSTART.TMATMUL,
BSTART.MGATHER.MASK, …), B.DIM, B.DATR, B.FPATR, the two-source B.IOT form with a destination, BSTOP), random legal field values are encoded, the word is decoded back to the
same form and values, and the decoded command, written out and assembled
again, gives the same word.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.asl import interpreter_for
from specgen.cli import main
from specgen.encoding.asm import AsmError, assemble_command, candidates, disassemble, slots_of
from specgen.encoding.decode import decode, primary_matches, specializes
from specgen.encoding.from_spec import spec_encodings
from specgen.encoding.model import Encoding, EncodingSet
from specgen.executor.executor import register_name
from specgen.executor.words import pe_mode_table
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.program.syntax import named_bstart, spells
from specgen.vocabulary import Vocabulary, vocabulary_of

Setup = tuple[EncodingSet, Vocabulary, dict[int, int], list[Encoding]]
_SETUPS: dict[Path, Setup] = {}


def _setup(root: Path) -> Setup:
    if root not in _SETUPS:
        spec = load_spec(root)
        es = spec_encodings(SpecGraph.build(spec))
        assert es is not None
        forms = [e for e in es if e.kind in ("tile-operation", "command-form")
                 and spells(e.assembly.split(None, 1)[0]) and _spelled(e, es)]
        _SETUPS[root] = (es, vocabulary_of(spec), pe_mode_table(interpreter_for(spec)), forms)
    return _SETUPS[root]


def _spelled(e: Encoding, es: EncodingSet) -> bool:
    """Whether the block syntax spells this form (B.IOT: two sources and a destination)."""
    if e.mnemonic == "B.IOR":  # its template names no field; the form's fields are read in order
        return True
    try:
        slots = slots_of(e)
    except AsmError:
        return False
    head = e.assembly.split(None, 1)[0]
    if named_bstart(head):  # BSTART.TMATMUL DataType: the one field is the DataType
        # the catalog's sub-forms of one spelling (BSTART.TMOV's TMOV.L2S.INSERT, …) share its text, so the
        # text names the first form only; the sub-operations' own spellings have no syntax yet
        return [n.lower() for n in slots.plain] == ["datatype"] and candidates(es, head, {})[0] is e
    return e.mnemonic != "B.IOT" or (len(slots.plain) == 2 and slots.mask is not None
                                       and slots.dest is not None)


def _values(draw: st.DrawFn, e: Encoding, vocabulary: Vocabulary) -> dict[str, int]:
    slots = slots_of(e) if e.mnemonic != "B.IOR" else None
    out: dict[str, int] = {}
    for f in e.free_fields:
        cons = e.constraints_for(f.name)
        one_of = [c for c in cons if c.operator == "one-of"]
        if e.mnemonic == "B.DIM" and slots is not None and f.name == slots.plain[0]:
            v = 0  # the block syntax names no general-purpose register: RegSrc is 'zero'
        elif one_of:
            choices = [v for v in one_of[0].values if all(c.allows(v) for c in cons)]
            v = draw(st.sampled_from(choices))
        else:
            hi = (1 << f.width) - 1
            v = draw(st.integers(0, hi).filter(lambda x, cs=cons: all(c.allows(x) for c in cs)))
        out[f.name] = v
    return out


def _roundtrip(root: Path, data: st.DataObject) -> None:
    es, vocabulary, pe_modes, forms = _setup(root)
    e = data.draw(st.sampled_from(forms))
    values = _values(data.draw, e, vocabulary)
    word = e.encode(values)
    found = primary_matches(decode(es, word, e.width))
    assert found, f"{e.form_id}: {word:#x} decodes as nothing"
    m = found[0]
    assert m.encoding is e or specializes(m.encoding, e), (e.form_id, m.encoding.form_id)
    assert {k: m.values[k] for k in values} == values
    pe_masks = {mode: mask for mask, mode in pe_modes.items()}

    def dtype(code: int) -> str:
        et = vocabulary.datatype_of_code(code)
        return et.name if et is not None else str(code)

    text = disassemble(m.encoding, m.values, register_name, dtype, pe_masks)
    program = parse_program(text, vocabulary)
    (stmt,) = program.statements
    again = assemble_command(es, stmt.mnemonic, stmt.fields, pe_modes)
    assert again.word == word, (text, hex(again.word), hex(word))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_asm_inverts_decode_bundled(bundled_root: Path, data: st.DataObject) -> None:
    _roundtrip(bundled_root, data)


@pytest.mark.corpus
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_asm_inverts_decode_corpus(corpus_root: Path, data: st.DataObject) -> None:
    _roundtrip(corpus_root, data)


@pytest.mark.corpus
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_asm_inverts_decode_older_release(corpus_root: Path, data: st.DataObject) -> None:
    """0.58.0 encodes the PE mask itself (field PE_MASK), not a PEMode code."""
    older = corpus_root.parent / "pto-spec-0.58.0"
    if not older.is_dir():
        pytest.skip(f"{older} not found")
    _roundtrip(older, data)


def test_every_block_command_of_the_syntax_has_forms(bundled_root: Path) -> None:
    """The sampled forms cover each command the syntax spells, so the property is not vacuous."""
    forms = _setup(bundled_root)[3]
    heads = {e.assembly.split(None, 1)[0] for e in forms}
    assert {"BSTART.VEC", "BSTART.TEPL", "B.DIM", "B.IOT", "BSTOP", "B.DATR"} <= heads


def test_cli_words_and_errors(bundled_root: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["asm", "--root", str(bundled_root), "BSTART.VEC TADD, FP16; B.DIM LB0=4; "
                 "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP"], out=out, err=err)
    assert code == 0, err.getvalue()
    lines = [ln for ln in out.getvalue().splitlines() if not ln.startswith(" ")]
    assert [ln.split()[0] for ln in lines][-1] == "0x00000001"
    assert "DataType = 4 (FP16)" in out.getvalue()
    for line in lines:  # every word decodes to the command it was assembled from
        word = line.split()[0]
        dec = io.StringIO()
        assert main(["decode", "--root", str(bundled_root), word], out=dec, err=err) == 0
        assert line.split(" = ", 1)[1].split()[0] in dec.getvalue()
    bad = io.StringIO()
    assert main(["asm", "--root", str(bundled_root), "BSTART.VEC TNOPE, FP16"], out=io.StringIO(), err=bad) == 1
    assert "<program>:1:1:" in bad.getvalue() and "no encodable form" in bad.getvalue()


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_b_ior_assembles_from_the_catalog_fields(corpus_root: Path, release: str) -> None:
    root = corpus_root.parent / release
    es, vocabulary, pe_modes, forms = _setup(root)
    assert any(e.mnemonic == "B.IOR" for e in forms)  # the round-trip tests draw it too

    def word(text: str) -> int:
        (stmt,) = parse_program(text, vocabulary).statements
        return assemble_command(es, stmt.mnemonic, stmt.fields, pe_modes).word

    # RegDst bits 7..11, RegSrc0 15..19, RegSrc1 20..24, RegSrc2 27..31 (command-forms.json), match 0x13
    assert word("B.IOR R5") == 0x13 | 5 << 15
    assert word("B.IOR R5, R6, ->R7") == 0x13 | 5 << 15 | 6 << 20 | 7 << 7
    assert parse_program("B.IOR a0", vocabulary).is_sketch  # an ABI name: the spec gives it no code
    assert word("B.IOR zero, zero, zero, ->zero") == word("B.IOR") == 0x13
    with pytest.raises(AsmError, match="RegSrc0=31 is not allowed"):
        word("B.IOR R31")  # the catalog admits the 24 architectural GPRs only


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_named_bstart_spellings_and_fpatr(corpus_root: Path, release: str) -> None:
    """``BSTART.TMATMUL FP16`` and ``B.FPATR …`` assemble to the words the spec's own AVS tests build by hand."""
    root = corpus_root.parent / release
    es, vocabulary, pe_modes, forms = _setup(root)
    heads = {e.assembly.split(None, 1)[0] for e in forms}
    assert {"BSTART.TMATMUL", "BSTART.TGEMV", "BSTART.MGATHER", "BSTART.MSCATTER", "BSTART.MGATHER.MASK"} <= heads

    def word(text: str) -> int:
        (stmt,) = parse_program(text, vocabulary).statements
        return assemble_command(es, stmt.mnemonic, stmt.fields, pe_modes).word

    # block-state-tmatmul-cube-destination-005.asl: 0x00031181 with DataType (bits 31:27) = 4 (FP16)
    assert word("BSTART.TMATMUL FP16") == 0x00031181 | 4 << 27
    # block-exec-bstart-mgather-gather-001.asl: GatherStart = 0x00411181 with DataType 27 (U8)
    assert word("BSTART.MGATHER U8") == 0x00411181 | 27 << 27
    with pytest.raises(AsmError, match="no encodable form"):
        word("BSTART.NOSUCH FP16")
    if release == "pto-spec-0.58.3":
        assert "B.FPATR" in heads
        # B.FPATR: match 0x2023 (Func=2, Opc1=2, Opcode=1, W=1 fixed); ReluMode bits 27:25, TransA bit 19
        # (command-forms.json b_fpatr_32_30c307e06d4a)
        assert word("B.FPATR 0, 0, 0, 0, 0, 0, 0, 0, 0") == 0x2023
        fpatr = next(e for e in es.by_mnemonic("B.FPATR") if e.kind == "command-form")
        relu, trans_a = fpatr.field("ReluMode"), fpatr.field("TransA")
        assert relu is not None and trans_a is not None
        assert word("B.FPATR 0, 2, 0, 0, 0, 0, 0, 1, 0") == 0x2023 | relu.insert(2) | trans_a.insert(1)
        with pytest.raises(AsmError, match="takes 9 operands"):
            word("B.FPATR 0, 0")
