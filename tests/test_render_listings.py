"""ASL listings: one element per source line, and linked pseudocode (definition and uses tables).

The oracle is the spec's own text: a definition's line must hold its
declaration, a use's line the using declaration, a listing's text the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderOptions, render_site
from specgen.render.html import highlight_asl
from specgen.render.searchtext import CLOSE, OPEN
from specgen.render.symbols import SYMBOLS, build_symbols
from specgen.render.xref import SYMBOLS_OF, symbol_deps
from htmltext import text as _text

TMUL_SRC = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
LINE = re.compile(r'<span class="ln"( id="([^"]+)")?>(.*?)\n</span>', re.S)


class FakeRefs:
    """Links ``Foo`` and ``Bar``: what a page's resolver answers."""

    def __init__(self) -> None:
        self.memo: dict[object, str] = {}

    def ref(self, name: str) -> tuple[str, str] | None:
        return {"Foo": ("u.html#L-3", 'func Foo(x: "q") => integer\na.asl:3'),
                "Bar": ("v.html#L-9", "type Bar of integer\nb.asl:9")}.get(name)


FAKE = FakeRefs()


@pytest.fixture(scope="module")
def bundled_graph(bundled_root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(bundled_root))


def test_each_source_line_is_one_line_element_with_its_anchor() -> None:
    src = '// PTO-TEST: {"id":"X"}\nfunc F(x: bits(4)) => integer\nbegin\n  /* a <b>\n c */ return 1 << 2;\n\nend;\n'
    marked = str(highlight_asl(src, first_line=7, anchor="L"))
    assert marked.startswith(OPEN) and marked.endswith(CLOSE)  # a region search never reads (searchtext.py)
    out = marked.removeprefix(OPEN).removesuffix(CLOSE)
    lines = LINE.findall(out.split("<code", 1)[1].split(">", 1)[1])
    assert [ident for _, ident, _ in lines] == [f"L-{n}" for n in range(7, 14)]
    # every child of <code> is a line element: nothing between them for a grid to split apart
    inner = out.split("<code", 1)[1].split(">", 1)[1].removesuffix("</code></pre></div>")
    assert LINE.sub("", inner) == ""
    assert "\n".join(_text(body) for _, _, body in lines) + "\n" == src
    assert 'counter-reset: sg-ln 6' in out  # numbers are a CSS counter starting at first_line
    assert "<b>" not in out and "copy" in out.split(">", 1)[0]


def test_defined_names_link_to_their_definition_with_the_signature_as_title() -> None:
    src = ("func Foo(v: Bar) => integer\nbegin\n  let Foo2 = Foo(1) + r.Foo; // Foo\n"
           '  return "Foo" + Bar;\nend;\n')
    out = str(highlight_asl(src, anchor="L", refs=FAKE))
    links = re.findall(r'<a class="sg-ref" href="([^"]+)" title="([^"]*)">(\w+)</a>', out)
    # Bar twice (a type and a use), Foo once (the call): not the declared name, not the field
    # r.Foo, not inside a comment or a string
    assert [(h, n) for h, _, n in links] == [("v.html#L-9", "Bar"), ("u.html#L-3", "Foo"), ("v.html#L-9", "Bar")]
    title = links[1][1]
    assert "&quot;q&quot;" in title and "&#10;" in title and "<" not in title
    assert _text(out.replace("\n</span>", "</span>\n")).rstrip("\n") == src.rstrip("\n")


def test_definition_table_matches_the_spec_text(bundled_graph: SpecGraph) -> None:
    table = SYMBOLS(bundled_graph)
    assert table is SYMBOLS(bundled_graph)  # once per graph
    units = bundled_graph.units_by_path
    kinds = {d.kind for ds in table.defs.values() for d in ds}
    assert {"func", "type", "enum_member"} <= kinds
    for ds in table.defs.values():
        for d in ds:
            line = units[d.path].text.split("\n")[d.line - 1]
            assert re.search(rf"\b{re.escape(d.name)}\b", line), (d, line)
            if d.kind != "enum_member":
                assert d.signature.split()[0] in line or d.name in d.signature
    for name, uses in table.used_by.items():
        assert any(d.kind == "func" for d in table.defs[name])
        for u in uses:
            text = units[u.path].text
            assert u.name in text.split("\n")[u.line - 1]
            assert re.search(rf"\b{re.escape(name)}\b", text)
    assert table.used_by, "no function of the bundled spec is used by another declaration"


def test_symbol_table_is_the_same_from_the_cache(bundled_graph: SpecGraph) -> None:
    fresh = build_symbols(bundled_graph, use_cache=False)
    cached = build_symbols(bundled_graph)
    assert fresh.defs == cached.defs and fresh.used_by == cached.used_by


def test_pages_depend_on_the_units_whose_definitions_they_link(bundled_graph: SpecGraph) -> None:
    table = SYMBOLS(bundled_graph)
    deps = symbol_deps(bundled_graph, TMUL_SRC)
    used = table.names_of_unit[TMUL_SRC]
    definers = {d.path for n in used for d in table.defs.get(n, ())} - {TMUL_SRC}
    # each as the digest of what the page shows of that unit (its definitions), not its whole file
    assert definers and {SYMBOLS_OF + p for p in definers} <= deps


def test_unit_and_source_pages_link_and_list_uses(bundled_graph: SpecGraph) -> None:
    table = SYMBOLS(bundled_graph)
    units = bundled_graph.units_by_path

    def model(path: str) -> bool:
        return units[path].instruction is None

    name, user = next((n, u) for n, us in sorted(table.used_by.items()) for u in us
                      if model(table.defs[n][0].path) and model(u.path) and u.path != table.defs[n][0].path)
    d = table.defs[name][0]
    stem = d.path.removeprefix("asl/").removesuffix(".asl")
    user_stem = user.path.removeprefix("asl/").removesuffix(".asl")
    pages = {p.url: p.content for p in render_site(bundled_graph, RenderOptions(),
                                                   only=lambda p: p.subject in (d.path, user.path)
                                                   and p.kind.name in ("unit", "source"))}
    row = re.search(rf'<tr id="def-{name}">(.*?)</tr>', pages[f"en/{stem}.md"], re.S)
    assert row, f"no definitions row for {name}"
    assert f'#L-{d.line}"' in row.group(1)
    for u in table.used_by[name]:
        assert f"<code>{u.name}</code>" in row.group(1) and f"{u.path}:{u.line}" in row.group(1)
    # a Chinese page links Chinese pages (links and line caches are shared by both languages)
    assert f"<tr id=\"def-{name}\">" in pages[f"zh/{stem}.md"]
    zh = pages[f"zh/{stem}.md"] + pages[f"zh/{user_stem}.md"]
    defs_zh = zh.split('<table class="sg-defs"', 1)[1].split("</table>", 1)[0]
    assert 'class="sg-ref"' in zh and not re.search(r'class="sg-ref" href="[^"]*\.\./en/', zh)
    assert "href=" in defs_zh and "../en/" not in defs_zh
    # the user's listing links the name to the definition's line, on the unit page and the source page
    leaf = re.escape(stem.rsplit("/", 1)[-1])
    for uri in (f"en/{user_stem}.md", f"zh/{user_stem}.md", f"source/{user.path.removesuffix('.asl')}.md"):
        assert re.search(rf'<a class="sg-ref" href="[^"]*/{leaf}\.html#L-{d.line}" title="[^"]*">{name}</a>',
                         pages[uri]), (uri, name)


@pytest.mark.corpus
def test_corpus_definition_table_is_complete_and_cheap(corpus_root: Path) -> None:
    graph = SpecGraph.build(load_spec(corpus_root))
    table = SYMBOLS(graph)
    units = graph.units_by_path
    assert sum(len(ds) for ds in table.defs.values()) > 5000
    for ds in list(table.defs.values())[::50]:
        d = ds[0]
        assert re.search(rf"\b{re.escape(d.name)}\b", units[d.path].text.split("\n")[d.line - 1]), d
    assert sum(len(us) for us in table.used_by.values()) > 1000


def test_the_listing_caches_do_not_keep_an_earlier_graph_alive(bundled_root: Path) -> None:
    """A server renders a new graph at every edit; the line and listing caches are keyed by the resolver of
    a page, which holds its graph. An earlier graph must be freed once nothing else uses it (it was kept
    until the caches evicted it: 40 MB more per edit on the corpus)."""
    import gc
    import weakref

    def rendered() -> weakref.ref[SpecGraph]:
        graph = SpecGraph.build(load_spec(bundled_root))
        pages = render_site(graph, RenderOptions(langs=("en",)), only=lambda p: p.kind.name == "instruction")
        assert any("sg-ref" in p.content for p in pages)  # listings with links were rendered and cached
        return weakref.ref(graph)

    first = rendered()
    second = rendered()
    gc.collect()
    assert first() is None
    assert second() is None or second() is not first()
