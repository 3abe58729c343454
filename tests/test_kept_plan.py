"""The pages' plan kept between revisions (a server's): the same pages as a fresh plan after any edit.

:mod:`specgen.render.plan_query` keeps the plan (a workspace query of the tree's structure and the
symbol table's outline) while only units' prose changed, and plans again when anything planning reads
changed (a unit's record or markers or declarations, a test file, a catalog value, a file added). Each edit here is made to a copy of the bundled spec, the graph reloaded and the
site planned through the same :class:`~specgen.render.RenderCache` (nothing is rendered: ``only``
refuses every page); the kept or new plan must equal a plan made from scratch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderCache, RenderOptions, render_site
from specgen.render.kinds import plan_site

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"


def _plan(root: Path, cache: RenderCache) -> tuple[bool, bool]:
    """Plan ``root`` through ``cache``: (whether it planned, whether the plan equals a fresh one)."""
    graph = SpecGraph.build(load_spec(root))
    options = RenderOptions()
    render_site(graph, options, cache, only=lambda p: False)
    fresh = plan_site(graph, options.langs, local_sources=True)
    assert cache.plan is not None
    return cache.planned, cache.plan == fresh


def _prose(root: Path) -> None:
    p = root / TMUL
    lines = p.read_text(encoding="utf-8").split("\n")
    i = next(i for i, x in enumerate(lines) if x.startswith("// NDF-BEGIN:"))
    j = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("// ") and "ndf:" not in lines[j])
    lines[j] += " edited prose"
    p.write_text("\n".join(lines), encoding="utf-8")


def _unit_added(root: Path) -> None:
    (root / "asl/tile/model/execution/added.asl").write_text(
        '// PTO-UNIT: {"id":"PTO-UNIT-ADDED","kind":"model","summary":"An added unit"}\n'
        "func AddedHelper(x : integer) => integer\nbegin\n    return x;\nend\n", encoding="utf-8")


def _catalog_value(root: Path) -> None:
    p = root / "spec/catalog/tile-operations.json"
    doc = json.loads(p.read_text(encoding="utf-8"))
    doc["isa"] = doc["isa"] + " (edited)"
    p.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def _test_added(root: Path) -> None:
    src = root / "tests/asl/arch/profile/reset/arch-state-reset-clears-state-001.asl"
    text = src.read_text(encoding="utf-8").replace("PTO-AVS-ARCH-RESET-001", "PTO-AVS-ARCH-RESET-099")
    text = text.replace('"source":"asl/arch/profile/reset.asl"', f'"source":"{TMUL}"')
    (src.parent / "arch-state-reset-clears-state-099.asl").write_text(text, encoding="utf-8")


def _clause_added(root: Path) -> None:
    p = root / TMUL
    text = p.read_text(encoding="utf-8")
    p.write_text(text + "\n// NDF-BEGIN: PTO-TMUL-ADDED-001\n// ndf: an added clause\n// Added text.\n"
                 "// NDF-END: PTO-TMUL-ADDED-001\n", encoding="utf-8")


def _helper_used(root: Path) -> None:
    """An ASL body now calls another function: the names the unit uses change (its pages' links)."""
    p = root / TMUL
    text = p.read_text(encoding="utf-8")
    begin = text.index("\nbegin", text.index("\nfunc ")) + 1
    end = text.index("\n", begin)
    p.write_text(text[:begin] + "begin let kept_plan_probe = UInt('1');" + text[end:], encoding="utf-8")


@pytest.mark.parametrize("edit,replans", [(_prose, False), (_unit_added, True), (_catalog_value, True),
                                          (_test_added, True), (_clause_added, True), (_helper_used, True)])
def test_the_kept_plan_is_a_fresh_plan(bundled_copy: Path, monkeypatch: pytest.MonkeyPatch,
                                       edit: Callable[[Path], None], replans: bool) -> None:
    monkeypatch.setenv("SPECGEN_CHECK_PLAN", "1")  # a kept plan is compared with a new one as well
    cache = RenderCache()
    assert _plan(bundled_copy, cache) == (True, True)
    edit(bundled_copy)
    planned, same = _plan(bundled_copy, cache)
    assert same
    assert planned is replans
    edit_again = _prose  # and a prose edit after it keeps the plan made for the edited tree
    edit_again(bundled_copy)
    assert _plan(bundled_copy, cache) == (False, True)
