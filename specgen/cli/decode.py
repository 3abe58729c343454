"""``specgen decode WORD``: the instruction a word encodes, with each field's value."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from .common import CommandFailed, load, load_encodings, printable, report_unusable, root_arg
from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..encoding.model import Encoding, EncodingSet
    from ..loader import Spec

NAME = "decode"
HELP = "name the instruction a word encodes"
DESCRIPTION = 'Name the instruction an instruction word encodes, with its field values.'
EPILOG = """examples:
  specgen decode --root path/to/spec 0x1234abcd
  specgen decode --root path/to/spec 0b1010 --width 16
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("word", help="hex (0x…) or binary (0b…)")
    p.add_argument("--width", type=int, choices=[16, 32, 48, 64], help="word width in bits (default: from the digits)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """1 when the word is unreadable, does not fit, or no form matches it."""
    from ..encoding.decode import decode, primary_matches
    from ..encoding.lookup import parse_word
    word, width = args.word, args.width
    try:
        value, digits_bits = parse_word(word)
    except ValueError as exc:
        raise CommandFailed(str(exc)) from exc
    spec = load(args.root)
    report_unusable(spec, err, f"{spec.config.json_root}/catalog/")
    es = load_encodings(args.root, err, spec)
    widths = es.widths()
    if width is None:
        need = max(digits_bits, value.bit_length())
        width = next((w for w in widths if w >= need), None)
        if width is None:
            raise CommandFailed(f"{word} has {need} bits, more than the widest instruction ({widths[-1]} bits)")
    elif width not in widths:
        raise CommandFailed(f"no instruction is {width} bits wide; widths in this spec: {', '.join(map(str, widths))}")
    if value >> width:
        raise CommandFailed(f"{word} does not fit in {width} bits")
    matches = decode(es, value, width)
    hexword = f"0x{value:0{-(-width // 4)}X}"
    if not primary_matches(matches):
        raise CommandFailed(f"no instruction matches {hexword} as a {width}-bit word "
                            "(fixed bits or field constraints differ from every form)")
    for m in matches:
        enc = m.encoding
        if m.carrier_of:
            out.write(printable(f"  carrier: {enc.mnemonic} ({enc.form_id}) carries {', '.join(m.carrier_of)}")
                      + "\n")
            continue
        tag = f" [{enc.variant}]" if enc.variant else ""
        out.write(printable(f"{hexword} ({width}-bit) = {enc.mnemonic}{tag}  form {enc.form_id}  ({enc.source})")
                  + "\n")
        out.write(printable(f"  assembly: {enc.assembly}") + "\n")
        from ..encoding.asm_template import disassemble_form
        if enc.assembly.strip():  # a form without a template has no text to read back
            out.write(printable(f"  asm: {disassemble_form(enc, m.values, es)}") + "\n")  # what `asm` reads back
        for f in enc.fields:
            fixed = "  (operation constant)" if f.fixed_by == "operation" else ""
            out.write(printable(f"  {f.name} = {m.value_text(f.name)}{fixed}") + "\n")
        block = _variant_block(spec, es, enc, m.values)
        if block:  # a variant row, in the block syntax the spec's sketches write
            out.write(printable(f"  block: {block}") + "\n")
    return ExitCode.OK


def _variant_block(spec: Spec, es: EncodingSet, enc: Encoding, values: dict[str, int]) -> str:
    """``BSTART.TMOV U8 [TMOV.L2S.INSERT form]`` for a variant row (or a tile operation's, under its carrier)."""
    from ..encoding.asm import disassemble, variant_carrier
    if not enc.variant or (enc.kind != "command-form" and variant_carrier(es, enc) is None):
        return ""
    from ..executor.runstate import register_name
    from ..vocabulary import vocabulary_of
    vocabulary = vocabulary_of(spec)

    def datatype(code: int) -> str:
        et = vocabulary.datatype_of_code(code)
        return et.name if et is not None else str(code)

    return disassemble(enc, values, register_name, datatype, None, es)
