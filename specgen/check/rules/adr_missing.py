"""adr-missing: every ADR ID the spec cites has an ADR file.

Citations come from other ADRs (supersedes, superseded_by, resolves), the
manifest's release selection, and the evidence files (readiness subjects).
One missing ADR is one finding that says how many places cite it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule

ADR_ID = re.compile(r'"(ADR-[0-9]{4})"')


def citations(graph: SpecGraph) -> dict[str, list[tuple[str, int]]]:
    """ADR ID -> [(path, offset-or-line)] of every place that cites it.

    For JSON files the second item is a character offset (negative), turned
    into a line only for the citations that are reported.
    """
    cites: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for a in graph.adrs:
        f = a.front
        assert f is not None
        for rel in (*(f.supersedes or ()), *(f.superseded_by or ()), *(f.resolves or ())):  # None: not recorded
            cites[rel].append((a.path, 2))
    for rel, art in graph.spec.artifacts.items():
        if not art.text or "ADR-" not in art.text:
            continue
        for m in ADR_ID.finditer(art.text):
            cites[m.group(1)].append((rel, -1 - m.start()))
    return cites


def check(graph: SpecGraph) -> Iterable[Finding]:
    known = set(graph.adrs_by_id)
    for adr_id, places in sorted(citations(graph).items()):
        if adr_id in known or adr_id == "ADR-0000":
            continue
        path, line = places[0]
        if line < 0:
            text = graph.spec.artifacts[path].text
            line = text.count("\n", 0, -1 - line) + 1
        files = sorted({p for p, _ in places})
        yield Finding(RULE.id, Severity.ERROR, path, line,
                      f"{adr_id} is cited {len(places)} time(s) in {len(files)} file(s) but has no ADR file under "
                      f"{graph.spec.config.adr_dir}/; restore it or remove the citations",
                      subject=adr_id, col=1, related=tuple(files[:5]))


RULE = Rule("adr-missing", Severity.ERROR, "A cited ADR has no file.", "Restore the ADR file.", check)
