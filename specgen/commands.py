"""Adapters from parsed CLI arguments to the stages that do the work.

Each function keeps the CLI's signature ``(args, out, err) -> exit code`` and
imports its stage lazily, so ``specgen validate`` never pays for the ASL
interpreter or mkdocs.
"""

from __future__ import annotations

import argparse
from typing import TextIO


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


def cmd_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .site import cmd_build as build
    return build(args, out, err)


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .site import cmd_serve as serve
    return serve(args, out, err)
