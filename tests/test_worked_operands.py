"""Worked examples of the instructions the generic template could not instantiate (0.58.3).

One example per mechanism of ``specgen.worked.operands``/``instantiate``, each result checked against
values computed here from the inputs (not copied from the output): a transposed source (TTRANS), sources
splitting the destination's columns (TCONCAT), a 1 x 1 window at the B.DIM-carried offsets (TEXTRACT), an index operand (TGATHER), a predicate made by a TCMP
Block (TSEL), B.IOR slots read from the ASL (TCI: start and direction), sorted single-row sources and
no B.DIM (TMRGSORT), a B.DATR whose fields come from the composition and the ASL (TDEQUANT), and an
operand whose DataType the catalog role names with the sketch's destination SizeCode (THISTOGRAM).
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator, WorkedSuite
from tilewords import valid_words as _words

MNEMONICS = ("TTRANS", "TCONCAT", "TGATHER", "TSEL", "TCI", "TMRGSORT", "TDEQUANT", "THISTOGRAM", "TEXTRACT",
             "TIMG2COL")

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.xdist_group("oracle-elementwise")]


@pytest.fixture(scope="module")
def suite(corpus_root: Path) -> WorkedSuite:
    return Generator(SpecGraph.build(load_spec(corpus_root))).run(only=frozenset(MNEMONICS))


def _s32(w: int) -> int:
    w &= 0xFFFFFFFF
    return w - (1 << 32) if w >> 31 else w


def _f16(w: int) -> float:
    return struct.unpack("<e", (w & 0xFFFF).to_bytes(2, "little"))[0]


def _f32(w: int) -> float:
    return struct.unpack("<f", (w & 0xFFFFFFFF).to_bytes(4, "little"))[0]


def _example(suite: WorkedSuite, mnemonic: str):  # type: ignore[no-untyped-def]
    entry = suite.entries[mnemonic]
    assert entry.reason is None and entry.examples, (mnemonic, entry.reason, entry.attempts)
    return entry, entry.examples[0]


def test_ttrans_source_is_the_transpose_of_the_destination(suite: WorkedSuite) -> None:
    entry, w = _example(suite, "TTRANS")
    assert w.relation == "transposed"
    (src,), (out,) = w.result.inputs, w.result.outputs
    assert (src.valid_rows, src.valid_columns) == (out.valid_columns, out.valid_rows) == (3, 2)
    s, o = _words(src), _words(out)
    assert o == [[s[j][i] for j in range(3)] for i in range(2)]
    assert _s32(s[0][0]) == 2**31 - 1 and _s32(s[0][1]) == -(2**31)  # the edge cases are in the source
    # the same-shape attempts faulted in the operation's legality predicate first, and the page lists them
    assert entry.attempts and all("Fault_TileLegality" in a.problem for a in entry.attempts)


def test_tconcat_sources_split_the_destination_columns(suite: WorkedSuite) -> None:
    _, w = _example(suite, "TCONCAT")
    assert w.relation == "split-columns"
    left, right = w.result.inputs
    (out,) = w.result.outputs
    assert left.valid_columns + right.valid_columns == out.valid_columns == 3
    lw, rw = _words(left), _words(right)
    assert _words(out) == [lw[r] + rw[r] for r in range(2)]


def test_textract_window_takes_the_element_at_the_b_dim_offsets(suite: WorkedSuite) -> None:
    entry, w = _example(suite, "TEXTRACT")
    assert w.relation == "window" and entry.defaulted == ["B.IOR"]  # the ASL reads no GPR for the offsets
    lb = {int(k): int(v) for k, v in re.findall(r"B\.DIM LB(\d)=(\d+)", w.result.program)}
    (src,), (out,) = w.result.inputs, w.result.outputs
    assert (out.valid_rows, out.valid_columns) == (lb[1], lb[0]) == (1, 1)
    # 0.58.3's Block operands: natural0 (row offset) = LB0, natural1 (column offset) = LB1
    assert _words(out) == [[_words(src)[lb[0]][lb[1]]]]
    assert _words(src)[1][1] not in (_words(src)[0][0], _words(src)[0][1])  # not an element at offset 0


def test_tgather_index_tile_is_in_range_and_selects_rows(suite: WorkedSuite) -> None:
    _, w = _example(suite, "TGATHER")
    values, indices = w.result.inputs
    (out,) = w.result.outputs
    idx = _words(indices)
    assert all(0 <= i < values.valid_rows for row in idx for i in row)
    for c in range(indices.valid_columns):  # distinct rows in every column (legal for a scatter too)
        assert len({idx[r][c] for r in range(indices.valid_rows)}) == indices.valid_rows
    v = _words(values)
    assert _words(out) == [[v[idx[r][c]][c] for c in range(out.valid_columns)] for r in range(out.valid_rows)]
    assert any(idx[r][c] != r for r in range(2) for c in range(3))  # not the identity: a row really moves


def test_tsel_predicate_is_made_by_a_tcmp_block(suite: WorkedSuite) -> None:
    _, w = _example(suite, "TSEL")
    assert w.producer == "TCMP"
    prog = w.result.program
    tcmp, tsel = prog.split("BSTOP", 1)
    (left, right), = re.findall(r"B\.IOT (T\d+), (T\d+), mask", tcmp)
    (pred, true), = re.findall(r"B\.IOT (T\d+), (T\d+), mask=0b0001\n", tsel)
    [false] = re.findall(r"B\.IOT (T\d+), mask=0b0001, <last>", tsel)
    tiles = {t.register: _words(t) for t in w.result.inputs}
    assert pred not in tiles  # the predicate is the TCMP Block's destination, not an input
    # no B.DATR: the comparison field is code 0, EQ
    eq = [[tiles[left][r][c] == tiles[right][r][c] for c in range(3)] for r in range(2)]
    assert {x for row in eq for x in row} == {True, False}  # both selections show
    want = [[tiles[true][r][c] if eq[r][c] else tiles[false][r][c] for c in range(3)] for r in range(2)]
    (out,) = [t for t in w.result.outputs if t.data_type == "S32"]
    assert _words(out) == want


def test_tci_reads_start_and_direction_from_the_b_ior_slots_the_asl_names(suite: WorkedSuite) -> None:
    entry, w = _example(suite, "TCI")
    assert "B.IOR R5, R6" in w.result.program and "B.DIM LB1=1" in w.result.program  # LB1 must equal 1
    (start_reg, start), (flag_reg, flag) = w.scalars
    assert (start_reg, flag_reg) == ("R5", "R6") and flag.split()[0] == "1"  # flag0: descending
    s = int(start.split()[0])
    (out,) = w.result.outputs
    assert _words(out) == [[s - j for j in range(out.valid_columns)]]


def test_tmrgsort_merges_two_sorted_rows(suite: WorkedSuite) -> None:
    _, w = _example(suite, "TMRGSORT")
    assert w.relation == "sorted-rows" and "B.DIM" not in w.result.program
    left, right = w.result.inputs
    (out,) = w.result.outputs
    lv, rv = [_f16(x) for x in _words(left)[0]], [_f16(x) for x in _words(right)[0]]
    assert lv == sorted(lv, reverse=True) and rv == sorted(rv, reverse=True)  # R5 = 1: descending
    assert [_f16(x) for x in _words(out)[0]] == sorted(lv + rv, reverse=True)
    assert 65504.0 in lv and -65504.0 in lv  # FP16's largest and lowest among the edges


def test_tdequant_b_datr_fields_come_from_the_composition_and_the_asl(suite: WorkedSuite) -> None:
    _, w = _example(suite, "TDEQUANT")
    assert w.datr == "B.DATR {0, FP32, 0, 0, 0, 0, 0}" and w.datr in w.result.program
    (scale_reg, scale), (zp_reg, zp) = w.scalars
    sc = _f32(int(scale.split("(")[1].rstrip(")"), 16))
    z = int(zp.split()[0])
    (src,), (out,) = w.result.inputs, w.result.outputs
    assert out.data_type == "FP32" and src.data_type == "S8"
    for r, row in enumerate(_words(src)):
        for c, x in enumerate(row):
            v = (x & 0xFF) - (0x100 if x & 0x80 else 0)
            assert _f32(_words(out)[r][c]) == (v - z) * sc, (r, c)


def test_thistogram_filter_type_comes_from_the_catalog_role_and_counts_are_cumulative(suite: WorkedSuite) -> None:
    _, w = _example(suite, "THISTOGRAM")
    assert w.datr == "B.DATR {0, U32, 0, 0, 0, 0, 0}" and "->T<4>" in w.result.program  # the sketch's SizeCode
    src, filt = w.result.inputs
    (out,) = w.result.outputs
    assert (src.data_type, filt.data_type, out.data_type) == ("U16", "U8", "U32")
    assert out.valid_columns == 256 and out.valid_rows == src.valid_rows
    for r, row in enumerate(_words(src)):  # selected byte 0 of U16 elements whose byte 1 equals the filter
        f = _words(filt)[r][0] & 0xFF
        counts = [0] * 256
        for x in row:
            if (x >> 8) & 0xFF == f:
                counts[x & 0xFF] += 1
        want = [sum(counts[:b + 1]) for b in range(256)]
        assert _words(out)[r] == want and want[-1] > 0


def test_timg2col_keeps_a_reason_with_every_attempt(suite: WorkedSuite) -> None:
    entry = suite.entries["TIMG2COL"]
    assert not entry.examples and entry.reason is not None
    assert entry.attempts and all("Fault_" in a.problem and ".asl:" in a.problem for a in entry.attempts)
