"""A matrix Block's sources, read from what the tree declares rather than from how one release's prose names them.

An operation is a matrix product when its operand-legality predicate (``TileOperandsLegal_<MN>``, the
catalog row's ``legality_handler``) requires one source's valid columns to equal another's valid rows: those
two are A (M x K) and B (K x N), whatever the parameters are called (``left``/``right``, ``matrix``/``vector``,
``left_vector``/``right_matrix``, ``lhs``/``rhs``). Every other source's extents, DataType and layout are the
predicate's own checks, read by :class:`~specgen.worked.operandchecks.OperandChecks` (an accumulator
``valid_rows == left.valid_rows`` is M x N, a Bias ``valid_rows == 1`` is 1 x N, an MX scale is M x
⌈K/32⌉ in E8M0, a vector operand pins M or N to 1). A and B take the first layout the predicate compares
them to (0.58.3: ``CUBE_M16``, ``CUBE_N8``), an operand whose layout must equal another's takes that one,
and an operand the text names no layout for is row-major; the PE mask of the bindings is the one the text
requires, if any. The B.FPATR the Block needs is written with as many zero fields as the spec's own B.FPATR
form has (its catalog template), not as the composition's prose counts them.
"""

from __future__ import annotations

import itertools

import re
from collections.abc import Sequence

from ..encoding.model import EncodingSet
from ..loader.tree import Spec
from ..models.instruction import CatalogRecord
from .composition import Binding, Reason, Template
from .operandchecks import TYPED, OperandChecks

_END = r"(?=\s*\)*\s*(?:&&|\|\||;|\bthen\b|$))"  # the compared extent is the whole other side
_K_RELATION = (re.compile(r"_Tiles\[\[(\w+)\]\]\.valid_columns\s*\)*\s*==\s*\(*\s*_Tiles\[\[(\w+)\]\]\.valid_rows" + _END,
                          re.M),
               re.compile(r"_Tiles\[\[(\w+)\]\]\.valid_rows\s*\)*\s*==\s*\(*\s*_Tiles\[\[(\w+)\]\]\.valid_columns" + _END,
                          re.M))
ROW_MAJOR = ""  # a source tuple's layout for a row-major value Tile (what planstate.matrix_inputs makes)
POWER_SIZES = {"M": 2, "N": 4, "K": 8}  # a small GEMM of powers of two, every dimension distinct
VALUE_LAYOUT = "RowMajor"  # the TileLayout member such a value Tile has: a text admitting it admits ROW_MAJOR


def gemm_pair(reader: OperandChecks) -> tuple[str, str] | None:
    """(A, B): the sources whose columns and rows the predicate requires equal (the shared K), else None."""
    sources = [p for p in reader.params if not p.lower().startswith("destination")]
    for text in reader.texts:
        for k, pattern in enumerate(_K_RELATION):
            for m in pattern.finditer(text):
                a, b = (m.group(1), m.group(2)) if k == 0 else (m.group(2), m.group(1))
                if a != b and a in sources and b in sources:
                    return a, b
    return None


def _extent(reader: OperandChecks, param: str, attribute: str) -> str:
    return reader.extent_of(param, attribute)


CORE = ("A", "B", "C", "Bias")  # the product's own operands; any other (an MX scale) the dispatch may not want


def core(sources: list[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
    """The sources without the operands a Block may leave out (MX scales: 0.58.3 binds them only for the types
    that need one, ``BundleMatrixDynamicBindingsComplete``), A and B in the Block's own type."""
    return [(r.split(TYPED)[0], lay, rows, cols) for r, lay, rows, cols in sources if r.split(TYPED)[0] in CORE]


def matrix_sources(reader: OperandChecks, tpl: Template, layouts: tuple[str, ...]
                   ) -> list[tuple[str, str, str, str]] | Reason | None:
    """The ordered sources of a matrix operation as ``(role, layout, rows, columns)`` (``planstate`` reads them),
    a :class:`Reason` when a source's extents are not stated, or None when the predicate states no product.

    ``tpl.fixed`` gains the dimensions a vector operand pins (``valid_rows == 1``); ``layouts`` are the tree's
    Tile layouts (members), a layout the text names must be one of them."""
    pair = gemm_pair(reader)
    if pair is None:
        return None
    a, b = pair
    reader.gemm = {a: ("M", "K"), b: ("K", "N")}
    out: list[tuple[str, str, str, str]] = []
    for p in reader.params:
        if p.lower().startswith("destination"):
            continue
        layout = _layout(reader, p, layouts)
        others = tuple(dict.fromkeys(ROW_MAJOR if x == VALUE_LAYOUT else x for x in reader.layouts_of(p)
                                     if x in layouts and x != layout and (x != VALUE_LAYOUT or layout)))
        if p in (a, b):
            role = "A" if p == a else "B"
            if others:
                tpl.layout_choices[role] = others
            rows, cols = reader.gemm[p]
            for dim, attr in ((rows, "valid_rows"), (cols, "valid_columns")):
                got = _extent(reader, p, attr)
                if got.isdigit() and dim in "MN":  # a vector operand: TGEMV's M = 1
                    tpl.fixed.setdefault(dim, int(got))
            # the Block's own type, unless the predicate types the operand otherwise (0.58.0's MX pair: E4M3)
            typed = "" if reader.block_typed(p) else reader.pair_type(p)
            out.append((role + (f"{TYPED}{typed}" if typed else ""), layout, rows, cols))
            continue
        rows, cols = _extent(reader, p, "valid_rows"), _extent(reader, p, "valid_columns")
        if rows.isdigit() and cols.isdigit():  # a scalar or a vector: shown as a row vector (1 x N) where allowed
            cols = next((x for x in reader.extents_of(p, "valid_columns") if not x.isdigit()), cols)
        if not (rows and cols):
            return Reason("matrix-operand", (("function", reader.function), ("parameter", p)))
        typed = reader.fixed_type(p)
        # a source shaped M x N is the accumulator, 1 x N the Bias: both hold the accumulator's type unless fixed
        role = "C" if (rows, cols) == ("M", "N") else "Bias" if rows == "1" else p
        out.append((role + (f"{TYPED}{typed}" if typed else ""), layout, rows, cols))
    return out


def _layout(reader: OperandChecks, param: str, layouts: tuple[str, ...], seen: frozenset[str] = frozenset()) -> str:
    """The first layout the text requires of ``param``, else the one of the operand it must equal, else
    row-major (:data:`ROW_MAJOR`)."""
    named = [x for x in reader.layouts_of(param) if x in layouts]  # what the text admits, never what it refuses
    if named:
        return ROW_MAJOR if named[0] == VALUE_LAYOUT else named[0]
    peer = reader.layout_peer(param)
    if peer and peer not in seen:
        return _layout(reader, peer, layouts, seen | {param})
    return ROW_MAJOR


def plan(reader: OperandChecks, tpl: Template, layouts: tuple[str, ...], es: EncodingSet | None) -> int | None:
    """Make ``tpl`` the matrix Block the predicate ``reader`` reads states; returns the PE mask its bindings carry,
    or None when the predicate states no product or one of its sources cannot be derived (``tpl.blockers`` then
    starts with the reason). A layout the composition names stands where the text names none; a B.FPATR the
    composition requires has every field of the spec's own form; a type the predicate fixes for the Block
    itself (0.58.0 MX: FP32) is the only candidate."""
    sources = matrix_sources(reader, tpl, layouts)
    if sources is None:
        return None
    if isinstance(sources, Reason):
        tpl.blockers.insert(0, sources)
        return None
    named = dict((r, lay) for r, lay, *_ in tpl.matrix)
    sources = [(r, lay or named.get(r.split(TYPED)[0], ""), rows, cols) for r, lay, rows, cols in sources]
    apply(tpl, sources)
    if tpl.fpatr:
        tpl.fpatr = fpatr_fields(es, tpl.fpatr)
    tpl.fpatr_form = fpatr_fields(es, 0)
    if any(TYPED in r for r, *_ in sources if r.startswith(("A", "B"))) and reader.block_type():
        tpl.listed_types = [reader.block_type()]
    elif not tpl.listed_types:  # the types the predicate's own functions of the Block's type admit, in order
        tpl.listed_types = reader.block_types()
    if reader.powers_of_two():  # the predicate requires power-of-two extents: M, N and K are (a vector's 1 is)
        for name, size in POWER_SIZES.items():
            tpl.fixed.setdefault(name, size)
    masks = reader.pe_masks()
    return masks[0] if masks else 0b0001


MAX_LAYOUT_VARIANTS = 8  # combinations tried beyond the first layouts named (each a run on every DataType tried)


def layout_variants(tpl: Template) -> list[tuple[tuple[str, str], ...]]:
    """The other combinations of the layouts the predicate admits for the sources (``tpl.layout_choices``),
    each source's first-named layout first: a layout the predicate chooses by M, or one the pair check wants of
    B alone (``right.layout == CUBE_N8``), is found by running the Block, not by reading more text."""
    roles = [r.split(TYPED)[0] for r, *_ in tpl.matrix]
    first = {r.split(TYPED)[0]: lay for r, lay, *_ in tpl.matrix}
    options = [(role, (first.get(role, ""), *tpl.layout_choices[role])) for role in roles if role in tpl.layout_choices]
    combos = itertools.product(*(tuple((role, lay) for lay in lays) for role, lays in options))
    return [c for c in combos if any(first.get(role) != lay for role, lay in c)][:MAX_LAYOUT_VARIANTS]


def apply(tpl: Template, sources: list[tuple[str, str, str, str]]) -> None:
    """Make ``tpl`` the matrix Block of ``sources``: one binding carries them all and the destination (the
    program writes two sources a B.IOT word); the composition's own B.IOT lines describe the same Block."""
    tpl.matrix = sources
    tpl.bindings = [Binding(len(sources), True, True, False, tuple(r.split(TYPED)[0] for r, *_ in sources))]
    tpl.blockers = [x for x in tpl.blockers if x.key not in ("no-iot", "matrix-operand")]


def fpatr_fields(es: EncodingSet | None, fallback: int) -> int:
    """How many fields the spec's B.FPATR form's assembly template writes (0.58.3: 9; a release with 7 has 7);
    ``fallback`` (the composition's count) when the spec has no such form."""
    if es is None:
        return fallback
    for e in es.by_mnemonic("B.FPATR"):
        if e.assembly:
            operands = e.assembly.split(None, 1)[1] if " " in e.assembly.strip() else ""
            return len([x for x in operands.split(",") if x.strip()])
    return fallback


def operation_row(spec: Spec, mnemonic: str, records: Sequence[CatalogRecord], spelling: str) -> dict | None:
    """The tile-operations catalog row of the Block: the instruction's own (a tile instruction's catalog record
    is that row), else the row whose ``command_mnemonic`` is the Block's BSTART spelling (a block-surface
    record such as ``BSTART.TMATMUL``)."""
    for r in records:
        handler = getattr(r, "legality_handler", None)
        if handler:
            return {"name": getattr(r, "name", mnemonic), "legality_handler": handler}
    art = spec.artifacts.get(f"{spec.config.json_root}/catalog/tile-operations.json")
    data = art.data if art is not None else None
    ops = data.get("operations") if isinstance(data, dict) else None
    for op in ops or []:
        if isinstance(op, dict) and op.get("command_mnemonic") == spelling and op.get("legality_handler"):
            return op
    return None


__all__ = ["CORE", "ROW_MAJOR", "apply", "core", "fpatr_fields", "gemm_pair", "matrix_sources", "operation_row",
           "plan"]
