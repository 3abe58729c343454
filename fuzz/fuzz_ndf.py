"""atheris harness, structure-aware: lines drawn from NDF/DOC markers and attribute tokens.

Random bytes rarely form ``// NDF-BEGIN: ID`` followed by ``// ndf: …``; this
harness builds a unit line by line from those pieces (and random text), so the
clause state machine (nesting, crossing, unterminated, mismatched ends) is
exercised deeply.

    .venv/bin/python fuzz/fuzz_ndf.py -max_total_time=600
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import assert_findings, line_count, run  # noqa: E402

with atheris.instrument_imports():
    from specgen.loader.asl_units import scan_unit

PATH = "asl/tile/model/x.asl"
HEADER = '// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}'
IDS = ["PTO-X-001", "PTO-Y-002", "pto-bad", "", "PTO-", "PTO-X-001 ", "<b>"]
ATTRS = ["kind=contract", "level=L1", "layer=tile", "status=accepted", "kind=intent", "level=L0",
         "level=L9", "color=red", "kind", "=", "kind==x", "status=open", "layer=memory"]


def build(fdp: "atheris.FuzzedDataProvider") -> str:
    lines = [HEADER] if fdp.ConsumeBool() else []
    for _ in range(fdp.ConsumeIntInRange(0, 40)):
        choice = fdp.ConsumeIntInRange(0, 9)
        if choice == 0:
            lines.append("// NDF-BEGIN: " + IDS[fdp.ConsumeIntInRange(0, len(IDS) - 1)])
        elif choice == 1:
            lines.append("// NDF-END: " + IDS[fdp.ConsumeIntInRange(0, len(IDS) - 1)])
        elif choice == 2:
            n = fdp.ConsumeIntInRange(0, 6)
            lines.append("// ndf: " + " ".join(ATTRS[fdp.ConsumeIntInRange(0, len(ATTRS) - 1)] for _ in range(n)))
        elif choice == 3:
            lines.append("// DOC-BEGIN: " + ["decode", "operation", "Bad Name", ""][fdp.ConsumeIntInRange(0, 3)])
        elif choice == 4:
            lines.append("// DOC-END: " + ["decode", "operation", "other", ""][fdp.ConsumeIntInRange(0, 3)])
        elif choice == 5:
            lines.append("func F() => integer")
        elif choice == 6:
            lines.append(HEADER)
        elif choice == 7:
            lines.append("// PTO-REVIEW: " + fdp.ConsumeUnicodeNoSurrogates(40))
        else:
            lines.append("// " + fdp.ConsumeUnicodeNoSurrogates(30).replace("\n", " "))
    return "\n".join(lines) + ("\n" if fdp.ConsumeBool() else "")


def test_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    text = build(fdp)
    findings: list = []
    unit = scan_unit(PATH, "0" * 64, text, findings)
    n = line_count(text)
    assert_findings(findings, PATH, n)
    ids = [c.id for c in unit.clauses]
    assert len(ids) <= text.count("// NDF-BEGIN: ")
    for c in unit.clauses:
        assert 1 <= c.span.line <= c.span.end_line + 1 <= n + 1, (c.span, n)


if __name__ == "__main__":
    run("ndf", test_one, [])
