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

What every command shares is done here once: ``--root`` and ``--color`` are accepted before the
subcommand as well as after it; a mistyped subcommand or option gets a "did you mean"; the tree a
command reads is ``--root`` (``sample``: the bundled sample), else ``$SPECGEN_ROOT``, else the nearest
``specification.toml`` from the working directory upward, and none found is exit 2 with one line saying
where specgen looked; a ``--root`` that is not a spec tree is refused before any work (exit 2); every
usage error and every failure a command raises (:class:`~specgen.cli.common.UsageError`,
:class:`~specgen.cli.common.CommandFailed`) is printed as ``specgen CMD: error: …``, in red on a
terminal that wants colour.

A command is one batch over a loaded spec, so the cyclic garbage collector is
paused for it (:mod:`specgen.memory`: a quarter of a cold ``check``'s CPU time,
no memory): a module that runs long or runs spec code without bound (``test``,
``run``, ``build``, ``serve``) sets ``COLLECT = True`` and keeps it.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import importlib
import re
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Sequence, TextIO

from .. import __version__
from ..memory import collector_paused
from .common import COLOR_CHOICES, CommandFailed, UsageError, color_wanted, default_root, error_line
from .exitcodes import ExitCode

SUBCOMMANDS = ("validate", "check", "rules", "trace", "manifest", "schema", "render", "decode", "asm", "test", "run",
               "build", "serve", "export", "diff", "completion")
# what only the site commands (build, serve, export) import: the optional ``site`` extra of pyproject.toml, which
# a core install (``pip install specgen``: validate, check, test, the pre-commit hook) leaves out
SITE_MODULES = frozenset({"mkdocs", "material", "jinja2", "markupsafe", "markdown_it", "pygments", "jieba",
                          "watchdog", "yaml"})
# the arguments naming spec trees, where it is not ``--root`` (checked like it: exit 2 for a non-tree)
TREE_ARGS = {"diff": ("old", "new")}
_CHOICE = re.compile(r"invalid choice: '(?P<word>[^']*)' \(choose from (?P<choices>.*)\)")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 itself; keep one path
        raise UsageError(_with_suggestion(message))


def _with_suggestion(message: str) -> str:
    """argparse's "invalid choice" message with the closest choice offered first."""
    m = _CHOICE.search(message)
    if m is None:
        return message
    choices = re.findall(r"'([^']*)'", m["choices"])
    close = difflib.get_close_matches(m["word"], choices, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    what = "command" if message.lower().startswith("argument command:") else "choice"
    return f"unknown {what} '{m['word']}'{hint} (choose from {', '.join(choices)})"


def subcommands() -> dict[str, ModuleType]:
    """The subcommand modules by name, in :data:`SUBCOMMANDS` order."""
    return {name: importlib.import_module(f"{__name__}.{name}") for name in SUBCOMMANDS}


def build_parser(commands: dict[str, ModuleType]) -> argparse.ArgumentParser:
    """The ``specgen`` parser with one subparser per module of ``commands``."""
    p = _Parser(prog="specgen", description="Documentation site and traceability check for ASL1 specifications.")
    p.add_argument("--version", action="version", version=f"specgen {__version__}")
    p.add_argument("--root", dest="global_root", type=Path, default=argparse.SUPPRESS, metavar="ROOT",
                   help="spec tree root, for the subcommand that follows (as its own --root)")
    p.add_argument("--color", dest="global_color", choices=COLOR_CHOICES, default=argparse.SUPPRESS, metavar="WHEN",
                   help="colour: auto (a terminal without NO_COLOR), always or never")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for mod in commands.values():
        sp = sub.add_parser(mod.NAME, help=mod.HELP, description=textwrap.fill(mod.DESCRIPTION, 78),
                            epilog=mod.EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(sp)
        sp.add_argument("--color", choices=COLOR_CHOICES, default=argparse.SUPPRESS, metavar="WHEN",
                        help="colour: auto (a terminal without NO_COLOR), always or never")
    return p


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommand parsers of ``parser`` by name (completion and suggestions read their options)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


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


def _parse(commands: dict[str, ModuleType], argv: list[str]) -> argparse.Namespace:
    """Parse, suggest for an unknown option, and fold the options given before the subcommand into it."""
    parser = build_parser(commands)
    args, extra = parser.parse_known_args(argv)
    own = subparsers(parser)[args.command]
    if extra:
        raise UsageError(_unknown_options(extra, own))
    roots = _own_root(own)
    if hasattr(args, "global_root"):
        if roots is None:
            raise UsageError(f"--root does not apply to '{args.command}' (it reads no spec tree through --root)")
        given = getattr(args, "root", None)
        if given not in (None, []) and given != args.global_root and given != [args.global_root]:
            raise UsageError("--root given before and after the command with different values")
        args.root = [args.global_root] if isinstance(roots, argparse._AppendAction) else args.global_root
    args.color = getattr(args, "color", None) or getattr(args, "global_color", None) or "auto"
    args.parser = parser  # what ``completion`` describes (it cannot import this package: a circle)
    return args


def _own_root(parser: argparse.ArgumentParser) -> argparse.Action | None:
    """The subcommand's ``--root`` option, if it has one."""
    return parser._option_string_actions.get("--root")


def _unknown_options(extra: list[str], parser: argparse.ArgumentParser) -> str:
    """"unrecognized arguments", with the closest option of the subcommand for each unknown one."""
    options = sorted(o for o in parser._option_string_actions if o.startswith("--"))
    parts = []
    for word in extra:
        close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1, cutoff=0.6) if word.startswith("-") else []
        parts.append(f"{word} (did you mean {close[0]}?)" if close else word)
    return "unrecognized arguments: " + " ".join(parts)


def _main(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    commands = subcommands()
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse(commands, words)
    except UsageError as e:
        command = next((w for w in words if w in commands), None)
        print(error_line(command, str(e), color_wanted(_color_word(words), err)), file=err)
        return ExitCode.USAGE
    except SystemExit as e:  # --help / --version
        return int(e.code or 0)
    args.color_out = color_wanted(args.color, out)
    args.color_err = color_wanted(args.color, err)
    if getattr(commands[args.command], "COLLECT", False):
        gc.enable()
    try:
        _resolve_roots(args, commands[args.command])
        _refuse_non_tree(args)
        code = int(commands[args.command].run(args, out, err))
        out.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return code
    except UsageError as e:
        print(error_line(args.command, str(e), args.color_err), file=err)
        return ExitCode.USAGE
    except CommandFailed as e:
        print(error_line(args.command, str(e), args.color_err), file=err)
        return ExitCode.FINDINGS
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in SITE_MODULES:
            raise
        # a core install (validate, check, test, ...) without the site stack: one line, never a traceback
        print(error_line(args.command, f"this command needs the site stack ({e.name} is not installed): "
                                       f"install specgen[site] (pip install 'specgen[site]')", args.color_err), file=err)
        return ExitCode.USAGE
    except KeyboardInterrupt:
        print(error_line(args.command, "interrupted", args.color_err), file=err)
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


def _color_word(words: list[str]) -> str | None:
    """``--color`` as typed, for an error found before the arguments could be parsed."""
    for i, w in enumerate(words):
        if w.startswith("--color="):
            return w.split("=", 1)[1]
        if w == "--color" and i + 1 < len(words):
            return words[i + 1]
    return None


def _resolve_roots(args: argparse.Namespace, command: ModuleType) -> None:
    """Every tree the command reads, as :func:`~specgen.cli.common.default_root` finds it: a ``--root`` left
    out is looked for (``build``/``serve``/``export`` look for theirs themselves: a ``--config`` names one;
    a module's ``reads_tree(args)`` may say this run reads none, as ``test --merge``); ``sample`` names the
    bundled sample, here and in the arguments of :data:`TREE_ARGS`."""
    root = getattr(args, "root", "absent")
    if root is None and not getattr(command, "reads_tree", lambda a: True)(args):
        return
    if root is None:
        args.root = default_root()
    elif isinstance(root, list):
        args.root = [default_root(r) for r in root]
    elif isinstance(root, Path):
        args.root = default_root(root)
    for name in TREE_ARGS.get(args.command, ()):
        if getattr(args, name, None) is not None:
            setattr(args, name, default_root(getattr(args, name)))


def _refuse_non_tree(args: argparse.Namespace) -> None:
    """A ``--root`` that exists but is no spec tree is refused here, once for every command (exit 2)."""
    from ..files import not_a_spec_tree
    roots = args.root if isinstance(getattr(args, "root", None), list) else [getattr(args, "root", None)]
    roots += [getattr(args, name, None) for name in TREE_ARGS.get(args.command, ())]
    for root in roots:
        if root is not None:
            why = not_a_spec_tree(Path(root))
            if why:
                raise UsageError(why)


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
