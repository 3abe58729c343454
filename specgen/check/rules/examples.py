"""example-*: the examples on instruction pages are executed, and a wrong promise fails the check.

All four rules read one run of every example (:func:`specgen.examples.results.run_suite`,
memoised on the graph and cached on disk), so enabling several costs one run.

* ``example-mismatch`` (error): a checked example's Tiles differ from what the ASL computes;
  the message lists tile, row, column, expected and got.
* ``example-fault`` (error): an unexpected fault, an expected fault that did not happen, or an
  example that cannot run (invalid file, syntax error, illegal input Tile).
* ``example-sketch`` (note): a ``contract.examples`` program that cannot run as written
  (placeholder operands such as ``ValidCol``/``SrcLeft``/``PE_MASK``, or commands the executor
  does not read); when its DataType is excluded by the legality prose but admitted by the ASL,
  the note says so too.
* ``example-legality`` (warning): a concrete contract example whose DataType the legality prose
  excludes while the ASL admits it.

The first two also run on a tree without contract objects (0.58.0): its checked example files
(in the tree or beside it, :mod:`specgen.loader.example_root`) need only the spec's command path.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...examples.results import run_suite
from ...graph import SpecGraph
from ..base import Rule


def _findings(graph: SpecGraph, rule_id: str) -> Iterable[Finding]:
    return [f for f in run_suite(graph).findings if f.rule == rule_id]


def _mismatch(graph: SpecGraph) -> Iterable[Finding]:
    return _findings(graph, "example-mismatch")


def _fault(graph: SpecGraph) -> Iterable[Finding]:
    return _findings(graph, "example-fault")


def _sketch(graph: SpecGraph) -> Iterable[Finding]:
    return _findings(graph, "example-sketch")


def _legality(graph: SpecGraph) -> Iterable[Finding]:
    return _findings(graph, "example-legality")


RULES: list[Rule] = [
    Rule("example-mismatch", Severity.ERROR, "A checked example's result differs from what the ASL computes.",
         "Correct the expected values (they must be what the spec's ASL computes) or fix the ASL.", _mismatch),
    Rule("example-fault", Severity.ERROR,
         "An example faults unexpectedly, does not fault as promised, or cannot run.",
         "Fix the program, its input Tiles or the expected fault; see docs-internal/examples.md.", _fault),
    Rule("example-sketch", Severity.NOTE, "A contract example cannot run as written (symbolic operands).",
         "Add a concrete checked example under examples/ to make the promise executable.", _sketch,
         requires=("contracts",)),
    Rule("example-legality", Severity.WARNING,
         "A contract example uses a DataType the legality prose excludes but the ASL admits.",
         "Make the legality prose and InstructionContractDataTypeLegal_<MN> agree.", _legality,
         requires=("contracts",)),
]
