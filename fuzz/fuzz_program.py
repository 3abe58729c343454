"""atheris harness: text -> block-program parser (``specgen.program.reader.parse_program``).

A malformed program must raise ProgramError (located), nothing else.

    .venv/bin/python fuzz/fuzz_program.py -max_total_time=600
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import line_count, run, seeds  # noqa: E402

with atheris.instrument_imports():
    from specgen.program.reader import ProgramError, parse_program


def test_one(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    try:
        program = parse_program(text, "examples/x.json")
    except ProgramError as e:
        assert e.line >= 0 and e.col >= 0 and e.message, e
        assert e.line <= line_count(text) + 1, (e.line, text)
        return
    assert program is not None


def _program_seeds() -> list[Path]:
    import json
    out = []
    work = Path(__file__).resolve().parent.parent / "build" / "fuzz" / "program-seeds"
    work.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(seeds("spec/examples/**/*.json", "tests/bad-inputs/**/examples/**/*.json")):
        prog = json.loads(p.read_text(encoding="utf-8")).get("program", "")
        text = "\n".join(prog) if isinstance(prog, list) else str(prog)
        dst = work / f"p{i:03d}"
        dst.write_bytes(text.encode("utf-8"))
        out.append(dst)
    return out


if __name__ == "__main__":
    run("program", test_one, _program_seeds(),
        ["BSTART.VEC", "BSTART.TEPL", "BSTART.SFU", "B.DIM", "B.DATR", "B.IOT", "BSTOP", "LB0=", "mask=0b",
         "<last>", "->T<", "PadValue=", ";", "//", "#", "{", "}", "(optional)", "FP16", "S32", "TADD"])
