"""encoding-collision: no word may decode as two different instructions.

Encodings that accept exactly the same words (same width, opcode bits,
fields and constraints) are grouped first: a group of k such forms is one
cause, reported once with every member named, and the pairwise pass below
compares one representative per group. That pass uses bit tricks first:
forms whose common fixed bits differ (``(m1 & m2) & (v1 ^ v2) != 0``) can
never meet. The few survivors go through a constraint-aware search
(:func:`specgen.encoding.decode.common_word`) and are reported only with a
word both accept, once per pair of groups. Pairs the spec declares are
skipped: a tile operation and its own carrier command form (the operation
specialises the carrier), and pairs in command-forms.json
``reviewed_encoding_overlaps``.
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.decode import SearchBudgetExceeded, common_word, specializes
from ...encoding.findings import at, describe
from ...encoding.from_spec import spec_encodings
from ...encoding.model import Encoding, EncodingSet
from ...graph import SpecGraph
from ..base import Rule


RULE_ID = "encoding-collision"


def _field_text(enc: Encoding, word: int) -> str:
    vals = enc.decode_fields(word)
    return ", ".join(f"{k}={v}" for k, v in vals.items()) or "no fields"


def _signature(e: Encoding) -> tuple[object, ...]:
    """What decides which words an encoding accepts (not its name, form or source)."""
    return (e.width, e.opcode_mask, e.opcode_match,
            tuple((f.name, f.mask, f.fixed_value) for f in e.fields), repr(e.constraints))


def findings(es: EncodingSet) -> list[Finding]:
    """The findings on one encoding set (the check runs it on the spec's; tests on hand-built sets)."""
    reviewed = {frozenset((b, n)) for b, n, _ in es.reviewed_overlaps}

    def exempt(a: Encoding, b: Encoding) -> bool:
        return (specializes(a, b) or specializes(b, a) or frozenset((a.form_id, b.form_id)) in reviewed
                or frozenset((a.base_form_id, b.base_form_id)) in reviewed)

    out: list[Finding] = []
    for width in es.widths():
        groups: dict[tuple[object, ...], list[Encoding]] = {}
        for e in es.of_width(width):
            groups.setdefault(_signature(e), []).append(e)
        reps = list(groups.values())
        for members in reps:
            if len(members) > 1:
                out.extend(_identical(members, exempt, width))
        keys = [(m[0].opcode_mask, m[0].opcode_match) for m in reps]
        for i, group_a in enumerate(reps):
            ma, va = keys[i]
            for j in range(i + 1, len(reps)):
                mb, vb = keys[j]
                if (ma & mb) & (va ^ vb):
                    continue
                group_b = reps[j]
                pairs = [(a, b) for a in group_a for b in group_b if not exempt(a, b)]
                if not pairs:
                    continue
                a, b = pairs[0]
                try:
                    word = common_word(a, b)
                except SearchBudgetExceeded:
                    out.append(at(a, RULE_ID, Severity.WARNING,
                                  f"{describe(a)} and {describe(b)} ({b.source}) share fixed bits and the "
                                  "constraint search gave up before deciding whether a word decodes as both; "
                                  "check the pair by hand or list it in reviewed_encoding_overlaps"
                                  + _also(pairs), related=(str(b.source),)))
                    continue
                if word is None:
                    continue
                digits = -(-width // 4)
                out.append(at(a, RULE_ID, Severity.ERROR,
                              f"{describe(a)} and {describe(b)} ({b.source}) both decode the {width}-bit word "
                              f"0x{word:0{digits}X} ({a.mnemonic}: {_field_text(a, word)}; "
                              f"{b.mnemonic}: {_field_text(b, word)}); separate them with a fixed bit or a "
                              "constraint, or list the pair in command-forms.json reviewed_encoding_overlaps"
                              + _also(pairs), related=(str(b.source),)))
    return out


def _also(pairs: list[tuple[Encoding, Encoding]]) -> str:
    """The other pairs of the same two groups (forms that accept the same words as these two)."""
    if len(pairs) == 1:
        return ""
    return f"; the same holds for {len(pairs) - 1} more pair(s) of forms identical to these two"


def _identical(members: list[Encoding], exempt, width: int) -> list[Finding]:  # type: ignore[no-untyped-def]
    """One finding for forms that accept exactly the same words (pairs the spec declares excepted)."""
    pairs = [(a, b) for i, a in enumerate(members) for b in members[i + 1:] if not exempt(a, b)]
    if not pairs:
        return []
    try:
        word = common_word(members[0], members[0])
    except SearchBudgetExceeded:
        word = -1  # cannot tell which word; the forms are identical all the same
    if word is None:
        return []  # the constraints admit no word at all: nothing to confuse
    first = pairs[0][0]
    others = sorted({id(e): e for pair in pairs for e in pair if e is not first}.values(),
                    key=lambda e: (e.source.path, e.source.line, e.form_id))
    shown = ", ".join(f"{describe(e)} ({e.source})" for e in others[:5])
    more = f" and {len(others) - 5} more" if len(others) > 5 else ""
    example = f", e.g. 0x{word:0{-(-width // 4)}X}" if word >= 0 else ""
    return [at(first, RULE_ID, Severity.ERROR,
               f"{describe(first)} and {len(others)} other form(s) accept exactly the same {width}-bit words"
               f"{example}: {shown}{more}; give each its own fixed bits, or list the pairs in command-forms.json "
               "reviewed_encoding_overlaps", related=tuple(str(e.source) for e in others))]


def check(graph: SpecGraph) -> list[Finding]:
    return findings(spec_encodings(graph))


RULE = Rule(RULE_ID, Severity.ERROR, "Two instructions can decode the same word.",
            "Separate them with fixed bits or constraints, or declare the overlap as reviewed.",
            check)
