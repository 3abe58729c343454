"""Worked examples for the Blocks whose BSTART spelling names the operation: matrix (CUBE) and memory Blocks.

One instruction per family on 0.58.3 (TMATMUL, TGEMV, MGATHER, MSCATTER) and the gathers of 0.58.0: each
example's words are checked against the constants the spec's own AVS tests build by hand, and its results
against values computed here from the example's inputs (a matrix product, the memory a gather reads, the
memory a scatter writes), not copied from the output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderOptions, render_site
from specgen.vocabulary import vocabulary_of
from specgen.worked.generator import WORKED, Generator, WorkedSuite
from specgen.worked.planstate import BASE_ADDRESS

_SUITES: dict[Path, tuple[SpecGraph, WorkedSuite]] = {}
ONLY = frozenset({"TMATMUL", "TGEMV", "MGATHER", "MSCATTER"})


def _suite(root: Path) -> tuple[SpecGraph, WorkedSuite]:
    if root not in _SUITES:
        graph = SpecGraph.build(load_spec(root))
        _SUITES[root] = (graph, Generator(graph).run(only=ONLY))
    return _SUITES[root]


def _signed(word: str, bits: int) -> int:
    v = int(word, 16) & ((1 << bits) - 1)
    return v - (1 << bits) if v >> (bits - 1) else v


@pytest.mark.corpus
@pytest.mark.slow  # compiling the corpus interpreter dominates (~20 s under load)
def test_tmatmul_multiplies_cube_tiles_and_says_how(corpus_root: Path) -> None:
    graph, suite = _suite(corpus_root)
    entry = suite.entries["TMATMUL"]
    assert entry.reason is None and entry.examples
    w = entry.examples[0]
    r = w.result
    code = vocabulary_of(graph.spec).datatype(w.data_type).code  # type: ignore[union-attr]
    words = [ln.word for ln in r.lines]
    # block-state-tmatmul-cube-destination-005.asl: BSTART.TMATMUL is 0x00031181 with DataType in bits 31:27
    assert words[0] == f"0x{0x00031181 | code << 27:08X}"
    assert r.lines[1].text.startswith("B.FPATR ") and words[1] == "0x00002023"  # all zero: Func/Opc1/Opcode/W fixed
    assert dict(w.dims) == {"M": 2, "N": 3, "K": 4}
    a, b = r.inputs
    (d,) = r.outputs
    assert (a.layout, b.layout, d.layout) == ("CUBE_M16", "CUBE_N8", "CUBE_M16")
    assert (a.valid_rows, a.valid_columns, b.valid_rows, b.valid_columns) == (2, 4, 4, 3)
    assert (d.valid_rows, d.valid_columns) == (2, 3) and (w.valid_rows, w.valid_columns) == (2, 3)
    et = vocabulary_of(graph.spec).datatype(w.data_type)
    assert et is not None and et.kind == "signed"  # integer products first: a reader can check them
    out_bits = vocabulary_of(graph.spec).datatype(d.data_type).bits  # type: ignore[union-attr]
    for i in range(2):
        for j in range(3):
            want = sum(_signed(a.words[i][k], et.bits) * _signed(b.words[k][j], et.bits) for k in range(4))
            assert _signed(d.words[i][j], out_bits) == want, (i, j)
            assert d.defined[i][j]
    assert a.values[0][:4] == [str((1 << (et.bits - 1)) - 1), str(-(1 << (et.bits - 1))), "0", "-1"]  # the edges
    WORKED.set(graph, suite)  # the page names each CUBE layout and the dimensions
    pages = {p.url: p.content for p in render_site(graph, RenderOptions(),
                                                  only=lambda p: p.uri.endswith("matrix-matrix/TMATMUL.md"))}
    page = pages["en/tile/matrix-and-matrix-vector/matrix-matrix/TMATMUL.md"]
    assert "<code>CUBE_N8</code>" in page and "<code>K = 4</code>" in page and 'data-worked="dims"' in page
    assert any("postprocess" in x for x in entry.omitted) and any(x.startswith("B.IOS") for x in entry.omitted)
    tgemv = suite.entries["TGEMV"].examples[0]  # the composition pins M=1
    assert dict(tgemv.dims)["M"] == 1 and tgemv.result.outputs[0].valid_rows == 1


@pytest.mark.corpus
@pytest.mark.slow
def test_mgather_and_mscatter_read_and_write_global_memory(corpus_root: Path) -> None:
    graph, suite = _suite(corpus_root)
    code = {n: vocabulary_of(graph.spec).datatype(n).code for n in ("S32", "U8")}  # type: ignore[union-attr]
    g = suite.entries["MGATHER"].examples[0]
    # block-exec-bstart-mgather-gather-001.asl: GatherStart is 0x00411181 with DataType in bits 31:27
    assert g.result.lines[0].word == f"0x{0x00411181 | code[g.data_type] << 27:08X}"
    assert g.scalars == (("R5", f"0x{BASE_ADDRESS:016x}"),)
    (index,) = g.result.inputs
    (dest,) = g.result.outputs
    memory = {int(addr, 16): before for addr, before, _after in g.memory}
    assert len(memory) == 6 and all(before for before in memory.values())
    for i in range(2):
        for j in range(3):  # each element is the memory at base + its byte displacement
            assert dest.values[i][j] == memory[BASE_ADDRESS + int(index.words[i][j], 16)], (i, j)
    s = suite.entries["MSCATTER"].examples[0]
    assert not s.result.outputs and "<last>\nBSTOP" in s.result.program  # no destination Tile
    data, index = s.result.inputs
    after = {int(addr, 16): (before, value) for addr, before, value in s.memory}
    for i in range(2):
        for j in range(3):
            before, value = after[BASE_ADDRESS + int(index.words[i][j], 16)]
            assert before == "" and value == data.values[i][j], (i, j)
    # the page shows the memory table in both languages
    WORKED.set(graph, suite)
    pages = {p.url: p.content for p in render_site(graph, RenderOptions(),
                                                  only=lambda p: p.uri.endswith("irregular/MGATHER.md"))}
    en, zh = (pages[f"{lang}/tile/memory-and-data-movement/irregular/MGATHER.md"] for lang in ("en", "zh"))
    assert all('data-worked="memory"' in c and "<code>0x100</code>" in c for c in (en, zh))
    assert "Global memory the Block reads or writes" in en and "地址" in zh


@pytest.mark.corpus
@pytest.mark.slow  # compiling the 0.58.0 interpreter dominates
def test_0580_gathers_use_element_indices(corpus_root: Path) -> None:
    """0.58.0's MGATHER scales an index by the element size ("at Tile-provided indices"), 0.58.3's does not."""
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        pytest.fail(f"the 0.58.0 corpus must be at {root}")
    graph, suite = _suite(root)
    g = suite.entries["MGATHER"].examples[0]
    assert g.result.lines[0].text == f"BSTART.MGATHER {g.data_type}"  # BSTART.TLSU MGATHER: the form's spelling
    (index,), (dest,) = g.result.inputs, g.result.outputs
    memory = {int(addr, 16): before for addr, before, _after in g.memory}
    size = vocabulary_of(graph.spec).datatype(g.data_type).bits // 8  # type: ignore[union-attr]
    for i in range(2):
        for j in range(3):
            assert dest.values[i][j] == memory[BASE_ADDRESS + size * int(index.words[i][j], 16)], (i, j)
