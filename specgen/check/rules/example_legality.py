"""example-legality: a concrete contract example uses a DataType the legality prose admits.

A warning when the prose excludes the example's DataType while the ASL
(``InstructionContractDataTypeLegal_<MN>``) admits it. It reads the same run of every example as
``example-mismatch``.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...examples.results import run_suite
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in run_suite(graph).findings if f.rule == RULE.id]


RULE = Rule("example-legality", Severity.WARNING,
            "A contract example uses a DataType the legality prose excludes but the ASL admits.",
            "Make the legality prose and InstructionContractDataTypeLegal_<MN> agree.", check,
            requires=("contracts",))
