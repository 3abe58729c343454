"""Examples on instruction pages: what the engine ran is what the page shows, in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markupsafe import escape

from specgen.examples.results import example_results
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderOptions, example_failures, render_site
from specgen.render.examples import highlight_program
from specgen.render.i18n import Messages, page_locale, set_document_lang
from htmltext import section as _section

TMUL_DIR = "tile/elementwise-tile-tile/arithmetic/TMUL"
BDIM_DIR = "block/attributes/B.DIM"


def esc(text: str) -> str:
    """Text as the templates escape it (Jinja2 autoescape)."""
    return str(escape(text))


def _graph(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


def _item(section: str, example_id: str) -> str:
    """The ``<li>`` of one example, found by its id."""
    start = section.index(f'data-example-id="{esc(example_id)}"')
    start = section.rindex("<li", 0, start)
    return section[start: section.index("</li>", start)]


@pytest.fixture(scope="module")
def bundled_graph(bundled_root: Path) -> SpecGraph:
    return _graph(bundled_root)


@pytest.fixture(scope="module")
def bundled_pages(bundled_graph: SpecGraph) -> dict[str, str]:
    wanted = {f"{lang}/{d}.md" for lang in ("en", "zh") for d in (TMUL_DIR, BDIM_DIR)}
    return {p.url: p.content for p in render_site(bundled_graph, RenderOptions(), only=lambda p: p.uri in wanted)}


def test_every_checked_tmul_file_is_shown_verified_with_its_tiles(bundled_root: Path, bundled_graph: SpecGraph,
                                                                 bundled_pages: dict[str, str]) -> None:
    files = sorted((bundled_root / "examples" / TMUL_DIR).glob("*.json"))
    assert files, "the bundled spec has TMUL example files"
    results = {r.id: r for r in example_results(bundled_graph)["TMUL"]}
    for lang in ("en", "zh"):
        t = Messages(lang)
        section = _section(bundled_pages[f"{lang}/{TMUL_DIR}.md"], "examples")
        for f in files:
            ident = json.loads(f.read_text())["id"]
            item = _item(section, ident)
            assert 'data-status="verified"' in item and 'data-kind="checked"' in item
            assert esc(t("example.verified.checked" if results[ident].fault is None
                                 else "example.verified.fault")) in item
            assert f"<code>{results[ident].profile}</code>" in item
            # every output tile is a table whose defined cells carry the engine's value and raw word
            res = results[ident]
            for tile in res.outputs:
                assert f'data-register="{tile.register}"' in item
                for r, row in enumerate(tile.values):
                    for c, value in enumerate(row):
                        if tile.defined[r][c]:
                            assert (f'<span class="sg-val">{esc(value)}</span><br>'
                                    f'<code class="sg-word">{tile.words[r][c]}</code>') in item


def test_undefined_cells_are_labelled_not_only_coloured(bundled_graph: SpecGraph,
                                                        bundled_pages: dict[str, str]) -> None:
    res = next(r for r in example_results(bundled_graph)["TMUL"] if r.outputs
               and not all(all(row) for row in r.outputs[0].defined))
    for lang in ("en", "zh"):
        item = _item(_section(bundled_pages[f"{lang}/{TMUL_DIR}.md"], "examples"), res.id)
        undefined = Messages(lang)("example.undefined")
        cells = re.findall(r'<td class="sg-undef"[^>]*><span class="sg-val">([^<]*)</span>', item)
        assert cells and set(cells) == {undefined}


def test_fault_names_the_asl_line_and_links_to_it(bundled_graph: SpecGraph, bundled_pages: dict[str, str]) -> None:
    res = next(r for r in example_results(bundled_graph)["B.DIM"] if r.fault is not None)
    assert res.verified and res.expected_fault == res.fault.name  # type: ignore[union-attr]
    f = res.fault
    assert f is not None
    item = _item(_section(bundled_pages[f"en/{BDIM_DIR}.md"], "examples"), res.id)
    assert f"<code>{f.name}</code>" in item
    source_page = "source/" + f.asl_path.removesuffix(".asl") + ".html"
    m = re.search(r'<a class="sg-src" href="([^"]+)"><code>' + re.escape(f"{f.asl_path}:{f.asl_line}"), item)
    assert m is not None and m.group(1).endswith(f"{source_page}#L-{f.asl_line}")
    # the faulting program line is marked and the fault links to it
    assert f'href="#{res_anchor(item)}-L-{f.line}"' in item
    assert f'class="ln sg-fault-line" id="{res_anchor(item)}-L-{f.line}"' in item


def res_anchor(item: str) -> str:
    m = re.search(r'<li class="[^"]*" id="([^"]+)"', item)
    assert m is not None
    return m.group(1)


def test_sketch_shows_reason_and_legality_note_in_both_languages(corpus_root: Path) -> None:
    graph = _graph(corpus_root)
    sketches = [r for r in example_results(graph)["TMUL"] if r.kind == "sketch"]
    assert sketches and sketches[0].legality_note and "U64" in sketches[0].legality_note
    uris = {f"{lang}/{TMUL_DIR}.md" for lang in ("en", "zh")}
    pages = {p.url: p for p in render_site(graph, RenderOptions(), only=lambda p: p.uri in uris)}
    for lang in ("en", "zh"):
        page = pages[f"{lang}/{TMUL_DIR}.md"]
        section = _section(page.content, "examples")
        item = _item(section, sketches[0].id)
        assert 'data-status="sketch"' in item
        said = Messages(lang).say  # the engine's English on the English page, the catalog's Chinese on the other
        assert str(said(sketches[0].sketch_reason)) in item and str(said(sketches[0].legality_note)) in item
        if lang == "en":
            assert esc(sketches[0].sketch_reason) in item and esc(sketches[0].legality_note) in item
        else:
            assert "symbolic operand" not in item and "one of them is wrong" not in item and "符号操作数" in item
        assert esc(Messages(lang)("example.sketch")) in item
        assert "sg-verified" not in section  # nothing ran, nothing claims to be verified
        assert all(status in ("sketch", "fragment") for _, _, status in page.examples)
    assert example_failures(graph) == []  # sketches never stop the corpus build


def test_bundled_examples_all_verify(bundled_graph: SpecGraph) -> None:
    results = [r for rs in example_results(bundled_graph).values() for r in rs]
    assert any(r.kind == "checked" for r in results) and any(r.kind == "contract" for r in results)
    assert example_failures(bundled_graph) == []


def test_a_wrong_expectation_is_a_failure_naming_file_and_element(bundled_copy: Path) -> None:
    path = next((bundled_copy / "examples" / TMUL_DIR).glob("*.json"))
    data = json.loads(path.read_text())
    reg, spec = next(iter(data["expect"]["tiles"].items()))
    old = spec["values"][0][0]
    spec["values"][0][0] = (old + 1) if isinstance(old, int) else "0x0000000000000001"
    path.write_text(json.dumps(data, indent=1))
    failures = example_failures(_graph(bundled_copy))
    rel = path.relative_to(bundled_copy).as_posix()
    assert len(failures) == 1, failures
    assert failures[0].startswith(rel + ":") and data["id"] in failures[0] and f"{reg}[0][0]" in failures[0]


def test_program_highlighting_escapes() -> None:
    out = str(highlight_program("B.DIM LB0=<script>alert(1)</script>; BSTOP // x<y", anchor="e"))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert '<span class="k">B.DIM</span>' in out and '<span class="k">BSTOP</span>' in out
    assert '<span class="c1">// x&lt;y</span>' in out


def test_zh_documents_say_their_language() -> None:
    doc = '<!doctype html>\n<html lang="en" class="no-js">\n<head></head><body lang="en">'
    out = set_document_lang(doc, page_locale("zh/tile/x.md") or "")
    assert out.startswith('<!doctype html>\n<html lang="zh-CN" class="no-js">') and '<body lang="en">' in out
    assert page_locale("en/index.md") == "en" and page_locale("index.md") is None
    assert set_document_lang("<p>no html tag</p>", "zh-CN") == "<p>no html tag</p>"
