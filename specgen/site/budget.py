"""The page budget: the largest generated page body a site accepts, and who set it.

The site owner decides for the site (plugin ``page_budget``, ``specgen build --page-budget``): a release
is read-only and hashed, so its own ``[specgen] page_budget_bytes`` can only override specgen's default.
Nothing here imports a site engine: the command line parses ``--page-budget`` before it chooses one
(:mod:`specgen.site.engine`), and the plugin's option validates with the same :func:`byte_size`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..graph import SpecGraph

_UNITS = {"": 1, "b": 1, "kb": 1000, "kib": 1024, "mb": 1000 ** 2, "mib": 1024 ** 2}


def byte_size(value: object) -> int:
    """A size in bytes: a whole number, or text with a unit (``1500000``, ``"2 MiB"``, ``"512 KiB"``)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a size in bytes (e.g. 2097152 or '2 MiB'), got {value!r}")
    if isinstance(value, int):
        n = value
    else:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", str(value))
        if m is None or m.group(2).lower() not in _UNITS:
            raise ValueError(f"expected a size in bytes (e.g. 2097152 or '2 MiB'), got {value!r}")
        n = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if n < 1:
        raise ValueError(f"a size must be positive, got {value!r}")
    return n


def page_budget(graph: SpecGraph, option: int | None) -> tuple[int, str]:
    """The page budget and where it was set: the site owner's option (plugin ``page_budget``,
    ``specgen build --page-budget``) over the tree's ``[specgen] page_budget_bytes`` over the default."""
    if option is not None:
        return option, "page_budget / --page-budget"
    sg = graph.spec.config.raw.get("specgen")
    if isinstance(sg, dict) and "page_budget_bytes" in sg:
        return graph.spec.config.page_budget_bytes, "[specgen] page_budget_bytes"
    return graph.spec.config.page_budget_bytes, "the default; set page_budget / --page-budget"
