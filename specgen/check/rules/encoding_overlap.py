"""encoding-overlap: no instruction bit may belong to two fields, or to a field and the fixed bits.

One exception is allowed because the spec states it: a field that overlaps
fixed bits is tolerated when a single-value ``one-of`` constraint pins it to
exactly the value the fixed bits hold (B.FPATR names its opcode sub-fields
``Func``, ``Opc1``, ``Opcode``, ``W`` … this way). That is documentation of
the opcode's structure, not an ambiguity, so it yields no finding. If the pinned
value disagrees with the fixed bits, the form can never be encoded (error);
an unpinned field over fixed bits silently loses values (error).
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.findings import at, checked, describe, runs
from ...encoding.from_spec import spec_encodings
from ...encoding.model import EncodingSet
from ...graph import SpecGraph
from ..base import Rule


RULE_ID = "encoding-overlap"


def findings(es: EncodingSet) -> list[Finding]:
    """The findings on one encoding set (the check runs it on the spec's; tests on hand-built sets)."""
    out: list[Finding] = []
    for enc in es:
        if not checked(enc):
            continue
        fields = list(enc.fields)
        for i, f in enumerate(fields):
            for g in fields[i + 1:]:
                both = f.mask & g.mask
                if both:
                    out.append(at(enc, RULE_ID, Severity.ERROR,
                                  f"{describe(enc)}: fields {f.name} and {g.name} both cover bit(s) "
                                  f"{', '.join(runs(both))}; move one field's pieces so each bit has one owner"))
            # A field whose own pieces overlap each other is as ambiguous as two fields.
            seen = 0
            for p in f.pieces:
                if seen & p.mask:
                    out.append(at(enc, RULE_ID, Severity.ERROR,
                                  f"{describe(enc)}: pieces of field {f.name} overlap at bit(s) "
                                  f"{', '.join(runs(seen & p.mask))}; give each piece its own instruction bits"))
                seen |= p.mask
            shared = f.mask & enc.fixed_mask
            if not shared:
                continue
            if f.fixed_value is None:
                out.append(at(enc, RULE_ID, Severity.ERROR,
                              f"{describe(enc)}: field {f.name} covers fixed bit(s) {', '.join(runs(shared))} "
                              "but no single-value one-of constraint pins it; remove those bits from the mask "
                              "or pin the field to the value the fixed bits hold"))
            elif (f.insert(f.fixed_value) ^ enc.fixed_match) & shared:
                out.append(at(enc, RULE_ID, Severity.ERROR,
                              f"{describe(enc)}: field {f.name} is pinned to {f.fixed_value}, but fixed bit(s) "
                              f"{', '.join(runs(shared))} hold a different value, so no word encodes this form; "
                              "make the constraint and the match agree"))
    return out


def check(graph: SpecGraph) -> list[Finding]:
    return findings(spec_encodings(graph))


RULE = Rule(RULE_ID, Severity.ERROR, "Two fields, or a field and fixed bits, cover the same bit.",
            "Move one field, or pin it to the fixed value with a one-of constraint.",
            check)
