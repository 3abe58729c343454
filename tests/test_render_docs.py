"""Pages for the tree's own prose documents (``docs/**/*.md`` that is not an ADR, not site configuration and
not a generated copy of a unit): one per language, links rewritten to the site's pages, headings anchored.

On the bundled spec (its ``docs/development/reading-the-spec.md``), on a copy with documents of every kind
added, and on both corpora (0.58.3: 18 free-standing documents; 0.58.0: 1). The older layout's
``docs/instructions/`` is covered in tests/test_release_variants.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.loader.docs import scan_doc
from specgen.render import RenderOptions, render_site
from specgen.render.markdown import github_slug, render_markdown

BUNDLED_DOC = "docs/development/reading-the-spec.md"
CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def _doc_pages(root: Path, **options: object) -> dict[str, str]:
    graph = SpecGraph.build(load_spec(root))
    pages = render_site(graph, RenderOptions(examples=False, **options),  # type: ignore[arg-type]
                        only=lambda p: p.kind.name in ("doc", "doc-index", "adr", "home"))
    return {p.url: p.content for p in pages}


def _hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def test_markdown_headings_links_and_raw_html() -> None:
    """GitHub's anchors, unique; an H1 in the body is an H2; comments dropped; other HTML shown as text; an
    unresolved link keeps its text without an href; a repository image is its alt text."""
    body, headings = render_markdown(
        "<!-- GENERATED FILE: do not edit -->\n# Again\n## Pull-request environment\n## Pull-request environment\n"
        "## `B.FPATR` (7 fields)?\n<div onclick=x>raw</div>\n\nA <b>b</b> [kept](k) [gone](g) ![a chart](c.png)\n",
        lambda href: "/ok" if href == "k" else None)
    assert [h.anchor for h in headings] == ["again", "pull-request-environment", "pull-request-environment-1",
                                            "bfpatr-7-fields"]
    assert all(h.level == 2 for h in headings) and "<h1" not in body
    assert '<h2 id="again">Again<a class="headerlink" href="#again" aria-label="¶">¶</a></h2>' in body
    assert "GENERATED" not in body and "<div" not in body and "<b>" not in body
    assert "&lt;div onclick=x&gt;" in body and "&lt;b&gt;" in body
    assert '<a href="/ok">kept</a>' in body and " gone " in body and "a chart" in body and "<img" not in body
    assert github_slug("ADR and NDF process") == "adr-and-ndf-process"


def test_a_documents_title_marker_and_front_matter() -> None:
    """The marker (and any other comment above the title) and an mkdocs page's YAML meta are not text; the
    title is the first H1, else the meta's title, else the file name."""
    sha = "0" * 64
    doc = scan_doc("docs/a/x.md", sha, "<!-- GENERATED FROM: ./asl/a/X.asl -->\n<!-- note -->\n\n# X unit\n\nBody\n")
    assert (doc.generated_from, doc.title, doc.title_line, doc.body.strip(), doc.body_line) == \
        ("asl/a/X.asl", "X unit", 4, "Body", 5)
    assert scan_doc("docs/y.md", sha, "<!-- GENERATED FROM: ../outside.asl -->\nText\n").generated_from is None
    meta = scan_doc("docs/z.md", sha, "---\ntitle: 'Release notes'\nhide: [toc]\n---\n\nFirst line\n")
    assert (meta.title, meta.title_line, meta.body) == ("Release notes", 2, "First line\n")
    assert scan_doc("docs/plain.md", sha, "no heading\n").title == "plain"


def test_hostile_document_renders_inert() -> None:
    """Raw HTML is parsed (so a comment can be dropped) but never passed through, whatever the resolver says."""
    body, _ = render_markdown("<script>alert(1)</script>\n\nx <img src=x onerror=alert(2)> "
                              "[j](javascript:alert(3)) {{ 7*7 }}\n", lambda href: href)
    assert "<script" not in body and "<img" not in body and not re.search(r"<[^>]+\son\w+=", body)
    assert not re.search(r'href="\s*javascript:', body, re.I) and "{{ 7*7 }}" in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_bundled_doc_page_in_both_languages(bundled_root: Path) -> None:
    pages = _doc_pages(bundled_root)
    en, zh = pages["en/docs/development/reading-the-spec.md"], pages["zh/docs/development/reading-the-spec.md"]
    assert "Reading this specification" in en and 'id="where-the-rules-are"' in en
    assert "sg-doc-lang" not in en and "本文档按规范仓库中的原文显示" in zh  # the zh page says it is untranslated
    assert 'lang="en"' in zh
    hrefs = _hrefs(en)
    assert "../../tile/elementwise-tile-tile/arithmetic/TMUL.html" in hrefs  # an ASL file: its unit page
    assert "../../arch/data-types/tile-data-types.html" in hrefs
    assert "../../adr/0001-executable-datatype-sets.html" in hrefs  # an ADR: its page
    assert "../../adr/index.html" in hrefs  # the ADR folder: the ADR index
    assert "../../release.html#artifacts" in hrefs  # a JSON artifact: the release page's table
    assert "#where-the-rules-are" in hrefs
    assert not [h for h in hrefs if h.endswith(".md") or ".md#" in h or h.endswith(".asl")]
    index = pages["en/docs/index.md"]
    assert "development/reading-the-spec.html" in index and BUNDLED_DOC in index
    assert "docs/index.html" in pages["en/index.md"]  # the home page links the documents index


def test_every_kind_of_document(bundled_copy: Path) -> None:
    """Generated copies get no page and a link to one opens the unit; site configuration and ADRs are not
    documents; a generated copy whose source is absent is shown, saying so; a link to anything without a
    page stays text; an ADR body's link to a document opens the document's page."""
    docs = bundled_copy / "docs"
    (docs / "tile/elementwise-tile-tile/arithmetic").mkdir(parents=True)
    (docs / "tile/elementwise-tile-tile/arithmetic/TMUL.md").write_text(
        "<!-- GENERATED FROM: asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl -->\n# TMUL\n\ncopy\n")
    (docs / "tile/gone.md").write_text("<!-- GENERATED FROM: asl/tile/gone/GONE.asl -->\n# GONE\n\nold copy\n")
    (docs / "mkdocs").mkdir()
    (docs / "mkdocs/mkdocs.yml").write_text("site_name: x\n")
    (docs / "mkdocs/overrides.md").write_text("# Not prose\n")
    (docs / "index.md").write_text(
        "# Docs home\n\n[copy](tile/elementwise-tile-tile/arithmetic/TMUL.md#operands) [guide](development/"
        "reading-the-spec.md#how-a-release-is-bound) [missing](nowhere.md) [script](../tools/x.py) "
        "[out](../../outside.md) [web](https://example.org/a) [docs](./) [tests](../tests/asl/) [a test](../tests/"
        "asl/arch/data-types/floating-formats/arch-exec-floating-formats-classify-001.asl)\n")
    adr = bundled_copy / "docs/status/decisions/0001-executable-datatype-sets.md"
    adr.write_text(adr.read_text() + "\nSee [the guide](../../development/reading-the-spec.md).\n")
    spec = load_spec(bundled_copy)
    by_path = {d.path: d for d in spec.docs}
    assert "docs/mkdocs/overrides.md" not in by_path and not [p for p in by_path if "/decisions/" in p]
    assert by_path["docs/tile/elementwise-tile-tile/arithmetic/TMUL.md"].body == ""  # the unit page replaces it
    pages = _doc_pages(bundled_copy)
    docs_pages = sorted(u for u in pages if u.startswith("en/docs/"))
    assert docs_pages == ["en/docs/development/reading-the-spec.md", "en/docs/index-doc.md", "en/docs/index.md",
                          "en/docs/tile/gone.md"]
    gone = pages["en/docs/tile/gone.md"]
    assert "asl/tile/gone/GONE.asl" in gone and "old copy" in gone and "sg-doc-generated" in gone
    home = pages["en/docs/index-doc.md"]
    hrefs = _hrefs(home)
    assert "../tile/elementwise-tile-tile/arithmetic/TMUL.html" in hrefs  # the unit page, not a copy
    assert "development/reading-the-spec.html#how-a-release-is-bound" in hrefs
    assert "https://example.org/a" in hrefs and "index.html" in hrefs  # the docs folder: the documents index
    assert "../tests/index.html" not in hrefs  # a folder without an index page stays text
    assert "../tests/arch/data-types/floating-formats.html#PTO-AVS-ARCH-FLOATING-FORMATS-001" in hrefs  # its entry
    for text in ("missing", "script", "out", "tests"):
        assert f">{text}</a>" not in home and text in home
    adr_page = next(c for u, c in pages.items() if u == "en/adr/0001-executable-datatype-sets.md")
    assert "../docs/development/reading-the-spec.html" in _hrefs(adr_page)
    # with a repository to link, a file without a page links to its source at the release commit
    linked = _doc_pages(bundled_copy, source_url="https://git.example/{commit}/{path}#L{start}", commit="abc")
    assert "https://git.example/abc/tools/x.py#L1" in _hrefs(linked["en/docs/index-doc.md"])


@pytest.mark.corpus
@pytest.mark.parametrize("release, count", [("0.58.3", 18), ("0.58.0", 1)])
def test_corpus_documents(release: str, count: int) -> None:
    """Every free-standing document of a release has its page in each language, linking only pages the site
    has (render_site's link check) and no repository file; generated copies have none."""
    root = CORPORA / f"pto-spec-{release}"
    if not root.is_dir():
        pytest.skip("corpus not present")
    spec = load_spec(root)
    free = [d for d in spec.docs if d.generated_from is None]
    assert len(free) == count
    assert all(d.generated_from in {u.path for u in spec.units} for d in spec.docs if d.generated_from)
    pages = _doc_pages(root)
    for lang in ("en", "zh"):
        ours = [u for u in pages if u.startswith(f"{lang}/docs/") and u != f"{lang}/docs/index.md"]
        assert len(ours) == count, ours
    for url, html in pages.items():
        if url.startswith("en/docs/"):
            assert not [h for h in _hrefs(html) if re.search(r"\.(md|asl|json)(#|$)", h)], url
            assert len(html.encode()) < spec.config.page_budget_bytes
    if release == "0.58.3":
        layout = _hrefs(pages["en/docs/development/repository-layout.md"])
        assert "../../arch/overview/architecture.html" in layout  # a generated copy: its unit's page
        assert "../governance/adr-process.html" in layout
        process = _hrefs(pages["en/docs/governance/adr-process.md"])
        assert "../../adr/index.html" in process and "../status/open/index-doc.html" in process
        opened = _hrefs(pages["en/docs/status/open/index-doc.md"])
        assert "../../../adr/0086-numeric-profile-applicability.html" in opened
