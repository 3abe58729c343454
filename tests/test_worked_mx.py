"""Worked examples for 0.58.0's six MX matrix forms (TMATMUL_MX, TGEMV_MX and their ACC/BIAS forms).

Their operand-legality ASL (``TileOperandsLegal_<MN>``) names two scale operands besides the GEMM ones. The
generator reads the predicate's text (``specgen/worked/operandchecks.py``): each scale's type (``== TileDataType_E8M0``),
its extents (``left_scale``: M x ⌈K/32⌉, ``right_scale``: ⌈K/32⌉ x N), the Block's type (``selected_type ==
TileDataType_FP32``) and the operand pair's types (``TileMXOperandPairLegal`` evaluated by the interpreter). The
result is checked against a product computed here from the example's input words: the reference profile
multiplies the carriers' raw words and each scale's raw word (see docs-internal/examples.md, "Matrix Blocks").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator, WorkedSuite
from specgen.worked.operandchecks import OperandChecks, extent
from tilewords import valid_words as _words

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("oracle-elementwise")]
MX = ("TMATMUL_MX", "TMATMUL_MX_ACC", "TMATMUL_MX_BIAS", "TGEMV_MX", "TGEMV_MX_ACC", "TGEMV_MX_BIAS")
_SUITES: dict[Path, tuple[Generator, WorkedSuite]] = {}


@pytest.fixture(scope="module")
def generated(corpus_root: Path) -> tuple[Generator, WorkedSuite]:
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        pytest.fail(f"the 0.58.0 corpus must be at {root}")
    if root not in _SUITES:
        gen = Generator(SpecGraph.build(load_spec(root)))
        _SUITES[root] = (gen, gen.run(only=frozenset(MX)))
    return _SUITES[root]


def test_predicate_text_names_scale_types_and_shapes(generated: tuple[Generator, WorkedSuite]) -> None:
    gen, _ = generated
    whole = tuple(t.name for t in gen.vocabulary.datatypes if t.kind != "packed")
    r = OperandChecks(gen.spec, gen.executor().interp, "TileOperandsLegal_TMATMUL_MX", whole)
    assert r.params == ["destination", "left", "left_scale", "right", "right_scale"]
    assert r.block_type() == "FP32"
    assert (r.fixed_type("left_scale"), r.fixed_type("right_scale")) == ("E8M0", "E8M0")
    assert r.extent_of("left_scale", "valid_rows") == "M"
    assert r.extent_of("right_scale", "valid_columns") == "N"
    blocks = r.extent_of("left_scale", "valid_columns")
    assert blocks == r.extent_of("right_scale", "valid_rows")
    assert [extent(blocks, {"K": k}) for k in (8, 32, 33, 64)] == [1, 1, 2, 2]  # ⌈K/32⌉
    assert {r.pair_type("left"), r.pair_type("right")} <= {"E4M3", "E5M2"}  # an FP8 pair the interpreter accepts
    assert r.operand("left") is None  # a GEMM operand has no fixed type: the Block's pair decides


@pytest.mark.parametrize("mnemonic", MX)
def test_every_mx_form_executes_with_the_predicates_types(generated: tuple[Generator, WorkedSuite],
                                                          mnemonic: str) -> None:
    _, suite = generated
    entry = suite.entries[mnemonic]
    assert entry.reason is None and entry.examples, entry.attempts
    w = entry.examples[0]
    assert w.data_type == "FP32" and w.result.fault is None
    types = [t.data_type for t in w.result.inputs]
    assert types.count("E8M0") == 2 and {"E4M3", "E5M2"} & set(types)
    if "TGEMV" in mnemonic:
        assert dict(w.dims)["N"] == 1


def test_tmatmul_mx_result_is_the_scaled_product(generated: tuple[Generator, WorkedSuite]) -> None:
    _, suite = generated
    w = suite.entries["TMATMUL_MX"].examples[0]
    r = w.result
    assert r.lines[0].text == "BSTART.TMATMULMX FP32"
    a, la, b, rb = (_words(t) for t in r.inputs)
    m, k, n = len(a), len(b), len(b[0])
    blocks = -(-k // 32)
    assert (len(la), len(la[0]), len(rb), len(rb[0])) == (m, blocks, blocks, n)  # M x ⌈K/32⌉, ⌈K/32⌉ x N
    want = [[sum(a[i][x] * la[i][x // 32] * b[x][j] * rb[x // 32][j] for x in range(k)) & 0xFFFFFFFF
             for j in range(n)] for i in range(m)]
    (d,) = r.outputs
    assert _words(d) == want
