"""The scale generator (bench/synth.py, issue 40): a tree N times the bundled spec that validates.

The scale curve in docs-internal/performance.md is only a measure of specgen if the grown tree is a
valid tree of the same kind: every copy renamed consistently (IDs, mnemonics, paths, hashes, clause
digests), so validation finds nothing it did not find in the original and the counts grow N times.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.synth import synthesize  # noqa: E402
from specgen.cli import main  # noqa: E402
from specgen.loader import load_spec  # noqa: E402
from specgen.asl.index import build_index  # noqa: E402
from specgen.asl.duplicates import duplicate_findings  # noqa: E402


def _validate(root: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(["validate", "--root", str(root)], out=out, err=err), out.getvalue() + err.getvalue()


def test_a_tree_three_times_the_bundled_spec_validates_with_three_times_the_records(tmp_path: Path) -> None:
    os.environ["SPECGEN_CACHE_DIR"] = str(tmp_path / "cache")
    tree = tmp_path / "x3"
    synthesize(REPO / "spec", tree, 3)
    rc, text = _validate(tree)
    assert rc == 0 and "0 error(s), 0 other finding(s)" in text, text
    spec = load_spec(tree, cache=False)
    base, grown = load_spec(REPO / "spec", cache=False).counts(), spec.counts()
    # every instruction's unit three times; the model's units once (cloned, they would declare every
    # type and helper twice: asl-duplicate)
    assert grown["instruction_records"] == 3 * base["instruction_records"]
    assert grown["asl_units"] == base["asl_units"] + 2 * base["instruction_records"]
    for key in ("avs_tests", "ndf_clauses"):
        assert 2 * base[key] <= grown[key] <= 3 * base[key], (key, base[key], grown[key])
    assert not [f for f in duplicate_findings(build_index(spec))], "a clone declares a name twice"
    mnemonics = [u.instruction.mnemonic for u in spec.units if u.instruction is not None]
    assert len(mnemonics) == len(set(mnemonics)) and any(m.endswith("ZZ2") for m in mnemonics)
    ids = [u.instruction.id for u in spec.units if u.instruction is not None]
    assert len(ids) == len(set(ids)) and any(i.endswith("ZZ2") for i in ids)
