"""What several subcommands share: the ``--root`` option, loading a root, printing spec text safely."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..cores import usable_cores
from ..diagnostics import printable

__all__ = ["UsageError", "default_root", "load", "load_encodings", "jobs_arg", "output_error", "positive_int", "printable",
           "report_unusable", "root_arg"]

if TYPE_CHECKING:
    from ..encoding.model import EncodingSet
    from ..loader import Spec


class UsageError(Exception):
    """A command line or a root the command cannot work with; ``main`` prints it and exits 2."""


class CommandFailed(Exception):
    """The command ran and its answer is no (an unknown id, no encodings): ``main`` prints it and exits 1."""


# ------------------------------------------------------------------ errors and colour
RED, YELLOW, CYAN, GREEN, BOLD, RESET = "\x1b[31m", "\x1b[33m", "\x1b[36m", "\x1b[32m", "\x1b[1m", "\x1b[0m"
COLOR_CHOICES = ("auto", "always", "never")


def color_wanted(choice: str | None, stream: object) -> bool:
    """Colour on ``stream``: ``always``/``never`` as said; ``auto`` (the default) on a terminal unless
    ``NO_COLOR`` is set to anything (https://no-color.org) or ``TERM`` is ``dumb``; ``FORCE_COLOR``
    turns ``auto`` on off a terminal (CI logs that render ANSI)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def paint(text: str, code: str, on: bool) -> str:
    return f"{code}{text}{RESET}" if on else text


def error_line(command: str | None, message: str, color: bool = False) -> str:
    """The one error format of every command: ``specgen CMD: error: message`` (``specgen: error:`` before
    a command is known)."""
    head = f"specgen {command}:" if command else "specgen:"
    return f"{head} {paint('error:', BOLD + RED, color)} {printable(message)}"  # may quote spec text


def error(err: TextIO, args: argparse.Namespace, message: str) -> None:
    """Print ``message`` on ``err`` as :func:`error_line` of the running command."""
    print(error_line(getattr(args, "command", None), message, bool(getattr(args, "color_err", False))), file=err)


def default_root(given: Path | str | None = None) -> Path:
    """The tree a command reads, found as git finds a repository: ``given`` (``--root``; ``sample`` names the
    bundled sample), else ``$SPECGEN_ROOT``, else the nearest ``specification.toml`` from the working directory
    upward; none is a usage error saying where it looked (:func:`specgen.bundled.resolve_root`)."""
    from ..bundled import BundledMissing, NoRoot, resolve_root
    try:
        return resolve_root(given)
    except (BundledMissing, NoRoot) as e:
        raise UsageError(str(e)) from e


ROOT_HELP = ("spec tree root (default: $SPECGEN_ROOT, else the nearest folder from here upward holding a "
             "specification.toml; 'sample': the bundled sample spec)")


def root_arg(p: argparse.ArgumentParser) -> None:
    """``--root``; ``main`` resolves it (and finds one when it is left out) with :func:`default_root`."""
    p.add_argument("--root", type=Path, default=None, help=ROOT_HELP)


def jobs_arg(text: str) -> int:
    """An argparse type for ``--jobs``: a number of processes, 0 for every usable core (as the plugin's
    ``jobs: 0``). ``--jobs -1`` ran one process without a word."""
    n = _whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative (0 runs one process per usable core)")
    return n or usable_cores()


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a budget of 0 would run nothing)."""
    n = _whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not positive")
    return n


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def byte_size_arg(text: str) -> int:
    """A size option (``--page-budget``): bytes, or a size with a unit (``2 MiB``)."""
    from ..site.budget import byte_size  # no site engine: --engine has not chosen one yet
    try:
        return byte_size(int(text) if text.strip().isdigit() else text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def load(root: Path, err: TextIO | None = None) -> "Spec":
    """The loaded spec; an unreadable root is a usage error, not a traceback.

    With ``err``, every file the reader could not use as written (bytes, size) is one finding
    there, so a command that goes on anyway (trace, diff, run) still names it.
    """
    from ..loader import RootError, load_spec  # pydantic: only the commands that load pay for it
    try:
        spec = load_spec(root)
    except RootError as e:
        raise UsageError(str(e)) from e
    if err is not None:
        report_unusable(spec, err)
    return spec


def report_unusable(spec: "Spec", err: TextIO, prefix: str = "") -> int:
    """Print the findings of files the reader could not use as written; how many there were."""
    from ..loader import unusable_findings
    bad = unusable_findings(spec.findings, prefix)
    for f in bad:
        print(printable(f.format()), file=err)
    return len(bad)


def output_error(e: OSError, given: Path) -> str:
    """An output path that cannot be written, as one finding line: where, and what the system said."""
    where = e.filename if e.filename else given
    return f"{where}:0:0: output-unwritable: cannot write: {e.strerror or e}"




def load_encodings(root: Path, err: TextIO, spec: "Spec | None" = None) -> "EncodingSet":
    """The spec's encodings; :class:`CommandFailed` when the root has none (exit 1, as ever);
    :class:`UsageError` when the root itself cannot be read (exit 2). A caller that loaded the spec (and
    reported its unusable catalogs) passes it, so the tree is read once."""
    from ..encoding.from_spec import spec_encodings
    from ..graph import SpecGraph
    if spec is None:
        spec = load(root)
        # a catalog that is not usable JSON is named before "no encodings" (one cause, one finding)
        report_unusable(spec, err, f"{spec.config.json_root}/catalog/")
    es = spec_encodings(SpecGraph.build(spec))
    if es is None or not len(es):
        raise CommandFailed(f"no encodings found: {root}/spec/catalog has no readable "
                            "command-forms.json, scalar-forms.json, tile-operations.json or "
                            "extension-encoding-reservations.json")
        return None
    return es
