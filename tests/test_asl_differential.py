"""specgen and ASLRef, the normative interpreter, give the same verdict on a fixed set of AVS tests.

One test per top-level test folder of the corpus (arch, block, scalar, tile),
chosen among the fast ones under ASLRef: the scalar one runs a validation
shard that specgen generates from the catalog and ASLRef from the spec's own
build, the block one decodes a BSTART through the command decoder that
specgen derives. ASLRef assembles the spec once per root (~6 s), then takes
2-25 s a test. Where ``/work/shared/aslref/run-avs`` is absent the test skips
with the reason, and fails under CI (CI always has the oracle). Tests that
run whole generated shards (FSU, BRU jump, the canonical sweeps) take
minutes each under ASLRef (``ResetProfileState`` alone ~15 s there), so they
are compared by hand, not here (see docs-internal/asl-interpreter.md).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from specgen.asl.runner import run_tests
from specgen.loader import load_spec

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

RUN_AVS = Path(__file__).resolve().parent.parent.parent / "shared" / "aslref" / "run-avs"

# What bounds this test is how many tests it hands ASLRef, not the clock: a fixed 600 s for the whole run
# was exceeded on a loaded machine (issue 41) and stopped `make` before the browser tests. The clock only
# stops an oracle that hangs, at a budget per test far above its 2-25 s (one shared run assembles the spec once).
MAX_ORACLE_TESTS = 4
ORACLE_SECONDS_PER_TEST = 900

# folder -> a fast test of it (paths under the corpus root)
FIXED = {
    "arch": "tests/asl/arch/profile/reset/arch-static-reset-contract-001.asl",
    "block": "tests/asl/block/model/dispatch/start/block-static-start-contract-001.asl",
    "scalar": "tests/asl/scalar/agu/LB/scalar-exec-lb-registers-001.asl",
    "tile": "tests/asl/tile/model/state/types/tile-static-types-contract-001.asl",
}


def _oracle() -> Path:
    if RUN_AVS.is_file() and os.access(RUN_AVS, os.X_OK):
        return RUN_AVS
    if os.environ.get("CI"):
        pytest.fail(f"ASLRef (run-avs) must be at {RUN_AVS} under CI")
    pytest.skip(f"ASLRef not found at {RUN_AVS}: the differential test needs the normative oracle")


def _aslref_verdicts(root: Path, paths: list[str]) -> dict[str, bool]:
    assert len(paths) <= MAX_ORACLE_TESTS, f"ASLRef is slow: hand it at most {MAX_ORACLE_TESTS} tests a run"
    budget = ORACLE_SECONDS_PER_TEST * (len(paths) + 1)  # +1: assembling the spec
    try:
        proc = subprocess.run([str(_oracle()), str(root), *paths], capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        pytest.fail(f"ASLRef did not finish {len(paths)} tests in {budget} s: it hangs (each takes 2-25 s alone)")
    verdicts = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"(PASS|FAIL|MISSING) (\S+)", line)
        if m:
            verdicts[m.group(2)] = m.group(1) == "PASS"
    assert set(verdicts) == set(paths), proc.stdout + proc.stderr
    return verdicts


def test_fixed_set_covers_every_top_level_folder(corpus_root):
    assert len(FIXED) <= MAX_ORACLE_TESTS
    folders = {p.name for p in (corpus_root / "tests" / "asl").iterdir() if p.is_dir()}
    assert folders == set(FIXED)
    assert all((corpus_root / p).is_file() for p in FIXED.values())


def test_specgen_and_aslref_agree(corpus_root):
    oracle = _aslref_verdicts(corpus_root, list(FIXED.values()))
    report = run_tests(load_spec(corpus_root), [p.removeprefix("tests/asl/") for p in FIXED.values()], jobs=1)
    ours = {r.path: r.status == "passed" for r in report.results}
    assert ours == oracle
    assert all(oracle.values())  # the set is chosen among tests the normative build passes
