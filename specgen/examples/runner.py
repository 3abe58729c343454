"""How one spec's examples are run and judged: each program read, run and compared, a result per example.

Two sources of examples:

* checked example files ``examples/<surface>/<class…>/<MNEMONIC>/<slug>.json``
  (program, input Tiles, expected Tiles or fault) - a wrong promise is an
  error (``example-mismatch``, ``example-fault``);
* ``contract.examples`` of each instruction record. A whole, concrete Block
  program is run on inputs built from its own headers
  (:func:`~specgen.examples.verify.synthesized_inputs`); a fault is an
  ``example-fault`` error. A program with placeholder operands is a *sketch*
  (``example-sketch``, a note) and so is a Block the executor cannot read.
  A concrete DataType that the record's legality prose excludes while the
  ASL admits it is flagged (``example-legality``, a warning; inside the
  sketch note when the example is a sketch).

DataType names are the spec's (:data:`~specgen.vocabulary.VOCABULARY`) and the
legality prose is read by :func:`~specgen.prose.datatype_sentence`, as the
``legality-prose-mismatch`` check reads it.

Each example's result and findings are one entry of the ``examples`` store of
the dependency-tracked layer (:mod:`specgen.cache.layer`), reused while what it
read is unchanged: the example file or the instruction's record, the catalogs
and vocabulary, the step budget and every ASL definition its runs executed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Callable, TypeVar

from ..asl.legality import admitted_datatypes, legality_interpreter
from ..asl.revision import PARTS, REVISION, asl_keys, generation_reads
from ..cache.layer import Reads, code_digest
from ..diagnostics import Finding, Sentence, Severity
from ..executor.executor import Executor, RunError, executor_for
from ..graph import SpecGraph
from ..models.instruction import InstructionHeader
from ..models.located import AslUnit
from ..program.reader import ProgramError, parse_program
from ..prose import datatype_sentence
from ..vocabulary import VOCABULARY
from .model import ExampleFormatError, line_of_key, parse_example, program_position
from .outcome import ExampleResult, Suite, parsed_lines, result_from_run
from .verify import Verdict, synthesized_inputs, verify

# the code an example's result depends on: the executor assembles every statement's word with ``encoding``
CODE = ("examples", "program", "executor", "worked", "asl", "catalog_asl", "encoding", "loader", "models",
        "vocabulary.py", "prose.py", "files.py", "graph.py")
VERSION = code_digest(*CODE)
Outcome = tuple[ExampleResult | None, list[Finding]]


def _example_part(graph: SpecGraph, shown: str) -> str:
    """``part:<example path>#example``: the SHA-256 the examples' reader recorded (in the tree or beside it)."""
    source = graph.spec.examples
    if source is None:
        return ""
    return source.fs.log.get(("file", source.inner(shown))) or ""


PARTS["example"] = _example_part
T = TypeVar("T")


class Runner:
    """One run of every example of a graph's spec, reusing the results of the last run that still hold."""

    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.spec = graph.spec
        self.root = Path(self.spec.root)
        self.findings: list[Finding] = []
        self.results: dict[str, list[ExampleResult]] = {}
        self.vocabulary = VOCABULARY(graph)
        self.revision = REVISION(graph)
        self.store = self.revision.layer.store("examples", VERSION)
        self._interps: list[object] = []  # the interpreters the current example ran on (their trails: its reads)

    def add(self, res: ExampleResult) -> None:
        self.results.setdefault(res.mnemonic, []).append(res)

    def run(self) -> Suite:
        keys: set[str] = set()
        inputs = self.revision.inputs
        for rel in self._example_files():
            key = "file:" + rel
            keys.add(key)
            res, finds = self.store.get(key, inputs, lambda reads, rel=rel: self._recorded(
                reads, (f"part:{rel}#example",), lambda: self._checked(rel)))
            if res is not None:
                self.add(res)
            self.findings.extend(finds)
        for unit in self.graph.iter_instruction_units():
            ins = unit.instruction
            assert ins is not None
            for n, text in enumerate(ins.contract.examples if ins.contract is not None else (), 1):
                key = f"contract:{unit.path}#{n}"
                keys.add(key)
                at = example_position(unit, n, text)  # from the record lines: read through the record part
                res, finds = self.store.get(key, inputs, lambda reads, u=unit, n=n, t=text, at=at: self._recorded(
                    reads, (f"part:{u.path}#record",), lambda: self._contract(u, n, t, at)))
                if res is not None:
                    self.add(res)
                self.findings.extend(finds)
        self.store.drop(lambda k: k in keys)
        self.store.save()
        return Suite(self.results, self.findings)

    def _recorded(self, reads: Reads, own: tuple[str, ...], compute: "Callable[[], Outcome]") -> Outcome:
        """One example's result with what it read: its own file or record, the catalogs and vocabulary, the
        step budget, and the trail of every interpreter its runs used."""
        reads.update(own)
        generation_reads(self.spec, reads)
        reads.update(("config:max_steps", "config:max_value_bits", "config:max_memory_bytes", f"file:{self.spec.config.hardware_profile}"))
        self._interps = []
        try:
            return compute()
        finally:
            for it in self._interps:
                reads.update(asl_keys(it.definitions.reads(it.trail.pop())))  # type: ignore[attr-defined]
            self._interps = []

    def _use(self, it: "T") -> "T":
        """An interpreter the current example runs on: its trail records from now on."""
        if not any(x is it for x in self._interps):
            it.trail.push()  # type: ignore[attr-defined]
            self._interps.append(it)
        return it

    def _read(self, rel: str) -> str | None:
        """An example file's text by its shown path, through the examples' confined reader."""
        source = self.spec.examples
        if source is None:
            return None
        ft = source.fs.read(source.inner(rel))
        return ft.text if ft is not None else None

    def _example_files(self) -> list[str]:
        source = self.spec.examples
        return source.walk() if source is not None else []

    # -- checked example files ---------------------------------------------------------
    def _checked(self, rel: str) -> tuple[ExampleResult | None, list[Finding]]:
        text = self._read(rel)

        def err(rule: str, message: str, line: int = 1, col: int = 1, subject: str = "") -> Finding:
            return Finding(rule, Severity.ERROR, rel, line, message, subject=subject or rel, col=col)

        if text is None:
            return None, [err("example-fault", "the example file cannot be read as UTF-8 text")]
        try:
            ex = parse_example(text, self.vocabulary)
        except ExampleFormatError as e:
            return None, [err("example-fault", f"invalid example: {e.message}; see docs-internal/examples.md",
                              e.line, e.col)]
        unit = self.graph.instructions.get(ex.instruction)
        if unit is None:
            return None, [err("example-fault", f"instruction {ex.instruction} is not defined by this spec",
                              line_of_key(text, "instruction"), subject=ex.id)]
        want_dir = f"{self.spec.config.example_root}/{_unit_dir(unit.path)}"
        findings: list[Finding] = []
        if rel.rsplit("/", 1)[0] != want_dir:
            findings.append(err("example-fault", f"an example of {ex.instruction} belongs under {want_dir}/ "
                                f"(mirroring {unit.path})", line_of_key(text, "instruction"), subject=ex.id))
        profile = ex.profile or "reference"
        base = ExampleResult("checked", ex.instruction, ex.id, ex.summary, ex.program_text, profile, rel,
                             line_of_key(text, "program"))
        try:
            program = parse_program(ex.program_text, self.vocabulary, path=rel, any_form=True)
        except ProgramError as e:
            line, col = program_position(text, ex, e.line, e.col)
            base.error = f"program line {e.line}, column {e.col}: {e.message}"
            findings.append(err("example-fault", f"the program does not parse: {base.error}", line, col,
                                ex.id))
            return base, findings
        base.lines = parsed_lines(program, None)
        if program.is_sketch:
            base.sketch_reason = program.sketch_reason
            findings.append(err("example-fault", f"{program.sketch_reason}: a checked example must be "
                                "concrete", base.line, 1, ex.id))
            return base, findings
        try:
            run = self._executor(profile).run(program, ex.inputs(self.vocabulary))
        except RunError as e:
            base.error = e.message
            findings.append(err("example-fault", f"the example cannot run: {e.message}", base.line, 1, ex.id))
            return base, findings
        res = result_from_run("checked", ex.instruction, ex.id, ex.summary, program, run, rel, base.line)
        assert ex.expect is not None
        res.expected_fault = ex.expect.fault
        verdict: Verdict = verify(run, ex.expect)
        res.verified = verdict.ok
        res.mismatches = [m.describe() for m in verdict.mismatches]
        expect_line = line_of_key(text, "expect")
        if verdict.fault_problem:
            res.mismatches.append(verdict.fault_problem)
            findings.append(err("example-fault", f"{ex.id}: {verdict.fault_problem}", expect_line, 1, ex.id))
        if verdict.mismatches:
            shown = "; ".join(m.describe() for m in verdict.mismatches[:8])
            more = f" (and {len(verdict.mismatches) - 8} more)" if len(verdict.mismatches) > 8 else ""
            findings.append(err("example-mismatch", f"{ex.id} ({profile} profile): {len(verdict.mismatches)} "
                                f"element(s) differ from what the ASL computes: {shown}{more}; fix the "
                                "expectation or the ASL", expect_line, 1, ex.id))
        return res, findings

    # -- contract examples -------------------------------------------------------------
    def _contract(self, unit: AslUnit, n: int, text: str,
                  at: tuple[int, int]) -> tuple[ExampleResult | None, list[Finding]]:
        ins = unit.instruction
        assert ins is not None
        line, col = at
        ident = f"{ins.id}#example-{n}"
        mn = ins.mnemonic

        def finding(rule: str, severity: Severity, message: str) -> Finding:
            return Finding(rule, severity, unit.path, line, message, subject=ident, col=col)

        if not (text.lstrip().upper().startswith("BSTART") and re.search(r"\bBSTOP\b", text, re.I)):
            return None, []  # a single-command fragment, not a Block program
        findings: list[Finding] = []
        res = ExampleResult("sketch", mn, ident, f"contract.examples[{n - 1}]", text, "reference", unit.path, line)
        legality = self._legality_note(ins, text)
        res.legality_note = legality
        try:
            program = parse_program(text, self.vocabulary, path=unit.path)
        except ProgramError as e:
            res.sketch_reason = Sentence("example.cannot_run_as_written",
                                         f"cannot run as written: column {e.col}: {e.message}",
                                         col=e.col, detail=e.message)
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} {res.sketch_reason}" + (f"; {legality}" if legality else "")))
            return res, findings
        res.lines = parsed_lines(program, None)
        if program.is_sketch or not program.is_block:
            res.sketch_reason = program.sketch_reason or Sentence(
                "example.sketch_not_block", "sketch: not a whole Block (BSTART … BSTOP last)")
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} cannot run as written ({res.sketch_reason})"
                                    + (f"; {legality}" if legality else "")
                                    + "; a checked example file under examples/ can make the promise executable"))
            return res, findings
        if legality:
            findings.append(finding("example-legality", Severity.WARNING, f"{mn} example {n}: {legality}"))
        ex = self._executor("reference")
        if not ex.supported:
            res.sketch_reason = Sentence("example.sketch_no_executor",
                                         "sketch: the spec defines no Block executor entry points")
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} cannot run: the spec's ASL has no "
                                    f"{', '.join(ex.missing)}"))
            return res, findings
        try:
            run = ex.run(program, synthesized_inputs(program, self.vocabulary))
        except RunError as e:
            res.error = e.message
            findings.append(finding("example-fault", Severity.ERROR,
                                    f"{mn} example {n} cannot run: {e.message}"))
            return res, findings
        out = result_from_run("contract", mn, ident, res.summary, program, run, unit.path, line)
        out.legality_note = legality
        out.verified = run.fault is None
        if run.fault is not None:
            findings.append(finding("example-fault", Severity.ERROR,
                                    f"{mn} example {n} faults when run as written: {out.fault.describe()}"  # type: ignore[union-attr]
                                    "; fix the example or the ASL"))
        return out, findings

    def _executor(self, profile: str) -> Executor:
        ex = executor_for(self.graph, profile)
        self._use(ex.interp).trail.note_all(ex.notes)
        return ex

    def _legality_note(self, ins: InstructionHeader, text: str) -> str:
        sentence = datatype_sentence(ins.contract.legality, self.vocabulary)
        m = re.match(r"\s*BSTART\.[A-Z]+\s+[^,;]+,\s*([A-Za-z0-9_]+)", text) or \
            re.match(r"\s*BSTART\.TEPL\s+[^,;]+,\s*[^,;]+,\s*([A-Za-z0-9_]+)", text)
        if sentence is None or not sentence.closed or m is None:
            return ""
        prose = sentence.names
        dt = m.group(1)
        if self.vocabulary.datatype(dt) is None or dt in prose:
            return ""
        admitted = self._admitted_for(ins.mnemonic)
        if admitted is None or dt not in admitted:
            return ""
        names, function = ", ".join(sorted(prose)), f"InstructionContractDataTypeLegal_{ins.mnemonic}"
        return Sentence("example.legality_mismatch",
                        f"DataType {dt} is excluded by the legality prose ({names}) "
                        f"but admitted by the ASL ({function}); one of them is wrong",
                        data_type=dt, names=names, function=function)

    def _admitted_for(self, mnemonic: str) -> frozenset[str] | None:
        """The DataTypes the instruction's own predicate admits (recorded in the example's reads)."""
        try:
            self._use(legality_interpreter(self.spec))
            return admitted_datatypes(self.spec, mnemonic)
        except Exception:  # noqa: BLE001 - an unevaluable predicate gives no note
            return None


def _unit_dir(unit_path: str) -> str:
    """``asl/tile/x/y/TMUL.asl`` -> ``tile/x/y/TMUL``."""
    p = unit_path.removesuffix(".asl")
    return p.split("/", 1)[1] if p.startswith("asl/") else p


def example_position(unit: AslUnit, n: int, text: str) -> tuple[int, int]:
    """Where the ``n``-th ``contract.examples`` string starts in the unit (1-based line and column): its JSON
    spelling found after the header's ``"examples"`` key, so a finding about it points at the example, not
    at the header's first column. The header line and column 1 when the spelling cannot be found (an
    escape written differently)."""
    span = unit.header_span
    line = span.line if span is not None and span.line > 0 else 1
    lines = unit.text.splitlines()
    end = (span.end_line or line) if span is not None else line
    block = "\n".join(lines[line - 1:end])
    key = block.find('"examples"')
    if key < 0:
        return line, 1
    ins = unit.instruction
    earlier = list(ins.contract.examples[:n - 1]) if ins is not None and ins.contract is not None else []
    for spelling in (json.dumps(text, ensure_ascii=False), json.dumps(text)):
        pos, found = key, -1
        for _ in range(earlier.count(text) + 1):  # an identical earlier example is passed over
            found = block.find(spelling, pos)
            if found < 0:
                break
            pos = found + 1
        if found >= 0:
            before = block[:found]
            row = before.count("\n")
            return line + row, found - (before.rfind("\n") + 1) + 1
    return line, 1
