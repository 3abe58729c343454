"""encoding-record: every catalog record becomes an encoding.

The builder reports the records it cannot read (a missing field, a bad bit
range) while it builds the spec's encoding set; this rule hands those
findings to the check.
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.from_spec import spec_encodings
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> list[Finding]:
    return list(spec_encodings(graph).build_findings)


RULE = Rule("encoding-record", Severity.ERROR, "A catalog record cannot be turned into an encoding.",
            "Fix the catalog record the message names.", check)
