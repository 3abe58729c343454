"""encoding-width: the catalog words, fixed bits and field pieces must fit the declared length.

Checked: the catalog words' ``width_bits`` add up to ``length_bits``; mask
and match stay inside their word; match sets no bit outside mask; every
piece lies inside the instruction; every piece's value bits lie inside the
field's declared width and do not overlap each other. Pieces that cover
*fewer* value bits than the declared width are allowed: those are scaled
immediates whose low value bits are implicitly zero (FENTRY ``uimm``).
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.findings import at, checked, describe, runs
from ...encoding.from_spec import spec_encodings
from ...encoding.model import EncodingSet, ones
from ...graph import SpecGraph
from ..base import Rule


RULE_ID = "encoding-width"


def findings(es: EncodingSet) -> list[Finding]:
    """The findings on one encoding set (the check runs it on the spec's; tests on hand-built sets)."""
    out: list[Finding] = []
    for enc in es:
        if not checked(enc):
            continue
        name = describe(enc)

        def err(msg: str) -> None:
            out.append(at(enc, RULE_ID, Severity.ERROR, f"{name}: {msg}"))

        if enc.width not in (16, 32, 48, 64):
            err(f"length_bits {enc.width} is not a supported word width (16, 32, 48 or 64)")
        if enc.parts and enc.parts_width != enc.width:
            err(f"encoding words add up to {enc.parts_width} bits but length_bits is {enc.width}; "
                "make the words' width_bits sum to the instruction length")
        for offset, w, mask, match in enc.parts:
            if mask >> w or match >> w:
                err(f"mask/match of the word at bit {offset} have bits above its {w}-bit width; "
                    "trim them or widen the word")
            if match & ~mask:
                err(f"match of the word at bit {offset} sets bit(s) {', '.join(runs((match & ~mask) << offset))} "
                    "outside its mask; clear them or add them to the mask")
        for f in enc.fields:
            value_seen = 0
            for p in f.pieces:
                if p.width <= 0 or p.instruction_lsb < 0 or p.value_lsb < 0:
                    err(f"field {f.name} has a piece with a negative or empty range; fix its pieces")
                    continue
                if p.instruction_msb >= enc.width:
                    err(f"field {f.name} piece {p.instruction_msb}:{p.instruction_lsb} lies beyond the "
                        f"{enc.width}-bit word; fix instruction_lsb/width")
                vm = ones(p.width) << p.value_lsb
                if value_seen & vm:
                    err(f"field {f.name} has pieces carrying the same value bits; fix value_lsb")
                value_seen |= vm
            if f.value_width > f.width:
                err(f"field {f.name} pieces carry value bit {f.value_width - 1} but the field is declared "
                    f"{f.width} bits wide; widen the field or fix its pieces")
    return out


def check(graph: SpecGraph) -> list[Finding]:
    return findings(spec_encodings(graph))


RULE = Rule(RULE_ID, Severity.ERROR, "Fields and fixed bits do not make up the word.",
            "Fix the field pieces or the encoding words so they sum to length_bits.",
            check)
