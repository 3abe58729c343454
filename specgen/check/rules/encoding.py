"""encoding-overlap, encoding-gap, encoding-width, encoding-collision, encoding-record.

The encoding package states each rule in its own module
(:mod:`specgen.encoding.rules`); this adapter runs them on the encodings
built from the loaded spec, so ``specgen check`` enables and disables them by
id like every other rule.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...encoding.from_spec import spec_encodings
from ...encoding.rules import encoding_collision, encoding_gap, encoding_overlap, encoding_width
from ...graph import SpecGraph
from ..base import Rule


def _adapt(module: object, severity: Severity, description: str, help_text: str) -> Rule:
    rule = module.RULE  # type: ignore[attr-defined]
    rid = rule if isinstance(rule, str) else getattr(rule, "id", None) or module.__name__.rsplit(".", 1)[-1].replace("_", "-")

    def check(graph: SpecGraph) -> Iterable[Finding]:
        return module.check(spec_encodings(graph))  # type: ignore[attr-defined]

    return Rule(rid, severity, description, help_text, check)


def _record(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in spec_encodings(graph).build_findings]


RULES: list[Rule] = [
    _adapt(encoding_overlap, Severity.ERROR, "Two fields, or a field and fixed bits, cover the same bit.",
           "Move one field, or pin it to the fixed value with a one-of constraint."),
    _adapt(encoding_gap, Severity.WARNING, "Bits of a word are neither fixed nor a field.",
           "Assign the bits to a field or fix them in the mask."),
    _adapt(encoding_width, Severity.ERROR, "Fields and fixed bits do not make up the word.",
           "Fix the field pieces or the encoding words so they sum to length_bits."),
    _adapt(encoding_collision, Severity.ERROR, "Two instructions can decode the same word.",
           "Separate them with fixed bits or constraints, or declare the overlap as reviewed."),
    Rule("encoding-record", Severity.ERROR, "A catalog record cannot be turned into an encoding.",
         "Fix the catalog record the message names.", _record),
]
