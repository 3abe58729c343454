"""atheris harness: bytes -> strict decode -> ADR scanner (JSON front matter, title, schema).

    .venv/bin/python fuzz/fuzz_adr.py -max_total_time=600
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, assert_findings, line_count, run, seeds  # noqa: E402

import jsonschema  # noqa: E402

with atheris.instrument_imports():
    from specgen.loader.adrs import scan_adr
    from specgen.files import SpecFiles

PATH = "docs/status/decisions/0001-x.md"
_schema = json.loads((REPO / "spec/spec/schemas/pto-adr.schema.json").read_text(encoding="utf-8"))
_cls = jsonschema.validators.validator_for(_schema)
VALIDATOR = _cls(_schema, format_checker=_cls.FORMAT_CHECKER)


def test_one(data: bytes) -> None:
    fs = SpecFiles(Path("/nonexistent-fuzz-root"))
    text = fs.decode(PATH, data)
    if text is None:
        return
    findings: list = []
    adr = scan_adr(PATH, "0" * 64, text, findings, VALIDATOR)
    assert_findings(findings, PATH, line_count(text))
    assert isinstance(adr.title, str)


if __name__ == "__main__":
    run("adr", test_one, seeds("spec/docs/status/decisions/*.md"),
        ["---", "# ", "# ADR 0001: ", '"id"', '"status"', '"accepted"', '"title"', "null", "ADR-0001"])
