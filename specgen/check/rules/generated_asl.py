"""generated-asl (warning): the ASL specgen generates from a tree's catalogs does not fit what the tree calls.

The tree's own ASL calls the decoders and validation shards its upstream build generates; specgen
generates them again. When a call the tree makes does not fit specgen's declaration, the tree is not
what is wrong: specgen's generator does not know this tree's generation. The finding says so, at the
call, instead of an ``asl-arity`` or ``asl-type`` error charged to the tree.
"""

from __future__ import annotations

from typing import Iterable

from ...asl.static import ASL_FINDINGS
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    return [f for f in ASL_FINDINGS(graph) if f.rule == RULE.id]


RULE = Rule("generated-asl", Severity.WARNING,
            "specgen's own generated ASL does not fit a call the tree makes (a specgen bug, not the tree's).",
            "Report it to specgen with the tree's release; the tree's call follows its own generator.", check)
