"""manifest-unlisted-file: every file under a source root, and every catalog, is bound by the manifest.

An unlisted source would ship in the release without a hash, so nothing would
notice it changing. A catalog under ``<json_root>/catalog/`` is an input of the
same weight (the encodings, the command forms and the ASL generated from them),
so an unlisted one is an error too. Any other JSON file the loader read that the
manifest does not list (evidence, schemas: the real releases bind only some) is
a note, so a stray file is seen rather than silently loaded.
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
    catalogs = f"{graph.spec.config.json_root}/catalog/"
    for path in sorted(set(graph.spec.artifacts) - listed - {graph.spec.manifest_path}):
        if path.startswith(catalogs):
            yield Finding(RULE.id, Severity.ERROR, path, 0,
                          "catalog is not listed in the manifest's canonical_inputs, though its encodings and "
                          "forms are part of the release; add it with 'specgen manifest --write'", subject=path)
        else:
            yield Finding(RULE.id, Severity.NOTE, path, 0,
                          "JSON file is read but not listed in the manifest's canonical_inputs (nothing binds its "
                          "hash); list it if it is an input of the release", subject=path)


RULE = Rule("manifest-unlisted-file", Severity.ERROR, "A source file is missing from the manifest.",
            "Regenerate the manifest with 'specgen manifest --write'.", check,
            requires=("manifest",))
