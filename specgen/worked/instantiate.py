"""One instantiation of a block composition: the program text and the Tiles and registers it reads.

:mod:`specgen.worked.generator` decides what to try (DataType, PadValue, edges, B.IOR,
shape relation); this module writes it down: the commands, in the order the
compositions list them, and seeded inputs shaped as the plan's relation says
(:mod:`specgen.worked.operands`). A source named a predicate Tile is the
destination of a producer Block (an instruction of the same spec whose composition
writes ``->Predicate<…>``) run first in the same program, so the predicate is the
spec's own; a source named an index operand holds in-range, per-column distinct
row indices of a DataType the ASL admits for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from ..encoding.asm_names import gpr_name
from ..executor.executor import TileInput
from ..graph import SpecGraph
from ..vocabulary import DataType
from .composition import Template, composition_lines, is_block_program, read_template
from .operands import (NO_DIM, WIDE, OperationFacts, destination_rows, gpr_value, index_words, is_index_operand,
                       is_predicate_operand, source_shapes)
from .seeds import source_words

VALID_ROWS, VALID_COLUMNS, COLUMNS, SIZE_CODE = 2, 3, 4, 1
SCALAR_GPR = 5  # the first absolute GPR a generated B.IOR reads (any of the catalog's legal selectors but zero)


@dataclass(frozen=True, slots=True)
class Plan:
    """What one run tries: PadValue, edge values, broadcast shape, a B.IOR, and the sources' shape relation."""

    pad: str
    edges: bool
    broadcast: str = ""  # "row" | "column" for the composition's broadcast operand
    ior: bool = False
    relation: str = "same"
    datr: str = ""  # a whole B.DATR command the composition requires (fields other than the PadValue)
    size: int = SIZE_CODE  # the destination's SizeCode (the record's example sketch's, when it names a larger one)
    columns: int = 0  # the ``wide`` relation: the destination's valid and physical columns (B.DIM)
    pes: int = 0b0001  # the PE mask of every binding (all four when the ASL rejects a one-PE binding: GMOV)
    location: str = ""  # a matrix Block's value-Tile sources: the TileLocation they are in ("": the model's first)
    layouts: tuple[tuple[str, str], ...] = ()  # a matrix Block's sources: (role, layout) in place of the first admitted
    fpatr: int = 0  # a matrix Block whose composition lists no B.FPATR: one of this many fields, all zero


@dataclass(slots=True)
class Producer:
    """A Block that writes a predicate Tile: its template and the DataType it runs on."""

    mnemonic: str
    template: Template
    data_type: DataType


@dataclass(slots=True)
class Instance:
    """A concrete program and everything it reads."""

    text: str
    tiles: list[TileInput]
    gprs: dict[int, int]
    relation: str
    producer: str = ""  # the mnemonic of the Block that made the predicate source
    gpr_types: dict[int, DataType] = field(default_factory=dict)  # the type each GPR's value is shown in


def _names(tpl: Template) -> list[str]:
    return [b.names[k] if k < len(b.names) else "" for b in tpl.bindings
            for k in range(b.sources if b.sources is not None else 1)]


def needs_predicate(tpl: Template) -> bool:
    """Whether a source of the composition is a predicate Tile."""
    return any(is_predicate_operand(n) for n in _names(tpl))


def block_lines(tpl: Template, et: DataType, pad: str, regs: list[str], relation: str,
                ior_regs: list[int], datr: str = "", size: int = SIZE_CODE, bstart: str = "",
                store: bool = False, wide: int = 0, pes: int = 0b0001) -> list[str]:
    """The commands of one Block binding ``regs`` as its sources, in the composition's binding order.

    ``bstart``: the BSTART command as the spec spells it (``BSTART.TMATMUL FP16``); ``store``: the Block writes
    memory, not a Tile (a scatter), so its last binding names no destination.
    """
    lines = [bstart or f"{tpl.spelling} {tpl.operation}, {et.name}"]
    if datr:
        lines.append(datr)
    elif pad:
        lines.append(f"B.DATR PadValue={pad}")
    if relation not in NO_DIM:  # else no B.DIM: the destination takes its first source's shape
        value = {0: VALID_COLUMNS, 1: destination_rows(relation, VALID_ROWS), 2: COLUMNS}
        if relation == "window":
            value = {0: 1, 1: 1, 2: COLUMNS}
        bounds = set(tpl.loop_bounds)
        if relation == WIDE and wide:  # valid and physical columns both set: the source's 4 cannot hold them
            value = {0: wide, 1: VALID_ROWS, 2: wide}
            bounds |= {0, 2}
        lines += [f"B.DIM LB{lb}={value[lb]}" for lb in sorted(bounds)]
    if ior_regs:  # before the Tile bindings: 0.58.0 takes no binding after the ``<last>`` one (Fault_BundleControl)
        lines.append("B.IOR " + ", ".join(gpr_name(r) for r in ior_regs))
    used = 0
    for k, b in enumerate(tpl.bindings):
        n = b.sources if b.sources is not None else 1
        parts = regs[used:used + n] + [f"mask=0b{pes:04b}"]
        used += n
        final = k == len(tpl.bindings) - 1
        if b.last or final:
            parts.append("<last>")
        if b.destination or (final and not store):
            parts.append(f"->T<{size}>")
        lines.append("B.IOT " + ", ".join(parts))
    lines.append("BSTOP")
    return lines


def _tile(reg: str, et: DataType, vr: int, vc: int, cols: int, words: tuple[tuple[int, ...], ...]) -> TileInput:
    capacity = 128 * 2 ** (SIZE_CODE - 1)
    rows = max(capacity * 8 // (cols * et.bits), 1)
    while rows < vr:
        rows *= 2
    return TileInput(reg, et.name, rows, cols, vr, vc, words)


def instantiate(tpl: Template, et: DataType, plan: Plan, rng: random.Random, facts: OperationFacts | None,
                index_type: DataType | None, producer: Producer | None,
                gpr_types: list[DataType | None] | None = None,
                source_types: list[DataType | None] | None = None, bstart: str = "") -> Instance | None:
    """The program and inputs of ``plan``; None when the plan's relation does not apply to this Block."""
    names = _names(tpl)
    count = len(names)
    shapes = source_shapes(plan.relation, count, VALID_ROWS, VALID_COLUMNS, COLUMNS)
    if shapes is None:
        return None
    regs: list[str] = []
    tiles: list[TileInput] = []
    pred = [is_predicate_operand(n) for n in names]
    if any(pred) and producer is None:
        return None
    next_reg = 1
    # the first value source (not a predicate or index operand) holds the edge cases
    values = [k for k, n in enumerate(names) if not pred[k] and not is_index_operand(n)]
    for k, name in enumerate(names):
        sh = shapes[k]
        vr, vc, cols = sh.valid_rows, sh.valid_columns, sh.columns
        if tpl.bindings and plan.broadcast and _broadcast(tpl, k):
            vr, vc, cols = (1, vc, cols) if plan.broadcast == "row" else (vr, 1, 1)
        if pred[k]:
            regs.append("T0")  # the producer Block's destination: the lowest free register of hand T
            continue
        reg = f"T{next_reg}"
        next_reg += 1
        regs.append(reg)
        if is_index_operand(name):  # the ASL's index DataType, else the Block's (a spec that states none)
            tiles.append(_tile(reg, index_type or et, vr, vc, cols, index_words(vr, vc)))
        elif source_types and k < len(source_types) and source_types[k] is not None and source_types[k].name != et.name:
            # the catalog names this operand's own DataType (THISTOGRAM's U8 filter): a control operand, not
            # data; it holds small values from 0 (row indices, as an index operand), so a filter or mask selects
            st = source_types[k]
            assert st is not None
            tiles.append(_tile(reg, st, vr, vc, cols, index_words(vr, vc)))
        else:
            slot = 0 if values and k == values[0] else max(k, 1)
            order = "" if plan.relation != "sorted-rows" else "descending" if _descending(plan, facts) else "ascending"
            tiles.append(_tile(reg, et, vr, vc, cols,
                               source_words(et, vr, vc, slot, rng, edges=plan.edges, order=order)))
    lines: list[str] = []
    made = ""
    if any(pred) and producer is not None:
        p_regs = [f"T{next_reg + i}" for i in range(len(_names(producer.template)))]
        p_et = producer.data_type
        for i, reg in enumerate(p_regs):  # tame values; the right source repeats some left ones, so both outcomes show
            words = source_words(p_et, VALID_ROWS, VALID_COLUMNS, 1, rng, edges=False)
            if i and tiles:
                left = tiles[-1].words
                words = tuple(tuple(left[r][c] if (r + c) % 2 == 0 else w for c, w in enumerate(row))
                              for r, row in enumerate(words))
            tiles.append(_tile(reg, p_et, VALID_ROWS, VALID_COLUMNS, COLUMNS, words))
        lines += block_lines(producer.template, p_et, "", p_regs, "same", [])
        made = producer.mnemonic
    gprs: dict[int, int] = {}
    types: dict[int, DataType] = {}
    if plan.ior:
        fields = list(facts.gpr_fields) if facts is not None and facts.gpr_fields else ["scalar0"]
        for i, f in enumerate(fields):
            # a scalar of the type the composition names for it (``MultiplierFP32``), else of the Block's
            st = gpr_types[i] if gpr_types and i < len(gpr_types) and gpr_types[i] is not None else et
            scalar = source_words(st, 1, 1, count, rng, edges=False)[0][0]
            gprs[SCALAR_GPR + i] = gpr_value(f, abs_word(scalar, st) if st is not et else scalar)
            if not f.startswith("flag") and f != "diagonal":  # a flag or diagonal is shown as a plain integer
                types[SCALAR_GPR + i] = st
    size = plan.size
    if plan.relation == WIDE:  # the smallest SizeCode whose bytes hold the widened destination's valid rows
        while 128 * 2 ** (size - 1) < VALID_ROWS * plan.columns * et.bits // 8:
            size += 1
    lines += block_lines(tpl, et, plan.pad, regs, plan.relation, sorted(gprs), plan.datr, size, bstart,
                         wide=plan.columns, pes=plan.pes)
    if plan.pes != 0b0001:  # the sources live in every PE the bindings name
        tiles = [replace(t, mask=plan.pes) for t in tiles]
    return Instance("\n".join(lines), tiles, gprs, plan.relation, made, types)


def predicate_producers(graph: SpecGraph, datatype_names: tuple[str, ...]) -> list[tuple[str, Template]]:
    """The instructions whose one-binding Block writes a predicate Tile from Tile sources, without B.IOR."""
    found: list[tuple[str, Template]] = []
    for unit in graph.iter_instruction_units():
        ins = unit.instruction
        lines = composition_lines(ins) if ins is not None else []
        if not lines or not is_block_program(lines):
            continue
        tpl = read_template(lines, datatype_names)
        if (tpl.fillable and not tpl.scalar_lines and len(tpl.bindings) == 1 and tpl.bindings[0].predicate
                and (tpl.bindings[0].sources or 0) >= 1):
            found.append((ins.mnemonic, tpl))
    return found


def _broadcast(tpl: Template, k: int) -> bool:
    flags = [b.broadcast(i) for b in tpl.bindings for i in range(b.sources if b.sources is not None else 1)]
    return k < len(flags) and flags[k]


def _descending(plan: Plan, facts: OperationFacts | None) -> bool:
    """Whether the Block's flag operand is set (a generated B.IOR sets every ``flag…`` field to 1)."""
    return plan.ior and facts is not None and any(f.startswith("flag") for f in facts.gpr_fields)


def abs_word(word: int, et: DataType) -> int:
    """``word`` with its sign cleared (a scale or multiplier named by type is given positive)."""
    if et.kind == "float":
        return word & ~(1 << (et.bits - 1))
    return word
