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
    from ..baseline import BaselineEntry
    from ..diagnostics import Finding, KnownFinding
    from ..report.summary import CheckSummary
    from ..resultcache import CheckResult

NAME = "check"
HELP = "traceability check for CI"
DESCRIPTION = ('Run every traceability rule over a spec tree and report the findings in a format CI reads; exit 1 on'
               ' errors (on warnings too with --strict).')
EPILOG = """examples:
  specgen check --root path/to/spec
  specgen check --root spec --format sarif --output check.sarif --repo-root . --min-severity warning
  specgen check --root spec --format github            # annotations, relative to the git top level
  specgen check --root spec --format junit --strict --output junit.xml
  specgen check --root spec --write-baseline spec-baseline.json   # record today's findings as known
  specgen check --root spec --baseline spec-baseline.json         # fail only on new findings
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
    p.add_argument("--baseline", type=Path, default=None, metavar="FILE",
                   help="findings this baseline lists are reported as known (not failing); only new ones fail; "
                        "an entry whose finding is gone is a baseline-stale note")
    p.add_argument("--write-baseline", type=Path, default=None, metavar="FILE",
                   help="record every finding of this check (keyed by rule, path and content, not line) in FILE "
                        "as the baseline, then report as with --baseline FILE")
    p.add_argument("--changed-files", type=Path, default=None, metavar="FILE",
                   help="github format: the files a pull request changed (one repository-relative path a line; "
                        "default: git diff --name-only origin/$GITHUB_BASE_REF...HEAD when GITHUB_BASE_REF is set); "
                        "their findings are annotated first")


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
    finding that fails the check (an error; a warning under ``--strict``) is never left out, known or not."""
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
    entries = read_known(args)
    progress = Progress(err, NAME, quiet=True)  # off a terminal the report alone (hooks, CI)
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
    findings, known = known_findings(args, result, entries)
    repo_root, spec_in_repo = (repo_location(args.root, args.repo_root) if args.format in ("sarif", "github")
                               else (None, None))
    shown, hidden = at_least(findings, args.min_severity, args.strict)
    kept = {id(f) for f in shown}
    hidden_rules: dict[str, int] = {}
    for f in findings:
        if id(f) not in kept:
            hidden_rules[f.rule] = hidden_rules.get(f.rule, 0) + 1
    summary = CheckSummary(
        tool_version=__version__, root=str(args.root), release=result.release, counts=result.counts,
        rules=[RuleInfo(*r) for r in result.rules],
        elapsed_seconds=None if args.format != "text" else round(time.perf_counter() - t0, 2),
        reused=reused, repo_root=repo_root, spec_in_repo=spec_in_repo, content_sha256=getattr(result, "content_sha256", None),
        hidden=hidden, hidden_rules=hidden_rules, known=known, baseline=str(args.baseline or args.write_baseline or "") or None,
        changed_files=changed_files(args, repo_root) if args.format == "github" else frozenset(),
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
    if args.format == "github":
        write_step_summary(shown, summary, err)
    return ExitCode.FINDINGS if has_failures(new_findings(findings, known), args.strict) else ExitCode.OK


def changed_files(args: argparse.Namespace, repo_root: str | None) -> frozenset[str]:
    """The repository-relative paths a pull request changed: ``--changed-files FILE`` (one a line), else, in a
    pull request's workflow (``GITHUB_BASE_REF`` set), ``git diff --name-only origin/BASE...HEAD``; empty when
    neither answers (a shallow checkout without the base): the annotations are then ranked by path only."""
    import os
    if args.changed_files is not None:
        try:
            text = args.changed_files.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise UsageError(f"{args.changed_files}:0:0: changed-files-unreadable: {e.strerror or e}") from e
        return frozenset(line.strip().removeprefix("./") for line in text.splitlines() if line.strip())
    base = os.environ.get("GITHUB_BASE_REF", "")
    if not base or repo_root is None:
        return frozenset()
    try:
        res = subprocess.run(["git", "diff", "--name-only", f"origin/{base}...HEAD"], cwd=repo_root,
                             capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(res.stdout.split("\n")) - {""} if res.returncode == 0 else frozenset()


def write_step_summary(findings: "Sequence[Finding]", summary: "CheckSummary", err: TextIO) -> None:
    """Append the Markdown summary to ``$GITHUB_STEP_SUMMARY`` when the runner sets it: the annotations are
    capped, the summary lists every error and warning."""
    import os
    target = os.environ.get("GITHUB_STEP_SUMMARY", "")
    if not target:
        return
    from ..report.github import step_summary
    server, repo, sha = (os.environ.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"))
    link = f"{server}/{repo}/blob/{sha}" if server and repo and sha and summary.repo_root else None
    try:
        with open(target, "a", encoding="utf-8") as f:
            f.write(step_summary(findings, summary, link))
    except OSError as e:
        print(output_error(e, Path(target)), file=err)


def new_findings(findings: "Sequence[Finding]", known: "dict[str, KnownFinding]") -> list["Finding"]:
    """The findings no baseline or suppression knows: only these fail the check."""
    from ..diagnostics import finding_key
    return [f for f in findings if finding_key(f) not in known] if known else list(findings)


def read_known(args: argparse.Namespace) -> "list[BaselineEntry] | None":
    """Before any work: the ``--baseline`` entries (a file that is not one is a usage error), and a
    ``--write-baseline`` target that exists and is not a baseline refused."""
    from ..baseline import BaselineError, is_baseline, read_baseline
    target = args.write_baseline
    if target is not None and target.exists() and not is_baseline(target):
        raise UsageError(f"{target}:0:0: output-refused: --write-baseline {target} exists and is not a specgen "
                         f"baseline; choose another file or remove it")
    try:
        return read_baseline(args.baseline) if args.baseline is not None and target is None else None
    except BaselineError as e:
        raise UsageError(str(e)) from e


def known_findings(args: argparse.Namespace, result: "CheckResult",
                   entries: "list[BaselineEntry] | None") -> tuple[list["Finding"], "dict[str, KnownFinding]"]:
    """Write the baseline if asked, then mark what the baseline and the tree's suppressions know."""
    from ..baseline import apply, baseline_document, read_baseline
    from ..check import RULES
    if args.write_baseline is not None:
        target = args.write_baseline
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(baseline_document(result.findings, result.release), encoding="utf-8")
        except OSError as e:
            raise UsageError(output_error(e, target)) from e
        entries = read_baseline(target)
    if not args.root.is_dir():
        return list(result.findings), {}
    source = args.write_baseline if args.write_baseline is not None else args.baseline
    ran = {r[0] for r in result.rules}
    skipped = {r for r in RULES if r not in ran}  # disabled or not run on this tree: their absence says nothing
    judged = frozenset(({f.rule for f in result.findings} | ran | {e.rule for e in entries or ()}) - skipped)
    read_paths = [k[1] for k in result.log if k[0] == "file"]
    applied = apply(args.root, result.findings, baseline=entries, baseline_label=str(source or ""),
                    judged=judged, read_paths=read_paths)
    return applied.findings, applied.known
