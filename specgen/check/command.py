"""``specgen check``, the work of a cache miss: load, build the graph, run the rules.

The CLI adapter (:func:`specgen.commands.cmd_check`) asks the result cache
first and comes here only when something the last check observed has changed.
"""

from __future__ import annotations

import argparse

from ..commands import rule_options
from ..graph import SpecGraph
from ..loader import RootError, load_spec
from ..resultcache import CheckResult
from . import all_rules, run_checks
from .facts import manifest_facts


def compute(args: argparse.Namespace) -> CheckResult:
    """Run the whole check; the result carries the observation log it depends on."""
    from ..cli import UsageError
    try:
        spec = load_spec(args.root)
    except RootError as e:
        raise UsageError(str(e)) from e
    only, disable = rule_options(args)
    known = {r.id for r in all_rules()}
    unknown = sorted((set(only) | set(disable)) - known)
    if unknown:
        raise UsageError(f"unknown rule id(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    graph = SpecGraph.build(spec)
    findings, ran = run_checks(graph, only=only, disable=disable)
    facts = manifest_facts(graph)
    counts = dict(spec.counts())
    if spec.manifest is not None:
        counts["manifest_entries"] = facts.listed
        counts["manifest_entries_verified"] = facts.verified
    return CheckResult(findings=findings,
                       rules=[(r.id, r.severity.value, r.description, r.help) for r in ran],
                       counts=counts, release=spec.config.release or None,
                       log=dict(spec.fs.log) if spec.fs is not None else {})
