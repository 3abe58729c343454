"""atheris harness: a fuzzed release manifest in a tiny tree -> load_spec -> graph -> every check rule.

This is the one harness that touches the file system: the tree (one unit,
one test, a file outside the root and a symlink to it) is made once in a
temporary directory; each input rewrites only the manifest.

    .venv/bin/python fuzz/fuzz_manifest.py -max_total_time=600
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.check import run_checks
    from specgen.check.facts import manifest_facts
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec

SECRET = "FUZZ-SECRET-OUTSIDE-ROOT"
BASE = Path(tempfile.mkdtemp(prefix="specgen-fuzz-manifest-"))
ROOT = BASE / "root"
(ROOT / "asl/tile/model").mkdir(parents=True)
(ROOT / "spec").mkdir()
(ROOT / "asl/tile/model/x.asl").write_text(
    '// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}\n'
    "// NDF-BEGIN: PTO-X-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n// A rule.\n"
    "// NDF-END: PTO-X-001\n", encoding="utf-8")
(BASE / "secret.txt").write_text(SECRET, encoding="utf-8")
os.symlink("../../secret.txt", ROOT / "spec/link.txt")


def test_one(data: bytes) -> None:
    (ROOT / "spec/release-manifest.json").write_bytes(data)
    spec = load_spec(ROOT)
    graph = SpecGraph.build(spec)
    findings, _ = run_checks(graph)
    manifest_facts(graph)
    for f in findings:
        assert SECRET not in f.message and SECRET not in f.subject, f
        assert f.line >= 0 and f.col >= 0


if __name__ == "__main__":
    run("manifest", test_one, seeds("spec/spec/release-manifest.json"),
        ['"canonical_inputs"', '"path"', '"sha256"', '"../secret.txt"', '"/etc/passwd"', '"spec/link.txt"',
         '"asl/tile/model/x.asl"', '"owned_artifacts"', '"release_selection"', '"expanded_ndf"'])
