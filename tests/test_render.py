"""The renderer core: instruction page content, escaping, composition rules, lexer, cache."""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderCache, RenderOptions, render_site
from specgen.render.blocks import parse_composition, signature
from specgen.render.html import highlight_asl
from specgen.render.links import relative
from htmltext import text as _text, section as _section

TMUL_SRC = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_EN = "en/tile/elementwise-tile-tile/arithmetic/TMUL.md"
TMUL_ZH = "zh/tile/elementwise-tile-tile/arithmetic/TMUL.md"


def _graph(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


@pytest.fixture(scope="module")
def corpus_graph(corpus_root: Path) -> SpecGraph:
    return _graph(corpus_root)


@pytest.fixture(scope="module")
def tmul_pages(corpus_graph: SpecGraph) -> dict[str, str]:
    pages = render_site(corpus_graph, RenderOptions(), only=lambda p: p.uri in (TMUL_EN, TMUL_ZH))
    return {p.url: p.content for p in pages}


def test_tmul_page_has_every_reference_element(corpus_graph: SpecGraph, corpus_root: Path,
                                               tmul_pages: dict[str, str]) -> None:
    page = tmul_pages[TMUL_EN]
    unit = corpus_graph.units_by_path[TMUL_SRC]
    ins = unit.instruction
    assert ins is not None
    # 1. summary and signature
    summary = _text(_section(page, "summary"))
    assert ins.summary in summary
    assert "TMUL <LB0:ValidCol, LB1:ValidRow, LB2:Col, DataType, PadValue> SrcTile0, SrcTile1 -> DstTile" in summary
    # 2. operand table: group, operand, meaning, ASL source
    ops = _text(_section(page, "operands"))
    for needle in ("parameter", "input", "output", "LB0:ValidCol", "B.DIM LB0=ValidCol", "padding value",
                   "B.DATR PadValue (optional)", "contract.operands[1].source0", "left factor",
                   "contract.operands[0].destination0", "new Local destination"):
        assert needle in ops, needle
    # 3. block composition with marks and the minimal form
    comp = _section(page, "block-composition")
    rows = re.findall(r"<tr class=\"sg-command\"><td[^>]*><code>(.*?)</code></td> <td[^>]*>(.*?)</td></tr>", comp, re.S)
    marks = {html.unescape(a): _text(b).split() for a, b in rows}
    assert marks["BSTART.VEC TMUL, DataType"] == ["required"]
    assert marks["B.DATR PadValue (optional)"] == ["optional"]
    assert marks["B.DIM LB0=ValidCol"] == ["required", "repeatable"]
    assert marks["B.DIM LB2=Col (optional)"] == ["optional", "repeatable"]
    minimal = _text(comp.split('class="highlight sg-minimal sg-copyable">', 1)[1])
    assert minimal.split("\n")[:4] == ["BSTART.VEC TMUL, DataType", "B.DIM LB0=ValidCol",
                                       "B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>", "BSTOP"]
    # 4. field table
    fields = _text(_section(page, "fields"))
    assert re.search(r"DataType\D*5\s*encoding-defined", fields)
    assert "destination0" in fields and "right factor" in fields
    # 5. encoding: decoded items, inline SVG (no JS), WaveJSON, carrier
    enc = _section(page, "encoding")
    items = re.findall(r"<tr><td>([^<]*)</td> <td><code>([^<]*)</code></td> <td><code>([^<]*)</code>", enc)
    assert "fixed to" not in _text(enc.split("<figure", 1)[0])  # issue 14.4: a pinned field shows its bits, not "variable fixed to 0"
    assert html.unescape(items[1][2]) == "2'b00" and html.unescape(items[2][2]) == "5'b00010"
    assert [(a, b) for a, b, _ in items] == [("DataType", "31:27"), ("Mode", "26:25"), ("Function", "24:20"),
                                             ("Constant", "19:0")]
    assert html.unescape(items[-1][2]) == "20'b00011001000110000001"
    assert re.search(r"<figure class=\"sg-diagram\"[^>]*><svg[^>]*>", enc)
    from specgen.encoding.wavejson import wavejson_text
    from specgen.render.pages import encodings_for
    expected = wavejson_text(encodings_for(corpus_graph).by_mnemonic("TMUL")[0])
    wj = re.search(r"<details class=\"sg-wavejson\"[^>]*>.*?<code[^>]*>(.*?)</code>", enc, re.S)
    assert wj is not None and json.loads(html.unescape(wj.group(1))) == json.loads(expected)
    assert '"name":"20\'b00011001000110000001"' in expected
    assert "BSTART.TEPL Mode, Function, DataType" in _text(enc)
    # 6. ASL listings and the two records
    asl = _text(_section(page, "asl"))
    assert "InstructionContractOperation_TMUL" in asl and "InstructionContractExecute_TMUL" in asl
    records = _text(_section(page, "records"))
    header_text = records.split("PTO-INSTRUCTION record", 1)[1].split("source", 1)[1].split("PTO-REVIEW")[0]
    header = json.loads(header_text[header_text.index("{"):])
    assert header == unit.raw_header
    assert '"outcome": "FORMAL-COMPLETE"' in records
    # 7. NDF clause with attributes and a stable anchor
    ndf = _section(page, "ndf")
    assert 'id="PTO-TMUL-CONTRACT-001"' in ndf
    assert all(x in _text(ndf) for x in ("contract", "L1", "tile", "accepted", "Rejection MUST precede all effects."))
    # 8. prose explanation generated from the contract
    sem = _text(_section(page, "semantics"))
    assert "Mode 0 and Function 2" in sem and "Before any effect, TMUL checks the whole block" in sem
    # 9. traceability: tests with sha256, evidence, ADR titles inline, the count
    trace = _section(page, "traceability")
    tests = corpus_graph.unit_tests(unit)
    assert len(tests) == 4
    for t in tests:
        digest = hashlib.sha256((corpus_root / t.path).read_bytes()).hexdigest()
        assert t.header is not None and t.header.id in trace and digest in trace
    for aid in ("ADR-0035", "ADR-0052", "ADR-0057", "ADR-0059", "ADR-0080"):
        adr = corpus_graph.adr(aid)
        assert adr is not None and adr.front is not None
        assert aid in trace and html.escape(adr.front.title, quote=False) in trace and adr.sha256 in trace
    assert "spec/evidence/instruction-contract-closure.json" in trace
    assert "add330416d6c9b3308d6a5ebc508a1bee9a509307af5b693fef9f3f32ae21ebd" in trace
    assert re.search(r'<p id="trace-count"[^>]*>14 matching entries</p>', trace)
    assert 'id="trace-filter"' in trace
    # 10. index record, as the evidence file has it
    rec = _text(_section(page, "index-record"))
    evidence = json.loads((corpus_root / "spec/evidence/release-traceability-readiness.json").read_text())
    row = next(r for r in evidence["units"] if r["source"] == TMUL_SRC)
    assert json.loads(rec[rec.index("{"):]) == row
    # 11. release footer
    rel = _text(_section(page, "release"))
    manifest = json.loads((corpus_root / "spec/release-manifest.json").read_text())
    assert manifest["release"] in rel and manifest["content_sha256"] in rel and TMUL_SRC in rel
    assert "<script" not in page


def test_zh_page_is_the_same_page_in_chinese(tmul_pages: dict[str, str]) -> None:
    zh, en = tmul_pages[TMUL_ZH], tmul_pages[TMUL_EN]
    assert 'lang="zh-CN"' in zh
    switch = re.search(r'<a id="lang-switch"[^>]*href="([^"]+)"', zh)
    assert switch is not None and switch.group(1) == "../../../../en/tile/elementwise-tile-tile/arithmetic/TMUL.html"
    assert re.search(r'<a id="lang-switch"[^>]*href="[^"]*zh/tile/elementwise-tile-tile/arithmetic/TMUL.html"', en)
    ops = _text(_section(zh, "operands"))
    assert "参数" in ops and "输入" in ops and "输出" in ops
    assert "left factor" in ops  # record contents stay as the spec wrote them
    assert "必选" in _text(_section(zh, "block-composition"))
    assert "14 个匹配条目" in _text(_section(zh, "traceability"))


HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)"> [x](javascript:alert(3)) {{ 7*7 }}'


def _poison(root: Path) -> None:
    tmul = root / TMUL_SRC
    lines = tmul.read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("// PTO-INSTRUCTION: "):
            rec = json.loads(line[len("// PTO-INSTRUCTION: "):])
            rec["summary"] = HOSTILE
            rec["contract"]["legality"].append(HOSTILE)
            lines[i] = "// PTO-INSTRUCTION: " + json.dumps(rec, separators=(",", ":"))
        if line.startswith("// NDF-END:"):
            lines.insert(i, "// " + HOSTILE)
            break
    tmul.write_text("\n".join(lines))
    adr = sorted((root / "docs/status/decisions").glob("0*.md"))[-1]
    adr.write_text(adr.read_text() + "\n\n" + HOSTILE + "\n\n[click](javascript:alert(4))\n\n<b onmouseover=x>raw</b>\n")


def test_hostile_spec_text_renders_inert(bundled_copy: Path) -> None:
    _poison(bundled_copy)
    graph = _graph(bundled_copy)
    assert graph.units_by_path[TMUL_SRC].instruction.summary == HOSTILE  # type: ignore[union-attr]
    pages = render_site(graph, RenderOptions())
    tmul = next(p for p in pages if p.url == TMUL_EN).content
    adr_pages = [p.content for p in pages if p.kind.name == "adr" and "alert(4)" in p.content]
    assert adr_pages, "the poisoned ADR page was rendered"
    for content in [tmul, *adr_pages]:
        assert "<script" not in content
        assert "<img" not in content and "<b onmouseover" not in content
        assert not re.search(r"<[^>]+\son\w+=", content), "an event handler attribute reached the HTML"
        assert not re.search(r"href=\"\s*javascript:", content, re.I)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content
        assert "{{ 7*7 }}" in content
    summary = re.search(r'<p class="sg-summary"[^>]*>(.*?)</p>', tmul, re.S)
    assert summary is not None and html.unescape(summary.group(1)) == HOSTILE  # shown verbatim, not evaluated
    # the NDF body and the legality list carry the text too, escaped
    assert _section(tmul, "ndf").count("&lt;script&gt;") == 1
    assert "&lt;script&gt;" in _section(tmul, "semantics")


def test_cache_rerenders_only_affected_pages(bundled_copy: Path) -> None:
    cache = RenderCache()
    first = render_site(_graph(bundled_copy), RenderOptions(), cache)
    assert cache.rendered == len(first) and cache.reused == 0
    render_site(_graph(bundled_copy), RenderOptions(), cache)
    assert cache.rendered == 0 and cache.reused == len(first)
    (bundled_copy / TMUL_SRC).write_text((bundled_copy / TMUL_SRC).read_text() + "\n// edited\n")
    again = render_site(_graph(bundled_copy), RenderOptions(), cache)
    redone = {p.url for p in again if p.key != next(q for q in first if q.url == p.url).key}
    assert TMUL_EN in redone and TMUL_ZH in redone
    assert "en/tile/elementwise-tile-tile/arithmetic/TADD.md" not in redone
    assert 0 < cache.rendered < len(first)


def test_composition_rules() -> None:
    comp = parse_composition(["# Local destination", "BSTART.TLOAD DataType", "optional B.DATR Layout",
                              "B.DIM LB0=ValidCol", "B.IOT SrcLeft, mask=PE_MASK", "B.IOT SrcRight, <last>",
                              "one terminating destination B.IOT (exactly one)", "BSTOP",
                              "Shared: replace B.IOT with one destination B.IOS carrying S0..S255."])
    kinds = [(x.kind, x.head, x.optional, x.repeatable) for x in comp.lines]
    assert kinds == [("note", "", False, False), ("command", "BSTART.TLOAD", False, False),
                     ("command", "B.DATR", True, False), ("command", "B.DIM", False, False),
                     ("command", "B.IOT", False, True), ("command", "B.IOT", False, True),
                     ("command", "B.IOT", False, True), ("command", "BSTOP", False, False),
                     ("prose", "", False, False)]
    assert "optional B.DATR Layout" not in comp.minimal and "BSTOP" in comp.minimal
    sig = signature("TADDS", "tile", parse_composition(["BSTART.VEC TADDS, DataType", "B.DIM LB0=ValidCol",
                                                         "BSTOP"]),
                    [("destination0", "new destination"), ("source0", "tile source"), ("scalar0", "GPR scalar")])
    assert sig.text() == "TADDS <LB0:ValidCol, DataType> SrcTile0, scalar0 -> DstTile"
    none = signature("ADD", "scalar", parse_composition(["none"]), [("RegDst", "Reg5 destination"),
                                                                     ("SrcL", "left Reg5 source")])
    assert none.text() == "ADD SrcL -> RegDst"


def test_highlight_keeps_text_and_escapes() -> None:
    src = '// PTO-TEST: {"id":"X"}\nfunc F(x: bits(4)) => integer\nbegin\n  /* a <b>\n c */ return 1 << 2;\nend;\n'
    out = str(highlight_asl(src, first_line=7, anchor="L"))
    assert 'id="L-7"' in out and 'id="L-12"' in out and "<b>" not in out
    body = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r'<span class="ln"[^>]*>\d+</span>', "", out)))
    assert body == src


def test_pygments_lexer_is_registered() -> None:
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Error
    lexer = get_lexer_by_name("asl")
    src = "func Foo() => integer\nbegin\n  return 0x1F + 2; // ok\nend;\n"
    toks = list(lexer.get_tokens(src))
    assert "".join(v for _, v in toks) == src and not any(t is Error for t, _ in toks)


@pytest.mark.parametrize("dirurls,expected", [(False, "../b/c.html#x"), (True, "../../b/c/#x")])
def test_relative_links(dirurls: bool, expected: str) -> None:
    assert relative("en/a/p.md", "en/b/c.md", dirurls, "x") == expected


def test_parallel_render_is_identical(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    one = render_site(graph, RenderOptions(jobs=1))
    assert len(one) >= 200, "enough pages for the process pool to be used"
    two = render_site(graph, RenderOptions(jobs=2))
    assert [(p.url, p.content, p.links) for p in one] == [(p.url, p.content, p.links) for p in two]


def test_source_links_follow_the_url_template(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    unit = graph.units_by_path[TMUL_SRC]
    clause = unit.clauses[0]
    tpl = "https://example.org/org/repo/blob/{commit}/{path}#L{start}-L{end}"
    opts = RenderOptions(source_url=tpl, commit="0123abc")
    pages = render_site(graph, opts, only=lambda p: p.uri == TMUL_EN or p.kind.name == "source")
    assert [p.kind.name for p in pages] == ["instruction"], "no local source pages when a template is set"
    page = pages[0].content
    start, end = clause.span.lines
    assert f'href="https://example.org/org/repo/blob/0123abc/{TMUL_SRC}#L{start}-L{end}"' in page
    decode = unit.doc("decode")
    assert decode is not None
    assert f"/0123abc/{TMUL_SRC}#L{decode.span.lines[0]}-L{decode.span.lines[1]}" in page
    local = render_site(graph, RenderOptions(), only=lambda p: p.uri == TMUL_EN)[0].content
    assert f'href="../../../../source/{TMUL_SRC.removesuffix(".asl")}.html#L-{start}"' in local


def test_every_planned_page_kind_is_registered_once_with_its_template(bundled_root: Path) -> None:
    """A kind planned but not registered (or registered twice, or without a template) would fail at render time."""
    from specgen.render.core import DEFAULT_TEMPLATES
    from specgen.render.kinds import BY_NAME, KINDS, plan_site

    names = [k.name for k in KINDS]
    assert len(names) == len(set(names)) == len(BY_NAME)
    planned = {p.kind.name for p in plan_site(_graph(bundled_root), ("en", "zh"), local_sources=True, changes=True)}
    assert planned == set(BY_NAME), planned ^ set(BY_NAME)
    assert [k.name for k in KINDS if not (DEFAULT_TEMPLATES / k.template).is_file()] == []
    assert {k.name for k in KINDS if not k.searchable} == {"source", "not-found"}  # test pages are searchable by their IDs (issue 42)


def test_renderer_runs_without_mkdocs(bundled_root: Path) -> None:
    """The renderer core is independent of mkdocs: rendering a whole site never imports it."""
    import subprocess
    import sys
    script = ("import sys; from pathlib import Path; from specgen.graph import SpecGraph; "
              "from specgen.loader import load_spec; from specgen.render import render_site; "
              f"pages = render_site(SpecGraph.build(load_spec(Path({str(bundled_root)!r})))); "
              "print(len(pages), sorted(m for m in sys.modules if m.split('.')[0] == 'mkdocs'))")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    count, mods = r.stdout.split(" ", 1)
    assert int(count) > 100 and mods.strip() == "[]", r.stdout
