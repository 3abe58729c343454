"""Decode words and search for words two encodings share.

Both jobs are the same question asked differently: which fixed bits and
field constraints does a word satisfy? ``common_word`` answers it for a pair
of encodings by a small backtracking search over the constrained fields, so
a collision is only reported together with a concrete word both forms accept
(and a pair is cleared only when no such word exists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Encoding, EncodingSet, Field, FieldCondition


@dataclass(frozen=True)
class Match:
    """One encoding a word decodes as, with its field values."""

    encoding: Encoding
    values: dict[str, int]
    carrier_of: tuple[str, ...] = ()  # tile operations this carrier match stands behind

    def value_text(self, name: str) -> str:
        v = self.values[name]
        label = self.encoding.value_name(name, v)
        return f"{v} ({label})" if label else str(v)


def specializes(specific: Encoding, general: Encoding) -> bool:
    """A tile operation specialises its carrier command form (and the carrier's variant rows)."""
    return (specific.kind == "tile-operation" and general.kind == "command-form"
            and specific.base_form_id == general.base_form_id)


def decode(es: EncodingSet, word: int, width: int) -> list[Match]:
    """Every encoding of ``width`` bits that accepts ``word``; carriers shadowed by their operation last."""
    hits = [e for e in es.of_width(width) if e.matches(word)]
    primary: list[Match] = []
    shadowed: list[Match] = []
    for e in hits:
        ops = tuple(o.mnemonic for o in hits if specializes(o, e))
        m = Match(e, e.decode_fields(word), ops)
        (shadowed if ops else primary).append(m)
    key = lambda m: (-bin(m.encoding.opcode_mask).count("1"), m.encoding.form_id)  # noqa: E731
    return sorted(primary, key=key) + sorted(shadowed, key=key)


def primary_matches(matches: Sequence[Match]) -> list[Match]:
    return [m for m in matches if not m.carrier_of]


class SearchBudgetExceeded(Exception):
    """The pair needs more search than we allow; the caller reports it as undecided."""


def common_word(a: Encoding, b: Encoding, budget: int = 50_000) -> int | None:
    """A word both ``a`` and ``b`` accept, or None when their bits or constraints separate them."""
    if a.width != b.width:
        return None
    ma, va, mb, vb = a.opcode_mask, a.opcode_match, b.opcode_mask, b.opcode_match
    if (ma & mb) & (va ^ vb):
        return None
    todo: list[tuple[Field, FieldCondition]] = []
    for enc in (a, b):
        for c in enc.constraints:
            f = enc.field(c.field)
            if f is not None and f.fixed_value is None:
                todo.append((f, c))
    # Fields already fully fixed by the other form get checked first; big free fields last.
    known0 = ma | mb
    todo.sort(key=lambda fc: (bin(fc[0].mask & ~known0).count("1"), fc[1].operator != "one-of"))
    steps = [0]

    def search(i: int, known: int, value: int) -> int | None:
        steps[0] += 1
        if steps[0] > budget:
            raise SearchBudgetExceeded
        if i == len(todo):
            return value
        f, c = todo[i]
        fm = f.mask
        if known & fm == fm:
            return search(i + 1, known, value) if c.allows(f.extract(value)) else None
        if c.operator == "one-of":
            for v in c.values:
                if not f.representable(v):
                    continue
                bits = f.insert(v)
                if (bits ^ value) & known & fm:
                    continue
                found = search(i + 1, known | fm, (value & ~fm) | bits)
                if found is not None:
                    return found
            return None
        free = fm & ~known
        for fill in (0, free):
            bits = (value & known & fm) | fill
            if c.allows(f.extract(bits)):
                found = search(i + 1, known | fm, (value & ~fm) | bits)
                if found is not None:
                    return found
        return None

    word = search(0, known0, va | vb)
    if word is None:
        return None
    word &= a.word_mask
    return word if a.matches(word) and b.matches(word) else None
