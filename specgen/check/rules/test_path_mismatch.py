"""test-path-mismatch: a test lives under ``<test root>/<source minus asl/ and .asl>/``
with a file name ``<surface>-<kind token>-<name>-NNN.asl`` that matches its kind, or
``<test id>.asl`` when the tree's AVS generation is ``id-named`` (``Spec.formats``)."""

from __future__ import annotations

import re
from typing import Iterable

from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...models.test import KIND_TOKEN
from ..base import Rule

NAME = re.compile(r"^(arch|block|scalar|tile)-(decode|exec|bound|fault|atomic|order|state|static)-([a-z0-9-]+)-(\d{3})\.asl$")


def check(graph: SpecGraph) -> Iterable[Finding]:
    root = graph.spec.config.test_root
    by_id = (getattr(graph.spec, "formats", None) or {}).get("avs") == "id-named"
    for t in graph.spec.tests:
        h = t.header
        if h is None:
            continue
        want_dir = f"{root}/{h.source.removeprefix('asl/').removesuffix('.asl')}"
        directory, name = t.path.rsplit("/", 1)
        if directory != want_dir:
            yield Finding(RULE.id, Severity.ERROR, t.path, t.span.line,
                          f"test of {h.source} must live in {want_dir}/", subject=h.id, col=1)
            continue
        if by_id:  # the tree's AVS generation names a file by its test ID
            if name != f"{h.id}.asl":
                yield Finding(RULE.id, Severity.ERROR, t.path, 0,
                              f"file name must be {h.id}.asl (this tree names tests by their ID)", subject=h.id)
            continue
        m = NAME.match(name)
        if not m:
            yield Finding(RULE.id, Severity.ERROR, t.path, 0,
                          "file name must be <surface>-<kind>-<name>-NNN.asl (lowercase)", subject=h.id)
        elif m.group(1) != h.source.split("/")[1] or m.group(2) != KIND_TOKEN[h.kind]:
            yield Finding(RULE.id, Severity.ERROR, t.path, t.span.line,
                          f"file name says {m.group(1)}/{m.group(2)} but the test is a "
                          f"{h.source.split('/')[1]} {h.kind} test ({KIND_TOKEN[h.kind]})", subject=h.id, col=1)


RULE = Rule("test-path-mismatch", Severity.ERROR, "A test is not mirrored under its source, or misnamed.",
            "Move the test to the directory that mirrors its source and name it by surface and kind.", check)
