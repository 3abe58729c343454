"""atheris harness: one damaged file of each kind in a copy of the bundled spec -> load_spec -> every rule.

The first byte picks the kind (ASL unit, AVS test, catalog, checked example, ADR, manifest,
specification.toml); the rest replaces that file's bytes. The long-running twin of
``tests/test_robust_fuzz.py::test_damaged_file_of_each_kind_through_load_and_check``: never an
exception, every finding well formed, a finding about the damaged file inside it, and a NUL always
reported as ``file-nul``.

    .venv/bin/python fuzz/fuzz_tree.py -max_total_time=600
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import assert_findings, byte_lines, run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.check import run_checks
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec

REPO = Path(__file__).resolve().parent.parent
KINDS = [
    "asl/tile/elementwise-tile-tile/logical/TAND.asl",
    "tests/asl/tile/elementwise-tile-tile/logical/TAND/tile-exec-tand-widths-001.asl",
    "spec/catalog/tile-operations.json",
    "examples/tile/elementwise-tile-tile/logical/TAND/u8.json",
    "docs/status/decisions/0001-executable-datatype-sets.md",
    "spec/release-manifest.json",
    "specification.toml",
]
ROOT = Path(tempfile.mkdtemp(prefix="specgen-fuzz-tree-")) / "spec"
shutil.copytree(REPO / "spec", ROOT)
ORIGINAL = {rel: (ROOT / rel).read_bytes() for rel in KINDS}
EXAMPLE_RULES = ["example-mismatch", "example-fault", "example-sketch", "example-legality"]


def test_one(data: bytes) -> None:
    if not data:
        return
    rel = KINDS[data[0] % len(KINDS)]
    body = data[1:]
    (ROOT / rel).write_bytes(body)
    try:
        spec = load_spec(ROOT, cache=False)
        findings, _ = run_checks(SpecGraph.build(spec), disable=EXAMPLE_RULES)
    finally:
        (ROOT / rel).write_bytes(ORIGINAL[rel])
    assert_findings([f for f in findings if f.path == rel], rel, byte_lines(body))
    if b"\x00" in body and rel != "specification.toml":
        assert any(f.rule == "file-nul" and f.path == rel for f in spec.findings), rel


if __name__ == "__main__":
    run("tree", test_one, seeds("spec/asl/tile/**/*.asl", "spec/spec/catalog/*.json", "spec/examples/**/*.json"),
        ["\x00", "\xff", "\xef\xbb\xbf", "[" * 64, "// NDF-BEGIN: ", "// PTO-UNIT: {", '{"program": '])
