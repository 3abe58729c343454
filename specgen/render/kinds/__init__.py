"""Every kind of generated page, registered by name (the way markdown-it-py lists its rules).

A kind is one module: its name, its template, the function that builds the
template's context, and what keys its cache entry beyond its files. Which pages
of each kind exist is planned in :mod:`specgen.render.pages`; a new kind is a
new module here and one entry in :data:`KINDS`.
"""

from __future__ import annotations

from ..pages import PageKind
from . import (adr, adr_index, avs, avs_index, changes, home, index, instruction, instruction_index, matrix, release,
               source, unit)

KINDS: tuple[PageKind, ...] = (
    instruction.KIND, unit.KIND, avs.KIND, index.KIND, home.KIND, adr.KIND, adr_index.KIND,
    avs_index.KIND, matrix.KIND, release.KIND, source.KIND, changes.KIND, instruction_index.KIND,
)
BY_NAME: dict[str, PageKind] = {k.name: k for k in KINDS}

__all__ = ["BY_NAME", "KINDS", "PageKind"]
