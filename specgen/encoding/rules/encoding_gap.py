"""encoding-gap: every instruction bit should be fixed or belong to a field.

Bits that are neither are don't-care: an assembler has no defined value for
them and a decoder must ignore them. In an accepted form that is a warning
(the form still decodes, but the spec should say "fixed zero" or name a
field; the corpus has two source-only B.IOT forms with bits 8:7 like this).
In an extension reservation the unassigned bits are the reserved space's
payload, owned by the future extension, so they are only a note.
"""

from __future__ import annotations

from specgen.diagnostics import Finding, Severity

from ..model import EncodingSet
from ._common import at, checked, describe, runs

RULE = "encoding-gap"


def check(es: EncodingSet) -> list[Finding]:
    out: list[Finding] = []
    for enc in es:
        if not checked(enc) or not enc.gap_mask:
            continue
        bits = ", ".join(runs(enc.gap_mask))
        if enc.kind == "reservation":
            out.append(at(enc, RULE, Severity.NOTE,
                          f"reservation {enc.mnemonic} leaves bit(s) {bits} unassigned: they are the reserved "
                          "extension's payload; nothing to do unless the extension defines them"))
        else:
            out.append(at(enc, RULE, Severity.WARNING,
                          f"{describe(enc)} leaves bit(s) {bits} neither fixed nor in a field (don't-care); "
                          "add them to the mask as fixed bits or declare the field that owns them"))
    return out
