"""example-mismatch: a checked example's Tiles are what the spec's ASL computes from its inputs.

The examples on instruction pages are executed, and a wrong promise fails the check: the message
lists tile, row, column, expected and got. All four ``example-*`` rules read one run of every
example (:func:`specgen.examples.results.run_suite`, memoised on the graph and cached on disk), so
enabling several costs one run. It also runs on a tree without contract objects (0.58.0): its
checked example files (in the tree or beside it, :mod:`specgen.loader.example_root`) need only the
spec's command path.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...examples.results import run_suite
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in run_suite(graph).findings if f.rule == RULE.id]


RULE = Rule("example-mismatch", Severity.ERROR, "A checked example's result differs from what the ASL computes.",
            "Correct the expected values (they must be what the spec's ASL computes) or fix the ASL.", check)
