"""What the pages show of the last faulting worked examples (0.58.3; issue 16 item 3).

A predicate Tile reads back one bit an element through the spec's own accessors (TSEL's predicate, made by
a TCMP Block, is compared with the comparison computed here from the TCMP sources), and every destination a
commit allocates is read back (TSORT: the sorted values and the U32 index Tile, checked against a sort done
here of the source).
"""

from __future__ import annotations

import math
import re
import struct
from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator, WorkedSuite
from specgen.worked.operands import destination_needs
from tilewords import valid_words as _words

MNEMONICS = ("TSEL", "TSORT", "TIMG2COL")



@pytest.fixture(scope="module")
def suite(corpus_root: Path) -> WorkedSuite:
    return Generator(SpecGraph.build(load_spec(corpus_root))).run(only=frozenset(MNEMONICS))


def _f32(w: int) -> float:
    return struct.unpack("<f", (w & 0xFFFFFFFF).to_bytes(4, "little"))[0]


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
def test_predicate_tile_reads_one_bit_per_element(suite: WorkedSuite) -> None:
    w = suite.entries["TSEL"].examples[0]
    tcmp = w.result.program.split("BSTOP", 1)[0]
    (left, right), = re.findall(r"B\.IOT (T\d+), (T\d+), mask", tcmp)
    tiles = {t.register: _words(t) for t in w.result.inputs}
    preds = [t for t in w.result.outputs if t.predicate]
    assert len(preds) == 1
    pred = preds[0]
    # the predicate has the shape of the compared Tiles, one element a bit, and reads 1 where they are equal
    assert (pred.valid_rows, pred.valid_columns) == (2, 3)
    want = [[int(tiles[left][r][c] == tiles[right][r][c]) for c in range(3)] for r in range(2)]
    assert _words(pred) == want
    assert [row[:3] for row in pred.values[:2]] == [[str(x) for x in row] for row in want]
    assert all(pred.defined[r][c] for r in range(2) for c in range(3))
    assert {x for row in want for x in row} == {0, 1}


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
def test_every_destination_of_a_two_destination_block_is_read_back(suite: WorkedSuite) -> None:
    w = suite.entries["TSORT"].examples[0]
    (src,) = w.result.inputs
    outs = {t.data_type: t for t in w.result.outputs}
    assert len(w.result.outputs) == 2 and "U32" in outs, [t.data_type for t in w.result.outputs]
    # the program table names both registers the BSTOP allocated
    (stop,) = [x for x in w.result.lines if x.destination]
    assert [stop.destination, *stop.more] == [t.register for t in w.result.outputs]
    values, index = outs[src.data_type], outs["U32"]
    assert (index.valid_rows, index.valid_columns) == (values.valid_rows, values.valid_columns)
    # the page's shape is the value destination's
    assert (w.valid_rows, w.valid_columns) == (values.valid_rows, values.valid_columns)
    descending = "B.IOR" in w.result.program and any(v.split()[0] == "1" for _, v in w.scalars)
    for r, row in enumerate(_words(src)):
        xs = [_f32(x) for x in row]
        idx = _words(index)[r]
        assert sorted(idx) == list(range(len(xs)))  # a permutation of the row's columns
        got = [_f32(v) for v in _words(values)[r]]
        # each value is the source element its index names (bit for bit, so a NaN compares too)
        assert _words(values)[r] == [row[i] & 0xFFFFFFFF for i in idx]
        ordered = [x for x in got if not math.isnan(x)]
        assert ordered == sorted(ordered, reverse=descending)


@pytest.fixture(scope="module")
def suite_058(corpus_root: Path) -> WorkedSuite:
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        pytest.skip(f"no 0.58.0 corpus at {root}")
    return Generator(SpecGraph.build(load_spec(root))).run(only=frozenset({"THISTOGRAM", "TIMG2COL", "TINSERT", "TSCATTER"}))


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
def test_thistogram_058_gets_the_destination_width_its_legality_names(suite_058: WorkedSuite) -> None:
    """0.58.0's predicate rejects ``valid_columns < 256`` and names U16/U32 sources: a 256-bin histogram."""
    entry = suite_058.entries["THISTOGRAM"]
    assert entry.reason is None and entry.examples, (entry.reason, entry.attempts)
    w = entry.examples[0]
    assert w.relation == "wide" and w.data_type in ("U16", "U32")
    assert "B.DIM LB0=256" in w.result.program and "B.DIM LB2=256" in w.result.program
    (dst,) = w.result.outputs
    src, idx = w.result.inputs
    assert (dst.valid_rows, dst.valid_columns) == (src.valid_rows, 256)
    # U16, selected byte 0 (the all-zero B.DATR): a row counts the values whose high byte equals the row's
    # first index element, binned by their low byte; the destination holds the running total over the bins
    assert w.data_type == "U16" and "B.DATR {0, 0, 0, 0, 0, 0, 0}" in w.result.program
    for r, row in enumerate(_words(src)):
        key = int(idx.words[r][0], 16) & 0xFF
        counts = [0] * 256
        for v in row:
            if (v >> 8) & 0xFF == key:
                counts[v & 0xFF] += 1
        want = [sum(counts[:b + 1]) for b in range(256)]
        assert [x & 0xFFFF for x in _words(dst)[r]] == want


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
def test_timg2col_058_runs_the_one_by_one_kernel_its_b_dim_coupling_leaves(suite_058: WorkedSuite) -> None:
    """0.58.0 reads kernel and pad from LB0/LB1, which also shape the destination: only no B.DIM (kernel 1 x 1,
    stride 1, no padding) gives a destination of patch count x kernel size; a one-column source is then copied."""
    entry = suite_058.entries["TIMG2COL"]
    assert entry.reason is None and entry.examples, (entry.reason, entry.attempts)
    w = entry.examples[0]
    assert w.relation == "single-column" and "B.DIM" not in w.result.program
    (src,) = w.result.inputs
    (dst,) = w.result.outputs
    assert src.valid_columns == 1
    # patches: (rows - 1 + 1) x (1 - 1 + 1) = rows, each of 1 x 1 element: the source column itself
    assert (dst.valid_rows, dst.valid_columns) == (src.valid_rows, 1)
    assert _words(dst) == _words(src)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
@pytest.mark.parametrize("mnemonic", ["TINSERT", "TSCATTER"])
def test_058_destination_contents_defined_is_the_exact_reason(suite_058: WorkedSuite, mnemonic: str) -> None:
    """0.58.0's predicates read ``_Tiles[[destination]].contents_defined``; a Block's destination is newly allocated
    (``ConfigureTileForMask`` sets it FALSE) before the check, so no Block can satisfy them."""
    entry = suite_058.entries[mnemonic]
    assert not entry.examples
    assert entry.reason is not None and entry.reason.key == "destination-state", entry.reason
    p = dict(entry.reason.params)
    assert p["predicate"] == f"TileOperandsLegal_{mnemonic}" and p["needs"] == "contents_defined"
    assert p["site"].startswith("asl/tile/model/legality/operand-schema.asl:")
    assert "Fault_TileLegality" in entry.attempts[-1].problem
    assert "TileOperandsLegal_" in entry.reason.english()


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.xdist_group("oracle-elementwise")
def test_timg2col_0583_destination_location_is_the_exact_reason(suite: WorkedSuite) -> None:
    """0.58.3's predicate rejects a destination whose location is not Matrix; a Block allocates TileLocation_Any."""
    entry = suite.entries["TIMG2COL"]
    assert not entry.examples and entry.reason is not None and entry.reason.key == "destination-state"
    p = dict(entry.reason.params)
    assert p["needs"] == "location == TileLocation_Matrix"
    assert p["site"] == "asl/tile/model/legality/image-to-column.asl:120"


def test_destination_needs_reads_required_state_only() -> None:
    """A requirement is what the predicate rejects without (``if … != X then return FALSE``) or asserts
    (``return … && … == X``); ``!= Memory`` in a return chain (0.58.0 GMOV) only excludes a location."""
    reject = ("if !TileDescriptorLegal(destination) ||\n   destination_tile.location != TileLocation_Matrix then\n"
              "    return FALSE;\nend;")
    assert destination_needs(reject) == ("location == TileLocation_Matrix",)
    chain = "return TileDescriptorLegal(destination) &&\n  _Tiles[[destination]].location != TileLocation_Memory;"
    assert destination_needs(chain) == ()
    asserted = "return _Tiles[[destination]].contents_defined && _Tiles[[destination]].location == TileLocation_Vec;"
    assert destination_needs(asserted) == ("contents_defined", "location == TileLocation_Vec")
    assert destination_needs("return _Tiles[[destination]].location == TileLocation_Any;") == ()
