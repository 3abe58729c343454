"""What a worked example's operands must be, asked of the spec's own ASL rather than tabled.

The generic template (:mod:`specgen.worked.generator`) gives every Tile source the
destination's valid shape, values of the Block's DataType and at most one
scalar register. Some operations need more, and the spec says what:

* the **operand fields** an operation consumes (``TileOperandPresent(index,
  TileOperand_<field>)`` of the generated tile dispatch, the table the Block's
  ``BundleOperationBindingsComplete`` counts) and the **B.IOR slots** of its
  scalar inputs (``BundleOperationGPRInputSlot`` / ``BundleOperationGPRInputCount``):
  which general-purpose registers a B.IOR must name, in which order, and what
  each holds (a ``flag…`` field is a boolean word, 0 or 1; a ``diagonal`` a small
  signed offset; a ``scalar…`` a value of the Block's DataType);
* the DataType of an **index operand** (``InstructionContractIndexDataTypeLegal_<MN>``
  or ``InstructionContractTypePairLegal_<MN>(value, index)``) and values that are
  in range and distinct per column (a row permutation: legal for a gather, whose
  indices must be in range, and for a scatter, which must not write one element twice);
* **shape relations** between sources and destination that the operation's
  legality predicate checks: the destination's shape comes from B.DIM, and a source
  may have to be its transpose, split its columns with a second source, or be a single row.

Nothing here names an instruction; a spec without these functions gets the
generic template (every function is looked up by its name pattern first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from collections.abc import Iterator

from .. import speccontract as contract
from ..asl import Interpreter
from ..asl.ast import FuncDecl
from ..loader import Spec
from ..models.instruction import InstructionHeader
from ..vocabulary import DataType, Vocabulary
from .composition import Template

_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

OPERATION_ENUM = "TileOperation"
FIELD_ENUM = "TileOperandField"
FIELD_PREFIX = "TileOperand_"
DATR_FIELD_ENUM = "TileDATRField"

# the shape relations tried, in order, when the operation's own legality predicate rejects the sources:
# ``same`` (the generic template), then the relations the layout predicates of the spec check; ``inherited``
# writes no B.DIM, so the destination takes its first source's shape and every B.DIM-carried operand is zero
# (TEXTRACT/TINSERT read their offsets from LB0/LB1), and later sources are one column narrower;
# ``sorted-rows``: no B.DIM, every source one sorted row (a merge takes sorted single-row sequences);
# ``window``: full-shape sources under ``B.DIM LB0=1; LB1=1``, a 1 x 1 destination, so B.DIM-carried
# offsets are 1 (TEXTRACT takes the element at row 1, column 1)
# ``single-column``: no B.DIM, every source one column, so every B.DIM-carried operand keeps its default (0.58.0
# TIMG2COL reads kernel and pad from LB0/LB1, which also shape the destination: only the 1 x 1 kernel's defaults,
# stride 1 and no padding, give a destination of exactly patch count x kernel size)
RELATIONS = ("same", "transposed", "split-columns", "split-rows", "single-row", "window", "inherited", "sorted-rows",
             "single-column")
# ``wide``: the generic sources under a destination as wide as the legality predicate's floor on its valid
# columns (``legality_text``), B.DIM setting its valid and physical columns; tried only where a floor is stated
WIDE = "wide"
# the relations that write no B.DIM (every B.DIM-carried operand zero, the destination shaped by its sources)
NO_DIM = ("inherited", "sorted-rows", "single-column")


@dataclass(frozen=True, slots=True)
class SourceShape:
    """One Tile source's valid rows and columns and physical columns."""

    valid_rows: int
    valid_columns: int
    columns: int


def destination_rows(relation: str, valid_rows: int) -> int:
    """The destination's valid rows under ``relation`` (B.DIM LB1): a single-row relation has one."""
    return 1 if relation == "single-row" else valid_rows


def source_shapes(relation: str, count: int, valid_rows: int, valid_columns: int,
                  columns: int) -> list[SourceShape] | None:
    """The shapes of ``count`` sources for a destination of ``valid_rows`` x ``valid_columns``.

    None when the relation does not apply (a split needs two sources and a column for each).
    """
    if relation in ("same", WIDE):
        return [SourceShape(valid_rows, valid_columns, columns)] * count
    if relation == "window":
        return [SourceShape(valid_rows, valid_columns, columns)] * count if valid_rows > 1 < valid_columns else None
    if relation in ("single-row", "sorted-rows"):
        return [SourceShape(1, valid_columns, columns)] * count
    if relation == "single-column":
        return [SourceShape(valid_rows, 1, columns)] * count
    if relation == "inherited":
        if count > 1 and valid_columns < 2:
            return None
        first = SourceShape(valid_rows, valid_columns, columns)
        return [first] + [SourceShape(valid_rows, valid_columns - 1, columns)] * (count - 1)
    if relation == "transposed":
        if count < 1 or valid_rows > columns:
            return None
        return [SourceShape(valid_columns, valid_rows, columns)] * count
    if relation == "split-columns":
        if count < 2 or valid_columns < count:
            return None
        widths = [valid_columns // count] * count
        widths[0] += valid_columns - sum(widths)  # the left source takes the remainder
        return [SourceShape(valid_rows, w, columns) for w in widths]
    if relation == "split-rows":
        if count < 2 or valid_rows < count:
            return None
        heights = [valid_rows // count] * count
        heights[0] += valid_rows - sum(heights)
        return [SourceShape(h, valid_columns, columns) for h in heights]
    raise ValueError(relation)


def is_index_operand(name: str) -> bool:
    """Whether the composition names this source an index operand (``IndexSrc``, ``Indices``)."""
    return "index" in name.lower() or "indices" in name.lower()


def is_predicate_operand(name: str) -> bool:
    """Whether the composition names this source a predicate Tile (``Predicate``)."""
    return "predicate" in name.lower()


def index_words(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Row indices in range and distinct in every column: column ``c`` holds rows rotated by ``c``."""
    return tuple(tuple((r + c) % rows for c in range(cols)) for r in range(rows))


@dataclass(slots=True)
class OperationFacts:
    """The operand fields of one tile operation and the B.IOR slots of its scalar inputs (from the ASL)."""

    index: int
    present: tuple[str, ...]  # TileOperand field names without the prefix (``source0``, ``flag0``)
    gpr_fields: tuple[str, ...] = ()  # the fields B.IOR carries, in slot order
    index_types: dict[str, tuple[str, ...]] = field(default_factory=dict)  # value DataType -> index types
    datr_fields: tuple[str, ...] = ()  # the B.DATR fields the operation reads (``TileOperationDATRFieldApplicable``)

    @property
    def sources(self) -> int:
        return sum(1 for f in self.present if f.startswith("source"))

    @property
    def destinations(self) -> int:
        return sum(1 for f in self.present if f.startswith("destination"))


def complete_bindings(tpl: Template, roles: list[str], facts: OperationFacts | None) -> None:
    """Fill what the composition leaves unsaid from the catalog and the ASL, in place.

    A binding that names no source operands (0.58.0's bare ``B.IOT``) takes the catalog record's
    ``role`` of each ``source…`` operand (``indices``), so index and predicate operands are recognised;
    an operation with more destination operands than the composition binds (TSORT: values and
    indices, "two new Local destinations" written as one line) gets a destination-only binding
    for each missing one, the last of them closing the stream.
    """
    out = []
    used = 0
    for b in tpl.bindings:
        n = b.sources if b.sources is not None else 1
        if not b.names and roles[used:used + n]:
            b = replace(b, names=tuple(roles[used:used + n]))
        used += n
        out.append(b)
    if facts is not None and out:
        # the ASL's source count wins over a composition line read as more sources than the operation has
        # (prose before ``PE_MASK``: "Local source and two new Local destinations, common PE_MASK")
        extra = sum(b.sources or 0 for b in out) - facts.sources
        for i in range(len(out) - 1, -1, -1):
            if extra <= 0:
                break
            cut = min(extra, out[i].sources or 0)
            if cut:
                n = (out[i].sources or 0) - cut
                out[i] = replace(out[i], sources=n, names=out[i].names[:n])
                extra -= cut
        missing = facts.destinations - sum(1 for b in out if b.destination or b is out[-1])
        if missing > 0:
            out[-1] = replace(out[-1], destination=True, last=False)
            for i in range(missing):
                out.append(type(out[-1])(0, True, i == missing - 1))
    tpl.bindings = out


def datr_line(text: str, datatype_names: tuple[str, ...], facts: OperationFacts | None) -> str | None:
    """The seven-field B.DATR a required composition line (``B.DATR S8|U8, RMode, Sat``) asks for, or None.

    Only fields the ASL lets the operation set (``facts.datr_fields``) are nonzero: the DataType is the
    first one the line names (THISTOGRAM's ``DstDataType=U32``, TQUANT's ``S8|U8``), ``Sat`` is set
    when the line names it, the rounding mode is the default (code 0), a ``ByteId`` is byte 0 (the
    PadValue field carries it), every other field is zero (a DataType the line does not name stays code
    0: the ASL decides whether that is legal). None when the line names a DataType the ASL does not let
    the operation set.
    """
    if facts is None or not facts.datr_fields:
        return None
    allowed = set(facts.datr_fields)
    words = {w.upper() for w in _WORDS.findall(text)}
    types = [n for n in datatype_names if n.upper() in words]
    if types and "DataType" not in allowed:
        return None
    data_type = types[0] if types else "0"
    sat = 1 if "SAT" in words and "Sat" in allowed else 0
    return f"B.DATR {{0, {data_type}, 0, 0, 0, {sat}, 0}}"


def scalar_types(lines: list[str], vocabulary: Vocabulary) -> list[DataType | None]:
    """The DataType each B.IOR operand of the composition names in its own name (``MultiplierFP32``)."""
    for line in lines:
        body = line.strip()[len("B.IOR"):].split("(", 1)[0]
        out: list[DataType | None] = []
        for name in body.split(","):
            hits = [n for n in vocabulary.datatype_names if n in name.strip() and name.strip() != n]
            out.append(vocabulary.datatype(max(hits, key=len)) if hits else None)
        return out
    return []


def source_roles(record: InstructionHeader) -> list[str]:
    """The catalog ``role`` of each ``source…`` operand of the instruction's first catalog record, in order."""
    return [str(getattr(o, "role", "") or "") for r in list(getattr(record, "catalog_records", None) or [])[:1]
            for o in (getattr(r, "operands", None) or ()) if str(getattr(o, "field", "")).startswith("source")]


def role_type(role: str, vocabulary: Vocabulary) -> DataType | None:
    """The DataType a catalog operand role names when it names exactly one ("persistent Local U8 prefix
    filter"); None for none or several ("U16 or U32 source": the Block's DataType decides)."""
    words = set(_WORDS.findall(role))
    hits = [n for n in vocabulary.datatype_names if n in words]
    return vocabulary.datatype(hits[0]) if len(hits) == 1 else None


def sketch_sizes(record: InstructionHeader) -> list[int]:
    """The destination SizeCodes the record's example sketches write (``->T2<4>``)."""
    out = []
    for text in (record.contract.examples if record.contract is not None else []):
        out += [int(m) for m in re.findall(r"->\s*\w*<(\d+)>", text)]
    return out


def gpr_value(field_name: str, scalar: int) -> int:
    """The word a B.IOR register holds for ``field_name``: a flag is TRUE (1), a diagonal 1, else ``scalar``."""
    if field_name.startswith("flag"):
        return 1
    if field_name == "diagonal":
        return 1
    return scalar


def operation_facts(interp: Interpreter, mnemonic: str) -> OperationFacts | None:
    """Ask the interpreter which operand fields ``mnemonic``'s tile operation has; None if it cannot say."""
    from ..asl import ASLError
    if not interp.has_function(contract.OPERAND_PRESENT.name):
        return None
    try:
        ops = interp.enum_members(OPERATION_ENUM)
        member = f"{OPERATION_ENUM}_{mnemonic}"
        if member not in ops:
            return None
        index = ops.index(member)
        interp.reset()
        present = tuple(f.removeprefix(FIELD_PREFIX) for f in interp.enum_members(FIELD_ENUM)
                        if interp.call(contract.OPERAND_PRESENT.name, index, f) is True)
        facts = OperationFacts(index, present)
        if interp.has_function(contract.DATR_FIELD_APPLICABLE.name):
            facts.datr_fields = tuple(f.removeprefix(DATR_FIELD_ENUM + "_") for f in interp.enum_members(DATR_FIELD_ENUM)
                                      if interp.call(contract.DATR_FIELD_APPLICABLE.name, index, f) is True)
        if interp.has_function(contract.GPR_SLOT.name) and interp.has_function(contract.GPR_COUNT.name):
            count = interp.call(contract.GPR_COUNT.name, index)
            slots = []
            for f in present:
                slot = interp.call(contract.GPR_SLOT.name, index, FIELD_PREFIX + f)
                if isinstance(slot, int) and isinstance(count, int) and slot < count:
                    slots.append((slot, f))
            facts.gpr_fields = tuple(f for _, f in sorted(slots))
        return facts
    except ASLError as e:
        if e.kind == "budget":
            raise
        return None


def index_datatypes(interp: Interpreter, mnemonic: str, value: DataType, candidates: list[DataType]) -> list[str]:
    """The DataTypes the ASL admits for ``mnemonic``'s index operand next to value type ``value``."""
    from ..asl import ASLError
    single = contract.INDEX_TYPE_LEGAL.of(mnemonic)
    pair = contract.TYPE_PAIR_LEGAL.of(mnemonic)
    out: list[str] = []
    for et in candidates:
        if et.kind not in ("signed", "unsigned"):
            continue
        member = f"TileDataType_{et.name}"
        try:
            interp.reset()
            if interp.has_function(single):
                ok = interp.call(single, member) is True
            elif interp.has_function(pair):
                ok = interp.call(pair, f"TileDataType_{value.name}", member) is True
            else:
                return []
        except ASLError as e:
            if e.kind == "budget":
                raise
            continue
        if ok:
            out.append(et.name)
    return out


# a legality predicate that names a floor for the destination's valid columns (0.58.0 THISTOGRAM: one column a
# histogram bin, ``_Tiles[[destination]].valid_columns < 256`` rejects) and the DataTypes it names for its Tiles
_FLOOR = re.compile(r"_Tiles\[\[destination\]\]\.valid_columns\s*(<|>=)\s*(\d+)")
_NAMED_TYPE = re.compile(r"TileDataType_([A-Za-z0-9]+)")


_DESTINATION = r"(?:_Tiles\[\[destination\]\]|destination_tile)"
_DEST_DEFINED = re.compile(_DESTINATION + r"\.contents_defined")
_DEST_LOCATION = re.compile(_DESTINATION + r"\.location\s*(!=|==)\s*(TileLocation_\w+)")


@dataclass(frozen=True, slots=True)
class LegalityText:
    """What a legality predicate's own text states about a Block's shape and types."""

    min_columns: int  # 0: no floor on the destination's valid columns
    types: tuple[str, ...]  # the DataTypes its comparisons name, in order of first mention
    # what it requires of the destination Tile's state (``contents_defined``, ``location == TileLocation_Matrix``):
    # a Block's destination is a Tile its commit newly allocates, so these explain a legality fault exactly
    destination_needs: tuple[str, ...] = ()
    site: str = ""  # path:line of the predicate


def _rejects(body: str, at: int) -> bool:
    """Whether the comparison at ``at`` sits in an ``if … then return FALSE`` clause (else in a ``return … &&``)."""
    start = body.rfind("if ", 0, at)
    ret = body.rfind("return", 0, at)
    then = body.find("then", at)
    return start > ret and then >= 0 and body[then + 4:].lstrip().startswith("return FALSE")


def destination_needs(body: str) -> tuple[str, ...]:
    """The destination state a legality predicate's text requires: defined contents, a location."""
    needs: list[str] = []
    if _DEST_DEFINED.search(body):
        needs.append("contents_defined")
    for m in _DEST_LOCATION.finditer(body):
        required = (m.group(1) == "!=") == _rejects(body, m.start())  # ``!=`` rejected, or ``==`` asserted
        if required and not m.group(2).endswith("_Any"):
            needs.append(f"location == {m.group(2)}")
    return tuple(dict.fromkeys(needs))


def function_sources(spec: Spec, interp: Interpreter, name: str) -> Iterator[tuple[FuncDecl, str | None]]:
    """Each function declaration of ``name`` in the interpreter's index, with its text from its header line to
    its ``end;`` as the spec's unit writes it (None: the declaration is not in a unit of the spec, e.g. generated).

    The worked examples read a predicate's text where evaluating it cannot say what it asks for (a floor on a
    width, a DataType an operand must have)."""
    for decl in interp.declarations(name):
        if not isinstance(decl, FuncDecl):  # a type or a global of that name
            continue
        unit = next((u for u in spec.units if u.path == decl.path), None)
        if unit is None:
            yield decl, None
            continue
        interp.note_file(unit.path)  # the body is read as text, comments included
        lines = unit.text.splitlines()[decl.line - 1:]
        end = next((i for i, x in enumerate(lines) if x.startswith("end;")), len(lines))
        yield decl, "\n".join(lines[:end + 1])


def legality_text(spec: Spec, interp: Interpreter, handler: str) -> LegalityText | None:
    """Read the legality predicate ``handler`` (the catalog record's ``legality_handler``) from the spec's ASL.

    The generic template's destination is 3 columns wide; a predicate that requires at least N is given an
    N-column destination (the ``wide`` relation). None: the spec has no such function or its text is not loaded.
    """
    if not handler:
        return None
    for decl, body in function_sources(spec, interp, handler):
        if body is None:
            return None
        floors = [int(n) for _op, n in _FLOOR.findall(body)]
        return LegalityText(max(floors, default=0), tuple(dict.fromkeys(_NAMED_TYPE.findall(body))),
                            destination_needs(body), f"{decl.path}:{decl.line}")
    return None
