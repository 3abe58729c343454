"""What a check rule is: an id, a default severity, a description, and ``check(graph) -> findings``.

Like markdown-it-py's block rules, every rule is a plain function with the same
signature in a file of its own, registered by name in one list
(:data:`specgen.check.RULES`) that can enable or disable it.
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


def loader_rule(rule_id: str, description: str, help_text: str) -> Rule:
    """A rule whose findings the loader already made while parsing (e.g. ``ndf-unterminated``)."""

    def check(graph: SpecGraph) -> Iterable[Finding]:
        return [f for f in graph.spec.findings if f.rule == rule_id]

    check.__doc__ = description
    return Rule(rule_id, Severity.ERROR, description, help_text, check)
