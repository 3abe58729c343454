"""``specgen trace ID``: the traceability chain of one instruction, unit, clause or test."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from .common import CommandFailed, load, printable, root_arg
from .exitcodes import ExitCode

NAME = "trace"
HELP = "the traceability chain of one instruction, clause or test"
DESCRIPTION = ('Print the traceability chain of one instruction, NDF clause, AVS test or source file: what requires '
               'it, what implements it and what tests it.')
EPILOG = """examples:
  specgen trace --root path/to/spec TMUL
  specgen trace --root path/to/spec PTO-AVS-TILE-TMUL-TYPES-001 --format json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("id", help="mnemonic, instruction/unit id, clause id, test id or source path")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """1 when the id names nothing, so a script can tell a typo from an empty chain."""
    from ..graph import SpecGraph
    from ..trace import trace_chain
    chain = trace_chain(SpecGraph.build(load(args.root, err)), args.id)
    if chain is None:
        raise CommandFailed(f"{args.id!r} names no instruction, unit, clause or test of {args.root}")
    if args.format == "json":
        out.write(json.dumps(chain, indent=2, sort_keys=True) + "\n")
    else:
        out.write(format_text(chain))
    return ExitCode.OK


def format_text(chain: dict[str, Any]) -> str:
    """One line per link of the chain, then the totals."""
    lines = [f"{chain['kind']} {chain['id']}" + (f" ({chain['mnemonic']})" if chain.get("mnemonic") else "")]
    src = chain.get("source")
    if src:
        lines.append(f"  source   {src['path']}  sha256 {src['sha256']}")
    if chain.get("identity"):
        lines.append(f"  clause   {chain['identity']}  [identity]  {src['path'] if src else ''}  "
                     f"digest {chain.get('identity_sha256') or '-'}")
    for c in chain["clauses"]:
        lines.append(f"  clause   {c['id']}  [{c.get('kind')} {c.get('status')}]  {c['path']}:{c['start']}-{c['end']}"
                     f"  digest {c['sha256'] or '-'}")
    for t in chain["tests"]:
        lines.append(f"  test     {t['id']}  [{t['kind']}]  {t['path']}  sha256 {t['sha256']}")
    for e in chain["evidence"]:
        lines.append(f"  evidence {e['path']}  sha256 {e['sha256'] or '-'}" + ("" if e["present"] else "  (absent)"))
    for a in chain["adrs"]:
        lines.append(f"  adr      {a['id']}  [{a['status']}]  {a['title']}  {a['path']}  sha256 {a['sha256']}")
    lines.append(f"{len(chain['clauses']) + bool(chain.get('identity'))} clause(s), {len(chain['tests'])} test(s), "
                 f"{len(chain['evidence'])} evidence file(s), {len(chain['adrs'])} ADR(s)")
    return "\n".join(printable(x) for x in lines) + "\n"  # spec text never starts a line of its own
