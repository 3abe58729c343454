"""What running one example produced, as the pages and the check read it (plain, picklable data).

The runner (:mod:`specgen.examples.runner`) builds these from a
:class:`~specgen.executor.executor.RunResult`; the dependency-tracked layer
(:mod:`specgen.cache.layer`) stores them between builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Finding
from ..executor.executor import RunResult, TileState
from ..executor.runstate import TileShape
from ..executor.scalar import SCALAR_ENTRY
from ..executor.words import COMMAND_ENTRY
from ..program.reader import Program
from ..cache import codec


@dataclass(frozen=True, slots=True)
class TileTable(TileShape):
    """One Tile as a table: element values, raw 64-bit words and definedness, row by row."""

    values: list[list[str]]
    words: list[list[str]]
    defined: list[list[bool]]
    predicate: bool = False  # one bit an element, read through the spec's predicate accessors (values 0/1)

    @classmethod
    def of(cls, t: TileState) -> "TileTable":
        j = t.to_json()
        return cls(t.register, t.data_type, t.rows, t.columns, t.valid_rows, t.valid_columns,
                   j["values"], j["words"], t.defined, t.predicate, layout=t.layout)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One assembly line: its text, decoded fields, the ASL entry point called and its status."""

    line: int
    text: str
    mnemonic: str
    fields: dict[str, object]
    entry: str = ""
    status: str = ""  # CommandExecution_Executed | CommandExecution_Rejected | "" (not reached)
    destination: str = ""
    word: str = ""  # the instruction word run (the corpus' command path), e.g. 0x88219181
    more: tuple[str, ...] = ()  # further destinations the same command allocated (TSORT's index Tile)


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
    """Every example's result by mnemonic, and the findings the check reports from them."""

    results: dict[str, list[ExampleResult]]
    findings: list[Finding]


def parsed_lines(program: Program, run: RunResult | None) -> list[ParsedLine]:
    steps = {id(s.statement): s for s in run.steps} if run else {}
    out = []
    for st in program.statements:
        s = steps.get(id(st))
        word = str(s.args[0]) if s and s.entry in (COMMAND_ENTRY, SCALAR_ENTRY) and s.args else ""
        out.append(ParsedLine(st.line, st.text, st.mnemonic, dict(st.fields), s.entry if s else "",
                              s.status if s else "", (s.destination or "") if s else "", word,
                              tuple(s.more) if s else ()))
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
                         parsed_lines(program, run), [TileTable.of(t) for t in run.inputs.values()],
                         [TileTable.of(t) for t in run.outputs.values()], _fault_info(run))


# what the dependency-tracked layer may hold of this module (specgen.cache.codec)
codec.register(TileTable, ParsedLine, FaultInfo, ExampleResult)
