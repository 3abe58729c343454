"""The traceability check: a registry of rules, each ``(graph) -> findings``.

:data:`RULES` lists every rule by id, in the order they run; ``run_checks``
enables or disables them by id. Loader findings (parse and model errors) are
part of every check run: a record that does not validate cannot be traced.
"""

from __future__ import annotations

from typing import Iterable

from ..diagnostics import Finding, drop_followers, sorted_unique
from ..graph import SpecGraph
from .base import Rule, loader_rule
from .needs import NOT_RUN, Gap, absorbed, missing_facts, not_run_findings
from .rules import (adr_bad_status, adr_dangling_link, adr_missing, avs_dangling_requirement, avs_duplicate_id,
                    avs_missing_source, avs_path_mismatch, evidence_stale, instruction_dangling_dependency,
                    instruction_missing_artifact, instruction_untested, manifest_content_hash,
                    manifest_hash_mismatch, manifest_missing_file, manifest_unlisted_file, manifest_unsafe_path,
                    ndf_dangling_reference, ndf_duplicate_id, ndf_hash)

RULES: list[Rule] = [
    manifest_missing_file.RULE,
    manifest_hash_mismatch.RULE,
    manifest_content_hash.RULE,
    manifest_unlisted_file.RULE,
    manifest_unsafe_path.RULE,
    ndf_duplicate_id.RULE,
    loader_rule("ndf-unterminated", "An NDF clause is never closed.", "Add the matching '// NDF-END: ID'."),
    loader_rule("ndf-mismatched-end", "An NDF-END names another clause.", "Close the clause with its own ID."),
    loader_rule("ndf-bad-attribute", "An NDF attribute line is malformed.",
                "Write '// ndf: kind=K level=L layer=Y status=S' with the allowed values."),
    ndf_hash.RULE,
    ndf_dangling_reference.RULE,
    avs_missing_source.RULE,
    avs_dangling_requirement.RULE,
    avs_path_mismatch.RULE,
    avs_duplicate_id.RULE,
    instruction_untested.RULE,
    instruction_dangling_dependency.RULE,
    instruction_missing_artifact.RULE,
    adr_missing.RULE,
    adr_bad_status.RULE,
    adr_dangling_link.RULE,
    adr_dangling_link.AFFECTED,
    evidence_stale.RULE,
]

def all_rules() -> list[Rule]:
    """Every rule: the traceability rules, then those that read encodings or run the spec's ASL."""
    from .rules import (asl_arity, asl_syntax, asl_type, asl_unknown_name,  # lazy: they import the interpreter
                        encoding_collision, encoding_gap, encoding_overlap, encoding_record,  # or read the
                        encoding_width, examples, instruction_tile_class,  # spec's vocabulary
                        legality_prose_mismatch, spec_contract)
    return (RULES + [asl_syntax.RULE, asl_unknown_name.RULE, asl_arity.RULE, asl_type.RULE, spec_contract.RULE]
            + [instruction_tile_class.RULE, encoding_overlap.RULE, encoding_gap.RULE, encoding_width.RULE,
               encoding_collision.RULE, encoding_record.RULE] + [legality_prose_mismatch.RULE] + examples.RULES)


def run_checks(graph: SpecGraph, *, only: Iterable[str] = (), disable: Iterable[str] = (),
               rules: list[Rule] | None = None) -> tuple[list[Finding], list[Rule]]:
    """Run the enabled rules; return sorted, deduplicated findings and the rules that ran.

    A rule whose required facts the tree lacks does not run; each cause is one
    ``rule-not-run`` finding naming the rules it stopped (see :mod:`.needs`).
    """
    only_set, disabled = set(only), set(disable)
    ran: list[Rule] = []
    findings: list[Finding] = []
    rule_ids = set()
    stopped: dict[Gap, list[str]] = {}
    for rule in rules if rules is not None else all_rules():
        rule_ids.add(rule.id)
        if (only_set and rule.id not in only_set) or rule.id in disabled:
            continue
        gaps = missing_facts(graph, rule.requires)
        if gaps:
            for gap in gaps:
                stopped.setdefault(gap, []).append(rule.id)
            continue
        ran.append(rule)
        findings.extend(rule.check(graph))
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
