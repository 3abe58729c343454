"""``specgen check``: the traceability check for CI, answered from the result cache when it can be.

A cache hit imports neither pydantic nor the loader nor the interpreter: it
reads and hashes the files the last check read and renders the stored
findings. Only a miss imports :mod:`specgen.check.compute`.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, TextIO

from .. import __version__
from ..diagnostics import has_failures
from .common import UsageError, output_error, root_arg
from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..diagnostics import Finding

NAME = "check"
HELP = "traceability check for CI"
DESCRIPTION = ('Run every traceability rule over a spec tree and report the findings in a format CI reads; exit 1 on'
               ' errors (on warnings too with --strict).')
EPILOG = """examples:
  specgen check --root path/to/spec
  specgen check --root spec --format sarif --output check.sarif --repo-root . --min-severity warning
  specgen check --root spec --format github            # annotations, relative to the git top level
  specgen check --root spec --format junit --strict --output junit.xml
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("--format", choices=["text", "json", "junit", "sarif", "github"], default="text",
                   help="report format (default: %(default)s)")
    p.add_argument("--output", type=Path, help="write the report to FILE instead of stdout")
    p.add_argument("--strict", action="store_true", help="warnings fail the check too")
    p.add_argument("--disable", action="append", default=[], metavar="RULE", help="skip a rule (repeatable)")
    p.add_argument("--only", action="append", default=[], metavar="RULE", help="run only these rules")
    p.add_argument("--no-examples", action="store_true", help="do not run the checked examples")
    p.add_argument("--min-severity", choices=["note", "warning", "error"], default="note",
                   help="leave findings below this severity out of the report, in every format (a finding that "
                        "fails the check is always reported; the exit status is unchanged) (default: %(default)s)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="text format: list every note instead of one line per rule")
    p.add_argument("--repo-root", type=Path, default=None, metavar="DIR",
                   help="repository top level that SARIF locations and GitHub annotations are relative to, so "
                        "they land on files of a spec in a subfolder (default: the git top level of the spec "
                        "root, if any)")
    p.add_argument("--no-cache", action="store_true",
                   help="run every rule even when nothing the last check observed has changed")


def git_top_level(root: Path) -> Path | None:
    """The work tree's top level containing ``root``; None outside git or without git."""
    try:
        res = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True,
                             text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    top = res.stdout.strip()
    return Path(top) if res.returncode == 0 and top else None


def repo_location(root: Path, given: Path | None) -> tuple[str | None, str | None]:
    """``(repo root, spec root inside it)`` for SARIF; a given ``--repo-root`` must contain the spec root."""
    repo = given if given is not None else git_top_level(root)
    if repo is None:
        return None, None
    repo, spec = repo.resolve(), root.resolve()
    if not spec.is_relative_to(repo):
        if given is not None:
            raise UsageError(f"--repo-root {given} does not contain the spec root {root}")
        return None, None
    inner = spec.relative_to(repo).as_posix()
    return str(repo), "" if inner == "." else inner


def at_least(findings: "Sequence[Finding]", minimum: str, strict: bool) -> tuple[list["Finding"], dict[str, int]]:
    """The findings at ``minimum`` severity or above, and how many of each lower severity were left out. A
    finding that fails the check (an error; a warning under ``--strict``) is never left out."""
    from ..diagnostics import Severity
    floor = max(Severity(minimum).rank, Severity.WARNING.rank if strict else Severity.ERROR.rank)
    shown = [f for f in findings if Severity(f.severity).rank <= floor]
    hidden: dict[str, int] = {}
    for f in findings:
        if Severity(f.severity).rank > floor:
            key = "warnings" if Severity(f.severity) is Severity.WARNING else "notes"
            hidden[key] = hidden.get(key, 0) + 1
    return shown, hidden


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """1 when the findings fail the check (errors; warnings too with ``--strict``)."""
    from ..report import render_report
    from ..report.summary import CheckSummary, RuleInfo
    from ..resultcache import lookup, store

    from .progress import Progress

    t0 = time.perf_counter()
    if args.output:  # before any work: a report never overwrites or adds a file of the tree it checks
        from ..outputs import OutputRefused, check_report_file
        try:
            check_report_file(args.output, args.root)
        except OutputRefused as e:
            print(str(e), file=err)
            return ExitCode.USAGE
    progress = Progress(err, NAME)
    options = ["only=" + ",".join(sorted(set(args.only))), "disable=" + ",".join(sorted(set(args.disable))),
               "examples=" + ("no" if args.no_examples else "yes")]
    result = None if args.no_cache or not args.root.is_dir() else lookup(args.root, options)
    reused = result is not None
    if result is None:
        from ..check.compute import UnknownRuleError, compute
        from ..loader import RootError
        try:
            result = compute(args.root, args.only, args.disable, examples=not args.no_examples,
                             stage=progress.stage if args.root.is_dir() else None)  # else: one line
        except (RootError, UnknownRuleError) as e:
            progress.finish()
            raise UsageError(str(e)) from e
        if not args.no_cache:
            progress.stage("store")
            store(args.root, options, result)
    progress.finish()
    repo_root, spec_in_repo = (repo_location(args.root, args.repo_root) if args.format in ("sarif", "github")
                               else (None, None))
    shown, hidden = at_least(result.findings, args.min_severity, args.strict)
    kept = {id(f) for f in shown}
    hidden_rules: dict[str, int] = {}
    for f in result.findings:
        if id(f) not in kept:
            hidden_rules[f.rule] = hidden_rules.get(f.rule, 0) + 1
    summary = CheckSummary(
        tool_version=__version__, root=str(args.root), release=result.release, counts=result.counts,
        rules=[RuleInfo(*r) for r in result.rules],
        elapsed_seconds=None if args.format != "text" else round(time.perf_counter() - t0, 2),
        reused=reused, repo_root=repo_root, spec_in_repo=spec_in_repo, content_sha256=getattr(result, "content_sha256", None),
        hidden=hidden, hidden_rules=hidden_rules,
    )
    options: dict[str, object] = {"strict": args.strict} if args.format == "junit" else {}
    if args.format == "text":
        options = {"color": bool(getattr(args, "color_out", False)) and not args.output, "list_notes": args.verbose}
    text = render_report(args.format, shown, summary, **options)
    if args.output:
        try:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text(text, encoding="utf-8")
        except OSError as e:
            print(output_error(e, args.output), file=err)
            return ExitCode.USAGE
    else:
        out.write(text)
    return ExitCode.FINDINGS if has_failures(result.findings, args.strict) else ExitCode.OK
