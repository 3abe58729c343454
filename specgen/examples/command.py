"""``specgen run FILE``: run one Block program through the spec's ASL and print the Tiles.

FILE (or ``-`` for stdin) is either

* an example file (a JSON object: ``program``, ``tiles``, optional
  ``profile`` and ``expect``; the format of docs-internal/examples.md, with
  ``id``/``instruction``/``summary`` optional here), or
* a plain program text; its input Tiles come from ``--tiles FILE.json``
  (when the CLI offers it) or from ``<FILE>.tiles.json`` beside it: a JSON
  object mapping registers to Tiles in the example format
  (``{"T1": {"data_type": "FP16", "rows": 16, …, "values": [[…]]}}``).

Exit status: 0 the program ran (and met ``expect`` when given); 1 an
architectural fault, an unmet expectation, or input the model rejects;
2 the file is not a program (syntax or format error, printed as
``FILE:line:col: message``) or a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from ..asl.profiles import PROFILES
from ..loader import RootError, load_spec
from ..vocabulary import Vocabulary, vocabulary_of
from .executor import RunError, RunResult, TileInput, TileState, executor_for
from .model import ExampleFile, ExampleFormatError, TileData, parse_example, program_position
from .program import ProgramError, parse_program
from .verify import verify

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8")


def _tiles_file(args: argparse.Namespace) -> Path | None:
    explicit = getattr(args, "tiles", None)
    if explicit:
        return Path(explicit)
    if args.file != "-":
        sibling = Path(args.file + ".tiles.json") if not args.file.endswith(".s") else \
            Path(args.file[:-2] + ".tiles.json")
        for cand in (sibling, Path(args.file + ".tiles.json")):
            if cand.is_file():
                return cand
    return None


def _load_tiles(path: Path, vocabulary: Vocabulary) -> list[TileInput]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ExampleFormatError(f"{path}: not valid JSON: {e.msg}", e.lineno, e.colno) from None
    if not isinstance(data, dict):
        raise ExampleFormatError(f"{path}: expected an object mapping registers to tiles")
    out = []
    for reg, spec in data.items():
        try:
            out.append(TileData.model_validate(spec, context={"vocabulary": vocabulary}).to_input(reg, vocabulary))
        except ValidationError as e:
            err = e.errors()[0]
            raise ExampleFormatError(f"{path}: {reg}.{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return out


def cmd_run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run FILE; print the resulting Tiles (table or JSON); see the module docstring for exit codes."""
    name = args.file
    shown = "<stdin>" if name == "-" else name
    try:
        text = _read(name)
    except (OSError, UnicodeDecodeError) as e:
        print(f"specgen run: cannot read {shown}: {e}", file=err)
        return EXIT_USAGE
    profile = getattr(args, "profile", None)
    if profile is not None and profile not in PROFILES:
        print(f"specgen run: unknown profile {profile!r}; known: {', '.join(sorted(PROFILES))}", file=err)
        return EXIT_USAGE
    try:
        vocabulary = vocabulary_of(load_spec(Path(args.root)))
    except RootError as e:
        print(f"specgen run: {e}", file=err)
        return EXIT_USAGE
    example: ExampleFile | None = None
    try:
        if text.lstrip().startswith("{"):
            example = _parse_loose_example(text, vocabulary)
            program_text = example.program_text
            tiles = example.inputs(vocabulary)
            profile = profile or example.profile
        else:
            program_text = text
            tf = _tiles_file(args)
            tiles = _load_tiles(tf, vocabulary) if tf else []
    except ExampleFormatError as e:
        print(f"{shown}:{e.line}:{e.col}: {e.message}", file=err)
        return EXIT_USAGE
    profile = profile or "reference"
    try:
        program = parse_program(program_text, vocabulary, path=shown)
    except ProgramError as e:
        line, col = e.line, e.col
        if example is not None:
            line, col = program_position(text, example, e.line, e.col)
        print(f"{shown}:{line}:{col}: syntax error: {e.message}", file=err)
        return EXIT_USAGE
    t0 = time.perf_counter()
    try:
        result = executor_for(Path(args.root), profile, vocabulary=vocabulary).run(program, tiles)
    except RunError as e:
        print(f"{shown}: cannot run: {e.message}", file=err)
        return EXIT_FAIL
    elapsed = time.perf_counter() - t0
    verdict = verify(result, example.expect) if example is not None and example.expect is not None else None
    if args.format == "json":
        doc = run_json(result)
        doc["elapsed_seconds"] = round(elapsed, 4)
        if verdict is not None:
            doc["expectation"] = {"met": verdict.ok, "fault_problem": verdict.fault_problem,
                                  "mismatches": [m.describe() for m in verdict.mismatches]}
        json.dump(doc, out, indent=2)
        out.write("\n")
    else:
        print_table(result, out, elapsed)
        if verdict is not None:
            if verdict.ok:
                print("expectation met", file=out)
            else:
                if verdict.fault_problem:
                    print(f"expectation NOT met: {verdict.fault_problem}", file=out)
                for m in verdict.mismatches:
                    print(f"expectation NOT met: {m.describe()}", file=out)
    if result.fault is not None and not (verdict is not None and verdict.ok):
        return EXIT_FAIL
    if verdict is not None and not verdict.ok:
        return EXIT_FAIL
    return EXIT_OK


def _parse_loose_example(text: str, vocabulary: Vocabulary) -> ExampleFile:
    """An example file where ``id``, ``instruction`` and ``summary`` may be left out."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExampleFormatError(f"not valid JSON: {e.msg}", e.lineno, e.colno) from None
    if isinstance(data, dict):
        data.setdefault("id", "PTO-EX-RUN")
        data.setdefault("instruction", "RUN")
        data.setdefault("summary", "specgen run")
        text = json.dumps(data) if set(data) else text
    if isinstance(data, dict):
        return parse_example(text, vocabulary, require_expect=False)
    return parse_example(text, vocabulary)


def run_json(result: RunResult) -> dict[str, object]:
    f = result.fault
    return {
        "profile": result.profile,
        "steps": [{"line": s.statement.line, "text": s.statement.text, "entry": s.entry,
                   "args": [a if isinstance(a, (int, bool)) or a is None else str(a) for a in s.args],
                   "status": s.status, "destination": s.destination} for s in result.steps],
        "fault": None if f is None else {
            "name": f.name, "line": f.statement.line, "statement": f.statement.text,
            "asl_path": f.asl_span.path if f.asl_span else None, "asl_line": f.asl_span.line if f.asl_span else None,
            "asl_function": f.asl_function},
        "inputs": {k: t.to_json() for k, t in result.inputs.items()},
        "outputs": {k: t.to_json() for k, t in result.outputs.items()},
    }


def print_table(result: RunResult, out: TextIO, elapsed: float) -> None:
    print(f"profile {result.profile}: {len(result.steps)} of {len(result.program.statements)} command(s) "
          f"run in {elapsed:.3f} s", file=out)
    for s in result.steps:
        status = "ok" if s.status == "BlockStatus_Executed" else "FAULT"
        dest = f"  -> {s.destination}" if s.destination else ""
        print(f"  line {s.statement.line:<3} {status:<5} {s.statement.text}{dest}", file=out)
    if result.fault is not None:
        print(f"fault: {result.fault.describe()}", file=out)
    for name, tile in result.outputs.items():
        _print_tile(tile, out)


def _print_tile(t: TileState, out: TextIO) -> None:
    print(f"\n{t.register}: {t.data_type} {t.rows}x{t.columns}, valid {t.valid_rows}x{t.valid_columns}, "
          f"{t.capacity_bytes} bytes, {t.layout}  (value / raw 64-bit word; '-' undefined)", file=out)
    values = t.values()
    cells = [[(values[r][c] if t.defined[r][c] else "-") for c in range(t.columns)] for r in range(t.rows)]
    words = [[f"0x{t.words[r][c]:x}" for c in range(t.columns)] for r in range(t.rows)]
    width = max([len(x) for row in cells for x in row] + [len(x) for row in words for x in row] + [4])
    head = "      " + " ".join(f"c{c}".rjust(width) for c in range(t.columns))
    print(head, file=out)
    for r in range(t.rows):
        print(f"r{r:<4} " + " ".join(x.rjust(width) for x in cells[r]), file=out)
        print("      " + " ".join(x.rjust(width) for x in words[r]), file=out)
