"""What a check rule is: an id, a default severity, a description, and ``check(graph) -> findings``.

Like markdown-it-py's block rules, every rule is a plain function with the same
signature in a module of its own, named by the rule's id (``test-missing-source`` is
``check/rules/test_missing_source.py``), whose docstring states the rule; the one
registry (:data:`specgen.check.RULES`) lists every rule by id, in the order they run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..diagnostics import Finding, Severity
from ..graph import SpecGraph

CheckFn = Callable[[SpecGraph], Iterable[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    severity: Severity
    description: str
    help: str
    check: CheckFn
    # facts the rule reads (names in specgen.check.needs.FACTS); the registry skips the rule, with one
    # rule-not-run finding per cause, when the tree's format generation lacks one or it could not be read
    requires: tuple[str, ...] = ()


def loader_findings(graph: SpecGraph, rule_id: str) -> list[Finding]:
    """The findings of ``rule_id`` the loader already made while parsing (e.g. ``ndf-unterminated``)."""
    return [f for f in graph.spec.findings if f.rule == rule_id]
