"""encoding-collision: no word may decode as two different instructions.

For each width, every pair of encodings is compared with bit tricks first:
forms whose common fixed bits differ (``(m1 & m2) & (v1 ^ v2) != 0``) can
never meet. The few survivors go through a constraint-aware search
(:func:`specgen.encoding.decode.common_word`) and are reported only with a
word both accept. Pairs the spec declares are skipped: a tile operation and
its own carrier command form (the operation specialises the carrier), and
pairs in command-forms.json ``reviewed_encoding_overlaps``.
"""

from __future__ import annotations

from specgen.diagnostics import Finding, Severity

from ..decode import SearchBudgetExceeded, common_word, specializes
from ..model import Encoding, EncodingSet
from ._common import at, describe

RULE = "encoding-collision"


def _field_text(enc: Encoding, word: int) -> str:
    vals = enc.decode_fields(word)
    return ", ".join(f"{k}={v}" for k, v in vals.items()) or "no fields"


def check(es: EncodingSet) -> list[Finding]:
    reviewed = {frozenset((b, n)) for b, n, _ in es.reviewed_overlaps}
    out: list[Finding] = []
    for width in es.widths():
        group = list(es.of_width(width))
        keys = [(e.opcode_mask, e.opcode_match) for e in group]
        for i, a in enumerate(group):
            ma, va = keys[i]
            for j in range(i + 1, len(group)):
                mb, vb = keys[j]
                if (ma & mb) & (va ^ vb):
                    continue
                b = group[j]
                if specializes(a, b) or specializes(b, a):
                    continue
                if frozenset((a.form_id, b.form_id)) in reviewed or frozenset(
                        (a.base_form_id, b.base_form_id)) in reviewed:
                    continue
                try:
                    word = common_word(a, b)
                except SearchBudgetExceeded:
                    out.append(at(a, RULE, Severity.WARNING,
                                  f"{describe(a)} and {describe(b)} ({b.source}) share fixed bits and the "
                                  "constraint search gave up before deciding whether a word decodes as both; "
                                  "check the pair by hand or list it in reviewed_encoding_overlaps",
                                  related=(str(b.source),)))
                    continue
                if word is None:
                    continue
                digits = -(-width // 4)
                out.append(at(a, RULE, Severity.ERROR,
                              f"{describe(a)} and {describe(b)} ({b.source}) both decode the {width}-bit word "
                              f"0x{word:0{digits}X} ({a.mnemonic}: {_field_text(a, word)}; "
                              f"{b.mnemonic}: {_field_text(b, word)}); separate them with a fixed bit or a "
                              "constraint, or list the pair in command-forms.json reviewed_encoding_overlaps",
                              related=(str(b.source),)))
    return out
