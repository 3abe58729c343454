"""The traceability check: one registry of rules, each ``(graph) -> findings``.

:data:`RULES` lists every rule by id, in the order they run; rule ``a-b`` is ``RULE`` of
``check/rules/a_b.py``, imported when a check asks for it (the ASL, encoding and example
rules load the interpreter, which ``specgen rules --help`` or a check answered from the
result cache never needs). ``run_checks`` enables or disables them by id. Loader findings
(parse and model errors) are part of every check run: a record that does not validate
cannot be traced.
"""

from __future__ import annotations

import importlib
from typing import Iterable, Sequence

from ..diagnostics import Finding, drop_followers, sorted_unique
from ..graph import SpecGraph
from .base import Rule
from .needs import NOT_RUN, Gap, absorbed, missing_facts, not_run_findings

RULES: tuple[str, ...] = (
    "manifest-missing-file",
    "manifest-hash-mismatch",
    "manifest-content-hash",
    "manifest-unlisted-file",
    "manifest-unsafe-path",
    "ndf-duplicate-id",
    "ndf-unterminated",
    "ndf-mismatched-end",
    "ndf-bad-attribute",
    "ndf-hash",
    "ndf-dangling-reference",
    "test-missing-source",
    "test-dangling-requirement",
    "test-path-mismatch",
    "test-duplicate-id",
    "instruction-untested",
    "instruction-dangling-dependency",
    "instruction-missing-artifact",
    "adr-missing",
    "adr-bad-status",
    "adr-dangling-link",
    "adr-dangling-affected",
    "evidence-stale",
    "doc-case-collision",
    "asl-syntax",
    "asl-duplicate",
    "asl-unknown-name",
    "asl-arity",
    "asl-type",
    "generated-asl",
    "spec-contract",
    "instruction-tile-class",
    "encoding-overlap",
    "encoding-gap",
    "encoding-width",
    "encoding-collision",
    "encoding-record",
    "legality-prose-mismatch",
    "example-mismatch",
    "example-fault",
    "example-sketch",
    "example-legality",
)


def rule_module(rule_id: str) -> str:
    """The module that defines rule ``rule_id``: its id with ``_`` for ``-``, under ``check/rules/``."""
    return f"{__name__}.rules.{rule_id.replace('-', '_')}"


def rule(rule_id: str) -> Rule:
    """The registered rule ``rule_id`` (a ``KeyError`` for an id :data:`RULES` does not list)."""
    if rule_id not in RULES:
        raise KeyError(rule_id)
    found: Rule = importlib.import_module(rule_module(rule_id)).RULE
    return found


def all_rules(ids: Sequence[str] = RULES) -> list[Rule]:
    """The rules ``ids`` (default: every registered rule), in that order."""
    return [rule(r) for r in ids]


def run_checks(graph: SpecGraph, *, only: Iterable[str] = (), disable: Iterable[str] = (),
               rules: Sequence[Rule] | None = None) -> tuple[list[Finding], list[Rule]]:
    """Run the enabled rules; return sorted, deduplicated findings and the rules that ran.

    A rule whose required facts the tree lacks does not run; each cause is one
    ``rule-not-run`` finding naming the rules it stopped (see :mod:`.needs`).
    """
    only_set, disabled = set(only), set(disable)
    ran: list[Rule] = []
    findings: list[Finding] = []
    rule_ids = set()
    stopped: dict[Gap, list[str]] = {}
    for r in rules if rules is not None else all_rules():
        rule_ids.add(r.id)
        if (only_set and r.id not in only_set) or r.id in disabled:
            continue
        gaps = missing_facts(graph, r.requires)
        if gaps:
            for gap in gaps:
                stopped.setdefault(gap, []).append(r.id)
            continue
        ran.append(r)
        findings.extend(r.check(graph))
    # loader findings of kinds that have no rule of their own are always reported
    for f in graph.spec.findings:
        if f.rule not in rule_ids and (not only_set or f.rule in only_set) and f.rule not in disabled:
            findings.append(f)
    findings = drop_followers(findings, graph.spec.findings)  # what only follows from an unusable file
    if any(f.rule.startswith("asl-") for f in findings):  # one cause, one finding: drop what follows from it
        from ..asl.static import drop_consequences
        findings = drop_consequences(graph, findings)
    if stopped and NOT_RUN not in disabled:
        findings = absorbed(findings, stopped) + not_run_findings(stopped)
    return sorted_unique(findings), ran
