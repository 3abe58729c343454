"""Worked-example plans for Blocks that read more than vector Tiles: matrix (CUBE) operands and global memory.

A matrix Block (``BSTART.TMATMUL``: the composition names its sources with CUBE
layouts) gets its sources as CUBE Tiles of the GEMM shapes (A M x K, B K x N,
an accumulator M x N, a ``1xN`` vector), an all-zero B.FPATR (the records'
"exactly one all-zero B.FPATR selects no conversion, activation, or
reduction") and one binding that carries every source and the destination.

A memory Block (a B.IOR line that names a ``Base…`` register: MGATHER,
MSCATTER) gets the base address in the bound GPR, index Tiles of distinct
byte displacements, and global memory set the way the spec's AVS tests set it
(``Store``): the gathered elements before the run, the scattered ones read
after it. Values are seeded like every worked example's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import speccontract as contract
from ..asl import Interpreter
from ..encoding.asm import candidates
from ..encoding.model import EncodingSet
from ..executor.executor import TileInput
from ..executor.inputstate import MemoryCell
from ..vocabulary import DataType, Vocabulary
from .composition import Template
from . import matrixplan
from .instantiate import Producer, block_lines
from .operandchecks import extent, source_role
from .seeds import source_words

SIZES = {"M": 2, "N": 3, "K": 4}  # a small legal GEMM: every dimension distinct, so a transposition would show
# the retry when the first GEMM faults: powers of two, still distinct (0.58.0's ``TileMatrixShapeLegal`` wants
# every logical dimension a nonzero power of two)
POWER_SIZES = matrixplan.POWER_SIZES
BASE_ADDRESS = 0x100  # the gather/scatter base: the AVS tests' (block-exec-bstart-mgather-gather-001), a mapped page
INDEX_TYPES = ("U32", "S32", "U16")  # byte displacements: the AVS tests' U32 first


def spelling_of(es: EncodingSet | None, tpl: Template, mnemonic: str = "") -> tuple[str, str] | None:
    """The BSTART command and operation the program writes, or None when the spec has no form for them.

    A spelling that names its operation (``BSTART.TMATMUL``) is written as is; an older generation's engine
    spelling (``BSTART.CUBE TMATMUL``) becomes the operation's own form's spelling in the spec's encodings,
    the operation being the one the line names after a comma, else the instruction's own (``mnemonic``:
    ``BSTART.CUBE TGEMVMX.BIAS AType`` is TGEMV_MX_BIAS's ``BSTART.TGEMVMX.BIAS`` form).
    """
    if es is None:
        return (tpl.spelling, tpl.operation)
    fixed = _fixed_operands(es, tpl, mnemonic)
    if fixed is not None:
        return fixed
    fields = {"operation": tpl.operation} if tpl.operation else {}
    if candidates(es, tpl.spelling, fields):
        return (tpl.spelling, tpl.operation)
    for name in dict.fromkeys(x for x in (tpl.operation, mnemonic) if x):
        for e in es.by_mnemonic(name):
            head = e.assembly.split(None, 1)[0] if e.assembly else ""
            if e.kind == "tile-operation" and head.startswith("BSTART.") and not _names_operation(e.assembly):
                return (head, "")
    return None


def _fixed_operands(es: EncodingSet, tpl: Template, mnemonic: str) -> tuple[str, str] | None:
    """A generation whose BSTART names its operation by number (``BSTART.TEPL Mode, Function, DataType``: the
    development trees before 0.58.0): the operation's own form fixes every operand but the DataType, which the
    program writes as the values that form fixes (``BSTART.TEPL 0, 27, FP32``); None for any other form."""
    for name in dict.fromkeys(x for x in (tpl.operation, mnemonic) if x):
        for e in es.by_mnemonic(name):
            words = e.assembly.replace(",", " ").split() if e.assembly else []
            if e.kind != "tile-operation" or len(words) < 3 or words[0] != tpl.spelling or words[-1] != "DataType":
                continue
            by_name = {f.name: f.fixed_value for f in e.fields}
            values = [by_name.get(w) for w in words[1:-1]]
            if all(v is not None for v in values):
                return (words[0], ", ".join(str(v) for v in values))
    return None


def _names_operation(assembly: str) -> bool:
    words = assembly.replace(",", " ").split()
    return len(words) > 2


def bstart_line(spelling: tuple[str, str], et: DataType) -> str:
    command, operation = spelling
    return f"{command} {operation}, {et.name}" if operation else f"{command} {et.name}"


def dimensions(tpl: Template, relation: str = "same") -> dict[str, int]:
    """M, N, K of the example: the small GEMM, or its power-of-two retry (``relation`` ``"power"``)."""
    sizes = POWER_SIZES if relation == "power" else SIZES
    return {name: tpl.fixed.get(name, size) for name, size in sizes.items()}


def zero_datr(text: str) -> str:
    """The B.DATR a required composition line asks for when the ASL lets the operation set none of its fields
    (``TileOperationDATRFieldApplicable`` false for each: 0.58.0's ``B.DATR BType RMode Sat``): every field
    zero, its default (BType the Block's type, the default rounding, no saturation)."""
    return "B.DATR {0, 0, 0, 0, 0, 0, 0}" if text.strip().upper().startswith("B.DATR") else ""


def destination_size_code(it: Interpreter, tpl: Template) -> int:
    """The smallest SizeCode (128 bytes << (code - 1)) holding an M x N destination of a 32-bit type (the widest
    ordinary CUBE output: FP32, S32 or U32) in the first source's CUBE layout, as the spec's
    ``TileCubeRequiredBytes`` sizes it; 1 when the spec cannot say."""
    dims = dimensions(tpl)
    layout = next((lay for _r, lay, *_ in tpl.matrix if lay), "")
    try:
        need = int(it.call(contract.CUBE_BYTES.name, f"TileLayout_{layout}", dims["M"], dims["N"],  # type: ignore[call-overload]
                           "TileDataType_FP32"))
    except Exception:  # noqa: BLE001 - a spec without the function: the smallest size, the run decides
        return 1
    code = 1
    while 128 << (code - 1) < need and code < 12:
        code += 1
    return code


def matrix_program(tpl: Template, spelling: tuple[str, str], et: DataType, size_code: int,
                   datr: str = "", relation: str = "same", pes: int = 0b0001) -> tuple[str, list[str]]:
    """One matrix Block: BSTART, a required B.DATR, the all-zero B.FPATR, the loop bounds, bindings of two
    sources a word on the PEs ``pes`` names."""
    dims = dimensions(tpl, relation)
    lines = [bstart_line(spelling, et)] + ([datr] if datr else [])
    if tpl.fpatr:
        lines.append("B.FPATR " + ", ".join("0" * tpl.fpatr))
    lines += [f"B.DIM LB{lb}={dims[name]}" for lb, name in sorted(tpl.dims.items()) if name in dims]
    regs = [f"T{k + 1}" for k in range(len(tpl.matrix))]
    for k in range(0, len(regs), 2):
        pair = regs[k:k + 2]
        final = k + 2 >= len(regs)
        lines.append("B.IOT " + ", ".join(pair + [f"mask=0b{pes:04b}"] + (["<last>", f"->T<{size_code}>"] if final else [])))
    lines.append("BSTOP")
    return "\n".join(lines), regs


def accumulator_type(it: Interpreter, vocabulary: Vocabulary, et: DataType) -> DataType:
    """The type of a matrix Block's accumulator and Bias for inputs of ``et``, as the spec's
    ``TileMatrixAccumulatorDataType`` states it (S16 inputs accumulate in S32); ``et`` when it cannot say."""
    try:
        got = str(it.call(contract.ACCUMULATOR_TYPE.name, et.member))
    except Exception:  # noqa: BLE001 - a spec without the function: the inputs' type, the run decides
        return et
    return vocabulary.datatype(got.removeprefix("TileDataType_")) or et


def matrix_inputs(tpl: Template, et: DataType, rng: random.Random, edges: bool,
                  accumulator: DataType | None = None, relation: str = "same",
                  vocabulary: Vocabulary | None = None, pes: int = 0b0001, location: str = "") -> list[TileInput]:
    """The matrix sources in their layouts (a layout the spec sizes, CUBE, gets its storage from the spec) or as
    row-major value Tiles, seeded, on the PEs ``pes`` names; the operands other than A and B (an accumulator, a
    Bias) hold ``accumulator`` values; a source whose role names the type its predicate fixes holds that type's
    (``vocabulary`` resolves it)."""
    dims = dimensions(tpl, relation)
    out = []
    for k, (named, layout, rows, cols) in enumerate(tpl.matrix):
        role, typed = source_role(named)
        st = et if role in ("A", "B") or accumulator is None else accumulator
        if typed:  # the type the operand-legality predicate fixes (an MX pair's E4M3, a scale's E8M0)
            st = vocabulary.datatype(typed) or st if vocabulary is not None else st
        vr, vc = extent(rows, dims), extent(cols, dims)
        words = source_words(st, vr, vc, k, rng, edges=edges)
        columns = max(vc, 4)
        rows = max(1, 128 * 8 // (columns * st.bits))
        while rows < vr:  # a K x N operand taller than one 128-byte Tile: the next legal capacity
            rows *= 2
        # the physical shape of a row-major Tile; a layout the spec sizes (CUBE) gets its own from the spec
        out.append(TileInput(f"T{k + 1}", st.name, rows, columns, vr, vc, words, mask=pes,
                             layout=layout or "row-major", location="" if layout else location))
    return out


@dataclass(slots=True)
class MemoryPlan:
    """The state a gather or scatter reads: index Tiles, the base GPR value and memory cells."""

    index_sources: list[int]      # positions of the sources named an index (``IndexTile``)
    mask_sources: list[int]       # positions of the sources named a lane mask (``MaskTile``): 0 or 1 a lane
    store: bool                   # the Block writes memory (no destination Tile: MSCATTER)
    bytes: bool = True            # an index is a byte displacement (0.58.3), else an element index (0.58.0)
    stride: bool = False          # a regular rectangle: B.IOR's second slot is the row stride in elements (TLOAD)
    cells: list[MemoryCell] = field(default_factory=list)


def memory_plan(tpl: Template, roles: list[tuple[str, str]] = (), prose: str = "") -> MemoryPlan | None:  # type: ignore[assignment]
    """A plan when the Block reads a base address: the catalog record's operand roles say so (``address``:
    ``base-address``, ``source0``: ``indices``, ``source1``: ``mask``), or else the composition's names
    (``B.IOR BaseGPR, …``, ``IndexTile``, ``MaskTile``). The Block stores when it has no destination. An index is
    a byte displacement when the record's ``prose`` (summary, memory effects) says "byte displacement(s)"
    (0.58.3), else an element index the ASL scales by the element size (0.58.0: "at Tile-provided indices")."""
    if any("base" in role for _f, role in roles):
        def positions(word: str) -> list[int]:
            return [int(f[6:]) for f, role in roles if f.startswith("source") and f[6:].isdigit() and word in role]
        index, masks = positions("indices"), positions("mask")
        store = not any(role == "destination" for _f, role in roles)
        if not index and any("row-stride" in role for _f, role in roles):
            return MemoryPlan([], masks, store, stride=True)
    else:
        lines = tpl.scalar_lines + [x for x in tpl.omitted if x.strip().upper().startswith("B.IOR")]
        if not any("base" in x.lower() for x in lines):
            return None
        names = [n for b in tpl.bindings for n in b.names]
        index = [k for k, n in enumerate(names) if "index" in n.lower()]
        masks = [k for k, n in enumerate(names) if "mask" in n.lower()]
        store = not any(b.destination for b in tpl.bindings)
    return MemoryPlan(index, masks, store, "byte displacement" in prose.lower().replace("-", " ")) if index else None


def memory_inputs(plan: MemoryPlan, vocabulary: Vocabulary, et: DataType, sources: list[str], rows: int,
                  columns: int, rng: random.Random, edges: bool, index_type: str) -> list[TileInput]:
    """Tiles for a gather/scatter: index Tiles of distinct byte displacements (a seeded order), data Tiles of
    ``et``; fills ``plan.cells`` with the memory each valid element reads (a value) or writes (read back)."""
    it = vocabulary.datatype(index_type)
    assert it is not None
    size = max(1, et.bits // 8)
    if plan.stride:  # the valid rectangle at base + (row * Col + column) * size, the row stride one physical row
        data = source_words(et, rows, columns, 0, rng, edges=edges)
        plan.cells = [MemoryCell(BASE_ADDRESS + (r * 4 + c) * size, size, None if plan.store else data[r][c])
                      for r in range(rows) for c in range(columns)]
        return [TileInput(reg, et.name, 128 * 8 // (4 * et.bits), 4, rows, columns, data) for reg in sources]
    n = rows * columns
    slots = list(range(n))
    rng.shuffle(slots)
    displacements = [s * size if plan.bytes else s for s in slots]
    data = source_words(et, rows, columns, 0, rng, edges=edges)
    plan.cells = [MemoryCell(BASE_ADDRESS + s * size, size, None if plan.store else data[k // columns][k % columns])
                  for k, s in enumerate(slots)]
    tiles = []
    first = True
    for k, reg in enumerate(sources):
        if k in plan.index_sources or k in plan.mask_sources:
            flat = displacements if k in plan.index_sources else [1] + [rng.randint(0, 1) for _ in range(n - 1)]
            words = tuple(tuple(flat[r * columns:(r + 1) * columns]) for r in range(rows))
            tiles.append(TileInput(reg, it.name, 128 * 8 // (4 * it.bits), 4, rows, columns, words))
        else:  # the first data Tile holds the memory's values (a CAS's expected), a further one fresh values
            words = data if first else source_words(et, rows, columns, k + 1, rng, edges=False)
            first = False
            tiles.append(TileInput(reg, et.name, 128 * 8 // (4 * et.bits), 4, rows, columns, words))
    return tiles


def predicate_block(producer: Producer, first: int, rows: int, columns: int, rng: random.Random) -> tuple[list[str], list[TileInput]]:
    """A Block of the spec that writes a predicate Tile (``producer``: an ``instantiate.Producer``, TCMP's
    Block) on Tiles ``T<first>``…, run before a memory Block whose lane mask must be a predicate Tile
    (``TilePredicateValuesLegal``: storage kind Predicate); its destination is ``T0``, the lowest free
    register. The second source repeats some of the first's values, so both outcomes show."""
    tpl, et = producer.template, producer.data_type
    count = sum(b.sources if b.sources is not None else 1 for b in tpl.bindings)
    regs = [f"T{first + i}" for i in range(count)]
    tiles: list[TileInput] = []
    for i, reg in enumerate(regs):
        words = source_words(et, rows, columns, 1, rng, edges=False)
        if i and tiles:
            left = tiles[-1].words
            words = tuple(tuple(left[r][c] if (r + c) % 2 == 0 else w for c, w in enumerate(row))
                          for r, row in enumerate(words))
        tiles.append(TileInput(reg, et.name, 128 * 8 // (4 * et.bits), 4, rows, columns, words))
    return block_lines(tpl, et, "", regs, "same", []), tiles

