"""The ``specgen`` command line: argument parsing and exit codes, nothing more.

Every subcommand is one module of this package, listed once in
:data:`SUBCOMMANDS` (the order ``--help`` shows them). A module has a
docstring, ``NAME``, ``HELP`` (one line for the command list), ``DESCRIPTION``
and ``EPILOG`` (what ``specgen CMD --help`` says, with examples), ``add_arguments(parser)`` and
``run(args, out, err) -> int``; it turns the parsed arguments into plain values
for the layer below and turns what comes back into text and an
:class:`~specgen.cli.exitcodes.ExitCode`. Heavy imports (the loader, the
interpreter, mkdocs) happen inside ``run``, so ``specgen --help`` and
``specgen validate`` stay fast. Nothing outside this package imports it.

A command is one batch over a loaded spec, so the cyclic garbage collector is
paused for it (:mod:`specgen.memory`: a quarter of a cold ``check``'s CPU time,
no memory): a module that runs long or runs spec code without bound (``test``,
``run``, ``build``, ``serve``) sets ``COLLECT = True`` and keeps it.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import textwrap
from types import ModuleType
from typing import Sequence, TextIO

from .. import __version__
from ..memory import collector_paused
from .common import UsageError, default_root
from .exitcodes import ExitCode

SUBCOMMANDS = ("validate", "check", "rules", "trace", "manifest", "schema", "render", "decode", "asm", "test", "run",
               "build", "serve", "diff")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 itself; keep one path
        raise UsageError(f"{self.prog}: {message}")


def subcommands() -> dict[str, ModuleType]:
    """The subcommand modules by name, in :data:`SUBCOMMANDS` order."""
    return {name: importlib.import_module(f"{__name__}.{name}") for name in SUBCOMMANDS}


def build_parser(commands: dict[str, ModuleType]) -> argparse.ArgumentParser:
    """The ``specgen`` parser with one subparser per module of ``commands``."""
    p = _Parser(prog="specgen", description="Documentation site and traceability check for ASL1 specifications.")
    p.add_argument("--version", action="version", version=f"specgen {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for mod in commands.values():
        mod.add_arguments(sub.add_parser(mod.NAME, help=mod.HELP, description=textwrap.fill(mod.DESCRIPTION, 78),
                                         epilog=mod.EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter))
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one subcommand; the exit status is an :class:`ExitCode`."""
    out = out or sys.stdout
    err = err or sys.stderr
    with collector_paused():
        code = _main(argv, out, err)
        if argv is None:  # the process entry (console script, ``python -m specgen``), not a caller in process
            # everything alive now dies with the process: frozen, it is walked neither by the collection
            # re-enabling starts nor by the interpreter's collections at exit (0.6-0.9 s of a cold check)
            gc.freeze()
        return code


def _main(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    commands = subcommands()
    try:
        args = build_parser(commands).parse_args(argv)
    except UsageError as e:
        print(str(e), file=err)
        return ExitCode.USAGE
    except SystemExit as e:  # --help / --version
        return int(e.code or 0)
    if getattr(commands[args.command], "COLLECT", False):
        gc.enable()
    try:
        if getattr(args, "root", "absent") is None:
            args.root = default_root()
        code = int(commands[args.command].run(args, out, err))
        out.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return code
    except UsageError as e:
        print(f"specgen {args.command}: {e}", file=err)
        return ExitCode.USAGE
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # the reader went away (``specgen decode … | head -3``): stop quietly
        _silence(out)
        return ExitCode.BROKEN_PIPE
    except OSError as e:
        # a file the command writes (or a path outside the spec tree it was given) that the system
        # refuses: one line naming it, exit 2, never a traceback; the tree itself is read through
        # the reader, which turns its OSErrors into findings
        where = e.filename or args.command
        print(f"{where}:0:0: os-error: specgen {args.command}: {e.strerror or e}", file=err)
        return ExitCode.USAGE


def _silence(stream: TextIO) -> None:
    """Point a closed stdout at /dev/null so the interpreter's final flush raises nothing."""
    import os
    try:
        if stream is sys.stdout:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    except (OSError, ValueError):
        pass
