"""instruction-tile-class: a tile instruction's first classification is one of the spec's tile classes.

The tile classes are the members of the spec's ASL enumeration
``TileInstructionClass`` (:attr:`specgen.vocabulary.Vocabulary.tile_classes`),
so the record model cannot know them: it checks the shape of a
classification, this rule checks it against the spec that states the classes.
A tree without that enumeration states no classes, and nothing is checked.
"""

from __future__ import annotations

from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...vocabulary import VOCABULARY
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    classes = VOCABULARY(graph).tile_class_names
    if not classes:
        return
    for u in graph.iter_instruction_units():
        ins = u.instruction
        assert ins is not None
        if ins.surface == "tile" and ins.classification[0] not in classes:
            yield Finding(RULE.id, Severity.ERROR, u.path, u.header_span.line if u.header_span else 1,
                          f"tile class {ins.classification[0]!r} is not one of {', '.join(classes)}",
                          subject=ins.id, col=1)


RULE = Rule("instruction-tile-class", Severity.ERROR, "A tile instruction names a tile class the spec does not have.",
            "Use a member of TileInstructionClass (kebab-case) as the record's first classification.", check)
