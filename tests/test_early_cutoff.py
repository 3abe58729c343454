"""Issue 38, item 3: early cutoff in a server's workspace keeps exactly what an edit left equal.

A server loads its tree again after every edit. When the edit leaves every unit's declarations and uses
equal (prose, a comment), the ASL index keeps the last load's very tables, the revision carries the last
revision's answers for the tree's names, and the symbol table is the last one. These tests check both
halves of that promise on a copy of the bundled spec: an equal edit is cut off (the same objects), and
every answer after either kind of edit equals what a fresh workspace computes from the same tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.asl.conformance import VERSION, conformance
from specgen.asl.revision import REVISION
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.symbols import SYMBOLS, build_symbols
from specgen.workspace import current, fresh, use
from treecopy import copy_tree

PROBE = "\npure func SpecgenCutoffProbe() => integer\nbegin\n    return 1;\nend;\n"
# a second declaration (an overload) of a name the unit declares: that name's answer changes
OVERLOAD = "\npure func {name}(specgen_probe: integer, specgen_other: integer) => integer\nbegin\n    return specgen_probe;\nend;\n"


@pytest.fixture
def served(tmp_path: Path, bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = copy_tree(bundled_root, tmp_path / "spec")
    fresh().long_lived = True  # a server's workspace
    yield root
    fresh()


def _graph(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


def _unit(graph: SpecGraph) -> tuple[Path, str]:
    """A source unit that declares a function, with a prose comment line; and that function's name."""
    index = REVISION(graph).index
    for fi, path in enumerate(index.files):
        funcs = sorted(n for n, locs in index.defs.items() if any(k == "func" and f == fi for k, f, _d in locs))
        if funcs and any(_prose(line) for line in index.units[fi].text.splitlines()):
            return graph.spec.root / path, funcs[0]
    raise AssertionError("the bundled spec has no unit with a function and a comment")


def _prose(line: str) -> bool:
    return line.startswith("// ") and not line.startswith(("// NDF-", "// PTO-", "// DOC-", "// ndf:"))


def _edit_prose(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, line in enumerate(lines) if _prose(line))
    lines[i] += " (edited)"
    path.write_text("\n".join(lines), encoding="utf-8")


def _answers(graph: SpecGraph) -> dict[str, str]:
    """Every tree name's ``asl:`` and ``def:`` answer, plus a name no unit declares yet."""
    revision = REVISION(graph)
    names = sorted(revision.index.defs) + ["SpecgenCutoffProbe"]
    return {k: revision.inputs.digest(k) for n in names for k in (f"asl:{n}", f"def:{n}")}


def _fresh_answers(root: Path) -> dict[str, str]:
    ws = current()
    fresh()
    try:
        return _answers(_graph(root))
    finally:
        use(ws)


def test_a_prose_edit_keeps_the_tables_and_the_answers_equal_a_fresh_workspace(served: Path) -> None:
    g1 = _graph(served)
    before = _answers(g1)
    symbols = SYMBOLS(g1)
    _edit_prose(_unit(g1)[0])
    g2 = _graph(served)
    assert REVISION(g2).index.defs is REVISION(g1).index.defs  # cut off: the last load's very tables
    assert REVISION(g2).index.refs is REVISION(g1).index.refs
    assert SYMBOLS(g2) is symbols
    after = _answers(g2)
    assert after == before
    assert after == _fresh_answers(served)
    assert build_symbols(g2, use_cache=False) == symbols


def test_a_declaration_edit_is_not_cut_off_and_answers_as_a_fresh_workspace(served: Path) -> None:
    g1 = _graph(served)
    before = _answers(g1)
    symbols = SYMBOLS(g1)
    unit, name = _unit(g1)
    original = unit.read_text(encoding="utf-8")
    unit.write_text(original + PROBE + OVERLOAD.format(name=name), encoding="utf-8")
    g2 = _graph(served)
    assert REVISION(g2).index.defs is not REVISION(g1).index.defs
    assert "SpecgenCutoffProbe" in REVISION(g2).index.defs
    after = _answers(g2)
    assert after["asl:SpecgenCutoffProbe"].startswith("tree:") and before["asl:SpecgenCutoffProbe"] == ""
    assert after[f"asl:{name}"] != before[f"asl:{name}"]  # not carried over from the last revision
    assert after == _fresh_answers(served)
    assert SYMBOLS(g2) is not symbols
    assert SYMBOLS(g2) == build_symbols(g2, use_cache=False)
    assert "SpecgenCutoffProbe" in SYMBOLS(g2).defs
    unit.write_text(original, encoding="utf-8")  # undone: every unit's summary is known, none is the last load's
    g3 = _graph(served)
    assert "SpecgenCutoffProbe" not in REVISION(g3).index.defs
    assert _answers(g3) == before


def test_a_moved_declaration_changes_the_symbol_table(served: Path) -> None:
    g1 = _graph(served)
    symbols = SYMBOLS(g1)
    unit, _name = _unit(g1)
    unit.write_text("// a line that moves every declaration of the unit down\n" + unit.read_text(encoding="utf-8"),
                    encoding="utf-8")
    g2 = _graph(served)
    assert SYMBOLS(g2) is not symbols  # the same names, one line further down: what a page links to moved
    assert SYMBOLS(g2) == build_symbols(g2, use_cache=False)


def test_unit_coverage_kept_between_revisions_equals_one_gathered_again(served: Path) -> None:
    g1 = _graph(served)
    conformance(g1, jobs=1, run=True)
    _edit_prose(_unit(g1)[0])
    g2 = _graph(served)
    kept = conformance(g2, jobs=1, run=False)
    assert kept.state == "complete"
    current().table("asl.conformance.by_unit").clear()  # gathered again from every result
    again = conformance(g2, jobs=1, run=False)
    assert again.coverage == kept.coverage and again.measuring == kept.measuring
    assert any(figures["executed"] for figures in kept.coverage.values())



def test_a_server_writes_the_index_packs_once_it_settles(served: Path, tmp_path: Path) -> None:
    _graph(served)
    ws = current()
    ws.deferred = {}  # a server's workspace (ServeState): cache files wait for the server to settle
    entries = tmp_path / "cache"

    def written() -> set[Path]:
        return {p for p in entries.rglob("*.entry")}

    before = written()
    unit, _name = _unit(_graph(served))
    unit.write_text(unit.read_text(encoding="utf-8") + PROBE, encoding="utf-8")
    g2 = _graph(served)
    assert "SpecgenCutoffProbe" in REVISION(g2).index.defs  # this process has the new index in memory
    assert ws.deferred and not any(p.name.startswith("index") for p in written() - before)
    ws.flush()
    assert not ws.deferred and any(p.name.startswith("index") for p in written() - before)
    fresh()  # another process reads what was written
    assert "SpecgenCutoffProbe" in REVISION(_graph(served)).index.defs


def test_results_stay_valid_exactly_while_what_they_read_is_unchanged(served: Path) -> None:
    """Moving the stores to a revision that carried answers compares only the other keys: a prose edit
    keeps every result, a second declaration of a name turns exactly the results that read it pending."""
    g1 = _graph(served)
    assert conformance(g1, jobs=1, run=True).state == "complete"
    unit, name = _unit(g1)
    _edit_prose(unit)
    assert conformance(_graph(served), jobs=1, run=False).state == "complete"
    store = REVISION(g1).layer.store("tests", VERSION)
    readers = {k.split("@")[0] for k, e in store.entries.items() if f"asl:{name}" in e.reads}
    assert readers, name
    unit.write_text(unit.read_text(encoding="utf-8") + OVERLOAD.format(name=name), encoding="utf-8")
    after = conformance(_graph(served), jobs=1, run=False)
    assert {o for o, out in after.outcomes.items() if out.status == "running"} == readers
