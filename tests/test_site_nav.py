"""The navigation the plugin supplies when mkdocs.yml has none, and the search entries it shapes."""

from __future__ import annotations

from types import SimpleNamespace

from specgen.render import Page
from specgen.render.kinds import BY_NAME
from specgen.render.plan import Search
from specgen.site.language import chunked, hand_title, language_section, supplied_nav
from specgen.site.searchindex import is_first_part, mnemonic_boost, page_does, shape_entries


def _page(url: str, kind: str, title: str) -> Page:
    return Page(url=url, title=title, kind=BY_NAME[kind], lang=url.split("/")[0], content="", depends_on=frozenset(),
                links=frozenset())


PAGES = [
    _page("en/index.md", "home", "Home"), _page("en/tile/index.md", "index", "Tile"),
    _page("en/tile/a/index.md", "index", "a"), _page("en/tile/a/TMUL.md", "instruction", "TMUL"),
    _page("en/tile/a/TADD.md", "instruction", "TADD"), _page("en/tests/index.md", "tests-index", "Tests"),
    _page("en/tests/tile/a/TMUL.md", "tests", "TMUL tests"), _page("en/instructions.md", "instruction-index", "All"),
    _page("en/traceability.md", "matrix", "Matrix"), _page("zh/index.md", "home", "首页"),
    _page("source/asl/tile/a/TMUL.md", "source", "TMUL.asl"),
]


def test_tree_surface_class_instruction_then_the_tail() -> None:
    section = language_section("en", [p for p in PAGES if p.lang == "en"], tree=True)
    assert section == {"English": [
        "en/index.md",
        {"Tile": ["en/tile/index.md", {"a": ["en/tile/a/index.md", {"TADD": "en/tile/a/TADD.md"},
                                              {"TMUL": "en/tile/a/TMUL.md"}]}]},
        {"All": "en/instructions.md"}, {"Tests": "en/tests/index.md"}, {"Matrix": "en/traceability.md"}]}


def test_documents_are_a_section_their_index_opens_in_the_tail() -> None:
    """The documents index is a tail entry (after the ADR index) that opens the documents by folder; no
    "docs" directory appears in the instruction tree."""
    docs = [_page("en/docs/index.md", "doc-index", "Documents"), _page("en/adr/index.md", "adr-index", "ADRs"),
            _page("en/docs/governance/validation.md", "doc", "Validation"),
            _page("en/docs/governance/adr-process.md", "doc", "ADR process"),
            _page("en/docs/releases/index-doc.md", "doc", "Releases"), _page("en/docs/top.md", "doc", "Top")]
    section = language_section("en", [p for p in PAGES if p.lang == "en"] + docs, tree=True)["English"]
    assert [next(iter(x)) if isinstance(x, dict) else x for x in section] == [
        "en/index.md", "Tile", "All", "Tests", "ADRs", "Documents", "Matrix"]
    assert section[5] == {"Documents": [
        "en/docs/index.md",
        {"governance": [{"ADR process": "en/docs/governance/adr-process.md"},
                        {"Validation": "en/docs/governance/validation.md"}]},
        {"releases": [{"Releases": "en/docs/releases/index-doc.md"}]},
        {"Top": "en/docs/top.md"}]}


class _Theme(dict):  # type: ignore[type-arg]
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


def test_supplied_nav_material_tree_other_themes_short() -> None:
    hand = {"index.md": "Home &amp; more", "about.md": "About"}
    material = SimpleNamespace(nav=None, theme=_Theme("material"))
    nav = supplied_nav(material, hand, PAGES, ["en", "zh"], "auto")
    assert nav is not None
    assert nav[0] == {"Home &amp; more": "index.md"} and nav[-1] == {"About": "about.md"}
    assert [next(iter(x)) for x in nav[1:3]] == ["English", "中文"]
    assert isinstance(nav[1]["English"], list)
    assert material.theme["features"] == ["navigation.prune"], "the tree is pruned to the page's path"
    plain = SimpleNamespace(nav=None, theme=_Theme("mkdocs"))
    assert supplied_nav(plain, hand, PAGES, ["en", "zh"], "auto")[1:3] == [{"English": "en/index.md"},
                                                                          {"中文": "zh/index.md"}]
    assert "features" not in plain.theme
    assert supplied_nav(SimpleNamespace(nav=["x.md"], theme=material.theme), hand, PAGES, ["en"], "auto") is None
    assert supplied_nav(material, hand, PAGES, ["en"], "none") is None


def test_long_directories_are_runs_and_titles_escaped() -> None:
    runs = chunked([{f"M{i:03}": f"en/d/M{i:03}.md"} for i in range(65)])
    assert [next(iter(r)) for r in runs] == ["M000 – M029", "M030 – M059", "M060 – M064"]
    assert hand_title("intro\n# A <b> title #\n") == "A &lt;b&gt; title"
    hostile = language_section("en", [_page("en/x/<i>.md", "instruction", "<img src=x>")], tree=True)
    assert "<img" not in repr(hostile)


def test_instruction_page_is_one_entry_summary_first() -> None:
    kinds = {"en/t/TMUL.html": Search.ONE_ENTRY, "en/t/index.html": Search.SECTIONS}
    entries = [
        {"location": "en/t/TMUL.html", "title": "TMUL", "text": "<ol><li>Home</li></ol> 中文"},
        {"location": "en/t/TMUL.html#summary", "title": "Summary",
         "text": "<p>Multiply.</p> ID<code>PTO-TILE-TMUL</code> · <code>PTO-INST-TILE-TMUL</code>"},
        {"location": "en/t/TMUL.html#ndf", "title": "Clauses", "text": "PTO-TMUL-CONTRACT-001\u00b6 Kind"},
        {"location": "en/t/TMUL.html#examples", "title": "Examples", "text": "long " * 500},
        {"location": "en/t/index.html", "title": "t", "text": "<ol><li>Home</li></ol> rows"},
        {"location": "about.html", "title": "About", "text": "<ol>kept</ol>"},
    ]
    out = shape_entries(entries, kinds)
    assert [e["location"] for e in out] == ["en/t/TMUL.html", "en/t/index.html", "about.html"]
    tmul = out[0]
    assert tmul["text"].startswith("<p>Multiply.</p>") and "PTO-TMUL-CONTRACT-001" in tmul["text"]
    # the clause ID is a tag too: typed in full, it finds the instruction first (issue 42)
    assert tmul["tags"] == ["TMUL", "PTO-TILE-TMUL", "PTO-INST-TILE-TMUL", "PTO-TMUL-CONTRACT-001"]
    assert "long" not in tmul["text"] and tmul["kind"] == "instruction"
    assert out[1]["text"] == "rows" and out[2]["text"] == "<ol>kept</ol>"
    assert mnemonic_boost("TMUL") > mnemonic_boost("TMULS") > 1
    # a kind the site does not search (source pages) is dropped (mkdocs' own search)
    kinds["en/source/t/TMUL.html"] = BY_NAME["source"].search
    assert shape_entries([{"location": "en/source/t/TMUL.html", "title": "t", "text": "x"}], kinds) == []
    # a test page is one entry without text, its tests' IDs (its section headings) as tags (issue 42)
    kinds["en/tests/t/TMUL.html"] = BY_NAME["tests"].search
    tests = shape_entries([{"location": "en/tests/t/TMUL.html", "title": "TMUL", "text": "long " * 50},
                           {"location": "en/tests/t/TMUL.html#A-1", "title": "PTO-AVS-TMUL-A-001", "text": "x"}],
                          kinds)
    assert tests == [{"location": "en/tests/t/TMUL.html", "title": "TMUL", "text": "", "tags": ["PTO-AVS-TMUL-A-001"]}]


def test_an_instruction_entry_carries_its_declared_words_for_ranking() -> None:
    """The page's ``data-sg-does`` (the words the tree declares about it, weighted) rides in its one entry,
    where the site script ranks instructions by it. An ASL definition's entry stays in the index's second part
    (5,883 definitions on 0.58.3 would take the first keystroke's download past 1.5 MB); the site script asks
    the query again when that part is in (issue 42)."""
    content = '<div class="sg-prose" data-sg-does="矩阵:2 乘法:1 odd 目标:x">'
    assert page_does(content) == {"矩阵": 2, "乘法": 1}
    kinds = {"zh/t/TMATMUL.html": Search.ONE_ENTRY}
    entries = [{"location": "zh/t/TMATMUL.html", "title": "TMATMUL", "text": ""},
               {"location": "zh/t/TMATMUL.html#summary", "title": "Summary", "text": "<p>Multiply.</p>"}]
    out = shape_entries(entries, kinds, does={"zh/t/TMATMUL.html": page_does(content)})
    assert out[0]["does"] == {"矩阵": 2, "乘法": 1}
    assert "does" not in shape_entries(entries, kinds)[0]
    definition = {"location": "en/a/b.html#L-3", "title": "ExecuteTileBinary", "text": "<code>func …</code>"}
    assert not is_first_part(definition)
