"""``specgen render ID``: one instruction's encoding table, WaveJSON or SVG."""

from __future__ import annotations

import argparse
from typing import TextIO

from .common import CommandFailed, load_encodings, root_arg
from .exitcodes import ExitCode

NAME = "render"
HELP = "print one instruction's encoding, WaveJSON or SVG"
DESCRIPTION = "Print one instruction's encoding table, its WaveJSON, or its SVG diagram."
EPILOG = """examples:
  specgen render --root path/to/spec TMUL
  specgen render --root path/to/spec TMUL --format svg > tmul.svg
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("id", help="instruction mnemonic or id")
    p.add_argument("--format", choices=["encoding", "wavedrom", "svg"], default="encoding",
                   help="what to print (default: %(default)s)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Every form the id names (a mnemonic may have several); 1 when it names none."""
    from ..encoding.lookup import encoding_text, resolve
    from ..encoding.svg import svg
    from ..encoding.wavejson import wavejson_text
    es = load_encodings(args.root, err)
    found = resolve(es, args.id)
    if not found:
        raise CommandFailed(f"no encodable instruction or form named {args.id!r}; give a mnemonic (TMUL), "
                            "a form id (bstart_tepl_32_d022db6dacb3) or an instruction id (PTO-TILE-TMUL)")
    for i, enc in enumerate(found):
        if args.format == "encoding":
            out.write(("\n" if i else "") + encoding_text(enc))
        elif args.format == "wavedrom":
            out.write(wavejson_text(enc) + "\n")
        else:
            out.write(svg(enc))
    return ExitCode.OK
