"""Finding encodings by the names people use, and reading the words they type.

What ``specgen render`` and ``specgen decode`` need below the command line:
an identifier to encodings, an encoding as plain text, a typed word to its
value and width.
"""

from __future__ import annotations

from ..diagnostics import printable
from .build import id_slug
from .model import Encoding, EncodingSet

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
    return "\n".join(printable(x) for x in lines) + "\n"  # catalog text never starts a line of its own


def parse_word(text: str) -> tuple[int, int]:
    """(value, number of bits the digits spell) for ``0x…`` or ``0b…`` (``_`` allowed)."""
    t = text.strip().replace("_", "").lower()
    if t.startswith("0x") and len(t) > 2:
        return int(t[2:], 16), 4 * len(t[2:])
    if t.startswith("0b") and len(t) > 2:
        return int(t[2:], 2), len(t[2:])
    raise ValueError(f"cannot read word {text!r}: write it in hex (0xC0219181) or binary (0b1010…)")
