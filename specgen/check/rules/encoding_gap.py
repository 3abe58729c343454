"""encoding-gap: every instruction bit should be fixed or belong to a field.

Bits that are neither are don't-care: an assembler has no defined value for
them and a decoder must ignore them. In an accepted form that is a warning
(the form still decodes, but the spec should say "fixed zero" or name a
field; the corpus has two source-only B.IOT forms with bits 8:7 like this).
In an extension reservation the unassigned bits are the reserved space's
payload, owned by the future extension, so they are only a note.
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.findings import at, checked, describe, runs
from ...encoding.from_spec import spec_encodings
from ...encoding.model import EncodingSet
from ...graph import SpecGraph
from ..base import Rule


RULE_ID = "encoding-gap"


def findings(es: EncodingSet) -> list[Finding]:
    """The findings on one encoding set (the check runs it on the spec's; tests on hand-built sets)."""
    out: list[Finding] = []
    for enc in es:
        if not checked(enc) or not enc.gap_mask:
            continue
        bits = ", ".join(runs(enc.gap_mask))
        if enc.kind == "reservation":
            out.append(at(enc, RULE_ID, Severity.NOTE,
                          f"reservation {enc.mnemonic} leaves bit(s) {bits} unassigned: they are the reserved "
                          "extension's payload; nothing to do unless the extension defines them"))
        else:
            out.append(at(enc, RULE_ID, Severity.WARNING,
                          f"{describe(enc)} leaves bit(s) {bits} neither fixed nor in a field (don't-care); "
                          "add them to the mask as fixed bits or declare the field that owns them"))
    return out


def check(graph: SpecGraph) -> list[Finding]:
    return findings(spec_encodings(graph))


RULE = Rule(RULE_ID, Severity.WARNING, "Bits of a word are neither fixed nor a field.",
            "Assign the bits to a field or fix them in the mask.",
            check)
