"""One trial of a worked example: a plan made into a program, run through the spec's executor, and kept as
the example a page shows or as the sentence that says what went wrong.

The generator (:mod:`specgen.worked.generator`) decides which DataTypes and plans an instruction tries, in
which order and within which budget of runs; a trial knows nothing of that order. It is its own module so
that the two read separately: what one plan does here, the search over plans there. A trial asks the
generator only for what every trial of an instruction shares (:class:`Context`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Protocol

from ..diagnostics import Sentence
from ..encoding.asm_names import gpr_name
from ..examples.outcome import result_from_run
from ..executor.datatypes import show_value, show_word
from ..executor.executor import Executor, RunError
from ..models.located import AslUnit
from ..program.reader import ProgramError, parse_program
from ..vocabulary import DataType, Vocabulary
from . import matrixplan, planstate
from .composition import Template
from .entry import Worked
from .instantiate import (COLUMNS, SCALAR_GPR, SIZE_CODE, VALID_COLUMNS, VALID_ROWS, Instance, Plan, Producer,
                          block_lines, instantiate, needs_predicate)
from .operands import OperationFacts, index_datatypes, is_index_operand, role_type, scalar_types, source_roles
from .seeds import seed_of

GENERATOR = "worked-9"  # the generator's revision: it salts every seed, so a new one gives new example values
PREFERRED = ("S32", "FP32", "FP16", "S16", "U32", "U16", "BF16", "S8", "U8", "S64", "U64", "FP64")
"""The order DataTypes are tried in when neither the sketch nor the composition names one: common widths first."""


class Context(Protocol):
    """What the trials of one instruction share, kept by the generator."""

    vocabulary: Vocabulary
    spelling: tuple[str, str] | None  # the BSTART command and operation the encodings spell for it
    roles: list[tuple[str, str]]  # its catalog operands: field, role
    prose: str  # its summary and memory effects (what its indices mean)

    def executor(self) -> Executor: ...

    def facts(self, mnemonic: str) -> OperationFacts | None: ...

    def producer(self, et: DataType) -> Producer | None: ...


def scalar_lines(tpl: Template) -> list[str]:
    """The composition's B.IOR lines, required or optional (a generated B.IOR binds one seeded GPR)."""
    return tpl.scalar_lines + [x for x in tpl.omitted if x.strip().upper().startswith("B.IOR")]


def has_broadcast(tpl: Template) -> bool:
    """Whether a binding broadcasts a source: then a row vector and a column vector are both tried."""
    return any(b.broadcast(k) for b in tpl.bindings for k in range(b.sources or 0))


def run_trial(ctx: Context, unit: AslUnit, tpl: Template, et: DataType, plan: Plan, prose_ok: bool,
              n: int) -> Worked | str | None:
    """Run one instantiation: the example, what went wrong (English), or None when the plan does not apply."""
    ins = unit.instruction
    assert ins is not None
    seed = seed_of(ins.mnemonic, et.name, GENERATOR)
    rng = random.Random(seed)
    bstart = planstate.bstart_line(ctx.spelling or (tpl.spelling, tpl.operation), et)
    mplan = None if tpl.matrix else planstate.memory_plan(tpl, ctx.roles, ctx.prose)
    if tpl.matrix or mplan is not None:
        inst = _planned(ctx, tpl, et, plan, rng, bstart, mplan)
    else:
        facts = ctx.facts(ins.mnemonic)
        index_type = None
        if any(is_index_operand(x) for b in tpl.bindings for x in b.names):
            order = [ctx.vocabulary.datatype(x) for x in (et.name, *PREFERRED)]
            names = index_datatypes(ctx.executor().interp, ins.mnemonic, et, [x for x in order if x is not None])
            index_type = ctx.vocabulary.datatype(names[0]) if names else None
        producer = ctx.producer(et) if needs_predicate(tpl) else None
        kinds = [role_type(x, ctx.vocabulary) for x in source_roles(ins)]
        inst = instantiate(tpl, et, plan, rng, facts, index_type, producer,
                           scalar_types(scalar_lines(tpl), ctx.vocabulary), kinds, bstart)
        if inst is None:
            return None if plan.relation != "same" else Sentence(
                "worked.problem.no_predicate", "no Block that writes a predicate Tile to bind as the predicate")
    try:
        program = parse_program(inst.text, ctx.vocabulary, path=unit.path)
    except ProgramError as e:
        return Sentence("worked.problem.parse", f"the generated program does not parse: line {e.line}: {e.message}",
                        line=e.line, detail=e.message)
    rows = 128 * 2 ** (SIZE_CODE - 1) * 8 // (COLUMNS * et.bits)
    try:
        run = ctx.executor().run(program, inst.tiles, inst.gprs, mplan.cells if mplan is not None else None)
    except RunError as e:
        return Sentence("worked.problem.cannot_run", f"cannot run: {e.message}", detail=e.message)
    if run.fault is not None:
        fault = run.fault.describe()
        if plan.relation == "same":
            return fault
        return Sentence("worked.problem.fault_sources", f"{fault} (sources {plan.relation})", fault=fault,
                        relation=Sentence(f"worked.relation.{plan.relation}", plan.relation))
    if not run.outputs and not (mplan is not None and mplan.store and any(m.after != m.before
                                                                        for m in run.memory)):
        if mplan is not None:
            return Sentence("worked.problem.no_output_memory", "the run wrote no destination Tile and no memory")
        return Sentence("worked.problem.no_output", "the run wrote no destination Tile")
    ident = f"{ins.id}#worked-{n}"
    res = result_from_run("worked", ins.mnemonic, ident, "", program, run, unit.path,
                          unit.header_span.line if unit.header_span else 1)
    res.verified = True
    # the shape the page states is the destination's (the last Block's output; TCI's is one row)
    # (its first destination: a second one, TSORT's indices, is shown but does not set the shape)
    last = [x.destination for x in res.lines if x.destination]
    out = next((t for t in res.outputs if last and t.register == last[-1]),
               res.outputs[-1] if res.outputs else None)
    shape = (out.rows, out.columns, out.valid_rows, out.valid_columns) if out is not None else \
        (rows, COLUMNS, VALID_ROWS, VALID_COLUMNS)
    dims = planstate.dimensions(tpl, plan.relation) if tpl.matrix else {}
    return Worked(res, et.name, plan.pad, plan.edges, seed, *shape, prose_ok,
                  plan.broadcast if has_broadcast(tpl) else "",
                  tuple((gpr_name(k), show_word(v) if mplan is not None else  # an address
                         f"{show_value(v, inst.gpr_types[k]) if k in inst.gpr_types else v} ({show_word(v)})")
                        for k, v in inst.gprs.items()),
                  plan.relation, inst.producer, plan.datr,
                  memory=tuple((f"0x{m.address:X}", "" if m.before is None else show_value(m.before, et),
                                "" if m.after is None else show_value(m.after, et)) for m in run.memory),
                  dims=tuple((n, dims[n]) for _lb, n in sorted(tpl.dims.items()) if n in dims))

def _planned(ctx: Context, tpl: Template, et: DataType, plan: Plan, rng: random.Random, bstart: str,
             mplan: planstate.MemoryPlan | None) -> Instance:
    """A matrix or memory Block's program and inputs: CUBE Tiles, or index Tiles, a base GPR and memory."""
    if tpl.matrix:
        interp = ctx.executor().interp
        if plan.relation == "core":
            tpl = replace(tpl, matrix=matrixplan.core(tpl.matrix))
        if plan.fpatr and not tpl.fpatr:  # the model may require a B.FPATR the composition does not list
            tpl = replace(tpl, fpatr=plan.fpatr)
        if plan.layouts:  # another layout the predicate admits (one chosen by M may not hold this M)
            chosen = dict(plan.layouts)
            tpl = replace(tpl, matrix=[(r, chosen.get(r.split(matrixplan.TYPED)[0], lay), rows, cols)
                                       for r, lay, rows, cols in tpl.matrix])
        text, _ = planstate.matrix_program(tpl, ctx.spelling or (tpl.spelling, tpl.operation), et,
                                           planstate.destination_size_code(interp, tpl), plan.datr,
                                           plan.relation, plan.pes)
        acc = planstate.accumulator_type(interp, ctx.vocabulary, et)
        return Instance(text, planstate.matrix_inputs(tpl, et, rng, plan.edges, acc, plan.relation,
                                                      ctx.vocabulary, plan.pes, plan.location), {}, plan.relation)
    assert mplan is not None
    regs = [f"T{k + 1}" for k in range(sum(b.sources if b.sources is not None else 1 for b in tpl.bindings))]
    producer = ctx.producer(et) if mplan.mask_sources and plan.relation == "predicate" else None
    if producer is not None:  # the lane mask is a predicate Tile: the spec's own Block makes it, as T0
        regs = [("T0" if k in mplan.mask_sources else r) for k, r in enumerate(regs)]
    gprs = {SCALAR_GPR: planstate.BASE_ADDRESS} if plan.ior else {}
    if plan.ior and mplan.stride:  # the row stride in elements: one physical row of the example's Tiles
        gprs[SCALAR_GPR + 1] = COLUMNS
    lines = block_lines(tpl, et, plan.pad, regs, "same", sorted(gprs), bstart=bstart, store=mplan.store)
    tiles = planstate.memory_inputs(mplan, ctx.vocabulary, et, regs, VALID_ROWS, VALID_COLUMNS, rng,
                                    plan.edges, planstate.INDEX_TYPES[0])
    made = ""
    if producer is not None:
        tiles = [t for t in tiles if t.register != "T0"]
        pre, ptiles = planstate.predicate_block(producer, len(regs) + 1, VALID_ROWS, VALID_COLUMNS, rng)
        lines, tiles, made = pre + lines, tiles + ptiles, producer.mnemonic
    return Instance("\n".join(lines), tiles, gprs, plan.relation, made)


__all__ = ["GENERATOR", "PREFERRED", "Context", "has_broadcast", "run_trial", "scalar_lines"]
