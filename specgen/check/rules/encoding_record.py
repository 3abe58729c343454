"""encoding-record: every catalog record becomes an encoding.

The builder reports the records it cannot read (a missing field, a bad bit
range) while it builds the spec's encoding set; this rule hands those
findings to the check. A catalog whose whole file matches no known format generation
(``format-generation-unknown``, one error at the file) has no per-record findings here: its
records fail for that one cause, not each for its own (0.57.x's 120 tile operations without a
``command_mnemonic``).
"""

from __future__ import annotations

from ...diagnostics import Finding, Severity
from ...encoding.from_spec import spec_encodings
from ...graph import SpecGraph
from ...loader.formats import RULE_UNKNOWN
from ..base import Rule


def check(graph: SpecGraph) -> list[Finding]:
    unknown = {f.path for f in graph.spec.findings if f.rule == RULE_UNKNOWN and f.severity is Severity.ERROR}
    return [f for f in spec_encodings(graph).build_findings if f.path not in unknown]


RULE = Rule("encoding-record", Severity.ERROR, "A catalog record cannot be turned into an encoding.",
            "Fix the catalog record the message names.", check)
