"""Adapters from parsed CLI arguments to the stages that do the work.

Each function keeps the CLI's signature ``(args, out, err) -> exit code`` and
imports its stage lazily, so ``specgen validate`` never pays for the ASL
interpreter or mkdocs.
"""

from __future__ import annotations

import argparse
import time
from typing import TextIO


EXAMPLE_RULES = ("example-mismatch", "example-fault", "example-sketch", "example-legality")


def rule_options(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """(only, disable) as the rules see them: ``--no-examples`` disables the four example rules."""
    disable = list(args.disable)
    if getattr(args, "no_examples", False):
        disable += EXAMPLE_RULES
    return list(args.only), disable


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The check, answered from the result cache when nothing it observed changed.

    A hit imports neither pydantic nor the loader nor the interpreter: it reads
    and hashes the files the last check read and renders the stored findings.
    """
    from . import __version__
    from .diagnostics import has_failures
    from .report import render_report
    from .report.summary import CheckSummary, RuleInfo
    from .resultcache import lookup, store

    t0 = time.perf_counter()
    only, disable = rule_options(args)
    options = ["only=" + ",".join(sorted(set(only))), "disable=" + ",".join(sorted(set(disable)))]
    result = None if args.no_cache or not args.root.is_dir() else lookup(args.root, options)
    reused = result is not None
    if result is None:
        from .check.command import compute
        result = compute(args)
        if not args.no_cache:
            store(args.root, options, result)
    summary = CheckSummary(
        tool_version=__version__, root=str(args.root), release=result.release, counts=result.counts,
        rules=[RuleInfo(*r) for r in result.rules],
        elapsed_seconds=None if args.format != "text" else round(time.perf_counter() - t0, 2),
        reused=reused,
    )
    text = render_report(args.format, result.findings, summary)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 1 if has_failures(result.findings, args.strict) else 0


def cmd_render(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .encoding.commands import cmd_render as render
    return render(args.root, args.id, args.format, out, err)


def cmd_decode(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .encoding.commands import cmd_decode as decode
    return decode(args.root, args.word, args.width, out, err)


def cmd_test(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .asl.runner import main_test
    return main_test(args.root, list(args.selectors), max(1, args.jobs), args.format, args.profile, out)


def cmd_run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .examples.command import cmd_run as run
    return run(args, out, err)
