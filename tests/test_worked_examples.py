"""Worked examples on instruction pages: generated from the block composition, executed by the spec's ASL.

The corpus part runs a few instructions (the whole corpus is the build's and the benchmark's business);
the bundled part covers every instruction of the sample spec and the page in both languages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderOptions, render_site
from specgen.render.i18n import Messages
from specgen.site.build import load_graph
from specgen.worked.generator import WORKED, Generator, WorkedSuite, worked_examples

TMUL_PAGE = "tile/elementwise-tile-tile/arithmetic/TMUL"
W64 = (1 << 64) - 1


def _s32(word: str) -> int:
    v = int(word, 16) & 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _pages(graph: SpecGraph, suite: WorkedSuite) -> dict[str, str]:
    WORKED.set(graph, suite)
    uris = {f"{lang}/{TMUL_PAGE}.md" for lang in ("en", "zh")}
    return {p.url: p.content for p in render_site(graph, RenderOptions(), only=lambda p: p.uri in uris)}


@pytest.mark.corpus
@pytest.mark.slow  # ~15 s on a quiet machine, mostly compiling the corpus interpreter (shared with the oracle)
@pytest.mark.xdist_group("oracle-elementwise")  # shares the corpus executor with the oracle test
def test_corpus_tmul_has_an_executed_example_with_edges_words_and_tiles(corpus_root: Path) -> None:
    graph = SpecGraph.build(load_spec(corpus_root))
    suite = Generator(graph).run(only=frozenset({"TMUL", "TNEG", "TMATMUL"}))
    tmul = suite.entries["TMUL"]
    assert tmul.reason is None and [w.data_type for w in tmul.examples] == ["S32", "U64"]
    first, second = tmul.examples
    assert first.prose_admits and not second.prose_admits  # U64: the record's sketch, excluded by the prose
    r = first.result
    assert [ln.word for ln in r.lines][0] == "0x88219181"  # BSTART.VEC TMUL, S32 (notes/tadd-family-semantics.md)
    assert all(re.fullmatch(r"0x[0-9A-F]{8}", ln.word) for ln in r.lines)
    left, right = r.inputs
    assert left.values[0][:3] == ["2147483647", "-2147483648", "0"] and left.values[1][0] == "-1"
    (out,) = r.outputs
    assert (out.valid_rows, out.valid_columns, out.columns) == (2, 3, 4)
    for i in range(2):
        for j in range(3):  # S32 products wrap in 32 bits and are stored sign-extended
            p = (_s32(left.words[i][j]) * _s32(right.words[i][j])) & 0xFFFFFFFF
            want = (p - (1 << 32) if p >> 31 else p) & W64
            assert int(out.words[i][j], 16) == want and out.defined[i][j]
    assert not any(out.defined[i][j] for i in range(out.rows) for j in range(out.columns) if i >= 2 or j >= 3)
    # 0.58.3 rejects the B.DATR PadValue short form for TMUL; the page says so with the ASL line
    assert any(a.pad == "Max" and "Fault_TileLegality" in a.problem and "tile-schema.asl" in a.problem
               for a in tmul.attempts)
    assert suite.entries["TNEG"].examples and suite.entries["TMATMUL"].examples  # tests/test_worked_named_bstart.py
    pages = _pages(graph, suite)
    for lang in ("en", "zh"):
        page = pages[f"{lang}/{TMUL_PAGE}.md"]
        t = Messages(lang)
        assert '<h2 id="worked-example"' in page and str(escape(t("worked.title"))) in page
        section = page[page.index('id="worked-1"'):page.index('id="worked-2"')]
        assert 'data-data-type="S32"' in section and "0x88219181" in section
        assert section.count('class="sg-tile-table sg-worked-tile"') == 3  # two inputs, one output
        assert "sg-pad" in section and str(escape(t("worked.seeded_edges", seed=f"0x{first.seed:08x}"))) in section
        assert str(escape(t("worked.prose_excludes"))) in page[page.index('id="worked-2"'):]


def test_bundled_spec_every_instruction_with_a_composition_runs_with_its_pad_region(bundled_root: Path) -> None:
    graph = SpecGraph.build(load_spec(bundled_root))
    suite = worked_examples(graph)
    assert suite.total > 0 and suite.executed == suite.total
    assert re.fullmatch(r"worked examples: (\d+)/\1 instructions with a block composition \(100\.0 %; \d+ run, \d+ reused\)",
                        suite.summary())
    tmul = suite.entries["TMUL"].examples[0]
    assert tmul.pad == "Max"
    (out,) = tmul.result.outputs
    pad = [out.values[i][j] for i in range(out.rows) for j in range(out.columns) if i >= 2 or j >= 3]
    assert pad and all(out.defined[i][j] for i in range(out.rows) for j in range(out.columns))
    assert set(pad) == {"65504.0"} if tmul.data_type == "FP16" else len(set(pad)) == 1
    pages = _pages(graph, suite)
    for lang in ("en", "zh"):
        page = pages[f"{lang}/{TMUL_PAGE}.md"]
        assert '<h2 id="worked-example"' in page and Messages(lang)("worked.title") in page
        # every pad cell is marked and defined: one cell each, or a run of rows holding one value merged
        singles = page.count('<td class="sg-pad"><span class="sg-val">')
        merged = sum((int(b) - int(a) + 1) * int(cols) for a, b, cols in re.findall(
            r'<th scope="row">(\d+)–(\d+)</th> <td class="sg-pad" colspan="(\d+)">', page))
        assert singles + merged >= len(pad)
        assert Messages(lang)("worked.pad_rows", value="65504.0", count=14, word="0x7bff") in page or tmul.data_type != "FP16"


def test_build_reports_the_worked_example_coverage(bundled_root: Path) -> None:
    graph, times = load_graph(bundled_root, None, lambda stage: None)
    assert times.worked == worked_examples(graph).summary()
    assert times.worked.startswith("worked examples: ")


@pytest.mark.corpus
@pytest.mark.slow  # compiling the 0.58.0 interpreter dominates (~10-20 s)
def test_0580_tile_scalar_blocks_bind_a_seeded_gpr_through_b_ior(corpus_root: Path) -> None:
    """0.58.0 lists a bare ``B.IOR`` for TADDS/TDIVS: the program binds R5, set before the run, through it."""
    root = corpus_root.parent / "pto-spec-0.58.0"
    if not root.is_dir():
        pytest.fail(f"the 0.58.0 corpus must be at {root}")
    graph = SpecGraph.build(load_spec(root))
    suite = Generator(graph).run(only=frozenset({"TADDS", "TDIVS", "TEXPANDS", "TEXTRACT"}))
    for mn in ("TADDS", "TDIVS"):
        entry = suite.entries[mn]
        assert entry.reason is None and not entry.defaulted and entry.examples, mn
        w = entry.examples[0]
        assert w.data_type == "S32" and "\nB.IOR R5\nB.IOT T1, " in w.result.program
        (reg, shown), = w.scalars
        scalar = int(shown.split()[0])
        assert reg == "R5" and scalar != 0
        assert w.result.lines[-3].word == f"0x{0x13 | 5 << 15:08X}"  # B.IOR RegSrc0=5 (command-forms.json)
        (src,), (out,) = w.result.inputs, w.result.outputs
        for i in range(out.valid_rows):
            for j in range(out.valid_columns):
                assert out.defined[i][j], (mn, i, j)
                if mn == "TADDS":  # S32 sums wrap in 32 bits
                    want = (_s32(src.words[i][j]) + scalar) & 0xFFFFFFFF
                    assert _s32(out.words[i][j]) == (want - (1 << 32) if want >> 31 else want), (i, j)
    # a destination-only Block (no ``source…`` operand in the catalog): every element is the scalar
    expands = suite.entries["TEXPANDS"].examples[0]
    (reg, shown), = expands.scalars
    (out,) = expands.result.outputs
    assert not expands.result.inputs and "B.IOT mask=0b0001, <last>, ->T<1>" in expands.result.program
    assert {out.values[i][j] for i in range(2) for j in range(3)} == {shown.split()[0]}
    # TEXTRACT's offsets: the ASL reads no GPR for them (0.58.0 takes them from B.DIM LB0/LB1), so the
    # example is a 1 x 1 window at row 1, column 1 (B.DIM LB0=1, LB1=1) and leaves the B.IOR out;
    # the faulting attempts before it are listed
    ext = suite.entries["TEXTRACT"]
    (w,) = ext.examples
    assert w.relation == "window" and "B.DIM LB0=1\nB.DIM LB1=1" in w.result.program and ext.defaulted == ["B.IOR"]
    assert ext.attempts and all("Fault_" in a.problem for a in ext.attempts)
    (src,), (out,) = w.result.inputs, w.result.outputs
    assert (out.valid_rows, out.valid_columns) == (1, 1) and out.words[0][0] == src.words[1][1]
    page = "tile/tile-scalar-and-immediate/arithmetic/TADDS"
    WORKED.set(graph, suite)
    uris = {f"{lang}/{page}.md" for lang in ("en", "zh")}
    pages = {p.url: p.content for p in render_site(graph, RenderOptions(), only=lambda p: p.uri in uris)}
    assert len(pages) == 2
    for lang in ("en", "zh"):
        content = next(v for k, v in pages.items() if k.startswith(lang + "/"))
        assert 'data-worked="scalars"' in content and str(escape(Messages(lang)("worked.scalars"))) in content
        assert "<code>R5 = " in content
