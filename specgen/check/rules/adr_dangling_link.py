"""adr-dangling-link: what an ADR names exists: affected clauses and units, and relative links.

``affected_ndf`` must name clauses or instruction identities, ``affected_units``
unit IDs (``adr-dangling-affected``, which needs ADRs whose generation declares
those lists: the Markdown-header ADRs of 0.58.0 name requirements in prose);
a relative Markdown link in the body must point at a file of the tree.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule
from ..facts import recorded_owner, settled

LINK = re.compile(r"\[[^\]]*\]\(((?:[^()\s]|\([^()\s]*\))+)\)")  # one level of balanced parentheses
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def check_affected(graph: SpecGraph) -> Iterable[Finding]:
    for a in graph.adrs:
        f = a.front
        assert f is not None
        for nid in f.affected_ndf or ():
            owner = recorded_owner(graph, nid)
            if nid not in graph.clauses and nid not in graph.identities and not (owner and settled(graph, owner)):
                yield Finding(AFFECTED.id, Severity.ERROR, a.path, 2,
                              f"affected_ndf names {nid}, which is no clause of this tree", subject=f.id, col=1)
        for uid in f.affected_units or ():
            if uid not in graph.units_by_id:
                yield Finding(AFFECTED.id, Severity.ERROR, a.path, 2,
                              f"affected_units names {uid}, which is no unit of this tree", subject=f.id, col=1)


def check(graph: SpecGraph) -> Iterable[Finding]:
    fs = graph.spec.fs
    for a in graph.adrs:
        f = a.front
        assert f is not None
        base = posixpath.dirname(a.path)
        for i, line in enumerate(a.body.split("\n")):
            for m in LINK.finditer(line):
                target = m.group(1).split("#", 1)[0]
                if SCHEME.match(target):
                    if not target.lower().startswith(("https:", "http:", "mailto:")):
                        yield Finding(RULE.id, Severity.WARNING, a.path, a.body_line + i,
                                      f"link uses the {target.split(':', 1)[0]}: scheme; only http(s) and mailto "
                                      "links are allowed (others are not rendered as links)", subject=f.id,
                                      col=m.start(1) + 1)
                    continue
                if not target or target.startswith(("#", "/")):
                    continue
                rel = posixpath.normpath(posixpath.join(base, target))
                if rel.startswith("../") or fs is None or not fs.present(rel):
                    yield Finding(RULE.id, Severity.WARNING, a.path, a.body_line + i,
                                  f"link target {target} does not exist in the tree", subject=f.id,
                                  col=m.start(1) + 1)


RULE = Rule("adr-dangling-link", Severity.ERROR, "An ADR links to a file the tree does not have.",
            "Fix the link, or restore the target.", check)
AFFECTED = Rule("adr-dangling-affected", Severity.ERROR, "An ADR's affected_ndf or affected_units names an unknown ID.",
                "Fix the ID, or restore the clause or unit.", check_affected, requires=("adr_affected",))
