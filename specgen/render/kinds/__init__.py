"""Every kind of generated page, registered in one list (the way markdown-it-py lists its rules).

A kind is one module that declares a :class:`~specgen.render.plan.PageKind`:
its name, template and context, which pages of it exist with what they depend
on, where the navigation places them and how search shapes them. A new kind is
a new module here and one entry in :data:`KINDS`; nothing else names it. The
order of :data:`KINDS` is the order pages are planned in within a language.
"""

from __future__ import annotations

from ...graph import SpecGraph
from ..plan import PageKind, PagePlan, Planning, plan_pages
from . import (adr, adr_index, avs, avs_index, changes, doc, doc_index, home, index, instruction, instruction_index,
               matrix, notfound, release, source, unit)

KINDS: tuple[PageKind, ...] = (
    home.KIND, index.KIND, instruction.KIND, unit.KIND, avs.KIND, avs_index.KIND, adr.KIND, adr_index.KIND, doc.KIND,
    doc_index.KIND, matrix.KIND, instruction_index.KIND, release.KIND, changes.KIND, notfound.KIND, source.KIND,
)
BY_NAME: dict[str, PageKind] = {k.name: k for k in KINDS}


def plan_site(graph: SpecGraph, langs: tuple[str, ...], local_sources: bool, changes: bool = False,
              releases: tuple[str, ...] = ()) -> list[PagePlan]:
    """Every page of the site with its dependencies; ``changes``: a multi-release site (its changes pages)."""
    return plan_pages(Planning(graph, langs, local_sources, changes, releases), KINDS)


__all__ = ["BY_NAME", "KINDS", "PageKind", "plan_site"]
