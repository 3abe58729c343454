"""ndf-bad-attribute: a clause's attribute line is ``// ndf: kind=K level=L layer=Y status=S`` with the allowed values.

The loader finds it while it reads the unit (:mod:`specgen.loader.asl_units`); the rule reports
what the loader found, so ``--only`` and ``--disable`` select it like any other.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule, loader_findings


def check(graph: SpecGraph) -> Iterable[Finding]:
    return loader_findings(graph, RULE.id)


RULE = Rule("ndf-bad-attribute", Severity.ERROR, "An NDF attribute line is malformed.",
            "Write '// ndf: kind=K level=L layer=Y status=S' with the allowed values.", check)
