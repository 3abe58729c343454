"""The example results of a graph, computed once: the one door the renderer and the check read them through.

:data:`run_suite` (a :class:`~specgen.graph.Derived` fact) runs them
(:class:`~specgen.examples.runner.Runner`, cached on disk by
:mod:`specgen.examples.pack`); :func:`example_results` is what the pages
read. The result types live in :mod:`specgen.examples.outcome` and are
named here for the pages.
"""

from __future__ import annotations

from ..graph import Derived, SpecGraph
from .outcome import ExampleResult, FaultInfo, ParsedLine, Suite, TileTable
from .runner import Runner

__all__ = ["ExampleResult", "FaultInfo", "ParsedLine", "Suite", "TileTable", "example_results", "run_suite"]


def _run_suite(graph: SpecGraph) -> Suite:
    """Every example of the spec, run once per graph (results cached on disk by content)."""
    return Runner(graph).run()


run_suite = Derived(_run_suite)


def example_results(graph: SpecGraph) -> dict[str, list[ExampleResult]]:
    """Every example of the spec by instruction mnemonic (checked files first, then contract examples)."""
    return run_suite(graph).results
