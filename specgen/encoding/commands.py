"""The ``render`` and ``decode`` subcommands (argparse wiring lives in specgen/cli.py).

Both load the spec root and take its :func:`spec_encodings`, print to
``out`` and report problems as one clear line on ``err`` with exit status 1,
never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..graph import SpecGraph
from ..loader import RootError, load_spec
from .build import id_slug
from .decode import decode, primary_matches
from .from_spec import spec_encodings
from .model import Encoding, EncodingSet
from .svg import svg
from .wavejson import wavejson_text

FORMATS = ("encoding", "wavedrom", "svg")
_SURFACE_TAG = {"tile": "TILE", "block": "BLOCK", "scalar": "SCALAR"}


def resolve(es: EncodingSet, ident: str) -> list[Encoding]:
    """Encodings named by a form id, a mnemonic (or alias) or an instruction id (``PTO-TILE-TMUL``)."""
    ident = ident.strip()
    enc = es.by_form_id(ident)
    if enc is not None:
        return [enc]
    for cand in (ident, ident.upper()):
        found = es.by_mnemonic(cand)
        if found:
            return found
    wanted = ident.upper()
    names = list(es.mnemonics()) + list(es.aliases)
    for mn in names:
        forms = es.by_mnemonic(mn)
        surface = _SURFACE_TAG.get(forms[0].surface if forms else "", "")
        if mn in es.aliases:
            surface = "BLOCK"
        if surface and f"PTO-{surface}-{id_slug(mn)}" == wanted:
            return forms
    return []


def _load(root: Path, err: TextIO) -> EncodingSet | None:
    try:
        es: EncodingSet | None = spec_encodings(SpecGraph.build(load_spec(root)))
    except RootError:
        es = None
    if es is None or not len(es):
        err.write(f"error: no encodings found: {root}/spec/catalog has no readable "
                  "command-forms.json, scalar-forms.json, tile-operations.json or "
                  "extension-encoding-reservations.json\n")
        return None
    return es


def encoding_text(enc: Encoding) -> str:
    """The encoding as plain text: header, decoded items, fields, constraints."""
    lines = [f"{enc.mnemonic}" + (f" [{enc.variant}]" if enc.variant else "")
             + f"  form {enc.form_id}  ({enc.width}-bit{', ' + enc.encoding_kind if enc.encoding_kind else ''})",
             f"source:   {enc.source}",
             f"assembly: {enc.assembly}",
             f"carrier:  {enc.carrier.asm}  ({enc.carrier.form_id})",
             f"mask:     0x{enc.opcode_mask:0{-(-enc.width // 4)}X}   match: 0x{enc.opcode_match:0{-(-enc.width // 4)}X}",
             "",
             "| Decoded item | Bit range | Value |",
             "|---|---|---|"]
    for it in enc.items():
        extra = f" (= {it.fixed_value} for {enc.mnemonic})" if it.value == "variable" and it.fixed_value is not None else ""
        lines.append(f"| {it.name} | {it.bits} | {it.value}{extra} |")
    if enc.fields:
        lines += ["", "| Field | Width | Signedness | Role | Encoded zero |", "|---|---|---|---|---|"]
        for f in enc.fields:
            lines.append(f"| {f.name} | {f.width} | {f.signedness or '—'} | {f.role or '—'} | "
                         f"{f.zero_meaning or '—'} |")
    if enc.constraints:
        lines += ["", "constraints:"] + [f"  {c.describe()}" for c in enc.constraints]
    return "\n".join(lines) + "\n"


def cmd_render(root: Path, ident: str, fmt: str, out: TextIO, err: TextIO | None = None) -> int:
    """Print the encoding table, the WaveJSON or the SVG of every form ``ident`` names."""
    err = err or sys.stderr
    if fmt not in FORMATS:
        err.write(f"error: unknown format {fmt!r}; use one of {', '.join(FORMATS)}\n")
        return 1
    es = _load(root, err)
    if es is None:
        return 1
    found = resolve(es, ident)
    if not found:
        err.write(f"error: no encodable instruction or form named {ident!r}; give a mnemonic (TMUL), "
                  "a form id (bstart_tepl_32_d022db6dacb3) or an instruction id (PTO-TILE-TMUL)\n")
        return 1
    for i, enc in enumerate(found):
        if fmt == "encoding":
            out.write(("\n" if i else "") + encoding_text(enc))
        elif fmt == "wavedrom":
            out.write(wavejson_text(enc) + "\n")
        else:
            out.write(svg(enc))
    return 0


def parse_word(text: str) -> tuple[int, int]:
    """(value, number of bits the digits spell) for ``0x…`` or ``0b…`` (``_`` allowed)."""
    t = text.strip().replace("_", "").lower()
    if t.startswith("0x") and len(t) > 2:
        return int(t[2:], 16), 4 * len(t[2:])
    if t.startswith("0b") and len(t) > 2:
        return int(t[2:], 2), len(t[2:])
    raise ValueError(f"cannot read word {text!r}: write it in hex (0xC0219181) or binary (0b1010…)")


def cmd_decode(root: Path, word: str, width: int | None, out: TextIO, err: TextIO | None = None) -> int:
    """Name the instruction(s) ``word`` encodes with each field's value; 1 when none does."""
    err = err or sys.stderr
    try:
        value, digits_bits = parse_word(word)
    except ValueError as exc:
        err.write(f"error: {exc}\n")
        return 1
    es = _load(root, err)
    if es is None:
        return 1
    widths = es.widths()
    if width is None:
        need = max(digits_bits, value.bit_length())
        width = next((w for w in widths if w >= need), None)
        if width is None:
            err.write(f"error: {word} has {need} bits, more than the widest instruction ({widths[-1]} bits)\n")
            return 1
    elif width not in widths:
        err.write(f"error: no instruction is {width} bits wide; widths in this spec: "
                  f"{', '.join(map(str, widths))}\n")
        return 1
    if value >> width:
        err.write(f"error: {word} does not fit in {width} bits\n")
        return 1
    matches = decode(es, value, width)
    hexword = f"0x{value:0{-(-width // 4)}X}"
    if not primary_matches(matches):
        err.write(f"error: no instruction matches {hexword} as a {width}-bit word "
                  "(fixed bits or field constraints differ from every form)\n")
        return 1
    for m in matches:
        enc = m.encoding
        if m.carrier_of:
            out.write(f"  carrier: {enc.mnemonic} ({enc.form_id}) carries {', '.join(m.carrier_of)}\n")
            continue
        tag = f" [{enc.variant}]" if enc.variant else ""
        out.write(f"{hexword} ({width}-bit) = {enc.mnemonic}{tag}  form {enc.form_id}  ({enc.source})\n")
        out.write(f"  assembly: {enc.assembly}\n")
        for f in enc.fields:
            fixed = "  (operation constant)" if f.fixed_by == "operation" else ""
            out.write(f"  {f.name} = {m.value_text(f.name)}{fixed}\n")
    return 0
