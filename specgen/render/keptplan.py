"""The pages' plan kept between revisions of a tree: a server re-plans only when planning could change.

Planning every page's dependencies (:mod:`specgen.render.plan`) reads the graph's structure, not
its prose: which files exist, each unit's record lines (``// PTO-…``: its instruction, clause and
unit records), its NDF and DOC region markers, the ASL names it declares and uses (the symbol
table's digest of the unit), and the whole content of every other file (tests, ADRs, catalogs,
evidence, documents, the configuration). So a plan made for one revision is the plan of the next
when the set of files is the same and every file whose content changed is a unit whose *planning
part* (those lines and that digest) did not change: an NDF prose or DOC text edit, the common case
under ``specgen serve``, plans nothing. Anything else (a unit's record or declarations, a test file,
a catalog value, a file added or removed) plans every page again; so does a multi-release site.

``SPECGEN_CHECK_PLAN=1`` plans again anyway and fails when the kept plan differs (the tests set it).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Callable, Mapping

from ..graph import SpecGraph
from .plan import PagePlan
from .symbols import SYMBOLS

_MARKERS = ("// PTO-", "// NDF-BEGIN:", "// NDF-END:", "// DOC-BEGIN:", "// DOC-END:")


def planning_part(text: str, symbols: str) -> str:
    """What planning reads of one unit: its record and region marker lines, and its symbol-table digest."""
    lines = "\n".join(x for x in text.splitlines() if x.startswith(_MARKERS))
    return hashlib.blake2b(f"{symbols}\0{lines}".encode(), digest_size=16).hexdigest()


@dataclass
class KeptPlan:
    """One plan with what it was made from."""

    key: object  # the planning options (languages, source links, releases)
    files: Mapping[str, str]  # path -> SHA-256 of the revision it was made for
    texts: Mapping[str, str]  # unit path -> its text then (only the changed ones are ever read)
    symbols: Mapping[str, str]  # unit path -> its symbol-table digest then
    plans: list[PagePlan]


def still_valid(kept: KeptPlan | None, key: object, graph: SpecGraph) -> bool:
    """Whether ``kept`` is ``graph``'s plan (see the module docstring)."""
    if kept is None or kept.key != key:
        return False
    files = graph.spec.files
    if files.keys() != kept.files.keys():
        return False
    units = graph.units_by_path
    symbols = SYMBOLS(graph).digest_of_unit
    for path, sha in files.items():
        if kept.files[path] == sha:
            continue
        unit = units.get(path)
        before = kept.texts.get(path)
        if unit is None or before is None:
            return False
        if planning_part(before, kept.symbols.get(path, "")) != planning_part(unit.text, symbols.get(path, "")):
            return False
    return True


def plan_kept(kept: KeptPlan | None, key: object, graph: SpecGraph, plan: Callable[[], list[PagePlan]],
              reusable: bool = True) -> tuple[KeptPlan, bool]:
    """The plan of ``graph``: ``kept``'s when still valid, else ``plan()``; and whether it was kept."""
    if reusable and still_valid(kept, key, graph):
        assert kept is not None
        if os.environ.get("SPECGEN_CHECK_PLAN", "") not in ("", "0"):
            fresh = plan()
            if fresh != kept.plans:
                diff = sorted({p.uri for p in fresh} ^ {p.uri for p in kept.plans}
                              | {a.uri for a, b in zip(fresh, kept.plans) if a != b})
                raise AssertionError(f"the kept plan differs from a new one: {diff[:10]}")
        kept.files = dict(graph.spec.files)
        kept.texts = {u.path: u.text for u in graph.spec.units}
        kept.symbols = SYMBOLS(graph).digest_of_unit
        return kept, True
    return KeptPlan(key, dict(graph.spec.files), {u.path: u.text for u in graph.spec.units},
                    SYMBOLS(graph).digest_of_unit, plan()), False


__all__ = ["KeptPlan", "plan_kept", "planning_part", "still_valid"]
