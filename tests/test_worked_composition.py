"""Worked examples: reading a block composition into a template, and the programs generated from it."""

from __future__ import annotations

import pytest

from specgen.program.reader import parse_program
from specgen.program.syntax import ProgramError
from specgen.vocabulary import Vocabulary
from specgen.worked.composition import is_block_program, read_template
from specgen.worked.seeds import edge_values, seed_of, source_words

TMUL = ["BSTART.VEC TMUL, DataType", "B.DATR PadValue (optional)", "B.DIM LB0=ValidCol",
        "B.DIM LB1=ValidRow (optional)", "B.DIM LB2=Col (optional)",
        "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"]
TFMA = ["BSTART.VEC TFMA, DataType", "B.DIM LB0=ValidCol", "B.IOT SrcLeft, SrcRight, mask=PE_MASK",
        "B.IOT SrcAddend, mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"]
NAMES = ("FP64", "FP32", "FP16", "S32", "U32", "S8", "U8", "U16", "S16")


def test_binary_composition_reads_every_part() -> None:
    t = read_template(TMUL, NAMES)
    assert t.fillable and (t.spelling, t.operation) == ("BSTART.VEC", "TMUL")
    assert t.datr == "pad" and t.loop_bounds == {0, 1, 2}
    assert [(b.sources, b.destination, b.last) for b in t.bindings] == [(2, True, True)]


def test_two_bindings_and_listed_types() -> None:
    t = read_template(TFMA, NAMES)
    assert [(b.sources, b.destination, b.last) for b in t.bindings] == [(2, False, False), (1, True, True)]
    t = read_template(["BSTART.SFU TCI, S32|S16|U32|U16", "B.DIM LB0=ValidCol",
                       "B.IOT mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"], NAMES)
    assert t.listed_types == ["S32", "S16", "U32", "U16"] and t.bindings[0].sources == 0


@pytest.mark.parametrize("lines, key, fragment", [
    (["BSTART.SFU THISTOGRAM, U16|U32", "B.DATR DstDataType=U32, ByteId=0..3 (mandatory)",
      "B.IOT S, F, mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"], "datr", "ByteId"),
    (["BSTART.VEC TX, DataType", "B.IOS S1", "B.IOT T, mask=PE_MASK, <last>, ->T<1>", "BSTOP"], "command", "B.IOS"),
])
def test_what_cannot_be_filled_says_exactly_why(lines: list[str], key: str, fragment: str) -> None:
    t = read_template(lines, NAMES)
    assert not t.fillable
    assert t.blockers[0].key == key and fragment in t.blockers[0].english()


def test_an_optional_scalar_operand_is_left_out_not_a_blocker() -> None:
    t = read_template(["BSTART.VEC TADDS, DataType", "B.DIM LB0=ValidCol",
                       "B.IOT SrcTile, mask=PE_MASK, <last>, ->DstTile<TSize>",
                       "B.IOR ScalarGPR, zero, zero, ->zero (optional)", "BSTOP"], NAMES)
    assert t.fillable and t.omitted == ["B.IOR ScalarGPR, zero, zero, ->zero (optional)"]


def test_a_listed_b_ior_is_left_to_the_asl_with_its_reason_kept() -> None:
    # 0.58.0 lists a bare B.IOR for the tile-scalar family; its ASL completes a one-scalar Block without it
    t = read_template(["BSTART.SFU TEXTRACT, DataType", "B.DIM LB0", "B.IOT", "B.IOR", "BSTOP"], NAMES)
    assert t.fillable and t.scalar_lines == ["B.IOR"] and not t.omitted
    reason = t.scalar_reason
    assert reason is not None and reason.key == "ior-faulted" and "'B.IOR'" in reason.english()
    assert read_template(["BSTART.VEC TX, DataType", "B.IOT T, mask=PE_MASK, <last>, ->T<1>", "BSTOP"],
                         NAMES).scalar_reason is None


def test_prose_is_not_a_block_program() -> None:
    assert not is_block_program(["none"])
    assert not is_block_program(["BSTART.STD retires any active predecessor block, then opens one block."])
    assert is_block_program(TMUL)


@pytest.mark.parametrize("text, fields", [
    ("B.IOT T1, mask=0b0001, <last>, ->T<1>", {"source_left": 1, "last": True, "pe_mask": 1,
                                                "destination_hand": 0, "size_code": 1}),
    ("B.IOT mask=0b0001, <last>, ->T<1>", {"last": True, "pe_mask": 1, "destination_hand": 0, "size_code": 1}),
    ("B.IOT T1, T2, mask=0b0001", {"source_left": 1, "source_right": 2, "last": False, "pe_mask": 1}),
])
def test_every_b_iot_form_parses(bundled_vocabulary: Vocabulary, text: str, fields: dict[str, object]) -> None:
    (st,) = parse_program(text, bundled_vocabulary).statements
    assert st.fields == fields


def test_a_binding_without_sources_still_needs_its_destination(bundled_vocabulary: Vocabulary) -> None:
    with pytest.raises(ProgramError) as e:
        parse_program("B.IOT mask=0b0001, <last>", bundled_vocabulary)
    assert e.value.kind == "missing-operand"
    # a last binding of sources only is the spec's form for a Block that writes memory (MSCATTER)
    (st,) = parse_program("B.IOT T1, T2, mask=0b0001, <last>", bundled_vocabulary).statements
    assert st.fields == {"source_left": 1, "source_right": 2, "last": True, "pe_mask": 1}


def test_seeded_inputs_are_deterministic_and_start_with_the_edges(bundled_vocabulary: Vocabulary) -> None:
    import random
    s32 = bundled_vocabulary.datatype("S32")
    assert s32 is not None
    a = source_words(s32, 2, 3, 0, random.Random(seed_of("TMUL", "S32")), edges=True)
    b = source_words(s32, 2, 3, 0, random.Random(seed_of("TMUL", "S32")), edges=True)
    assert a == b
    assert [w for row in a for w in row][:4] == [0x7FFFFFFF, 0xFFFFFFFF80000000, 0, (1 << 64) - 1]
    fp32 = bundled_vocabulary.datatype("FP32")
    assert fp32 is not None and "nan" in edge_values(fp32)
    tame = source_words(s32, 2, 3, 1, random.Random(1), edges=True)  # a second source: small, never zero
    assert all(w != 0 for row in tame for w in row)


def test_a_record_without_tile_sources_gets_a_destination_only_binding() -> None:
    # 0.58.0 TEXPANDS: a bare B.IOT and a catalog record whose only non-destination operand is scalar0
    t = read_template(["BSTART.VEC TEXPANDS, DataType", "B.DIM LB0", "B.IOT", "B.IOR", "BSTOP"], NAMES)
    t.infer_sources(0)
    assert [b.sources for b in t.bindings] == [0]
    u = read_template(["BSTART.VEC TX, DataType", "B.DIM LB0", "B.IOT", "BSTOP"], NAMES)
    u.infer_sources(-1)  # no catalog record says: the binding stays unspecified
    assert [b.sources for b in u.bindings] == [None]


def test_a_matrix_composition_reads_its_cube_sources_dimensions_and_fpatr() -> None:
    t = read_template([
        "BSTART.TGEMV AType", "B.DATR BType, RMode, Sat (optional; BType defaults to AType)",
        "B.FPATR PreQuantMode, ReluMode, GroupNCode, RowMaxEn, GroupMaxEn, RowMaxInit, MaxAbsEn, TransA, TransB "
        "(exactly one)",
        "B.DIM LB0 M (optional, default 1; TGEMV permits only M=1)", "B.DIM LB1 N (optional, default 1)",
        "B.DIM LB2 K (optional, default 1)",
        "B.IOS complete right or both matrix operand groups (optional; common nonzero mask)",
        "B.IOT ordered Local mathematical sources: A CUBE_M16/M32 primary, optional A scale, B CUBE_N8 primary, 1xN Bias",
        "B.IOT D matching A's CUBE_M16/M32 layout, optional RowMaxOut, optional GroupMaxOut destinations",
        "B.IOT/B.IOR postprocess operands selected by B.FPATR", "BSTOP or the next BSTART completion boundary"], NAMES)
    assert t.fillable and (t.spelling, t.operation) == ("BSTART.TGEMV", "")
    assert t.fpatr == 9 and t.dims == {0: "M", 1: "N", 2: "K"} and t.fixed == {"M": 1}
    assert t.matrix == [("A", "CUBE_M16", "M", "K"), ("B", "CUBE_N8", "K", "N"), ("Bias", "", "1", "N")]
    assert len(t.bindings) == 1 and t.bindings[0].sources == 3 and t.bindings[0].destination
    assert any("B.IOS" in x for x in t.omitted) and any("postprocess" in x for x in t.omitted)
