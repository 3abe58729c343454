"""example-sketch: a ``contract.examples`` program that cannot run as written is said once, as a note.

Placeholder operands such as ``ValidCol``/``SrcLeft``/``PE_MASK``, or commands the executor does not
read, make a sketch; when its DataType is excluded by the legality prose but admitted by the ASL,
the note says so too. It reads the same run of every example as ``example-mismatch``.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...examples.results import run_suite
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in run_suite(graph).findings if f.rule == RULE.id]


RULE = Rule("example-sketch", Severity.NOTE, "A contract example cannot run as written (symbolic operands).",
            "Add a concrete checked example under examples/ to make the promise executable.", check,
            requires=("contracts",))
