"""The whole check of one root, the work of a result-cache miss: load, build the graph, run the rules.

The command line asks the result cache first (:mod:`specgen.resultcache`) and
comes here only when something the last check observed has changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from ..graph import SpecGraph
from ..loader import load_spec
from ..memory import collector_paused
from ..resultcache import CheckResult
from . import RULES, run_checks
from .facts import manifest_facts

EXAMPLE_RULES = ("example-mismatch", "example-fault", "example-sketch", "example-legality")


class UnknownRuleError(ValueError):
    """``only`` or ``disable`` names a rule id no rule has."""

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        super().__init__(f"unknown rule id(s): {', '.join(unknown)} (known: {', '.join(known)})")
        self.unknown, self.known = list(unknown), list(known)


def compute(root: Path, only: Sequence[str], disable: Sequence[str], *, examples: bool = True,
            stage: Callable[[str], None] | None = None) -> CheckResult:
    """Run the check; the result carries the observation log the result cache replays.

    ``examples=False`` also disables the rules that run the spec's checked
    examples (:data:`EXAMPLE_RULES`), the slowest part of a check. Raises the
    loader's ``RootError`` for an unreadable root and :class:`UnknownRuleError`. ``stage`` is told
    when each stage starts (the command line's progress).
    """
    stage = stage or (lambda name: None)
    disabled = [*disable, *(() if examples else EXAMPLE_RULES)]
    known = set(RULES)
    unknown = sorted((set(only) | set(disabled)) - known)
    if unknown:  # before loading anything: a typo in a rule id costs nothing
        raise UnknownRuleError(unknown, sorted(known))
    with collector_paused():
        stage("load")
        spec = load_spec(root)
        stage("rules")
        graph = SpecGraph.build(spec)
        findings, ran = run_checks(graph, only=only, disable=disabled)
        facts = manifest_facts(graph)
    counts = dict(spec.counts())
    if spec.manifest is not None:
        counts["manifest_entries"] = facts.listed
        counts["manifest_entries_verified"] = facts.verified
    return CheckResult(findings=findings,
                       rules=[(r.id, r.severity.value, r.description, r.help) for r in ran],
                       counts=counts, release=spec.config.release or None,
                       content_sha256=spec.manifest.content_sha256 if spec.manifest is not None else None,
                       log=dict(spec.fs.log) if spec.fs is not None else {})
