"""What several subcommands share: the ``--root`` option, loading a root, printing spec text safely."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..diagnostics import printable

__all__ = ["UsageError", "default_root", "load", "load_encodings", "output_error", "positive_int", "printable",
           "report_unusable", "root_arg"]

if TYPE_CHECKING:
    from ..encoding.model import EncodingSet
    from ..loader import Spec


class UsageError(Exception):
    """A command line or a root the command cannot work with; ``main`` prints it and exits 2."""


def default_root() -> Path:
    """The bundled sample spec (checkout or installed package), unless ``SPECGEN_ROOT`` says otherwise."""
    env = os.environ.get("SPECGEN_ROOT")
    if env:
        return Path(env)
    from ..bundled import BundledMissing, spec_root
    try:
        return spec_root()
    except BundledMissing as e:
        raise UsageError(str(e)) from e


def root_arg(p: argparse.ArgumentParser) -> None:
    """``--root``; ``main`` fills in :func:`default_root` when it is left out."""
    p.add_argument("--root", type=Path, default=None,
                   help="spec tree root (default: the bundled sample spec)")


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a budget of 0 would run nothing)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not positive")
    return n


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




def load_encodings(root: Path, err: TextIO, spec: "Spec | None" = None) -> "EncodingSet | None":
    """The spec's encodings, or None after one line on ``err`` when the root has none (exit 1, as ever);
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
        err.write(f"error: no encodings found: {root}/spec/catalog has no readable "
                  "command-forms.json, scalar-forms.json, tile-operations.json or "
                  "extension-encoding-reservations.json\n")
        return None
    return es
