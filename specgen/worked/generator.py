"""A worked, executed example for every instruction whose record composes a Block.

For each instruction with a block composition (:mod:`specgen.worked.composition`)
the generator fills the template with concrete operands:

* a DataType the ASL admits (``InstructionContractDataTypeLegal_<MN>``, via
  :data:`specgen.asl.legality.ADMITTED`) and, where the record's legality prose
  states a closed set, one the prose admits too; the record's own example
  sketch's DataType first, then the types its BSTART line names. When the
  sketch's DataType is admitted by the ASL but excluded by the prose, a second
  example runs on it and says so;
* a small legal shape (valid 2 x 3 in a physical 4-column Tile of SizeCode 1),
  so the padded region is visible;
* seeded, deterministic inputs (:mod:`specgen.worked.seeds`) whose first source
  holds the type's edge cases;
* the PadValue ``Max`` when the composition's B.DATR carries a PadValue.

What an operation needs beyond that template (its operand fields and B.IOR slots,
B.DATR fields, index and predicate operands, a shape relation between sources and
destination) is asked of the spec's ASL by :mod:`specgen.worked.operands` and
written down by :mod:`specgen.worked.instantiate`.

The program is assembled and run through the spec's own path (the executor:
words through ``ExecuteCommandInstruction`` on the corpus). A run that faults
is retried with fewer edges (no B.DATR, tame values, the next DataType), a few
runs at most; each retry is recorded on the page. An instruction that cannot
be instantiated gets the exact reason. Each instruction's entry is a derived
result of the dependency-tracked layer (:mod:`specgen.cache.layer`): it is reused
while what it read is unchanged (its record, the catalogs, the vocabulary, the
step budget, every ASL definition its runs executed or asked about, the text of
each ASL file it showed a line of) and this package's code, which carries
:data:`GENERATOR`. An edit of one instruction's ASL reruns its own example; an
edit of a helper reruns exactly the examples that executed it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Callable, Iterator, TypeVar

from .. import speccontract as contract
from ..asl.revision import PARTS, REVISION, asl_keys, generation_reads
from ..cache.layer import Reads, code_digest
from ..diagnostics import Sentence
from ..examples.runner import CODE
from ..executor.executor import Executor, executor_for
from ..graph import Derived, SpecGraph
from ..models.instruction import InstructionHeader
from ..models.located import AslUnit
from ..prose import datatype_sentence
from ..vocabulary import VOCABULARY, DataType
from . import matrixplan, planstate
from .composition import Reason, Template, composition_lines, is_block_program, read_template
from .entry import Attempt, Worked, WorkedEntry, WorkedSuite
from .instantiate import SIZE_CODE, VALID_COLUMNS, Plan, Producer, predicate_producers
from .operandchecks import OperandChecks
from .operands import (RELATIONS, WIDE, LegalityText, OperationFacts, complete_bindings, datr_line, legality_text,
                       operation_facts, sketch_sizes, source_roles)
from .trial import GENERATOR, PREFERRED, has_broadcast, run_trial, scalar_lines

VERSION = code_digest(*CODE)  # the examples' code: a worked example runs through the same executor
PAD = "Max"
MAX_RUNS = 4
T = TypeVar("T")


def _producers_part(graph: SpecGraph, _path: str) -> str:
    """``part:#producers``: the Block the tree's records offer to make a predicate Tile (what a worked example
    with a predicate operand runs first)."""
    found = predicate_producers(graph, VOCABULARY(graph).datatype_names)[:1]
    return json.dumps([(mn, composition_lines(graph.instructions[mn].instruction)) for mn, _tpl in found])


PARTS["producers"] = _producers_part


def _compute(graph: SpecGraph) -> WorkedSuite:
    return Generator(graph).run()


WORKED = Derived(_compute)


def worked_examples(graph: SpecGraph) -> WorkedSuite:
    """Every instruction's worked examples, computed once per graph (cached on disk by content); a server's
    build takes the valid ones and leaves the rest to its background run (:mod:`.pending`)."""
    return WORKED(graph)


def refusal(problem: str) -> tuple[str, str] | None:
    """(site, function) of the spec's ASL line that refused a run: the ``return FALSE`` of the legality predicate
    (or the assert) the executor traced the fault to; None for a run that did not fault there (it could not be
    made or run). The fault's sentence carries them (:meth:`specgen.executor.runstate.Fault.describe`)."""
    said: object = problem
    while isinstance(said, Sentence):
        if said.key == "example.fault_line_at":
            return str(said.params.get("site", "")), str(said.params.get("function", ""))
        said = said.params.get("fault")
    return None


class Generator:
    """Instantiate and run the worked examples of one graph's spec."""

    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.spec = graph.spec
        self.vocabulary = VOCABULARY(graph)
        self.revision = REVISION(graph)
        self.store = self.revision.layer.store("worked", VERSION)
        # what several entries share, each with the names its computation read (noted again on reuse)
        self._admitted: dict[str, tuple[frozenset[str] | None, frozenset[str]]] = {}
        self._executor: Executor | None = None
        self._facts: dict[str, tuple[OperationFacts | None, frozenset[str]]] = {}
        self._producer: list[tuple[str, Template]] | None = None
        self.rerun: list[str] = []  # the mnemonics whose entry this run computed (not reused)
        self.computed: list[str] = []  # the layer keys of those entries
        # the current entry's, which its trials share (:class:`specgen.worked.trial.Context`)
        self.spelling: tuple[str, str] | None = None  # the BSTART command and operation
        self.roles: list[tuple[str, str]] = []  # the catalog operands: field, role
        self.prose = ""  # the summary and memory effects (what its indices mean)
        self._pes = 0b0001  # the PE mask the current matrix Block's predicate requires of its bindings
        self._products: dict[str, bool] = {}  # legality handler -> whether its text states a matrix product

    def targets(self, only: frozenset[str] | None = None) -> Iterator[tuple[str, AslUnit, list[str]]]:
        """(layer key, unit, block lines) of every instruction with a block composition (``only``: these)."""
        for unit in self.graph.iter_instruction_units():
            ins = unit.instruction
            assert ins is not None
            lines = composition_lines(ins)
            if (only is None or ins.mnemonic in only) and is_block_program(lines):
                yield f"{unit.path}#{ins.mnemonic}", unit, lines

    def run(self, only: frozenset[str] | None = None, *, save: bool = True) -> WorkedSuite:
        """Every worked example (``only``: just these mnemonics, for tests and tools; ``save=False``: the
        store is not written, a forked background run hands its entries back)."""
        entries: dict[str, WorkedEntry] = {}
        for key, unit, lines in self.targets(only):
            before = self.store.computed
            entries[unit.instruction.mnemonic] = self.store.get(  # type: ignore[union-attr]
                key, self.revision.inputs, lambda reads, u=unit, ls=lines: self._recorded(reads, u, ls))
            if self.store.computed != before:
                self.computed.append(key)
        if only is None:  # a partial run must not forget the rest of the tree
            keys = {f"{e.path}#{m}" for m, e in entries.items()}
            self.store.drop(lambda k: k in keys)
        if save:
            self.store.save()
        return WorkedSuite(entries, list(self.rerun))

    def _recorded(self, reads: Reads, unit: AslUnit, lines: list[str]) -> WorkedEntry:
        """One instruction's entry, with everything it read: its record, what generation and the vocabulary
        read, the configuration, and the trail of the interpreter's runs (:mod:`specgen.asl.trail`)."""
        reads.add(f"part:{unit.path}#record")
        generation_reads(self.spec, reads)  # the catalogs (forms, operands), the vocabulary
        reads.update(("config:max_steps", "config:max_value_bits", "config:max_memory_bytes", f"file:{self.spec.config.hardware_profile}"))
        self.rerun.append(unit.instruction.mnemonic if unit.instruction is not None else unit.path)
        it = self.executor().interp
        it.trail.push()
        it.trail.note_all(self.executor().notes)
        try:
            return self._entry(unit, lines)
        finally:
            reads.update(asl_keys(it.definitions.reads(it.trail.pop())))

    def _shared(self, memo: dict[str, tuple[object, frozenset[str]]], key: str, compute: Callable[[], T]) -> T:
        """A fact several entries use, computed once: its trail is noted in every entry that uses it."""
        trail = self.executor().interp.trail
        hit = memo.get(key)
        if hit is None:
            trail.push()
            try:
                value = compute()
            finally:
                names = trail.pop()
            memo[key] = hit = (value, names)
        else:
            trail.note_all(hit[1])
        return hit[0]  # type: ignore[return-value]

    # -- facts ---------------------------------------------------------------------------------
    def admitted(self, mnemonic: str) -> frozenset[str] | None:
        """The DataTypes ``InstructionContractDataTypeLegal_<MN>`` admits, asked of the executor's interpreter.

        The same predicate the check's ``ADMITTED`` fact evaluates, but only for the instructions that get
        a worked example and on the interpreter the runs compile anyway (no second interpreter on a cold
        build); None when the spec states no such predicate or it cannot be evaluated.
        """
        return self._shared(self._admitted, mnemonic, lambda: self._admitted_now(mnemonic))  # type: ignore[arg-type]

    def _admitted_now(self, mnemonic: str) -> frozenset[str] | None:
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
        return got

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = executor_for(self.graph, "reference")
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
        if tpl.matrix and not any(layout for _r, layout, *_ in tpl.matrix):
            # value-Tile sources: the destination is allocated in the Block's type, which the ASL wants to be the
            # accumulator's (``TileMatrixAccumulatorDataType``): types that accumulate in themselves first
            it = self.executor().interp
            out.sort(key=lambda c: planstate.accumulator_type(it, voc, c[0]).name != c[0].name)
        both = [c for c in out if c[1]]
        return both + [c for c in out if not c[1]]

    def _sketch_types(self, ins: InstructionHeader, tpl: Template) -> list[str]:
        out = []
        for text in (ins.contract.examples if ins.contract is not None else []):
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
        roles = source_roles(ins)
        entry.omitted = list(tpl.omitted)
        self.roles = [(str(getattr(o, "field", "")), str(getattr(o, "role", ""))) for r in ins.catalog_records
                      for o in (getattr(r, "operands", None) or ())]
        record = getattr(ins, "contract", None)
        self.prose = " ".join([str(getattr(ins, "summary", "") or "")] +
                              [str(x) for x in (getattr(record, "memory_effects", None) or [])])
        # a matrix or memory Block is planned by planstate (its sources are CUBE Tiles or memory, not value Tiles)
        datr, self._pes = "", 0b0001
        if self.executor().supported:  # a matrix product: its sources as its operand-legality predicate states
            datr = self._matrix(ins, tpl)
        special = tpl.matrix or planstate.memory_plan(tpl, self.roles, self.prose) is not None
        if self.executor().supported and tpl.bindings and not special:
            facts = self.facts(ins.mnemonic)
            if tpl.datr == "required":  # derive the fields the composition requires from the line and the ASL
                datr = datr_line(tpl.datr_text, self.vocabulary.datatype_names, facts) or ""
                if datr:
                    tpl.blockers = [b for b in tpl.blockers if b.key != "datr"]
            if tpl.fillable:
                complete_bindings(tpl, roles, facts)
        idle = self.facts(ins.mnemonic) if self.executor().supported else None
        if idle is not None and not idle.sources and not idle.destinations:  # TPREFETCH: no Tile, no value shown
            entry.reason = Reason("no-tile", (("fields", ", ".join(idle.present) or "-"),))
            return entry
        if not tpl.fillable:
            entry.reason = tpl.blockers[0] if tpl.blockers else Reason("no-iot")
            return entry
        ex = self.executor()
        if not ex.supported:
            entry.reason = Reason("no-executor", (("missing", ", ".join(ex.missing)),))
            return entry
        self.spelling = planstate.spelling_of(ex.words.encodings if ex.words is not None else None, tpl,
                                             ins.mnemonic)
        if self.spelling is None:
            entry.reason = Reason("spelling", (("command", tpl.spelling),))
            return entry
        cands = self.candidates(unit, tpl)
        legal = None if special else self.legality(ins)
        if legal is not None and legal.min_columns > VALID_COLUMNS and legal.types:
            # a predicate with a floor on the destination's width also names the types it takes: those first
            # (in the order the predicate names them: its first branch is the one it states in full)
            rank = {n: i for i, n in enumerate(legal.types)}
            cands.sort(key=lambda c: (not c[1], rank.get(c[0].name, len(rank))))
        if not cands:
            entry.reason = Reason("no-type")
            return entry
        if tpl.matrix:  # one type of each number kind before a second of any: a kind the model's product cannot
            # hold (a development branch's integer products accumulate in S64, which no CUBE layout stores)
            # must not spend the runs its sibling kind needs
            counts: dict[str, int] = {}
            nth: list[int] = []
            for et, _ok in cands:
                nth.append(counts.get(et.kind, 0))
                counts[et.kind] = nth[-1] + 1
            cands = [cands[i] for i in sorted(range(len(cands)), key=lambda i: (not cands[i][1], nth[i], i))]
        runs = 0
        # the PadValue with edge values first; a rejected B.DATR is not retried with other values
        # a broadcast operand is a row vector (1 x ValidCol) or a column vector (ValidRow x 1): both are tried
        shapes = ("row", "column") if has_broadcast(tpl) else ("",)
        plans = [Plan(p, e, sh, datr=datr) for p, e, sh in ([(PAD, True, shapes[0])] if tpl.datr == "pad" else []) +
                 [(pad, edges, shape) for pad, edges in (("", True), ("", False)) for shape in shapes]]
        budget = MAX_RUNS + len(shapes) - 1
        facts = self.facts(ins.mnemonic)
        scalar = bool(scalar_lines(tpl)) or bool(facts is not None and facts.gpr_fields)
        if scalar:  # a B.IOR with seeded GPRs first, then the Block without it (default zero)
            plans = [replace(x, ior=True) for x in plans] + [x for x in plans if not x.pad]
            budget += 2
        # the shape relations the operation's legality may check, on the first DataType only
        # with a B.IOR where the ASL's operation reads GPRs (when it says), else as the composition lists one
        size = max([SIZE_CODE, *sketch_sizes(ins)])
        extra = [Plan("", True, shapes[0], bool(facts.gpr_fields) if facts is not None else scalar, rel, datr, size)
                 for rel in RELATIONS[1:]] if not special else []
        if legal is not None and legal.min_columns > VALID_COLUMNS:  # the destination the predicate's floor asks for
            extra.insert(0, Plan("", True, shapes[0], extra[0].ior if extra else scalar, WIDE, datr, size,
                                 legal.min_columns))
        budget += len(extra)
        if special and scalar and not tpl.matrix:  # a gather or scatter needs its base register
            plans = [x for x in plans if x.ior]
            mplan = planstate.memory_plan(tpl, self.roles, self.prose)
            if mplan is not None and mplan.mask_sources:  # then a lane mask made a predicate Tile by the spec's Block
                plans += [replace(x, relation="predicate") for x in plans]
                budget += 2
        if tpl.matrix:  # a matrix Block: one run a DataType (its edge values are no divisors), more DataTypes; a
            # number kind whose first two types fault at one site is not tried further (MX forms reach FP16)
            plans, budget = [Plan("", True, datr=datr, pes=self._pes)], 2 * MAX_RUNS
            if matrixplan.core(tpl.matrix) != tpl.matrix:  # then without the operands the dispatch may not want
                plans.append(Plan("", True, relation="core", datr=datr, pes=self._pes))
            if not any(layout for _r, layout, *_ in tpl.matrix):  # value Tiles: a power-of-two GEMM on retry
                plans.append(Plan("", True, relation="power", datr=datr, pes=self._pes))
            # the other layouts the predicate admits for the sources, jointly (A in CUBE_M16 with B in CUBE_N8 where
            # the first named, CUBE_M32, refused M = 2): each combination is one run the ASL verifies
            plans += [Plan("", True, datr=datr, pes=self._pes, layouts=x) for x in matrixplan.layout_variants(tpl)]
            if not tpl.fpatr and tpl.fpatr_form:  # each again with a B.FPATR (no postprocess) the model may want
                plans += [replace(p, fpatr=tpl.fpatr_form) for p in plans]
            budget = MAX_RUNS * (len(plans) + 1)  # every kind's first two types with each plan: MX reaches FP16
        same_kind: dict[str, list[str]] = {}  # a matrix Block: the faults of each number kind's types, in order
        for ci, (et, prose_ok) in enumerate(cands):
            if runs >= budget or (not prose_ok and entry.examples):
                break
            seen = same_kind.get(et.kind, [])
            if tpl.matrix and len(seen) >= 2 and seen[-1] == seen[-2]:
                continue  # two types of this kind faulted at one site: the kind is what the Block rejects
            for plan in plans + (extra if ci == 0 else []):
                if runs >= budget:
                    break
                got = run_trial(self, unit, tpl, et, plan, prose_ok, len(entry.examples) + 1)
                if got is None:  # the relation does not apply to this Block: not a run
                    continue
                runs += 1
                if isinstance(got, Worked):
                    entry.examples.append(got)
                    break
                entry.attempts.append(Attempt(et.name, plan.pad, plan.edges, got))
                if plan is plans[0]:  # a type's first plan says where its kind faults
                    same_kind.setdefault(et.kind, []).append(got.replace(et.name, ""))
            if entry.examples:
                break
        bound = entry.attempts and all("'B.IOT " in a.problem for a in entry.attempts)
        if not entry.examples and tpl.matrix and self._pes != 0b1111 and entry.attempts:
            # a product whose every run faulted: the Block may want every PE bound (the predicate or the dispatch
            # can say so where the text above did not); the sources are installed in each of them
            # value-Tile sources: in each location of the model (the dispatch may want them where a matrix unit
            # reads, 0.58.1's ``tile.location == TileLocation_Matrix``), each run verified by the ASL itself
            # (and without the operands the dispatch may not want, the ``core`` plan)
            value = not any(layout for _r, layout, *_ in tpl.matrix)
            tries = [(p, where) for p in plans if p.relation != "power"
                     for where in ("", *(self.vocabulary.locations[1:] if value else ()))]
            for p, where in tries:
                got = run_trial(self, unit, tpl, cands[0][0], replace(p, pes=0b1111, location=where),
                                cands[0][1], 1)
                if isinstance(got, Worked):
                    entry.examples.append(got)
                    break
                if got is not None:
                    entry.attempts.append(Attempt(cands[0][0].name, "", True, got))
        if not entry.examples and not special and bound:
            # every run was rejected at a binding itself: the ASL wants more PEs than one (0.58.0 GMOV: all four)
            for plan in [x for x in plans if x.ior] or plans[:1]:
                got = run_trial(self, unit, tpl, cands[0][0], replace(plan, pes=0b1111), cands[0][1], 1)
                if isinstance(got, Worked):
                    entry.examples.append(got)
                    break
                if got is not None:
                    entry.attempts.append(Attempt(cands[0][0].name, plan.pad, plan.edges, got))
        if entry.examples:
            self._prose_excluded(unit, tpl, entry, cands)
            if entry.examples[0].scalars:  # the B.IOR the composition names is in the program
                entry.omitted = [x for x in entry.omitted if x not in scalar_lines(tpl)]
            else:
                entry.defaulted = list(tpl.scalar_lines)
        elif (legal is not None and legal.destination_needs and entry.attempts
              and contract.TILE_LEGALITY_FAULT.name in entry.attempts[-1].problem):  # the last plan reached the check
            # the predicate asks the destination for a state a Tile the Block newly allocates does not have
            entry.reason = Reason("destination-state", (("predicate", self._handler(ins)), ("site", legal.site),
                                                        ("needs", "; ".join(legal.destination_needs))))
        elif tpl.scalar_reason is not None:  # the left-out B.IOR may be why; the attempts say what faulted
            entry.reason = tpl.scalar_reason
        else:
            last = entry.attempts[-1].problem if entry.attempts else ""
            site = next((x for x in map(refusal, (a.problem for a in reversed(entry.attempts))) if x), None)
            entry.reason = (Reason("refused", (("function", site[1]), ("site", site[0]), ("attempts", str(runs)),
                                               ("problem", last)))
                            if site is not None else Reason("faulted", (("attempts", str(runs)), ("problem", last))))
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
                    plan = Plan(first.pad, first.edges, first.broadcast, bool(first.scalars), first.relation,
                                first.datr)
                    got = run_trial(self, unit, tpl, et, plan, False, len(entry.examples) + 1)
                    if isinstance(got, Worked):
                        entry.examples.append(got)
                    elif got is not None:
                        entry.attempts.append(Attempt(et.name, first.pad, first.edges, got))

    @staticmethod
    def _handler(ins: InstructionHeader) -> str:
        """The instruction's legality predicate: its catalog record's ``legality_handler``."""
        handlers = [str(getattr(r, "legality_handler", "") or "") for r in ins.catalog_records]
        return handlers[0] if handlers else ""

    def legality(self, ins: InstructionHeader) -> LegalityText | None:
        """What the instruction's legality predicate states in its text (None: no handler or no text)."""
        handler = self._handler(ins)
        return legality_text(self.spec, self.executor().interp, handler) if handler else None

    def _matrix(self, ins: InstructionHeader, tpl: Template) -> str:
        """Make a matrix product's Block from its operand-legality predicate (:mod:`.matrixplan`): its sources
        in their layouts, the PE mask the predicate requires, a B.FPATR of the spec's form's fields and the
        B.DATR a required line asks for; returns that B.DATR ("" for none). Any other Block is left as read."""
        ex = self.executor()
        es = ex.words.encodings if ex.words is not None else None
        spelling = planstate.spelling_of(es, tpl, ins.mnemonic) if tpl.spelling else None
        row = matrixplan.operation_row(self.spec, ins.mnemonic, list(ins.catalog_records),
                                       spelling[0] if spelling else tpl.spelling)
        if row is None:
            return ""
        handler = str(row["legality_handler"])
        if self._products.get(handler) is False:  # its text was read before: no product (most operations share
            return ""                              # a handler, TileOperandsLegal_ExecuteTileBinary among them)
        whole = tuple(t.name for t in self.vocabulary.datatypes if t.kind != "packed")
        reader = OperandChecks(self.spec, ex.interp, handler, whole)
        self._products[handler] = matrixplan.gemm_pair(reader) is not None
        pes = matrixplan.plan(reader, tpl, self.vocabulary.layouts, es)
        if pes is None:  # not a product (a composition's CUBE sources, if it names them, stand) or its reason
            return ""
        self._pes = pes
        if tpl.datr != "required":
            return ""
        facts = self.facts(ins.mnemonic)
        line = datr_line(tpl.datr_text, self.vocabulary.datatype_names, facts) if facts is not None else None
        if line is None and facts is not None and not facts.datr_fields:
            line = planstate.zero_datr(tpl.datr_text)
        if line:
            tpl.blockers = [b for b in tpl.blockers if b.key != "datr"]
        return line or ""

    def facts(self, mnemonic: str) -> OperationFacts | None:
        """The operand fields and B.IOR slots of ``mnemonic``'s tile operation, asked of the ASL once."""
        return self._shared(self._facts, mnemonic,  # type: ignore[arg-type]
                            lambda: operation_facts(self.executor().interp, mnemonic))

    def producer(self, et: DataType) -> Producer | None:
        """A Block of this spec that writes a predicate Tile (``->Predicate<…>``), on ``et`` if it admits it."""
        if self._producer is None:
            self._producer = predicate_producers(self.graph, self.vocabulary.datatype_names)[:1]
        self.executor().interp.trail.note("part:#producers")  # which Block the tree's records make the producer
        for mnemonic, tpl in self._producer:
            admitted = self.admitted(mnemonic)
            names = [et.name] + [n for n in PREFERRED if admitted is None or n in admitted]
            for name in names:
                other = self.vocabulary.datatype(name)
                if other is not None and (admitted is None or name in admitted):
                    return Producer(mnemonic, tpl, other)
        return None

__all__ = ["GENERATOR", "WORKED", "Worked", "WorkedEntry", "WorkedSuite", "worked_examples"]
