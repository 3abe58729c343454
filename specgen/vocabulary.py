"""The spec's own vocabulary: DataType, PadValue, CMODE and tile-class names, read from the spec once.

Every name here is a fact the spec states, so specgen types none of them in:

* DataType names and codes come from the ``PTO-FIELD-BLOCK-DATATYPE`` field
  domain; a tree that declares no such domain (0.58.0) names them in its ASL
  enumeration ``TileDataType`` and codes them in the ``case`` arms of the
  function that maps an encoded field to that enumeration.
* The element width of each DataType is the ``return`` of its arm in the ASL
  function ``TileElementBits``; a type narrower than a byte is packed (two
  values per byte); signed integers are the members the ASL predicate
  ``TileDataTypeIsSigned`` names, and unsigned integers those of
  ``TileDataTypeIsUnsigned…`` (or, in a tree that states
  ``TileDataTypeIsFloating`` instead, the types it leaves out).
* ``DTYPE_NONE`` (B.DATR's "no type" code) is the ASL constant of that name.
* PadValue and CMODE names and codes come from their field domains
  (``PTO-FIELD-BLOCK-PADVALUE-OR-BYTEID`` meanings read ``<PadValue>-or-ByteId<n>``,
  ``PTO-FIELD-BLOCK-CMODE``); without the PadValue domain the ASL enumeration
  ``TilePadValue`` gives them in code order.
* Tile classes are the members of the ASL enumeration ``TileInstructionClass``
  (``TileClass_ElementwiseTileTile`` is the record classification
  ``elementwise-tile-tile``); a tree without that enumeration states none.

The ASL is read as text, not interpreted: this module sits beside the loader,
below the interpreter, and only needs enumeration members, constants and
``case`` arms that return literals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from . import speccontract as contract
from .graph import Derived, SpecGraph, UnitFact
from .loader import Spec
from .models.instruction import FieldDomain
from .models.located import AslUnit

DATATYPE_DOMAIN = "PTO-FIELD-BLOCK-DATATYPE"
PADVALUE_DOMAIN = "PTO-FIELD-BLOCK-PADVALUE-OR-BYTEID"
CMODE_DOMAIN = "PTO-FIELD-BLOCK-CMODE"
DATATYPE_ENUM, DATATYPE_PREFIX = contract.DATATYPE_ENUM.name, "TileDataType_"
PAD_ENUM, PAD_PREFIX = contract.PAD_ENUM.name, "TilePad_"
CLASS_ENUM, CLASS_PREFIX = contract.CLASS_ENUM.name, "TileClass_"
LAYOUT_ENUM, LAYOUT_PREFIX = contract.LAYOUT_ENUM.name, "TileLayout_"
LOCATION_ENUM, LOCATION_PREFIX = contract.LOCATION_ENUM.name, "TileLocation_"
CARRIER_BITS = 64  # every Tile element lives in one 64-bit Word (PTO-ARCH-DATA-TYPES-INTEGER)

_ENUM = re.compile(r"\btype\s+(\w+)\s+of\s+enumeration\s*\{([^}]*)\}")
_FUNC = re.compile(r"\bfunc\s+(\w+)\s*\(")
_ARM = re.compile(r"\bwhen\s+([^=]+?)\s*=>\s*return\s+(\w+)\s*;")
_OTHERWISE = re.compile(r"\botherwise\s*=>\s*return\s+(\d+)\s*;")
_CODE_ARM = re.compile(r"\bwhen\s+(\d+)\s*=>\s*return\s+" + DATATYPE_PREFIX + r"(\w+)\s*;")
_NONE_CONST = re.compile(r"\bconstant\s+DTYPE_NONE(?:_CODE)?\s*=\s*(?:(\d+)|'([01]+)')\s*;")


@dataclass(frozen=True, slots=True)
class DataType:
    """One Tile element type: its short name (``FP16``), field code, width in bits and number kind.

    ``kind`` is ``float``, ``signed``, ``unsigned`` or ``packed``; ``code`` is
    None when the spec states no code table. A type the spec gives no width is
    read as its whole 64-bit carrier word.
    """

    name: str
    code: int | None
    bits: int
    kind: str

    @property
    def member(self) -> str:
        """The ASL enumeration member, e.g. ``TileDataType_FP16``."""
        return DATATYPE_PREFIX + self.name

    @property
    def mask(self) -> int:
        return (1 << self.bits) - 1


@dataclass(frozen=True, slots=True)
class Code:
    """A named value of an encoded field (``EQ`` = 0, ``Zero`` = 0 …)."""

    name: str
    code: int


@dataclass(frozen=True, slots=True)
class TileClass:
    """A tile instruction class: the record classification and its ASL enumeration member."""

    name: str
    member: str


@dataclass(frozen=True)
class Vocabulary:
    """The names the spec gives its element types, padding values, comparisons and tile classes."""

    datatypes: tuple[DataType, ...] = ()
    dtype_none_code: int | None = None
    pad_values: tuple[Code, ...] = ()
    compare_modes: tuple[Code, ...] = ()
    tile_classes: tuple[TileClass, ...] = ()
    layouts: tuple[str, ...] = ()  # the Tile model's layouts (``TileLayout`` members without the prefix)
    locations: tuple[str, ...] = ()  # and its locations (``TileLocation``)
    _by_key: Mapping[str, DataType] = field(init=False, repr=False, compare=False)
    _by_code: Mapping[int, DataType] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # lookups built once; frozen, so set through object (the dataclass way for derived fields)
        object.__setattr__(self, "_by_key", MappingProxyType({t.name.lower(): t for t in self.datatypes}))
        object.__setattr__(self, "_by_code", MappingProxyType({t.code: t for t in self.datatypes
                                                                if t.code is not None}))

    def datatype(self, name: str) -> DataType | None:
        """The type named ``name`` (case-insensitive, with or without ``TileDataType_``)."""
        return self._by_key.get(name.removeprefix(DATATYPE_PREFIX).lower())

    def datatype_of_code(self, code: int) -> DataType | None:
        return self._by_code.get(code)

    @property
    def datatype_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.datatypes)

    @property
    def tile_class_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.tile_classes)

    def layout(self, name: str) -> str | None:
        """The layout member ``name`` means: its label (``row-major``), its member (``RowMajor``, ``CUBE_M16``,
        with or without ``TileLayout_``) in any case, ``-`` and ``_`` alike; None when the tree has no such."""
        return _member(self.layouts, name.removeprefix(LAYOUT_PREFIX))

    def location(self, name: str) -> str | None:
        """The location member ``name`` means (``matrix``, ``Matrix``, ``TileLocation_Matrix``), else None."""
        return _member(self.locations, name.removeprefix(LOCATION_PREFIX))


def label(member: str) -> str:
    """How a page and ``specgen run`` show a layout or location member: a CamelCase word in kebab-case
    (``RowMajor`` -> ``row-major``, ``Matrix`` -> ``matrix``), any other spelling as the spec writes it
    (``CUBE_M16``, ``ZN``)."""
    return _kebab(member) if re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]+)*", member) else member


def _member(members: tuple[str, ...], name: str) -> str | None:
    key = name.replace("-", "").replace("_", "").lower()
    return next((m for m in members if m.replace("_", "").lower() == key), None)


def vocabulary_of(spec: Spec) -> Vocabulary:
    """Read the vocabulary from a loaded spec (its field domains and ASL units)."""
    return _vocabulary(spec, (unit_answers(u.text) for u in spec.units))


def _vocabulary(spec: Spec, answers: Iterable[UnitAnswers]) -> Vocabulary:
    domains = {d.id: d for d in spec.field_domains}
    asl = _AslText(answers)
    return Vocabulary(_datatypes(domains.get(DATATYPE_DOMAIN), asl),
                      dtype_none_code=asl.dtype_none(),
                      pad_values=_pad_values(domains.get(PADVALUE_DOMAIN), asl),
                      compare_modes=_codes(domains.get(CMODE_DOMAIN)),
                      tile_classes=tuple(TileClass(_kebab(m), CLASS_PREFIX + m)
                                         for m in asl.members(CLASS_ENUM, CLASS_PREFIX)),
                      layouts=tuple(asl.members(LAYOUT_ENUM, LAYOUT_PREFIX)),
                      locations=tuple(asl.members(LOCATION_ENUM, LOCATION_PREFIX)))


def _unit_answers(unit: AslUnit) -> UnitAnswers:
    return unit_answers(unit.text)


UNIT_ANSWERS = UnitFact(_unit_answers)


def _graph_vocabulary(graph: SpecGraph) -> Vocabulary:
    return _vocabulary(graph.spec, (UNIT_ANSWERS(graph, u) for u in graph.spec.units))


# the field domains are structure; the ASL is read one unit at a time (an edit asks one unit again)
VOCABULARY = Derived(_graph_vocabulary, structural=True)


def _datatypes(domain: FieldDomain | None, asl: "_AslText") -> tuple[DataType, ...]:
    if domain is not None:
        named = [(a.meaning, a.value) for a in domain.assigned]
    else:
        codes = asl.datatype_codes()
        named = [(m, codes.get(m)) for m in asl.members(DATATYPE_ENUM, DATATYPE_PREFIX)]
    bits = asl.arm_values("TileElementBits")
    signed = asl.mentioned("TileDataTypeIsSigned")
    unsigned = asl.mentioned("TileDataTypeIsUnsigned")
    floating = asl.mentioned("TileDataTypeIsFloating")
    # a tree states either its unsigned integers or its floating types; the other kind is the rest
    rest = "float" if unsigned or not floating else "unsigned"
    out = []
    for name, code in named:
        width = bits.get(name, bits.get("", CARRIER_BITS))
        kind = ("packed" if width < 8 else "signed" if name in signed
                else "unsigned" if name in unsigned else "float" if name in floating else rest)
        out.append(DataType(name, code, width, kind))
    return tuple(out)


def _codes(domain: FieldDomain | None) -> tuple[Code, ...]:
    return () if domain is None else tuple(Code(a.meaning, a.value) for a in domain.assigned)


def _pad_values(domain: FieldDomain | None, asl: "_AslText") -> tuple[Code, ...]:
    if domain is not None:
        return tuple(Code(a.meaning.split("-or-")[0], a.value) for a in domain.assigned)
    return tuple(Code(m, i) for i, m in enumerate(asl.members(PAD_ENUM, PAD_PREFIX)))


def _kebab(member: str) -> str:
    """``ElementwiseTileTile`` -> ``elementwise-tile-tile``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", member).lower()


_ENUMS = (DATATYPE_ENUM, PAD_ENUM, CLASS_ENUM, LAYOUT_ENUM, LOCATION_ENUM)  # the enumerations asked
_FUNCTIONS = ("TileElementBits", "TileDataTypeIsSigned", "TileDataTypeIsUnsigned", "TileDataTypeIsFloating")
_ASKED_FUNC = re.compile(r"func\s+(" + "|".join(_FUNCTIONS) + r")")  # a unit that may define one of them


@dataclass(frozen=True, slots=True)
class UnitAnswers:
    """What one unit's text answers of the vocabulary's questions (None: the unit does not say).

    Computed per unit (a :class:`specgen.graph.UnitFact`), so an edit of one unit asks that unit again;
    equal answers leave the vocabulary as it was."""

    enums: tuple[tuple[str, tuple[str, ...]], ...] = ()  # enumeration -> its members, as written
    bodies: tuple[tuple[str, str], ...] = ()  # asked function (by prefix) -> the text of its first body
    codes: tuple[tuple[str, int], ...] | None = None  # DataType member -> code, by ``case`` arm
    none_code: int | None = None  # the constant DTYPE_NONE


def unit_answers(text: str) -> UnitAnswers:
    """One unit's answers (see :class:`UnitAnswers`): the regular expressions run only where the words are."""
    enums: dict[str, tuple[str, ...]] = {}
    if "enumeration" in text:
        for m in _ENUM.finditer(text):
            if m.group(1) in _ENUMS and m.group(1) not in enums:  # comments inside the body are not members
                body = re.sub(r"//[^\n]*", "", m.group(2))
                enums[m.group(1)] = tuple(w.strip() for w in body.split(",") if w.strip())
    bodies = []
    asked = {m.group(1) for m in _ASKED_FUNC.finditer(text)}
    for function in _FUNCTIONS:
        if function in asked:
            for m in _FUNC.finditer(text):
                if m.group(1).startswith(function):
                    end = text.find("\nend;", m.end())
                    bodies.append((function, text[m.end():end if end >= 0 else len(text)]))
                    break
    codes = tuple((name, int(code)) for code, name in _CODE_ARM.findall(text)) if DATATYPE_PREFIX in text else None
    none = _NONE_CONST.search(text) if "DTYPE_NONE" in text else None
    return UnitAnswers(tuple(sorted(enums.items())), tuple(bodies), codes,
                       None if none is None else int(none.group(1)) if none.group(1) else int(none.group(2), 2))


class _AslText:
    """The few literal facts read from the ASL source text (enumerations, constants, case arms): the
    first unit, in the tree's order, that answers each question."""

    def __init__(self, answers: Iterable[UnitAnswers]) -> None:
        self.answers = list(answers)

    def members(self, enum: str, prefix: str) -> list[str]:
        for a in self.answers:
            for name, members in a.enums:
                if name == enum:
                    return [w.removeprefix(prefix) for w in members]
        return []

    def _body(self, function: str) -> str:
        """The text of the first function whose name starts with ``function``, up to its ``end;``."""
        for a in self.answers:
            for name, body in a.bodies:
                if name == function:
                    return body
        return ""

    def arm_values(self, function: str) -> dict[str, int]:
        """DataType short name -> the integer its ``case`` arm returns ("" for ``otherwise``)."""
        body = self._body(function)
        out: dict[str, int] = {}
        for m in _ARM.finditer(body):
            if m.group(2).isdigit():
                for member in re.findall(DATATYPE_PREFIX + r"(\w+)", m.group(1)):
                    out[member] = int(m.group(2))
        other = _OTHERWISE.search(body)
        if other:
            out[""] = int(other.group(1))
        return out

    def mentioned(self, function: str) -> set[str]:
        return set(re.findall(DATATYPE_PREFIX + r"(\w+)", self._body(function)))

    def datatype_codes(self) -> dict[str, int]:
        """Short name -> code, from the unit whose ``case`` arms map the most codes to members."""
        tables = [dict(a.codes) for a in self.answers if a.codes is not None]
        return max(tables, key=len, default={})

    def dtype_none(self) -> int | None:
        return next((a.none_code for a in self.answers if a.none_code is not None), None)
