"""The site-wide pages (matrix, instruction index, ADR, release, home, directory indexes, test pages).

Oracles are the spec tree and ``specgen check`` itself: the matrix's coverage
must name exactly the instructions the check's findings name, on both corpora.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from specgen.check import run_checks
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.core import Page, RenderOptions, render_site
from specgen.render.i18n import Messages
from specgen.render.kinds.adr import front_rows
from specgen.render.kinds.matrix import matrix_facts
from htmltext import words as _text

OLD_CORPUS_NAME = "pto-spec-0.58.0"


def _graph(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


def _pages(graph: SpecGraph, *kinds: str, lang: str = "en") -> dict[str, Page]:
    pages = render_site(graph, RenderOptions(examples=False), only=lambda p: p.kind.name in kinds and p.lang == lang)
    return {p.url: p for p in pages}


def _old_corpus(corpus_root: Path) -> Path:
    old = corpus_root.parent / OLD_CORPUS_NAME
    if not old.is_dir():
        pytest.skip(f"{old} is absent")
    return old


def _not_covered_by_check(graph: SpecGraph) -> set[str]:
    """Instructions a check finding is about: untested, or naming an evidence file check reports absent."""
    findings, _ = run_checks(graph, only=["instruction-untested", "manifest-missing-file",
                                          "instruction-missing-artifact"])
    untested = {f.subject for f in findings if f.rule == "instruction-untested"}
    absent = {f.subject for f in findings if f.rule in ("manifest-missing-file", "instruction-missing-artifact")}
    view = graph.spec.traceability_view
    rows = {r.source: r for r in view.units} if view is not None else {}
    out = set()
    for u in graph.iter_instruction_units():
        row = rows.get(u.path)
        art = row.instruction_contract.artifact if row is not None and row.instruction_contract else None
        if u.instruction.id in untested or (art is not None and art in absent):  # type: ignore[union-attr]
            out.add(u.instruction.mnemonic)  # type: ignore[union-attr]
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("which", ["0.58.3", "0.58.0"])
def test_matrix_coverage_is_what_check_reports(corpus_root: Path, which: str) -> None:
    root = corpus_root if which == "0.58.3" else _old_corpus(corpus_root)
    graph = _graph(root)
    facts = matrix_facts(graph)
    not_covered = {r.unit.instruction.mnemonic for r in facts.rows if not r.covered}  # type: ignore[union-attr]
    assert not_covered == _not_covered_by_check(graph)
    pages = _pages(graph, "matrix")
    summary = _text(pages["en/traceability.md"].content)
    total = len(facts.rows)
    covered = total - len(not_covered)
    assert f"{covered} of {total} instructions are covered" in summary
    if which == "0.58.3":
        # the absent instruction-contract closure: nothing is covered, and the page says why
        assert covered == 0 and f"Instructions covered 0 of {total} (0.0 %)" in summary
        assert "spec/evidence/instruction-contract-closure.json" in summary
        assert f"evidence artifact absent: {total} instructions" in summary
    else:
        assert covered == total  # nothing is missing in 0.58.0 and its generation asks no semantic test
        assert "records no semantic-test requirement" in summary
    surfaces = sorted({r.unit.instruction.surface for r in facts.rows})  # type: ignore[union-attr]
    assert sorted(u for u in pages if u.startswith("en/traceability/")) == [
        f"en/traceability/{s}.md" for s in surfaces]
    rows = sum(pages[f"en/traceability/{s}.md"].content.count('<tr data-class=') for s in surfaces)
    assert rows == total, "each instruction is a row of exactly one surface page"


def test_matrix_without_missing_evidence_counts_covered(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    facts = matrix_facts(graph)
    assert facts.rows and all(r.covered for r in facts.rows) == (not _not_covered_by_check(graph))
    page = _pages(graph, "matrix")["en/traceability/tile.md"].content
    assert 'data-status="covered"' in page and "<table id=\"matrix-table\"" in page


def test_instruction_index_lists_every_instruction_once(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    pages = _pages(graph, "instruction-index")
    page = pages["en/instructions/index.md"].content
    want = sorted(u.instruction.mnemonic for u in graph.iter_instruction_units())  # type: ignore[union-attr]
    got = sorted(re.findall(r'<tr data-surface="[^"]*"[^>]*><td[^>]*><a href="[^"]+"><code class="sg-id">([^<]+)</code>',
                            page))
    assert got == want
    tmul = next(u.instruction for u in graph.iter_instruction_units() if u.instruction.mnemonic == "TMUL")  # type: ignore[union-attr]
    row = page[page.index(">TMUL<"):].split("</tr>", 1)[0]
    assert html.escape(tmul.summary, quote=False) in row and tmul.engine in row
    assert all(c in row for c in tmul.classification) and tmul.contract.encoding_class in row
    assert "<table id=\"instruction-table\" data-search-exclude data-sortable data-stack>" in page  # no class: material styles it; rows stack on a phone
    zh = _pages(graph, "instruction-index", lang="zh")["zh/instructions/index.md"].content
    assert "指令索引" in _text(zh)


def test_adr_front_matter_has_labels_and_no_repeated_lists(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    adr = next(a for a in graph.adrs if a.front is not None and a.front.affected_ndf)
    pages = _pages(graph, "adr")
    page = next(p for p in pages.values() if p.title.startswith(adr.front.id + ":")).content  # type: ignore[union-attr]
    front = page[page.index('<dl class="sg-front">'):page.index("</dl>", page.index('<dl class="sg-front">'))]
    assert "Affected clauses" in front and "affected_ndf" not in _text(front)
    for nid in adr.front.affected_ndf:  # type: ignore[union-attr]
        assert page.count(f"<code>{nid}</code>") == 1, f"{nid} appears once, as a link in the front matter"
    assert "<table class=" not in page


def test_adr_front_matter_status_is_in_the_pages_language(bundled_root: Path) -> None:
    """状态 已接受 on a Chinese ADR page, in its front matter as in its status line: the locale's word for a
    status it knows (issue 42); the English page keeps the value."""
    graph = _graph(bundled_root)
    adr = next(a for a in graph.adrs if a.front is not None and a.front.status == "accepted")
    want = json.loads((Path(__file__).parents[1] / "specgen/locales/zh-CN/terms.json").read_text("utf-8"))[
        "adr.status.accepted"]
    for lang, word in (("zh", want), ("en", "accepted")):
        page = next(p for p in _pages(graph, "adr", lang=lang).values()
                    if p.title.startswith(adr.front.id + ":")).content  # type: ignore[union-attr]
        row = re.search(r'<dd data-key="status">(.*?)</dd>', page)
        assert row and _text(row.group(1)).strip() == word, (lang, row)
    # an older generation's free-text status is shown as written; its known word ("Accepted") is translated
    cx = SimpleNamespace(t=Messages("zh"))
    rows = {v: next(r for r in front_rows(cx, {"id": "X", "headers": {"status": v}})  # type: ignore[arg-type]
                    if r["key"] == "status") for v in ("Accepted", "audit complete and frozen")}
    assert rows["Accepted"]["kind"] == "status" and rows["Accepted"]["text"] == want
    assert rows["audit complete and frozen"]["kind"] == "code"


def test_release_and_home_use_labels_not_keys(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    pages = {**_pages(graph, "release", "home"), **_pages(graph, "release", "home", lang="zh")}
    for url, page in pages.items():
        text = _text(page.content.split('<details class="sg-raw">')[0])
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{url} shows a snake_case key: {text}"
        assert "{" not in text, f"{url} shows raw JSON outside its collapsed details"
        assert "<table class=" not in page.content
    assert "AVS tests" in _text(pages["en/release.md"].content)
    assert "Catalog counts recorded by the release" in _text(pages["en/release.md"].content)


def test_directory_index_has_a_title_and_says_instructions(bundled_root: Path) -> None:
    graph = _graph(bundled_root)
    pages = _pages(graph, "index")
    arith = pages["en/tile/elementwise-tile-tile/arithmetic/index.md"]
    assert arith.title == "Arithmetic"
    assert 'id="instructions"' in arith.content and 'id="units"' not in arith.content
    assert pages["en/tile/index.md"].title == "Tile"


def test_test_page_shows_the_result_measured_on_exactly_this_content(bundled_copy: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A test page shows the verdict the build measured for this revision, with what it was measured on; an
    edit of prose keeps it (nothing the run read changed), an edit of ASL the test executed makes it "running"
    under a server (the result is pending) and never shows the old verdict."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    from specgen.asl.conformance import CONFORMANCE, conformance

    uri = "en/tests/tile/elementwise-tile-tile/arithmetic/TMUL.md"

    graphs: list[SpecGraph] = []

    def page(run: bool | None) -> tuple[str, object]:
        graph = SpecGraph.build(load_spec(bundled_copy))
        graphs.append(graph)
        conf = None
        if run is not None:
            conf = conformance(graph, jobs=1, run=run)
            CONFORMANCE.set(graph, conf)
        return _pages(graph, "tests")[uri].content, conf

    before, _ = page(None)
    assert 'data-status="not-run"' in before and "without running the AVS suite" in _text(before)
    after, conf = page(True)
    n = after.count('data-status="passed"')
    assert n >= 3 and 'data-status="not-run"' not in after
    assert "Measured by this build on exactly this content" in _text(after)
    assert conf.rerun > 0  # type: ignore[attr-defined]
    unit = bundled_copy / "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
    unit.write_text(unit.read_text(encoding="utf-8") + "// edited prose at the end\n", encoding="utf-8")
    same, conf = page(False)
    assert conf.rerun == 0 and conf.state == "complete"  # type: ignore[attr-defined]
    assert same.count('data-status="passed"') == n
    helper = bundled_copy / "asl/tile/model/execution/elementwise.asl"
    text = helper.read_text(encoding="utf-8")
    begin = text.index("\nbegin\n", text.index("func ExecuteTileBinary(")) + 1  # same line: nothing else moves
    helper.write_text(text[:begin] + "begin let edited_marker = 1;" + text[begin + len("begin"):], encoding="utf-8")
    stale, conf = page(False)
    assert conf.state == "running" and conf.pending  # type: ignore[attr-defined]
    assert 'data-status="running"' in stale and stale.count('data-status="passed"') < n
    # a page showing only tests that did not read the helper keeps its key: it is not rendered again
    from specgen.render.conformance import page_key
    pending = {c.path for c in conf.pending}  # type: ignore[attr-defined]
    others = [t for t in graphs[-1].spec.tests if t.path not in pending]
    assert others and page_key(graphs[-2], others) == page_key(graphs[-1], others)
    mine = [t for t in graphs[-1].spec.tests if t.path in pending]
    assert page_key(graphs[-2], mine) != page_key(graphs[-1], mine)


@pytest.mark.corpus
def test_markdown_header_adr_shows_its_headers_once(corpus_root: Path) -> None:
    """0.58.0 ADRs carry "- Key: value" headers: labelled front matter, not repeated in the body."""
    graph = _graph(_old_corpus(corpus_root))
    adr = next(a for a in graph.adrs if a.front is not None and isinstance(a.raw, dict)
               and "formal-model issue" in a.raw.get("headers", {}))
    page = next(p for p in _pages(graph, "adr").values() if p.title.startswith(adr.front.id + ":")).content  # type: ignore[union-attr]
    front, body = page.split('id="decision"', 1)
    assert "Formal-model issue" in _text(front) and 'href="https://' in front
    assert "Formal-model issue" not in _text(body) and "Decision date" not in _text(body)
    assert _text(body).strip(), "the decision text itself is still there"
