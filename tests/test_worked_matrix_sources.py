"""Worked examples for 0.58.0's matrix Blocks, whose composition names neither sources nor layouts.

``BSTART.CUBE TMATMUL AType`` / ``B.DATR BType RMode Sat`` / ``B.IOT Local sources and Local outputs``: the
sources come from the parameters of the spec's ``TileOperandsLegal_<MN>`` (left, right; the accumulator first
in the ACC forms; a bias last), the B.DATR is all zero because the ASL lets the operation set none of its fields,
the spelling is the instruction's own ``BSTART.TMATMUL`` form. Results are checked against a product computed
here from the example's inputs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.worked.generator import Generator, WorkedSuite

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.xdist_group("oracle-elementwise")]
ONLY = frozenset({"TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TGEMV"})
_SUITES: dict[Path, WorkedSuite] = {}


@pytest.fixture(scope="module")
def suite(corpus_root: Path) -> WorkedSuite:
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        pytest.fail(f"the 0.58.0 corpus must be at {root}")
    if root not in _SUITES:
        _SUITES[root] = Generator(SpecGraph.build(load_spec(root))).run(only=ONLY)
    return _SUITES[root]


def _signed(word: str, bits: int = 64) -> int:
    v = int(word, 16) & ((1 << bits) - 1)
    return v - (1 << bits) if v >> (bits - 1) else v


def _matrix(t: object) -> list[list[int]]:
    return [[_signed(w) for w in row[:t.valid_columns]] for row in t.words[:t.valid_rows]]  # type: ignore[attr-defined]


def _product(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    wrap = lambda v: ((v + (1 << 63)) % (1 << 64)) - (1 << 63)  # noqa: E731 - S64 arithmetic wraps
    return [[wrap(sum(a[i][k] * b[k][j] for k in range(len(b)))) for j in range(len(b[0]))] for i in range(len(a))]


def test_0580_tmatmul_takes_sources_from_the_operand_legality_asl(suite: WorkedSuite) -> None:
    entry = suite.entries["TMATMUL"]
    assert entry.reason is None and entry.examples, entry.attempts
    w = entry.examples[0]
    r = w.result
    # the instruction's own form, an all-zero B.DATR (no field applicable), no B.FPATR line (it names no field)
    assert r.lines[0].text == f"BSTART.TMATMUL {w.data_type}"
    assert r.lines[1].text == "B.DATR {0, 0, 0, 0, 0, 0, 0}"
    assert not any(ln.text.startswith("B.FPATR") for ln in r.lines)
    assert "B.FPATR" in entry.omitted
    # a type that accumulates in itself (TileMatrixAccumulatorDataType): the destination takes the Block's type
    assert w.data_type == "S64"
    a, b = (_matrix(t) for t in r.inputs)
    (d,) = r.outputs
    assert len(a[0]) == len(b) and _matrix(d) == _product(a, b)
    for n in (len(a), len(a[0]), len(b[0])):  # every logical dimension a nonzero power of two (0.58.0's ASL)
        assert n & (n - 1) == 0


def test_0580_tmatmul_acc_binds_the_accumulator_first(suite: WorkedSuite) -> None:
    w = suite.entries["TMATMUL_ACC"].examples[0]
    c, a, b = (_matrix(t) for t in w.result.inputs)  # TileOperandsLegal_TMATMUL_ACC(destination, accumulator, left, right)
    (d,) = w.result.outputs
    ab = _product(a, b)
    assert _matrix(d) == [[(((c[i][j] + ab[i][j]) + (1 << 63)) % (1 << 64)) - (1 << 63)
                           for j in range(len(ab[0]))] for i in range(len(ab))]


def test_0580_tmatmul_bias_adds_the_bias_row(suite: WorkedSuite) -> None:
    w = suite.entries["TMATMUL_BIAS"].examples[0]
    a, b, bias = (_matrix(t) for t in w.result.inputs)
    assert len(bias) == 1 and len(bias[0]) == len(b[0])
    (d,) = w.result.outputs
    ab = _product(a, b)
    assert _matrix(d) == [[(((ab[i][j] + bias[0][j]) + (1 << 63)) % (1 << 64)) - (1 << 63)
                           for j in range(len(ab[0]))] for i in range(len(ab))]


def test_0580_tgemv_vector_is_one_column(suite: WorkedSuite) -> None:
    w = suite.entries["TGEMV"].examples[0]
    a, v = (_matrix(t) for t in w.result.inputs)
    assert len(v[0]) == 1 and dict(w.dims)["N"] == 1  # the ASL: _Tiles[[vector]].valid_columns == 1
    (d,) = w.result.outputs
    assert _matrix(d) == _product(a, v)


def test_0580_mx_operand_whose_extents_are_unstated_keeps_the_exact_reason(corpus_root: Path) -> None:
    # a source that is no GEMM operand and whose extents the predicate's text does not state (here: the text
    # read with its left_scale checks hidden; tests/test_worked_mx.py covers the MX forms it fills) leaves the
    # exact reason, naming the predicate and the parameter
    from specgen.worked import matrixplan
    from specgen.worked.composition import Template
    from specgen.worked.operandchecks import OperandChecks
    root = corpus_root.parent / "pto-spec-0.58.0"
    spec = load_spec(root)
    gen = Generator(SpecGraph.build(spec))
    reader = OperandChecks(spec, gen.executor().interp, "TileOperandsLegal_TMATMUL_MX", ("E4M3", "E8M0", "FP32"))
    stated = reader.extents_of
    reader.extents_of = lambda p, a: [] if p == "left_scale" else stated(p, a)  # type: ignore[method-assign]
    reason = matrixplan.matrix_sources(reader, Template(lines=[]), gen.vocabulary.layouts)
    assert isinstance(reason, matrixplan.Reason) and reason.key == "matrix-operand"
    # TileOperandsLegal_TMATMUL_MX(destination, left, left_scale, right, right_scale): the first it cannot shape
    assert dict(reason.params) == {"function": "TileOperandsLegal_TMATMUL_MX", "parameter": "left_scale"}


@pytest.fixture(scope="module")
def masks(corpus_root: Path) -> WorkedSuite:
    return Generator(SpecGraph.build(load_spec(corpus_root))).run(only=frozenset({"MGATHER_MASK", "MSCATTER_MASK"}))


def _ints(t: object) -> list[list[int]]:
    return [[int(v) for v in row[:t.valid_columns]] for row in t.values[:t.valid_rows]]  # type: ignore[attr-defined]


def _lanes(r: object) -> list[list[bool]]:
    """The predicate the TCMP Block makes, computed here: its two sources equal (comparison code 0, EQ)."""
    by = {t.register: t for t in r.inputs}  # type: ignore[attr-defined]
    producer = r.lines[0].text  # type: ignore[attr-defined]
    assert producer.startswith("BSTART.VEC TCMP")
    binding = next(ln.text for ln in r.lines if ln.text.startswith("B.IOT"))  # type: ignore[attr-defined]
    left, right = (by[x.strip(", ")] for x in binding.split()[1:3])
    lv, rv = _ints(left), _ints(right)
    return [[a == b for a, b in zip(lr, rr)] for lr, rr in zip(lv, rv)]


def test_mgather_mask_lane_mask_is_a_predicate_made_by_the_spec_s_tcmp_block(masks: WorkedSuite) -> None:
    w = masks.entries["MGATHER_MASK"].examples[0]
    r = w.result
    assert w.producer == "TCMP" and "B.IOT T1, T0," in "\n".join(ln.text for ln in r.lines)
    lanes = _lanes(r)
    assert any(x for row in lanes for x in row) and not all(x for row in lanes for x in row)
    memory = {int(a, 16): int(before) for a, before, _after in w.memory}
    index = _ints(next(t for t in r.inputs if t.register == "T1"))
    (d,) = [t for t in r.outputs if t.register != "T0"]
    expected = [[memory[0x100 + index[i][j]] if lanes[i][j] else 0 for j in range(len(index[0]))]
                for i in range(len(index))]
    assert _ints(d) == expected


def test_mscatter_mask_writes_only_the_predicate_s_lanes(masks: WorkedSuite) -> None:
    w = masks.entries["MSCATTER_MASK"].examples[0]
    r = w.result
    assert w.producer == "TCMP"
    lanes = _lanes(r)
    by = {t.register: t for t in r.inputs}
    data, index = _ints(by["T1"]), _ints(by["T2"])
    after = {int(a, 16): int(x) for a, _before, x in w.memory}
    for i, row in enumerate(index):
        for j, disp in enumerate(row):
            assert after[0x100 + disp] == (data[i][j] if lanes[i][j] else 0)


def test_a_lone_bare_b_iot_of_three_sources_becomes_two_bindings() -> None:
    from specgen.worked.composition import read_template
    tpl = read_template(["BSTART.MSCATTER.MASK DataType", "B.IOT", "B.IOR base_address", "BSTOP"], ("S32",))
    tpl.infer_sources(3)
    assert [(b.sources, b.last or b.destination) for b in tpl.bindings] == [(2, False), (1, False)]
    tpl = read_template(["BSTART.X DataType", "B.IOT", "BSTOP"], ("S32",))
    tpl.infer_sources(2)  # two sources: one binding, as before
    assert [b.sources for b in tpl.bindings] == [2]


def test_0580_mgather_cas_swaps_memory_and_returns_the_old_values(corpus_root: Path) -> None:
    root = corpus_root.parent / "pto-spec-0.58.0"
    entry = Generator(SpecGraph.build(load_spec(root))).run(only=frozenset({"MGATHER_CAS"})).entries["MGATHER_CAS"]
    assert entry.examples, entry.reason
    w = entry.examples[0]
    by = {t.register: t for t in w.result.inputs}
    index, expected, replacement = _ints(by["T1"]), _ints(by["T2"]), _ints(by["T3"])
    memory = {int(a, 16): (int(b), int(x)) for a, b, x in w.memory}
    size = 4  # S32
    assert w.data_type == "S32"
    (d,) = w.result.outputs
    for i, row in enumerate(index):
        for j, element in enumerate(row):  # 0.58.0: an element index, scaled by the element size
            before, after = memory[0x100 + element * size]
            assert before == expected[i][j]  # the compare succeeds, so the replacement is written
            assert after == replacement[i][j]
            assert _ints(d)[i][j] == before  # the destination returns the old memory value


def test_tprefetch_gets_the_no_tile_reason_on_both_corpora(corpus_root: Path) -> None:
    """TPREFETCH binds no Tile (0.58.3's composition has no B.IOT, 0.58.0's lists a bare one): the reason is
    read from the ASL's operand fields (no ``source…``/``destination…``), not from the composition."""
    for root in (corpus_root, corpus_root.parent / "pto-spec-0.58.0"):
        entry = Generator(SpecGraph.build(load_spec(root))).run(only=frozenset({"TPREFETCH"})).entries["TPREFETCH"]
        assert not entry.examples and entry.reason is not None and entry.reason.key == "no-tile"
        fields = dict(entry.reason.params)["fields"].split(", ")
        assert "address" in fields and not any(f.startswith(("source", "destination")) for f in fields)


def test_0580_gmov_binds_all_four_pes_after_one_pe_bindings_are_rejected(corpus_root: Path) -> None:
    root = corpus_root.parent / "pto-spec-0.58.0"
    entry = Generator(SpecGraph.build(load_spec(root))).run(only=frozenset({"GMOV"})).entries["GMOV"]
    assert entry.examples, entry.reason
    # every one-PE attempt faulted at its B.IOT line (commands.asl: the TileMemory GMOV selector wants 1111)
    one_pe = [a for a in entry.attempts if "'B.IOT " in a.problem]
    assert one_pe and all("mask=0b0001" in a.problem for a in one_pe)
    assert entry.attempts[:len(one_pe)] == one_pe  # the four-PE retry comes only after all of them
    w = entry.examples[0]
    assert any(ln.text.startswith("B.IOT ") and "mask=0b1111" in ln.text for ln in w.result.lines)
    (src,) = w.result.inputs
    (dst,) = w.result.outputs
    assert _ints(dst) == _ints(src)  # a copy from a peer PE, which holds the same Tile


def test_0580_tload_and_tstore_move_the_valid_rectangle_at_the_row_stride(corpus_root: Path) -> None:
    """``B.DATR/B.DIM`` sets the three loop bounds; B.IOR binds the base and the row stride the catalog roles
    name (``base-address``, ``row-stride-elements``); element (r, c) lives at base + (r * stride + c) * size."""
    root = corpus_root.parent / "pto-spec-0.58.0"
    suite = Generator(SpecGraph.build(load_spec(root))).run(only=frozenset({"TLOAD", "TSTORE"}))
    for mnemonic in ("TLOAD", "TSTORE"):
        entry = suite.entries[mnemonic]
        assert entry.examples, entry.reason
        w = entry.examples[0]
        regs = dict(w.scalars)
        base, stride = int(regs["R5"], 16), int(regs["R6"], 16)
        size = 4 if w.data_type in ("S32", "U32", "FP32") else 8
        cells = {int(a, 16): (b, x) for a, b, x in w.memory}
        tile = _ints(w.result.outputs[0] if mnemonic == "TLOAD" else w.result.inputs[0])
        for r, row in enumerate(tile):
            for c, value in enumerate(row):
                before, after = cells[base + (r * stride + c) * size]
                assert int(after) == value and (mnemonic == "TSTORE") == (before == "")
