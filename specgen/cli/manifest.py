"""``specgen manifest --check | --write``: verify or regenerate the release manifest's hashes."""

from __future__ import annotations

import argparse
from typing import TextIO

from .common import CommandFailed, UsageError, load, root_arg
from .exitcodes import ExitCode

NAME = "manifest"
HELP = "verify or regenerate the release manifest's hashes"
DESCRIPTION = "Verify the release manifest's file hashes and content hash, or rewrite them from the files."
EPILOG = """examples:
  specgen manifest --root path/to/spec --check
  specgen manifest --root path/to/spec --write
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true", help="verify the recorded hashes; exit 1 on a mismatch")
    g.add_argument("--write", action="store_true", help="rewrite the manifest with the current hashes")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``--check``: 1 unless every entry was verified (notes alone pass); ``--write``: 1 when it cannot write."""
    from ..diagnostics import has_failures
    from ..manifest import ManifestMissingError, manifest_graph, verify, write_manifest
    spec = load(args.root, err)
    try:
        graph = manifest_graph(spec, parsed=args.write)
    except ManifestMissingError as e:
        raise UsageError(str(e)) from e
    if args.write:
        if not write_manifest(graph):
            raise CommandFailed(f"cannot write {spec.root / spec.manifest_path}")
        print(f"wrote {spec.manifest_path}", file=out)
        return ExitCode.OK
    findings, facts = verify(graph)
    for f in findings:
        print(f.format(), file=out)
    if spec.manifest is None:  # nothing was verified; say so instead of "0 of 0"
        print(f"{spec.manifest_path} could not be read: not verified; {len(findings)} finding(s)", file=out)
        return ExitCode.FINDINGS
    print(f"{facts.verified} of {facts.listed} manifest entries verified; {len(findings)} finding(s)", file=out)
    return ExitCode.FINDINGS if has_failures(findings, True) else ExitCode.OK
