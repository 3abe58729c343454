"""example-fault: an example faults exactly where it promises to, and otherwise runs.

An unexpected fault, an expected fault that did not happen, or an example that cannot run (invalid
file, syntax error, illegal input Tile) is an error. It reads the same run of every example as
``example-mismatch`` and, like it, also runs on a tree without contract objects.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...examples.results import run_suite
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in run_suite(graph).findings if f.rule == RULE.id]


RULE = Rule("example-fault", Severity.ERROR, "An example faults unexpectedly, does not fault as promised, or cannot run.",
            "Fix the program, its input Tiles or the expected fault; see docs-internal/examples.md.", check)
