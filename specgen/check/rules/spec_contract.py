"""spec-contract (warning): the tree lacks a name specgen's programs or generated ASL need.

What specgen expects a spec's ASL to define is listed once, in :mod:`specgen.speccontract`;
:func:`specgen.asl.contract_check.contract_findings` reports each absent name that something of
this tree depends on (a program entry, a name the generated dispatch refers to, a name a
validation shard its tests call needs), once, naming what needs it. What depends on it is not
derivable on this tree (the tests say ``not-derivable`` with the same reason), never failed.
"""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("spec-contract", Severity.WARNING, "The tree lacks a name specgen's programs or generated ASL need.",
            "Define the name (or tell specgen's spec contract its new name); until then what needs it is not "
            "derivable and says so.", check)
