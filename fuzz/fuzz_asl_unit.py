"""atheris harness: bytes -> strict decode -> ASL unit scanner (headers, NDF clauses, DOC regions).

Run by hand (see docs-internal/robustness.md):
    .venv/bin/python fuzz/fuzz_asl_unit.py -max_total_time=600
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ASL_TOKENS, assert_findings, byte_lines, line_count, run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.loader.asl_units import scan_unit
    from specgen.files import SpecFiles

PATH = "asl/tile/model/x.asl"


def test_one(data: bytes) -> None:
    fs = SpecFiles(Path("/nonexistent-fuzz-root"))
    text = fs.decode(PATH, data, ascii_only=True)
    assert_findings(fs.findings, PATH, byte_lines(data))
    if text is None:
        return
    findings: list = []
    unit = scan_unit(PATH, hashlib.sha256(data).hexdigest(), text, findings)
    assert_findings(findings, PATH, line_count(text))
    for c in unit.clauses:
        assert 1 <= c.span.line <= line_count(text)


if __name__ == "__main__":
    run("asl_unit", test_one, seeds("spec/asl/**/*.asl", "tests/bad-inputs/**/asl/**/*.asl"), ASL_TOKENS)
