"""The pages' plan as a workspace query: planned again only when what planning reads changed.

Planning every page's dependencies (:mod:`specgen.render.plan`) reads the tree's structure
(:mod:`specgen.structure`: the files, every file but the units in full, each unit's record and region
lines) and the symbol table's outline of each unit (:attr:`~specgen.render.symbols.SymbolTable.digest_of_unit`:
the names it declares, at which lines, and the names it uses). Both are workspace inputs, so :data:`PLAN`
is a query of them: an NDF prose or DOC text edit, the common case under ``specgen serve``, plans
nothing, and neither does an ASL statement that declares and uses the same names at the same lines.
Anything else (a record, a marker, a declaration, a test file, a catalog value, a file added or removed)
plans every page again; a multi-release site plans every time (its plan reads the other releases).

``SPECGEN_CHECK_PLAN=1`` plans again anyway and fails when the kept plan differs (the tests set it).
"""

from __future__ import annotations

import os
from typing import Callable

from .. import structure
from ..graph import SpecGraph
from ..workspace import Query, Workspace, current
from .kinds import plan_site
from .plan import PagePlan
from .symbols import SYMBOLS


def _symbols_input(root: str) -> str:
    return f"symbols:{root}"


def _plan(ws: Workspace, arg: tuple[str, tuple[str, ...], bool]) -> list[PagePlan]:
    root, langs, local_sources = arg
    ws.input(structure.input_name(root))
    ws.input(_symbols_input(root))
    return plan_site(structure.graph_of(ws, root), langs, local_sources=local_sources)


PLAN: Query[list[PagePlan]] = Query("page plan", _plan)


def plan_pages(graph: SpecGraph, langs: tuple[str, ...], local_sources: bool,
               plan: Callable[[], list[PagePlan]] | None = None) -> tuple[list[PagePlan], bool]:
    """The plan of ``graph`` and whether it was planned now (False: the last revision's plan holds).

    ``plan``: a plan that is not a function of this tree alone (a multi-release site's), made every time."""
    if plan is not None:
        return plan(), True
    ws = current()
    with ws.lock:
        root = structure.enter(graph, ws)
        ws.set_input(_symbols_input(root), SYMBOLS(graph).digest_of_unit)
        before = ws.recomputed
        plans = ws.query(PLAN, (root, langs, local_sources))
        planned = ws.recomputed != before
    if not planned and os.environ.get("SPECGEN_CHECK_PLAN", "") not in ("", "0"):
        fresh = plan_site(graph, langs, local_sources=local_sources)
        if fresh != plans:
            diff = sorted({p.uri for p in fresh} ^ {p.uri for p in plans}
                          | {a.uri for a, b in zip(fresh, plans) if a != b})
            raise AssertionError(f"the kept plan differs from a new one: {diff[:10]}")
    return plans, planned


__all__ = ["PLAN", "plan_pages"]
