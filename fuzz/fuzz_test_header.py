"""atheris harness: bytes -> strict decode -> AVS test header scanner (``// PTO-TEST: {…}``).

    .venv/bin/python fuzz/fuzz_test_header.py -max_total_time=600
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ASL_TOKENS, assert_findings, byte_lines, line_count, run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.loader.avs import scan_test
    from specgen.files import SpecFiles

PATH = "tests/asl/tile/x/tile-exec-x-001.asl"


def test_one(data: bytes) -> None:
    fs = SpecFiles(Path("/nonexistent-fuzz-root"))
    text = fs.decode(PATH, data, ascii_only=True)
    assert_findings(fs.findings, PATH, byte_lines(data))
    if text is None:
        return
    findings: list = []
    test = scan_test(PATH, "0" * 64, text, findings)
    assert_findings(findings, PATH, line_count(text))
    assert 0 <= test.span.line <= line_count(text)


if __name__ == "__main__":
    run("test_header", test_one, seeds("spec/tests/asl/**/*.asl"), ASL_TOKENS)
