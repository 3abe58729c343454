"""Every example of a spec, run once: results for the pages and findings for the check.

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

:func:`example_results` is the renderer's API. Results are computed once per
graph (:data:`run_suite`, a :class:`~specgen.graph.Derived` fact) and cached on disk by the SHA-256 of the example, the
spec's files and this package's code, so a warm build does not start the
interpreter at all.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..diagnostics import Finding, Severity
from ..graph import Derived, SpecGraph
from .executor import RunError, RunResult, TileState, executor_for
from .model import ExampleFile, ExampleFormatError, line_of_key, parse_example
from .program import Program, ProgramError, parse_program
from .verify import Verdict, synthesized_inputs, verify

CACHE_VERSION = "2"
KEEP_PACKS = 16


@functools.cache
def _code_digest() -> str:
    """The executor's code (this package and the interpreter), read once per process."""
    h = hashlib.sha256()
    for p in sorted(Path(__file__).parent.glob("*.py")) + sorted((Path(__file__).parent.parent / "asl").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


def _runs_on(config) -> Callable[[str], bool]:  # type: ignore[no-untyped-def]
    """Which files an example's result can depend on: the ASL, the catalogs ASL is generated from,
    the hardware profile, the examples and the configuration (not tests, ADRs, evidence)."""
    files = {"specification.toml", config.hardware_profile}
    prefixes = tuple([r.rstrip("/") + "/" for r in config.source_roots]
                     + [f"{config.json_root}/catalog/", f"{config.example_root}/"])
    return lambda rel: rel in files or rel.startswith(prefixes)


@dataclass(frozen=True, slots=True)
class TileTable:
    """One Tile as a table: element values, raw 64-bit words and definedness, row by row."""

    register: str
    data_type: str
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    layout: str
    values: list[list[str]]
    words: list[list[str]]
    defined: list[list[bool]]

    @classmethod
    def of(cls, t: TileState) -> "TileTable":
        j = t.to_json()
        return cls(t.register, t.data_type, t.rows, t.columns, t.valid_rows, t.valid_columns, t.layout,
                   j["values"], j["words"], t.defined)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One assembly line: its text, decoded fields, the ASL entry point called and its status."""

    line: int
    text: str
    mnemonic: str
    fields: dict[str, object]
    entry: str = ""
    status: str = ""  # BlockStatus_Executed | BlockStatus_Faulted | "" (not reached)
    destination: str = ""


@dataclass(frozen=True, slots=True)
class FaultInfo:
    name: str
    line: int
    statement: str
    asl_path: str
    asl_line: int
    asl_function: str

    def describe(self) -> str:
        where = f" at {self.asl_path}:{self.asl_line} (in {self.asl_function})" if self.asl_path else ""
        return f"{self.name} raised by line {self.line} '{self.statement}'{where}"


@dataclass(slots=True)
class ExampleResult:
    """One example as a page shows it.

    ``kind``: ``checked`` (an example file with expectations), ``contract``
    (a concrete ``contract.examples`` program run on synthesized inputs) or
    ``sketch`` (a ``contract.examples`` program that cannot run as written).
    ``verified`` is True when the run matched every expectation (checked) or
    ran without a fault (contract); always False for a sketch.
    """

    kind: str
    mnemonic: str
    id: str
    summary: str
    program: str
    profile: str
    path: str
    line: int
    lines: list[ParsedLine] = field(default_factory=list)
    inputs: list[TileTable] = field(default_factory=list)
    outputs: list[TileTable] = field(default_factory=list)
    fault: FaultInfo | None = None
    expected_fault: str | None = None
    verified: bool = False
    sketch_reason: str = ""
    legality_note: str = ""
    mismatches: list[str] = field(default_factory=list)
    error: str = ""


@dataclass(slots=True)
class Suite:
    results: dict[str, list[ExampleResult]]
    findings: list[Finding]


def example_results(graph: SpecGraph) -> dict[str, list[ExampleResult]]:
    """Every example of the spec by instruction mnemonic (checked files first, then contract examples)."""
    return run_suite(graph).results


def _run_suite(graph: SpecGraph) -> Suite:
    """Every example of the spec, run once per graph (results cached on disk by content)."""
    return _Runner(graph).run()


run_suite = Derived(_run_suite)


# ---------------------------------------------------------------- conversions
def _lines(program: Program, run: RunResult | None) -> list[ParsedLine]:
    steps = {id(s.statement): s for s in run.steps} if run else {}
    out = []
    for st in program.statements:
        s = steps.get(id(st))
        out.append(ParsedLine(st.line, st.text, st.mnemonic, dict(st.fields), s.entry if s else "",
                              s.status if s else "", (s.destination or "") if s else ""))
    return out


def _fault_info(run: RunResult) -> FaultInfo | None:
    f = run.fault
    if f is None:
        return None
    return FaultInfo(f.name, f.statement.line, f.statement.text, f.asl_span.path if f.asl_span else "",
                     f.asl_span.line if f.asl_span else 0, f.asl_function)


def result_from_run(kind: str, mnemonic: str, ident: str, summary: str, program: Program, run: RunResult,
                    path: str, line: int) -> ExampleResult:
    return ExampleResult(kind, mnemonic, ident, summary, program.source, run.profile, path, line,
                         _lines(program, run), [TileTable.of(t) for t in run.inputs.values()],
                         [TileTable.of(t) for t in run.outputs.values()], _fault_info(run))


# ---------------------------------------------------------------- legality prose
_PROSE = re.compile(r"DataType (?:is|must be) one of ([^.]*)\.")


def prose_datatypes(legality: list[str]) -> set[str] | None:
    """The DataType list a record's legality prose states (None when it states none)."""
    for sentence in legality:
        m = _PROSE.search(sentence)
        if m:
            names = re.split(r",\s*(?:or\s+)?|\s+or\s+", m.group(1))
            return {n.strip() for n in names if n.strip()}
    return None


# ---------------------------------------------------------------- running
class _Runner:
    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.spec = graph.spec
        self.root = Path(self.spec.root)
        self.findings: list[Finding] = []
        self.results: dict[str, list[ExampleResult]] = {}
        h = hashlib.sha256(CACHE_VERSION.encode())
        runs_on = _runs_on(self.spec.config)
        for rel, sha in sorted(self.spec.files.items()):
            if runs_on(rel):
                h.update(f"{rel}\0{sha}\n".encode())
        h.update(_code_digest().encode())
        self.tree_key = h.hexdigest()
        self._admitted: dict[str, frozenset[str] | None] = {}
        self._pack_path = self._cache_path(hashlib.sha256(str(self.root.resolve()).encode()).hexdigest())
        self._pack: dict[str, object] = self._load_pack()
        self._used: dict[str, object] = {}

    # -- cache: one pack per spec root, holding the results of its last run ------------------
    def _cache_path(self, name: str) -> Path | None:
        try:
            from ..cache import cache_dir
            return cache_dir("examples") / f"{name}.pack"
        except OSError:
            return None

    def _load_pack(self) -> dict[str, object]:
        if self._pack_path is None:
            return {}
        try:
            with self._pack_path.open("rb") as fh:
                pack = pickle.load(fh)
        except Exception:  # noqa: BLE001 - a missing or bad pack is recomputed
            return {}
        return pack if isinstance(pack, dict) else {}

    def _save_pack(self) -> None:
        if self._pack_path is None or self._used.keys() == self._pack.keys():
            return
        try:
            tmp = self._pack_path.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump(self._used, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self._pack_path)
            packs = sorted(self._pack_path.parent.glob("*.pack"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in packs[KEEP_PACKS:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass

    def _cached(self, text: str, compute):  # type: ignore[no-untyped-def]
        key = hashlib.sha256((self.tree_key + "\0" + text).encode()).hexdigest()
        value = self._pack.get(key)
        if not (isinstance(value, tuple) and len(value) == 2):
            value = compute()
        self._used[key] = value
        return value

    def add(self, res: ExampleResult) -> None:
        self.results.setdefault(res.mnemonic, []).append(res)

    def run(self) -> Suite:
        for rel in self._example_files():
            res, finds = self._cached("file\0" + rel + "\0" + (self._read(rel) or ""),
                                      lambda rel=rel: self._checked(rel))
            if res is not None:
                self.add(res)
            self.findings.extend(finds)
        for unit in self.graph.iter_instruction_units():
            ins = unit.instruction
            assert ins is not None
            for n, text in enumerate(ins.contract.examples, 1):
                res, finds = self._cached(f"contract\0{unit.path}\0{n}\0{text}",
                                          lambda u=unit, n=n, t=text: self._contract(u, n, t))
                if res is not None:
                    self.add(res)
                self.findings.extend(finds)
        self._save_pack()
        return Suite(self.results, self.findings)

    def _read(self, rel: str) -> str | None:
        fs = self.spec.fs
        if fs is None:
            return None
        ft = fs.read(rel)
        return ft.text if ft is not None else None

    def _example_files(self) -> list[str]:
        fs = self.spec.fs
        if fs is None:
            return []
        return fs.walk(self.spec.config.example_root, ".json")

    # -- checked example files ---------------------------------------------------------
    def _checked(self, rel: str) -> tuple[ExampleResult | None, list[Finding]]:
        text = self._read(rel)

        def err(rule: str, message: str, line: int = 1, col: int = 1, subject: str = "") -> Finding:
            return Finding(rule, Severity.ERROR, rel, line, message, subject=subject or rel, col=col)

        if text is None:
            return None, [err("example-fault", "the example file cannot be read as UTF-8 text")]
        try:
            ex = parse_example(text)
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
            program = parse_program(ex.program_text, path=rel)
        except ProgramError as e:
            line, col = _program_position(text, ex, e.line, e.col)
            base.error = f"program line {e.line}, column {e.col}: {e.message}"
            findings.append(err("example-fault", f"the program does not parse: {base.error}", line, col,
                                ex.id))
            return base, findings
        base.lines = _lines(program, None)
        if program.is_sketch:
            base.sketch_reason = program.sketch_reason
            findings.append(err("example-fault", f"{program.sketch_reason}: a checked example must be "
                                "concrete", base.line, 1, ex.id))
            return base, findings
        try:
            run = executor_for(self.root, profile).run(program, ex.inputs())
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
    def _contract(self, unit, n: int, text: str) -> tuple[ExampleResult | None, list[Finding]]:  # type: ignore[no-untyped-def]
        ins = unit.instruction
        line = unit.header_span.line if unit.header_span else 1
        ident = f"{ins.id}#example-{n}"
        mn = ins.mnemonic

        def finding(rule: str, severity: Severity, message: str) -> Finding:
            return Finding(rule, severity, unit.path, line, message, subject=ident, col=1)

        if not (text.lstrip().upper().startswith("BSTART") and re.search(r"\bBSTOP\b", text, re.I)):
            return None, []  # a single-command fragment, not a Block program
        findings: list[Finding] = []
        res = ExampleResult("sketch", mn, ident, f"contract.examples[{n - 1}]", text, "reference", unit.path, line)
        legality = self._legality_note(ins, text)
        res.legality_note = legality
        try:
            program = parse_program(text, path=unit.path)
        except ProgramError as e:
            res.sketch_reason = f"cannot run as written: column {e.col}: {e.message}"
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} {res.sketch_reason}" + (f"; {legality}" if legality else "")))
            return res, findings
        res.lines = _lines(program, None)
        if program.is_sketch or not program.is_block:
            res.sketch_reason = program.sketch_reason or "sketch: not a whole Block (BSTART … BSTOP last)"
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} cannot run as written ({res.sketch_reason})"
                                    + (f"; {legality}" if legality else "")
                                    + "; a checked example file under examples/ can make the promise executable"))
            return res, findings
        if legality:
            findings.append(finding("example-legality", Severity.WARNING, f"{mn} example {n}: {legality}"))
        ex = executor_for(self.root, "reference")
        if not ex.supported:
            res.sketch_reason = "sketch: the spec defines no Block executor entry points"
            findings.append(finding("example-sketch", Severity.NOTE,
                                    f"{mn} example {n} cannot run: the spec's ASL has no "
                                    f"{', '.join(ex.missing)}"))
            return res, findings
        try:
            run = ex.run(program, synthesized_inputs(program))
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

    def _legality_note(self, ins, text: str) -> str:  # type: ignore[no-untyped-def]
        prose = prose_datatypes(list(ins.contract.legality))
        m = re.match(r"\s*BSTART\.[A-Z]+\s+[^,;]+,\s*([A-Za-z0-9_]+)", text) or \
            re.match(r"\s*BSTART\.TEPL\s+[^,;]+,\s*[^,;]+,\s*([A-Za-z0-9_]+)", text)
        if prose is None or m is None:
            return ""
        dt = m.group(1)
        from .datatypes import element_type
        if element_type(dt) is None or dt in prose:
            return ""
        admitted = self._admitted_for(ins.mnemonic)
        if admitted is None or dt not in admitted:
            return ""
        return (f"DataType {dt} is excluded by the legality prose ({', '.join(sorted(prose))}) "
                f"but admitted by the ASL (InstructionContractDataTypeLegal_{ins.mnemonic}); "
                "one of them is wrong")

    def _admitted_for(self, mnemonic: str) -> frozenset[str] | None:
        if mnemonic not in self._admitted:
            try:  # the check's admitted sets: computed once per tree and cached by its content hash
                from ..asl.legality import ADMITTED
                self._admitted[mnemonic] = ADMITTED(self.graph).get(mnemonic)
            except Exception:  # noqa: BLE001 - an unevaluable predicate gives no note
                self._admitted[mnemonic] = None
        return self._admitted[mnemonic]


def _unit_dir(unit_path: str) -> str:
    """``asl/tile/x/y/TMUL.asl`` -> ``tile/x/y/TMUL``."""
    p = unit_path.removesuffix(".asl")
    return p.split("/", 1)[1] if p.startswith("asl/") else p


def _program_position(text: str, ex: ExampleFile, line: int, col: int) -> tuple[int, int]:
    """File line/column of program line ``line``, column ``col`` (best effort through JSON quoting)."""
    m = re.search(r'"program"\s*:\s*(\[?)\s*"', text)
    if m is None:
        return 1, 1
    start = m.end()  # just after the opening quote of the (first) string
    if isinstance(ex.program, list):
        strings = list(re.finditer(r'"((?:[^"\\]|\\.)*)"', text[m.start(1):]))
        if 0 < line <= len(strings):
            pos = m.start(1) + strings[line - 1].start() + 1
            return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + col
        return text.count("\n", 0, start) + 1, 1
    file_line = text.count("\n", 0, start) + 1
    return file_line, start - (text.rfind("\n", 0, start) + 1) + col if line == 1 else 1
