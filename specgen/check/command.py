"""``specgen check``: load, build the graph, run the rules, write the report, pick the exit code."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from .. import __version__
from ..graph import SpecGraph
from ..loader import RootError, load_spec
from ..report import render_report
from ..report.summary import CheckSummary, RuleInfo
from . import all_rules, has_failures, run_checks
from .facts import manifest_facts


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..cli import UsageError
    t0 = time.perf_counter()
    try:
        spec = load_spec(args.root)
    except RootError as e:
        raise UsageError(str(e)) from e
    known = {r.id for r in all_rules()}
    unknown = sorted((set(args.only) | set(args.disable)) - known)
    if unknown:
        raise UsageError(f"unknown rule id(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    disable = list(args.disable)
    if getattr(args, "no_examples", False):
        disable += ["example-mismatch", "example-fault", "example-sketch", "example-legality"]
    graph = SpecGraph.build(spec)
    findings, ran = run_checks(graph, only=args.only, disable=disable)
    facts = manifest_facts(graph)
    counts = dict(spec.counts())
    if spec.manifest is not None:
        counts["manifest_entries"] = facts.listed
        counts["manifest_entries_verified"] = facts.verified
    summary = CheckSummary(
        tool_version=__version__, root=str(args.root), release=spec.config.release or None,
        counts=counts,
        rules=[RuleInfo(r.id, r.severity, r.description, r.help) for r in ran],
        elapsed_seconds=None if args.format != "text" else round(time.perf_counter() - t0, 2),
    )
    text = render_report(args.format, findings, summary)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 1 if has_failures(findings, args.strict) else 0


if __name__ == "__main__":  # pragma: no cover
    from ..cli import main
    sys.exit(main(["check", *sys.argv[1:]]))
