"""manifest-unlisted-file: every file under a source root is bound by the manifest.

An unlisted source would ship in the release without a hash, so nothing would
notice it changing.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    man = graph.spec.manifest
    if man is None:
        return
    listed = {r.path for r in man.canonical_inputs}
    for path in sorted({u.path for u in graph.spec.units} | set(graph.spec.other_files)):
        if path not in listed:
            yield Finding(RULE.id, Severity.ERROR, path, 0,
                          "file under a source root is not listed in the manifest's canonical_inputs; "
                          "add it with 'specgen manifest --write'", subject=path)


RULE = Rule("manifest-unlisted-file", Severity.ERROR, "A source file is missing from the manifest.",
            "Regenerate the manifest with 'specgen manifest --write'.", check,
            requires=("manifest",))
