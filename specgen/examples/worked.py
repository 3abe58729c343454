"""A worked, executed example for every instruction whose record composes a Block.

For each instruction with a block composition (:mod:`specgen.examples.composition`)
the generator fills the template with concrete operands:

* a DataType the ASL admits (``InstructionContractDataTypeLegal_<MN>``, via
  :data:`specgen.asl.legality.ADMITTED`) and, where the record's legality prose
  states a closed set, one the prose admits too; the record's own example
  sketch's DataType first, then the types its BSTART line names. When the
  sketch's DataType is admitted by the ASL but excluded by the prose, a second
  example runs on it and says so;
* a small legal shape (valid 2 x 3 in a physical 4-column Tile of SizeCode 1),
  so the padded region is visible;
* seeded, deterministic inputs (:mod:`specgen.examples.seeds`) whose first source
  holds the type's edge cases;
* the PadValue ``Max`` when the composition's B.DATR carries a PadValue.

The program is assembled and run through the spec's own path (the executor:
words through ``ExecuteCommandInstruction`` on the corpus). A run that faults
is retried with fewer edges (no B.DATR, tame values, the next DataType), a few
runs at most; each retry is recorded on the page. An instruction that cannot
be instantiated gets the exact reason. Results are cached by content in one
pack per tree (:mod:`specgen.examples.pack`, key: every file the ASL run reads
and this package's code, which carries :data:`GENERATOR`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from ..graph import Derived, SpecGraph
from ..models.located import AslUnit
from ..prose import datatype_sentence
from ..vocabulary import VOCABULARY, DataType
from .composition import Reason, Template, composition_lines, is_block_program, read_template
from .datatypes import show_value, show_word
from .executor import Executor, RunError, TileInput, executor_for
from .outcome import ExampleResult, result_from_run
from .pack import ResultPack
from .program import ProgramError, parse_program
from .seeds import seed_of, source_words
from . import planstate

GENERATOR = "worked-5"
VALID_ROWS, VALID_COLUMNS, COLUMNS, SIZE_CODE = 2, 3, 4, 1
PAD = "Max"
SCALAR_GPR = 5  # the absolute GPR a generated B.IOR reads (any of the catalog's legal selectors but zero)
MAX_RUNS = 4
# the order DataTypes are tried in when neither the sketch nor the composition names one: common widths first
PREFERRED = ("S32", "FP32", "FP16", "S16", "U32", "U16", "BF16", "S8", "U8", "S64", "U64", "FP64")


@dataclass(slots=True)
class Attempt:
    """One run that did not give an example: what was tried and what happened (English, for the log and page)."""

    data_type: str
    pad: str
    edges: bool
    problem: str


@dataclass(slots=True)
class Worked:
    """One executed worked example and the facts a page states about it."""

    result: ExampleResult
    data_type: str
    pad: str  # "" when the Block has no B.DATR (the spec's default padding)
    edges: bool
    seed: int
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    prose_admits: bool  # False: the legality prose excludes this DataType (the ASL admits it)
    broadcast: str = ""  # "row" | "column": the shape given to the composition's broadcast operand
    scalars: tuple[tuple[str, str], ...] = ()  # GPRs set before the run (B.IOR's sources): name, value
    memory: tuple[tuple[str, str, str], ...] = ()  # global memory the run reads or writes: address, before, after
    dims: tuple[tuple[str, int], ...] = ()  # a matrix Block's dimensions (M, N, K) as its B.DIM lines set them


@dataclass(slots=True)
class WorkedEntry:
    """An instruction with a block composition: its worked examples, or why there is none."""

    mnemonic: str
    path: str
    line: int
    examples: list[Worked] = field(default_factory=list)
    reason: Reason | None = None
    attempts: list[Attempt] = field(default_factory=list)  # runs that faulted before the one shown
    omitted: list[str] = field(default_factory=list)  # optional commands the example leaves out
    # B.IOR lines the composition lists but the ASL completes the Block without (scalars at their default)
    defaulted: list[str] = field(default_factory=list)


@dataclass(slots=True)
class WorkedSuite:
    entries: dict[str, WorkedEntry]

    @property
    def total(self) -> int:
        return len(self.entries)

    @property
    def executed(self) -> int:
        return sum(1 for e in self.entries.values() if e.examples)

    def summary(self) -> str:
        """The build summary line."""
        pct = 100.0 * self.executed / self.total if self.total else 100.0
        return (f"worked examples: {self.executed}/{self.total} instructions with a block composition "
                f"({pct:.1f} %)")


def _compute(graph: SpecGraph) -> WorkedSuite:
    return Generator(graph).run()


WORKED = Derived(_compute)


def worked_examples(graph: SpecGraph) -> WorkedSuite:
    """Every instruction's worked examples, computed once per graph (cached on disk by content)."""
    return WORKED(graph)


class Generator:
    """Instantiate and run the worked examples of one graph's spec."""

    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.spec = graph.spec
        self.vocabulary = VOCABULARY(graph)
        self.pack = ResultPack(self.spec, "worked")
        self._admitted: dict[str, frozenset[str] | None] = {}
        self._executor: Executor | None = None
        self._spelling: tuple[str, str] | None = None  # the BSTART command and operation of the current entry
        self._roles: list[tuple[str, str]] = []  # the current entry's catalog operands: field, role
        self._prose = ""  # the current entry's summary and memory effects (what its indices mean)

    def run(self, only: frozenset[str] | None = None) -> WorkedSuite:
        """Every worked example (``only``: just these mnemonics, for tests and tools)."""
        entries: dict[str, WorkedEntry] = {}
        for unit in self.graph.iter_instruction_units():
            ins = unit.instruction
            assert ins is not None
            if only is not None and ins.mnemonic not in only:
                continue
            lines = composition_lines(ins)
            if not is_block_program(lines):
                continue
            key = f"worked\0{GENERATOR}\0{unit.path}\0{ins.mnemonic}\0{json.dumps(lines)}"
            entry, _ = self.pack.get(key, lambda u=unit, ls=lines: (self._entry(u, ls), []))
            entries[ins.mnemonic] = entry
        if only is None:  # a partial run must not replace the pack of the whole tree
            self.pack.save()
        return WorkedSuite(entries)

    # -- facts ---------------------------------------------------------------------------------
    def admitted(self, mnemonic: str) -> frozenset[str] | None:
        """The DataTypes ``InstructionContractDataTypeLegal_<MN>`` admits, asked of the executor's interpreter.

        The same predicate the check's ``ADMITTED`` fact evaluates, but only for the instructions that get
        a worked example and on the interpreter the runs compile anyway (no second interpreter on a cold
        build); None when the spec states no such predicate or it cannot be evaluated.
        """
        if mnemonic in self._admitted:
            return self._admitted[mnemonic]
        from ..asl import ASLError
        from ..asl.legality import ENUM, PREFIX
        it = self.executor().interp
        name = PREFIX + mnemonic
        got: frozenset[str] | None = None
        if it.has_function(name):
            try:
                out = set()
                for member in it.enum_members(ENUM):
                    it.reset()
                    if it.call(name, member) is True:
                        out.add(member.removeprefix(ENUM + "_"))
                got = frozenset(out)
            except ASLError as e:
                if e.kind == "budget":
                    raise
                got = None
        self._admitted[mnemonic] = got
        return got

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = executor_for(self.spec, "reference", vocabulary=self.vocabulary)
        return self._executor

    def candidates(self, unit: AslUnit, tpl: Template) -> list[tuple[DataType, bool]]:
        """DataTypes to try, each with whether the legality prose admits it (the ASL admits them all)."""
        ins = unit.instruction
        assert ins is not None
        voc = self.vocabulary
        admitted = self.admitted(ins.mnemonic)
        legality = ins.contract.legality if ins.contract is not None else []
        sentence = datatype_sentence(legality, voc)
        prose = sentence.names if sentence is not None else None
        order = [*self._sketch_types(ins, tpl), *tpl.listed_types, *PREFERRED, *voc.datatype_names]
        seen: set[str] = set()
        out: list[tuple[DataType, bool]] = []
        for name in order:
            et = voc.datatype(name)
            if et is None or et.name in seen or et.kind == "packed":
                continue
            seen.add(et.name)
            if admitted is not None and et.name not in admitted:
                continue
            if tpl.listed_types and et.name not in tpl.listed_types:
                continue
            out.append((et, prose is None or et.name in prose))
        if tpl.matrix:  # integer products first: exact, and the reference profile multiplies floating carriers raw
            out.sort(key=lambda c: c[0].kind not in ("signed", "unsigned"))
        both = [c for c in out if c[1]]
        return both + [c for c in out if not c[1]]

    def _sketch_types(self, ins: object, tpl: Template) -> list[str]:
        contract = getattr(ins, "contract", None)
        out = []
        for text in (getattr(contract, "examples", None) or []):
            head = text.strip().split(";", 1)[0]
            if head.upper().startswith(tpl.spelling) and "," in head:
                out.append(head.rsplit(",", 1)[1].strip())
        return out

    # -- one instruction -----------------------------------------------------------------------
    def _entry(self, unit: AslUnit, lines: list[str]) -> WorkedEntry:
        ins = unit.instruction
        assert ins is not None
        line = unit.header_span.line if unit.header_span else 1
        entry = WorkedEntry(ins.mnemonic, unit.path, line)
        tpl = read_template(lines, self.vocabulary.datatype_names)
        # only the catalog's ``source…`` operand fields are Tile sources of the B.IOT lines: ``scalar…`` is
        # carried by B.IOR, ``comparison``, ``flag…``, ``numeric_control`` and the like by the operation itself
        tpl.infer_sources(max((sum(1 for o in getattr(r, "operands", None) or ()
                                   if str(getattr(o, "field", "")).startswith("source"))
                               for r in ins.catalog_records), default=-1))
        entry.omitted = list(tpl.omitted)
        if not tpl.fillable:
            entry.reason = tpl.blockers[0] if tpl.blockers else Reason("no-iot")
            return entry
        ex = self.executor()
        if not ex.supported:
            entry.reason = Reason("no-executor", (("missing", ", ".join(ex.missing)),))
            return entry
        self._roles = [(str(getattr(o, "field", "")), str(getattr(o, "role", ""))) for r in ins.catalog_records
                       for o in (getattr(r, "operands", None) or ())]
        contract = getattr(ins, "contract", None)
        self._prose = " ".join([str(getattr(ins, "summary", "") or "")] +
                               [str(x) for x in (getattr(contract, "memory_effects", None) or [])])
        self._spelling = planstate.spelling_of(ex.words.encodings if ex.words is not None else None, tpl)
        if self._spelling is None:
            entry.reason = Reason("spelling", (("command", tpl.spelling),))
            return entry
        cands = self.candidates(unit, tpl)
        if not cands:
            entry.reason = Reason("no-type")
            return entry
        runs = 0
        # the PadValue with edge values first; a rejected B.DATR is not retried with other values
        # a broadcast operand is a row vector (1 x ValidCol) or a column vector (ValidRow x 1): both are tried
        shapes = ("row", "column") if self._has_broadcast(tpl) else ("",)
        plans = [(p, e, sh, False) for p, e, sh in ([(PAD, True, shapes[0])] if tpl.datr == "pad" else []) +
                 [(pad, edges, shape) for pad, edges in (("", True), ("", False)) for shape in shapes]]
        budget = MAX_RUNS + len(shapes) - 1
        if self._scalar_lines(tpl):  # a B.IOR with a seeded GPR first, then the Block without it (default zero)
            plans = [(p, e, sh, True) for p, e, sh, _ in plans] + [x for x in plans if not x[0]]
            budget += 2
            if planstate.memory_plan(tpl, self._roles, self._prose) is not None:  # a gather or scatter needs its base register
                plans = [x for x in plans if x[3]]
        if tpl.matrix:  # a matrix Block: one run a DataType (its edge values are no divisors), more DataTypes; a
            # number kind whose first two types fault at one site is not tried further (MX forms reach FP16)
            plans, budget = [("", True, "", False)], 2 * MAX_RUNS
        same_kind: dict[str, list[str]] = {}  # a matrix Block: the faults of each number kind's types, in order
        for et, prose_ok in cands:
            if runs >= budget or (not prose_ok and entry.examples):
                break
            seen = same_kind.get(et.kind, [])
            if tpl.matrix and len(seen) >= 2 and seen[-1] == seen[-2]:
                continue  # two types of this kind faulted at one site: the kind is what the Block rejects
            for pad, edges, shape, ior in plans:
                if runs >= budget:
                    break
                runs += 1
                got = self._try(unit, tpl, et, pad, edges, prose_ok, len(entry.examples) + 1, shape, ior)
                if isinstance(got, Worked):
                    entry.examples.append(got)
                    break
                entry.attempts.append(Attempt(et.name, pad, edges, got))
                same_kind.setdefault(et.kind, []).append(got.replace(et.name, ""))
            if entry.examples:
                break
        if entry.examples:
            self._prose_excluded(unit, tpl, entry, cands)
            if entry.examples[0].scalars:  # the B.IOR the composition names is in the program
                entry.omitted = [x for x in entry.omitted if x not in self._scalar_lines(tpl)]
            else:
                entry.defaulted = list(tpl.scalar_lines)
        elif tpl.scalar_reason is not None:  # the left-out B.IOR may be why; the attempts say what faulted
            entry.reason = tpl.scalar_reason
        else:
            last = entry.attempts[-1].problem if entry.attempts else ""
            entry.reason = Reason("faulted", (("attempts", str(runs)), ("problem", last)))
        return entry

    def _prose_excluded(self, unit: AslUnit, tpl: Template, entry: WorkedEntry,
                        cands: list[tuple[DataType, bool]]) -> None:
        """Where the sketch's DataType is admitted by the ASL but excluded by the prose, run it too."""
        ins = unit.instruction
        shown = {w.data_type for w in entry.examples}
        for name in self._sketch_types(ins, tpl)[:1]:
            for et, prose_ok in cands:
                if et.name == name and not prose_ok and et.name not in shown:
                    first = entry.examples[0]
                    got = self._try(unit, tpl, et, first.pad, first.edges, False, len(entry.examples) + 1,
                                    first.broadcast, bool(first.scalars))
                    if isinstance(got, Worked):
                        entry.examples.append(got)
                    else:
                        entry.attempts.append(Attempt(et.name, first.pad, first.edges, got))

    @staticmethod
    def _scalar_lines(tpl: Template) -> list[str]:
        """The composition's B.IOR lines, required or optional (a generated B.IOR binds one seeded GPR)."""
        return tpl.scalar_lines + [x for x in tpl.omitted if x.strip().upper().startswith("B.IOR")]

    @staticmethod
    def _has_broadcast(tpl: Template) -> bool:
        return any(b.broadcast(k) for b in tpl.bindings for k in range(b.sources or 0))

    def program_text(self, tpl: Template, et: DataType, pad: str, ior: bool = False) -> tuple[str, list[str]]:
        """The concrete program (one command a line) and the source registers it binds, in order."""
        if tpl.matrix:
            return planstate.matrix_program(tpl, self._spelling or (tpl.spelling, tpl.operation), et,
                                            planstate.destination_size_code(self.executor().interp, tpl))
        store = (plan := planstate.memory_plan(tpl, self._roles, self._prose)) is not None and plan.store
        lines = [planstate.bstart_line(self._spelling or (tpl.spelling, tpl.operation), et)]
        if pad:
            lines.append(f"B.DATR PadValue={pad}")
        value = {0: VALID_COLUMNS, 1: VALID_ROWS, 2: COLUMNS}
        lines += [f"B.DIM LB{lb}={value[lb]}" for lb in sorted(tpl.loop_bounds)]
        if ior:  # before the Tile bindings: 0.58.0 takes no binding after the ``<last>`` one (Fault_BundleControl)
            lines.append(f"B.IOR x{SCALAR_GPR}")
        sources: list[str] = []
        for k, b in enumerate(tpl.bindings):
            n = b.sources if b.sources is not None else 1
            regs = [f"T{len(sources) + i + 1}" for i in range(n)]
            sources += regs
            parts = regs + ["mask=0b0001"]
            final = k == len(tpl.bindings) - 1
            if b.last or final:
                parts.append("<last>")
            if b.destination or (final and not store):  # a scatter's Block writes memory, not a Tile
                parts.append(f"->T<{SIZE_CODE}>")
            lines.append("B.IOT " + ", ".join(parts))
        lines.append("BSTOP")
        return "\n".join(lines), sources

    def _try(self, unit: AslUnit, tpl: Template, et: DataType, pad: str, edges: bool, prose_ok: bool,
             n: int, broadcast: str = "", ior: bool = False) -> Worked | str:
        """Run one instantiation: the example, or what went wrong (English)."""
        ins = unit.instruction
        assert ins is not None
        text, sources = self.program_text(tpl, et, pad, ior)
        try:
            program = parse_program(text, self.vocabulary, path=unit.path)
        except ProgramError as e:
            return f"the generated program does not parse: line {e.line}: {e.message}"
        capacity = 128 * 2 ** (SIZE_CODE - 1)
        rows = capacity * 8 // (COLUMNS * et.bits)
        seed = seed_of(ins.mnemonic, et.name, GENERATOR)
        rng = random.Random(seed)
        flags = [b.broadcast(k) for b in tpl.bindings for k in range(b.sources if b.sources is not None else 1)]
        tiles = []
        plan = planstate.memory_plan(tpl, self._roles, self._prose)
        for k, reg in enumerate(sources if not tpl.matrix and plan is None else ()):
            vr, vc, cols = VALID_ROWS, VALID_COLUMNS, COLUMNS
            if k < len(flags) and flags[k] and broadcast == "row":
                vr = 1
            elif k < len(flags) and flags[k] and broadcast == "column":
                vc = cols = 1
            r = capacity * 8 // (cols * et.bits)
            tiles.append(TileInput(reg, et.name, r, cols, vr, vc, source_words(et, vr, vc, k, rng, edges=edges)))
        if tpl.matrix:
            tiles = planstate.matrix_inputs(tpl, et, rng, edges,
                                            planstate.accumulator_type(self.executor().interp, self.vocabulary, et))
        elif plan is not None:
            tiles = planstate.memory_inputs(plan, self.vocabulary, et, sources, VALID_ROWS, VALID_COLUMNS, rng,
                                            edges, planstate.INDEX_TYPES[0])
        gprs: dict[int, int] = {}
        if ior:  # a small nonzero value of the DataType (a legal divisor or shift count), seeded like the Tiles
            gprs[SCALAR_GPR] = source_words(et, 1, 1, len(sources), rng, edges=False)[0][0]
            if plan is not None:  # the base address of a gather or scatter
                gprs[SCALAR_GPR] = planstate.BASE_ADDRESS
        try:
            run = self.executor().run(program, tiles, gprs, plan.cells if plan is not None else None)
        except RunError as e:
            return f"cannot run: {e.message}"
        if run.fault is not None:
            return run.fault.describe()
        if not run.outputs and not (plan is not None and plan.store and any(m.after != m.before
                                                                          for m in run.memory)):
            return "the run wrote no destination Tile" + (" and no memory" if plan is not None else "")
        ident = f"{ins.id}#worked-{n}"
        res = result_from_run("worked", ins.mnemonic, ident, "", program, run, unit.path,
                              unit.header_span.line if unit.header_span else 1)
        res.verified = True
        shape = (rows, COLUMNS, VALID_ROWS, VALID_COLUMNS)
        if tpl.matrix and run.outputs:  # the destination's shape: the spec sizes a CUBE Tile's storage
            o = next(iter(run.outputs.values()))
            shape = (o.rows, o.columns, o.valid_rows, o.valid_columns)
        return Worked(res, et.name, pad, edges, seed, *shape, prose_ok,
                      broadcast if any(flags) else "",
                      tuple((f"x{k}", f"{show_value(v, et)} ({show_word(v)})" if plan is None else show_word(v))
                            for k, v in gprs.items()),
                      tuple((f"0x{m.address:X}", "" if m.before is None else show_value(m.before, et),
                             "" if m.after is None else show_value(m.after, et)) for m in run.memory),
                      tuple((n, planstate.dimensions(tpl)[n]) for _lb, n in sorted(tpl.dims.items())
                            if tpl.matrix and n in planstate.dimensions(tpl)))


__all__ = ["GENERATOR", "WORKED", "Worked", "WorkedEntry", "WorkedSuite", "worked_examples"]
