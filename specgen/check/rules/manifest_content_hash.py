"""manifest-content-hash: ``content_sha256`` equals the canonical digest of the input list.

The hash contract: SHA-256 of the JSON object ``{path: sha256}`` over
``canonical_inputs``, keys sorted, separators ``,`` ``:``.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...hashing import content_sha256
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    man = graph.spec.manifest
    if man is None:
        return
    got = content_sha256([(r.path, r.sha256) for r in man.canonical_inputs])
    if got != man.content_sha256:
        art = graph.spec.artifacts[graph.spec.manifest_path]
        yield Finding(RULE.id, Severity.ERROR, graph.spec.manifest_path, art.line_of('"content_sha256"'),
                      f"content_sha256 is {man.content_sha256} but the canonical inputs digest to {got}; "
                      "regenerate the manifest", subject="content_sha256", col=1)


RULE = Rule("manifest-content-hash", Severity.ERROR, "The manifest's content hash does not match its inputs.",
            "Recompute it with 'specgen manifest --write'.", check,
            requires=("manifest",))
