"""``specgen rules``: the catalogue of check rules, so a CI author can pick ``--only``/``--disable``
ids and read what a finding means without running a check."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from .exitcodes import ExitCode

NAME = "rules"
HELP = "list every check rule with its severity and help"
DESCRIPTION = ("List every rule 'specgen check' runs: its id (for --only and --disable), its severity, "
               "what it checks and how to fix what it finds.")
EPILOG = """examples:
  specgen rules
  specgen rules --format json > rules.json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Always 0: the catalogue depends on no spec tree."""
    from ..check import all_rules

    rules = sorted(all_rules(), key=lambda r: r.id)
    if args.format == "json":
        rows = [{"id": r.id, "severity": r.severity.value, "description": r.description, "help": r.help}
                for r in rules]
        out.write(json.dumps({"rules": rows}, indent=2, ensure_ascii=False) + "\n")
        return ExitCode.OK
    for r in rules:
        out.write(f"{r.id} [{r.severity.value}]\n  {r.description}\n")
        if r.help:
            out.write(f"  help: {r.help}\n")
    out.write(f"{len(rules)} rules\n")
    return ExitCode.OK
