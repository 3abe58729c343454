"""``specgen run FILE``: run one Block program through the spec's ASL and print the Tiles.

FILE (or ``-`` for stdin) is an example file or a plain program text with its
Tiles (see :mod:`specgen.examples.runfile`). Exit status: 0 the program ran
(and met ``expect`` when given); 1 an architectural fault, an unmet
expectation, or input the model rejects; 2 the file is not a program (syntax
or format error, printed as ``FILE:line:col: message``) or a usage error.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..memory import RUN_THRESHOLDS
from .common import UsageError, positive_int, printable, report_unusable, root_arg
from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..executor.executor import RunResult, TileState

# runs spec code without bound, so the cyclic collector runs for the program (see specgen.cli); loading the
# tree and its interpreter is a batch like any other command's, and what it made is frozen out of the
# collector's walks before the program starts (walking the loaded spec tripled a warm run's time)
COLLECT = False
NAME = "run"
HELP = "run a block program through the reference executor"
DESCRIPTION = 'Run a block program through the reference executor and print the resulting state.'
EPILOG = """examples:
  specgen run --root path/to/spec prog.json
  specgen run --root path/to/spec prog.s --format json --max-steps 100000
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("file", help="program file (.json with tiles, or .s text), or - for stdin")
    p.add_argument("--format", choices=["table", "json"], default="table", help="output format (default: %(default)s)")
    p.add_argument("--profile", default=None,
                   help="execution profile to run under (default: the example file's, else reference)")
    p.add_argument("--max-steps", type=positive_int, default=None, metavar="N",
                   help="interpreter steps (calls and loop iterations) the run may take "
                        "(default: [specgen] max_steps of specification.toml, else 120000000)")
    p.add_argument("--max-value-bits", type=positive_int, default=None, metavar="N",
                   help="largest bitvector width, integer bit length or array length the run may make "
                        "(default: [specgen] max_value_bits of specification.toml, else 16777216)")
    p.add_argument("--max-memory", type=positive_int, default=None, metavar="BYTES",
                   help="most bytes the run may hold at once (values in its globals and frames) "
                        "(default: [specgen] max_memory_bytes of specification.toml, else 1073741824)")
    p.add_argument("--tiles", type=Path, default=None,
                   help="initial tiles (JSON) for a plain program file (default: FILE.tiles.json)")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run FILE; print the resulting Tiles (table or JSON); see the module docstring for exit codes."""
    from ..asl.profiles import PROFILES
    from ..examples.model import ExampleFile, ExampleFormatError
    from ..examples.model import program_position
    from ..examples.runfile import load_tiles, parse_loose_example, tiles_file
    from ..examples.verify import verify
    from ..executor.executor import RunError, executor_for
    from ..graph import SpecGraph
    from ..loader import RootError, load_spec
    from ..program.reader import ProgramError, parse_program
    from ..vocabulary import VOCABULARY

    name = args.file
    shown = "<stdin>" if name == "-" else name
    text = read_input(name, shown, err)
    if text is None:
        return ExitCode.USAGE
    tf = None if text.lstrip().startswith("{") else tiles_file(name, args.tiles)
    if tf is not None and tf.exists() and read_input(str(tf), str(tf), err) is None:
        return ExitCode.USAGE
    profile = args.profile
    if profile is not None and profile not in PROFILES:
        raise UsageError(f"unknown profile {profile!r}; known: {', '.join(sorted(PROFILES))}")
    try:
        spec = load_spec(Path(args.root), program=True)  # a run reads no tests, ADRs or documents
    except RootError as e:
        raise UsageError(str(e)) from e
    report_unusable(spec, err)
    graph = SpecGraph.build(spec)
    vocabulary = VOCABULARY(graph)
    example: ExampleFile | None = None
    try:
        if text.lstrip().startswith("{"):
            example = parse_loose_example(text, vocabulary)
            program_text = example.program_text
            tiles = example.inputs(vocabulary)
            profile = profile or example.profile
        else:
            program_text = text
            tiles = load_tiles(tf, vocabulary) if tf else []
    except ExampleFormatError as e:
        print(f"{shown}:{e.line}:{e.col}: {e.message}", file=err)
        return ExitCode.USAGE
    except (OSError, ValueError, RecursionError) as e:  # a Tiles file that vanished, or is not JSON
        print(f"{tf or shown}:1:1: cannot read: {getattr(e, 'strerror', None) or e}", file=err)
        return ExitCode.USAGE
    profile = profile or "reference"
    try:
        program = parse_program(program_text, vocabulary, path=shown, any_form=True)
    except ProgramError as e:
        line, col = e.line, e.col
        if example is not None:
            line, col = program_position(text, example, e.line, e.col)
        print(f"{shown}:{line}:{col}: syntax error: {e.message}", file=err)
        return ExitCode.USAGE
    t0 = time.perf_counter()
    try:
        executor = executor_for(graph, profile)
        if args.max_steps is not None:
            executor.interp.max_steps = args.max_steps
        if args.max_value_bits is not None:
            executor.interp.max_value_bits = args.max_value_bits
        if args.max_memory is not None:
            executor.interp.max_memory = args.max_memory
        gc.freeze()
        # the run compiles the functions it reaches (hundreds of thousands of closures, no garbage): a young
        # generation of 50,000 rather than 700 objects still collects a looping program's cycles, without
        # walking those closures again and again (70 ms of a 1 s warm run on 0.58.3); the test runner's thresholds
        gc.set_threshold(*RUN_THRESHOLDS)
        gc.enable()
        result = executor.run(program, tiles)
    except RunError as e:
        print(f"{shown}: cannot run: {e.message}", file=err)
        return ExitCode.FINDINGS
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
        return ExitCode.FINDINGS
    if verdict is not None and not verdict.ok:
        return ExitCode.FINDINGS
    return ExitCode.OK


def read_input(name: str, shown: str, err: TextIO) -> str | None:
    """FILE's text through the reader's rules (size limit, strict UTF-8, no NUL, JSON depth), or None
    after one ``FILE:line:col: message`` line on ``err``: a file given on the command line is not
    under the spec root, but it is read as carefully as one that is."""
    from ..files import MAX_FILE_BYTES, MAX_JSON_DEPTH, SpecFiles, json_too_deep
    try:
        if name == "-":
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1) if hasattr(sys.stdin, "buffer") \
                else sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogateescape")
        else:
            with open(name, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        print(f"{shown}:0:0: cannot read: {e.strerror or e}", file=err)
        return None
    if len(data) > MAX_FILE_BYTES:
        print(f"{shown}:0:0: file-too-large: more than {MAX_FILE_BYTES} bytes; the limit is {MAX_FILE_BYTES}",
              file=err)
        return None
    decoder = SpecFiles(Path.cwd())
    text = decoder.decode(shown, data)
    bad = [f for f in decoder.findings if f.rule in ("file-encoding", "file-nul")]
    deep = json_too_deep(text) if text.lstrip().startswith("{") else -1
    if deep >= 0:
        line = text.count("\n", 0, deep) + 1
        print(f"{shown}:{line}:{deep - text.rfind(chr(10), 0, deep)}: JSON nested more than {MAX_JSON_DEPTH} "
              "deep", file=err)
        return None
    if bad:
        print(bad[0].format(), file=err)
        return None
    return text


def run_json(result: RunResult) -> dict[str, object]:
    """The run as JSON: steps, the fault if any, input and output Tiles."""
    from ..encoding.asm_names import gpr_name
    f = result.fault
    return {
        "profile": result.profile,
        "steps": [{"line": s.statement.line, "text": s.statement.text, "entry": s.entry,
                   "args": [a if isinstance(a, (int, bool)) or a is None else str(a) for a in s.args],
                   "status": s.status, "destination": s.destination,
                   "gprs_written": [gpr_name(g) for g in s.gprs]} for s in result.steps],
        "fault": None if f is None else {
            "name": f.name, "line": f.statement.line, "statement": f.statement.text, "word": f.word or None,
            "asl_path": f.asl_span.path if f.asl_span else None, "asl_line": f.asl_span.line if f.asl_span else None,
            "asl_column": f.asl_span.col if f.asl_span else None, "asl_function": f.asl_function,
            "asl_chain": [{"function": name, "path": span.path, "line": span.line, "column": span.col}
                          for name, span in f.asl_chain]},
        "inputs": {k: t.to_json() for k, t in result.inputs.items()},
        "outputs": {k: t.to_json() for k, t in result.outputs.items()},
        "gprs": {k: {"value": v, "word": f"0x{v:016x}"} for k, v in result.gprs.items()},
    }


def print_table(result: RunResult, out: TextIO, elapsed: float) -> None:
    """The steps, the fault, then every output Tile as values over raw words."""
    from ..encoding.asm_names import gpr_name
    from ..executor.scalar import SCALAR_ENTRY
    from ..executor.words import COMMAND_ENTRY
    print(f"profile {result.profile}: {len(result.steps)} of {len(result.program.statements)} command(s) "
          f"run in {elapsed:.3f} s", file=out)
    for s in result.steps:
        status = "ok" if s.status.endswith("_Executed") else "FAULT"  # the spec's Command/ScalarExecution_…
        dest = f"  -> {s.destination}" if s.destination else ""
        dest += "".join(f"  -> {gpr_name(g)}" for g in s.gprs)
        word = f"  [{s.args[0]}]" if s.entry in (COMMAND_ENTRY, SCALAR_ENTRY) else ""  # the word the spec ran
        print(f"  line {s.statement.line:<3} {status:<5} {s.statement.text}{word}{dest}", file=out)
    if result.fault is not None:
        print(printable(f"fault: {result.fault.describe()}"), file=out)
    if result.gprs:
        print("\nGPRs written by scalar commands (after the run, read with the spec's ReadGPR):", file=out)
        for reg, v in result.gprs.items():
            signed = v - (1 << 64) if v >> 63 else v
            print(f"  {reg:<4} = {v}" + (f" ({signed})" if signed != v else "") + f"  [0x{v:016x}]", file=out)
    for name, tile in result.outputs.items():
        _print_tile(tile, out)


def _print_tile(t: TileState, out: TextIO) -> None:
    print(f"\n{t.register}: {t.data_type} {t.rows}x{t.columns}, valid {t.valid_rows}x{t.valid_columns}, "
          f"{t.capacity_bytes} bytes, {t.layout}{', ' + t.location if t.location else ''}  (value / raw 64-bit word; '-' undefined)", file=out)
    values = t.values()
    cells = [[(values[r][c] if t.defined[r][c] else "-") for c in range(t.columns)] for r in range(t.rows)]
    words = [[f"0x{t.words[r][c]:x}" for c in range(t.columns)] for r in range(t.rows)]
    width = max([len(x) for row in cells for x in row] + [len(x) for row in words for x in row] + [4])
    head = "      " + " ".join(f"c{c}".rjust(width) for c in range(t.columns))
    print(head, file=out)
    for r in range(t.rows):
        print(f"r{r:<4} " + " ".join(x.rjust(width) for x in cells[r]), file=out)
        print("      " + " ".join(x.rjust(width) for x in words[r]), file=out)
