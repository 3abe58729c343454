"""adr-dangling-link: a relative Markdown link in an ADR's body points at a file of the tree.

Only http(s) and mailto links may leave the tree; a link with another scheme is not rendered as a
link, so it is reported too. What an ADR's front matter names is ``adr-dangling-affected``.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ..base import Rule

LINK = re.compile(r"\[[^\]]*\]\(((?:[^()\s]|\([^()\s]*\))+)\)")  # one level of balanced parentheses
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


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
