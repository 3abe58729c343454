"""``specgen asm TEXT``: the instruction words of a block program or one command (the inverse of ``decode``)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .common import UsageError, load_encodings, printable, report_unusable, root_arg
from .exitcodes import ExitCode

if TYPE_CHECKING:
    from ..encoding.asm import Assembled
    from ..encoding.model import EncodingSet
    from ..loader import Spec

NAME = "asm"
HELP = "assemble a block program or one command into instruction words"
DESCRIPTION = 'Assemble a block program, or one command, into instruction words.'
EPILOG = """examples:
  specgen asm --root path/to/spec 'BSTART.VEC TMUL, FP16; B.DIM LB0=4'
  specgen asm --root path/to/spec 'add t#1, u#1.neg<<1, ->u'
  specgen asm --root path/to/spec - --format json < prog.s
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    root_arg(p)
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: %(default)s)")
    p.add_argument("text", help="the program ('BSTART.VEC TMUL, FP16; B.DIM LB0=4; …'), or - for stdin")


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """1 when the program does not parse or a command has no form that takes its operands."""
    from ..encoding.asm import AsmError, assemble_command
    from ..encoding.asm_template import assemble_text
    from ..executor.scalar import assemble_template
    from ..loader import RootError, load_spec
    from ..program.reader import ProgramError, parse_program
    from ..vocabulary import vocabulary_of

    text = sys.stdin.read() if args.text == "-" else args.text
    shown = "<stdin>" if args.text == "-" else "<program>"
    try:
        spec = load_spec(Path(args.root))
    except RootError as e:
        raise UsageError(str(e)) from e
    if report_unusable(spec, err, f"{spec.config.json_root}/catalog/"):  # the commands come from there
        return ExitCode.FINDINGS
    vocabulary = vocabulary_of(spec)
    try:
        program = parse_program(text, vocabulary, path=shown, any_form=True)
    except ProgramError as e:
        es = load_encodings(Path(args.root), err, spec)
        return _template_commands(es, text, shown, str(e), args.format, out, err)
    if program.is_sketch:  # a symbolic operand to the block syntax may be a template keyword (BSTART.STD RET)
        first = program.sketch[0]
        reason = f"{shown}:{first.line}:{first.col}: {program.sketch_reason}: cannot assemble"
        es = load_encodings(Path(args.root), err, spec)
        return _template_commands(es, text, shown, reason, args.format, out, err)
    es = load_encodings(Path(args.root), err, spec)
    pe_modes = _pe_modes(spec) if any("pe_mask" in st.fields for st in program.statements) else {}
    rows: list[dict[str, object]] = []
    for st in program.statements:
        if st.is_template:  # a scalar or other form: its catalog template (an unknown mnemonic is its finding)
            try:
                a = assemble_template(es, st)
            except AsmError as e:
                err.write(printable(f"{shown}:{st.line}:{st.col}: {st.text}: {e}") + "\n")
                return ExitCode.FINDINGS
            rows.append(_row(st.line, st.text, a))
            continue
        try:
            a = assemble_command(es, st.mnemonic, st.fields, pe_modes)
        except AsmError as e:
            try:  # a form the block syntax reads but does not spell (one-source B.IOT, …): its template
                a = assemble_text(es, st.text)
            except AsmError:
                err.write(printable(f"{shown}:{st.line}:{st.col}: {st.text}: {e}") + "\n")
                return ExitCode.FINDINGS
        rows.append(_row(st.line, st.text, a))
    return _write(rows, args.format, out)


def _row(line: int, text: str, a: Assembled) -> dict[str, object]:
    enc = a.encoding
    values = enc.decode_fields(a.word)
    return {"line": line, "text": text, "word": a.hex(), "width": a.width,
            "mnemonic": enc.mnemonic, "form": enc.form_id, "source": str(enc.source),
            "fields": [{"name": f.name, "value": values[f.name], "meaning": enc.value_name(f.name, values[f.name])}
                       for f in enc.fields]}


def _template_commands(es: EncodingSet, text: str, shown: str, block_error: str, fmt: str,
                       out: TextIO, err: TextIO) -> int:
    """Commands the block syntax does not read, each assembled from its form's catalog template."""
    from ..encoding.asm import AsmError
    from ..encoding.asm_template import assemble_text, forms_of
    from ..program.syntax import spells
    rows: list[dict[str, object]] = []
    for n, line in enumerate(text.replace(";", "\n").splitlines(), 1):
        cmd = re.split(r"(?:^|(?<=\s))#", line, maxsplit=1)[0].strip()  # ``t#1`` is a register, `` # …`` a comment
        if not cmd:
            continue
        try:
            a = assemble_text(es, cmd)
        except AsmError as e:
            head = cmd.split(None, 1)[0]
            if not forms_of(es, head) or spells(head.upper()) or block_error.endswith("cannot assemble"):
                # not a template form either, a Block command (or a block sketch): the block parser's finding
                err.write(printable(block_error) + "\n")
            else:
                err.write(printable(f"{shown}:{n}:1: {cmd}: {e}") + "\n")
            return ExitCode.FINDINGS
        rows.append(_row(n, cmd, a))
    return _write(rows, fmt, out)


def _write(rows: list[dict[str, object]], fmt: str, out: TextIO) -> int:
    if fmt == "json":
        json.dump({"words": rows}, out, indent=2)
        out.write("\n")
        return ExitCode.OK
    for r in rows:
        out.write(printable(f"{r['word']} ({r['width']}-bit) = {r['text']}  form {r['form']}  ({r['source']})")
                  + "\n")
        for f in r["fields"]:  # type: ignore[attr-defined]
            label = f" ({f['meaning']})" if f["meaning"] else ""
            out.write(printable(f"  {f['name']} = {f['value']}{label}") + "\n")
    return ExitCode.OK


def _pe_modes(spec: Spec) -> dict[int, int]:
    """The spec's PE mask -> PEMode table, read by running its ASL (only when a B.IOT needs it)."""
    from ..asl import interpreter_for
    from ..executor.words import pe_mode_table
    return pe_mode_table(interpreter_for(spec))
