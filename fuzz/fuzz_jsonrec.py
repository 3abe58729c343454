"""atheris harness: JSON text -> parse_json -> validate against every record model.

The first byte picks the model; the rest is the JSON text as it would appear
on a header line (or as a whole file, for the manifest and catalogs).

    .venv/bin/python fuzz/fuzz_jsonrec.py -max_total_time=600
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import assert_findings, line_count, run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.loader.jsonrec import parse_json, validate
    from specgen.models.adr import AdrFrontMatter
    from specgen.models.catalog import CATALOG_MODELS
    from specgen.models.evidence import TraceabilityView
    from specgen.models.instruction import InstructionHeader
    from specgen.models.manifest import ReleaseManifest
    from specgen.models.test import TestHeader
    from specgen.models.unit import ReviewRecord, StateRecord, UnitHeader

MODELS = [UnitHeader, InstructionHeader, ReviewRecord, StateRecord, TestHeader, AdrFrontMatter,
          ReleaseManifest, TraceabilityView, *CATALOG_MODELS.values()]
PATH = "spec/x.json"


def test_one(data: bytes) -> None:
    if not data:
        return
    model = MODELS[data[0] % len(MODELS)]
    try:
        text = data[1:].decode("utf-8")
    except UnicodeDecodeError:
        return
    findings: list = []
    obj = parse_json(text, PATH, 1, 0, "record", findings)
    if obj is not None:
        validate(model, obj, text, PATH, 1, 0, "record", findings)
    assert_findings(findings, PATH, line_count(text))


if __name__ == "__main__":
    run("jsonrec", test_one, seeds("spec/spec/**/*.json"),
        ['"id"', '"path"', '"sha256"', "null", "true", "NaN", "1e400", "[", "{", '"\\ud800"'])
