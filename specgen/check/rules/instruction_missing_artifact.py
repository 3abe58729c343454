"""instruction-missing-artifact: the instruction-contract artifact each index record names exists.

When the manifest lists the same file, ``manifest-missing-file`` already
reports it (with the count of records naming it), so this rule stays silent
for it: one cause, one finding.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import settled


def check(graph: SpecGraph) -> Iterable[Finding]:
    art = graph.spec.traceability
    view = graph.spec.traceability_view
    if art is None or view is None:
        return
    named = Counter(u.instruction_contract.artifact for u in view.units if u.instruction_contract)
    for path, n in sorted(named.items()):
        if graph.spec.hash_of(path) is None and not settled(graph, path):
            yield Finding(RULE.id, Severity.ERROR, art.path, art.line_of(f'"{path}"'),
                          f"{path} is named as the instruction-contract artifact by {n} instruction record(s) "
                          "but does not exist", subject=path, col=1)


RULE = Rule("instruction-missing-artifact", Severity.ERROR, "An instruction names a missing artifact.",
            "Generate the artifact or fix the path in the traceability evidence.", check,
            requires=("traceability_view",))
