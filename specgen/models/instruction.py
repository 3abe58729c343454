"""The ``// PTO-INSTRUCTION:`` record and the catalog records it owns.

Tile records carry a *tile operation* (selector-encoded through a carrier);
scalar and block records carry *encoded forms* (mask/match words and fields).
Both shapes are closed; which one applies is decided by the keys present.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from .common import (Closed, DependsOn, NonEmptyStr, NonEmptyUniqueStrList, PtoId, forbid_keys, slug_upper,
                     variant_without)
from ..cache import codec

Surface = Literal["scalar", "tile", "block"]
Engine = Literal["VEC", "SFU", "CUBE", "TLSU"]
PLACEHOLDER = re.compile(r"encoded operand or control|this mnemonic|Execute the .* instruction contract")
HEX = r"^0x[0-9a-fA-F]+$"


class FieldRole(Closed):
    field: NonEmptyStr
    role: NonEmptyStr


class FieldRef(Closed):
    ref: PtoId


class Contract(Closed):
    """The prose and structured contract every instruction owns (14 keys, all required)."""

    encoding_class: Literal[
        "standalone-encoded", "selector-encoded-block-operation", "encoding-alias",
        "unencoded-architectural-operation", "indirect-architectural-name"]
    standalone_opcode: bool
    canonical_assembly: NonEmptyUniqueStrList
    block_composition: Annotated[list[NonEmptyStr], Field(min_length=1)]
    operands: list[FieldRole]
    field_contracts: dict[str, FieldRef]
    field_zero_meanings: dict[str, NonEmptyStr]
    defaults: NonEmptyUniqueStrList
    legality: NonEmptyUniqueStrList
    state_effects: NonEmptyUniqueStrList
    memory_effects: NonEmptyUniqueStrList
    ordering: NonEmptyUniqueStrList
    exceptions: NonEmptyUniqueStrList
    examples: NonEmptyUniqueStrList

    @model_validator(mode="after")
    def _consistent(self) -> "Contract":
        if self.standalone_opcode != (self.encoding_class == "standalone-encoded"):
            raise ValueError(
                f"standalone_opcode={self.standalone_opcode} contradicts encoding_class "
                f"{self.encoding_class!r} (only standalone-encoded has a standalone opcode)")
        for name in ("defaults", "legality", "state_effects", "memory_effects", "ordering",
                     "exceptions", "examples"):
            for line in getattr(self, name):
                if PLACEHOLDER.search(line):
                    raise ValueError(f"contract.{name} contains placeholder text: {line!r}")
        return self


class Argument(Closed):
    constant: str | None = None
    operand: str | None = None
    runtime: str | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> "Argument":
        if sum(v is not None for v in (self.constant, self.operand, self.runtime)) != 1:
            raise ValueError("an argument has exactly one of constant, operand, runtime")
        return self


DatrField = Literal["PadValueOrByteId", "DataType", "Layout", "RMode", "Sat", "CMode", "Canonicalize"]


class DatrContract(Closed):
    allowed_nonzero_fields: list[DatrField]
    pad_union: Literal["pad-value", "must-zero", "histogram-byte-id"]


class TileOperation(Closed):
    """A tile operation: selected through its carrier command by Mode/Function."""

    name: NonEmptyStr
    family: Literal["TEPL", "CUBE", "TLSU"]
    command_mnemonic: Annotated[str, Field(pattern=r"^BSTART\.[A-Z0-9.]+$")]
    mode: Annotated[int, Field(ge=0, le=3)] | None = None
    selector: Annotated[str, Field(pattern=r"^0x[0-9A-F]{3}$")] | None = None
    function: Annotated[int, Field(ge=0, le=31)]
    disposition: Literal["accepted-direct-operation"]
    contract_status: Literal["reviewed-complete"]
    semantic_handler: NonEmptyStr
    effect_contract: NonEmptyStr
    legality_handler: NonEmptyStr
    fault_contract: NonEmptyStr
    restart_contract: NonEmptyStr
    arguments: list[Argument]
    operands: list[FieldRole]
    state_effects: list[Annotated[str, Field(pattern=r"^(operand|runtime|state):[^:]+:.+$")]]
    datr_contract: DatrContract
    # Projected into spec/catalog/tile-operations.json only; forbidden in the ASL record.
    classification: str | None = None
    engine: Engine | None = None

    @model_validator(mode="after")
    def _selector(self) -> "TileOperation":
        if self.family == "TEPL":
            if self.mode is None or self.selector is None:
                raise ValueError("a TEPL operation needs mode and selector")
            want = "0x%03X" % (self.mode << 5 | self.function)
            if self.selector != want:
                raise ValueError(f"selector {self.selector} != {want} (mode<<5 | function)")
        elif self.mode is not None or self.selector is not None:
            raise ValueError(f"a {self.family} operation has no mode/selector (its carrier fixes them)")
        return self


class EncodingWord(Closed):
    index: Annotated[int, Field(ge=0)]
    mask: Annotated[str, Field(pattern=HEX)]
    match: Annotated[str, Field(pattern=HEX)]
    width_bits: Literal[16, 32, 48, 64]

    @model_validator(mode="after")
    def _match_in_mask(self) -> "EncodingWord":
        mask, match = int(self.mask, 16), int(self.match, 16)
        if mask >> self.width_bits or match >> self.width_bits:
            raise ValueError(f"mask/match exceed {self.width_bits} bits")
        if match & ~mask:
            raise ValueError(f"match {self.match} sets bits outside mask {self.mask}")
        return self


# A piece of an encoded field as the catalog writes it (encoding.FieldSlice is the slice the encodings
# use). A comment, not a docstring: a model's docstring is its JSON Schema description.
class Piece(Closed):
    instruction_lsb: Annotated[int, Field(ge=0, lt=64)]
    value_lsb: Annotated[int, Field(ge=0)]
    width: Annotated[int, Field(ge=1, le=64)]
    part_index: Annotated[int, Field(ge=0)] | None = None


class EncodedField(Closed):
    name: NonEmptyStr
    pieces: Annotated[list[Piece], Field(min_length=1)]
    signedness: Literal["encoding-defined", "signed", "unsigned"] | None = None
    width: Annotated[int, Field(ge=1, le=64)]


# A constraint on a field's value as the catalog writes it (encoding.FieldCondition is the value set
# the decoder asks).
class Constraint(Closed):
    field: NonEmptyStr
    operator: Literal["one-of", "not-equal"]
    values: list[int] | None = None
    value: int | None = None

    @model_validator(mode="after")
    def _shape(self) -> "Constraint":
        if (self.operator == "one-of") != (self.values is not None) or \
                (self.operator == "not-equal") != (self.value is not None):
            raise ValueError("one-of takes 'values', not-equal takes 'value'")
        return self


class AguAttributes(Closed):
    action: str
    address_kind: str
    offset_scale: int
    prefetch_returns_address: bool
    signed_load: bool
    size_bytes: int
    update_mode: str


class EncodingVariant(Closed):
    name: NonEmptyStr
    function: int
    encoding: list[EncodingWord]


class ExcludedValueOwner(Closed):
    field: str
    value: int
    owner: str


class EncodedForm(Closed):
    """One encoded form (scalar or block/command surface), as in the form catalogs."""

    form_id: Annotated[str, Field(pattern=r"^[a-z0-9_]+_(16|32|48|64)_[0-9a-f]{8,12}$")]
    mnemonic: NonEmptyStr
    asm: NonEmptyStr
    length_bits: Literal[16, 32, 48, 64]
    encoding_kind: Literal["C16", "L32", "HL48", "L64"]
    encoding: Annotated[list[EncodingWord], Field(min_length=1)]
    fields: list[EncodedField]
    constraints: list[Constraint]
    semantic_family: NonEmptyStr
    semantic_group: NonEmptyStr
    semantic_handler: NonEmptyStr
    semantic_summary: NonEmptyStr
    status: Literal["accepted", "reserved-in-pto"]
    agu: AguAttributes | None = None
    encoding_variants: list[EncodingVariant] | None = None
    excluded_value_owners: list[ExcludedValueOwner] | None = None
    complete_bundle_schema: dict[str, Any] | None = None
    accepted_assembly_mnemonics: list[str] | None = None
    canonical_assembly_by_engine: dict[str, str] | None = None
    carrier_mnemonic: str | None = None

    @model_validator(mode="after")
    def _words(self) -> "EncodedForm":
        total = sum(w.width_bits for w in self.encoding)
        if total != self.length_bits:
            raise ValueError(f"encoding words sum to {total} bits, length_bits is {self.length_bits}")
        for f in self.fields:
            for p in f.pieces:
                if p.instruction_lsb + p.width > self.length_bits:
                    raise ValueError(f"field {f.name} piece at bit {p.instruction_lsb}+{p.width} "
                                     f"exceeds the {self.length_bits}-bit word")
        return self


def _record_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "form" if "form_id" in value or "mnemonic" in value else "tile"
    return "form" if isinstance(value, EncodedForm) else "tile"


CatalogRecord = Annotated[
    Annotated[TileOperation, Tag("tile")] | Annotated[EncodedForm, Tag("form")],
    Discriminator(_record_kind),
]


class FieldDomainValue(Closed):
    value: Annotated[int, Field(ge=0)]
    meaning: NonEmptyStr


class FieldDomain(Closed):
    """A closed value domain for an encoded field (assigned ∪ reserved = 0..2^w-1)."""

    id: PtoId
    width: Annotated[int, Field(ge=1, le=16)]
    role: NonEmptyStr
    zero_meaning: NonEmptyStr
    assigned: list[FieldDomainValue]
    reserved: list[int]
    rejection: NonEmptyStr

    @model_validator(mode="after")
    def _total(self) -> "FieldDomain":
        assigned = [a.value for a in self.assigned]
        if len(set(assigned)) != len(assigned):
            raise ValueError(f"{self.id}: a value is assigned twice")
        meanings = [a.meaning for a in self.assigned]
        if len(set(meanings)) != len(meanings):
            raise ValueError(f"{self.id}: two values share a meaning")
        overlap = set(assigned) & set(self.reserved)
        if overlap:
            raise ValueError(f"{self.id}: values {sorted(overlap)} are both assigned and reserved")
        missing = set(range(1 << self.width)) - set(assigned) - set(self.reserved)
        extra = (set(assigned) | set(self.reserved)) - set(range(1 << self.width))
        if missing or extra:
            raise ValueError(f"{self.id}: domain is not total over 0..{(1 << self.width) - 1}"
                             f" (missing {sorted(missing)}, out of range {sorted(extra)})")
        return self

    def name_of(self, value: int) -> str | None:
        for a in self.assigned:
            if a.value == value:
                return a.meaning
        return None


class InstructionHeader(Closed):
    """``// PTO-INSTRUCTION: {…}``: one mnemonic-owning unit."""

    id: PtoId
    mnemonic: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_.]*$")]
    surface: Surface
    classification: Annotated[list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]],
                              Field(min_length=1, max_length=2)]
    summary: NonEmptyStr
    assembly: Annotated[list[NonEmptyStr], Field(min_length=1)]
    block: list[str]
    catalog_indices: list[Annotated[int, Field(ge=0)]]
    catalog_records: list[CatalogRecord]
    contract: Contract
    depends_on: DependsOn
    engine: Engine | None = None
    alias_of: str | None = None
    alias_engine: Engine | None = None
    field_domains: list[FieldDomain] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> "InstructionHeader":
        want = f"PTO-{slug_upper(self.surface)}-{slug_upper(self.mnemonic)}"
        if self.id != want:
            raise ValueError(f"id {self.id!r} should be {want!r} (PTO-<SURFACE>-<slug(mnemonic)>)")
        if len(self.catalog_records) != len(self.catalog_indices):
            raise ValueError(f"{len(self.catalog_records)} catalog_records but "
                             f"{len(self.catalog_indices)} catalog_indices")
        if len(set(self.catalog_indices)) != len(self.catalog_indices):
            raise ValueError("catalog_indices has a duplicate")
        if self.surface != "tile" and self.engine is not None:  # required on tile records where the tree's
            raise ValueError("engine is forbidden on non-tile records")  # generation has it (loader/formats.py)
        if (self.alias_of is None) != (self.alias_engine is None):
            raise ValueError("alias_of and alias_engine go together")
        if self.alias_of is not None and (self.surface != "block" or self.catalog_records):
            raise ValueError("an alias is a block record with empty catalog_records")
        for rec in self.catalog_records:
            if isinstance(rec, TileOperation):
                if self.surface != "tile":
                    raise ValueError(f"a tile operation record on a {self.surface} instruction")
                if rec.name != self.mnemonic:
                    raise ValueError(f"catalog record name {rec.name!r} != mnemonic {self.mnemonic!r}")
                if rec.classification is not None or rec.engine is not None:
                    raise ValueError("classification/engine are projected into the catalog; "
                                     "the ASL record must not carry them")
            else:
                if self.surface == "tile":
                    raise ValueError("a tile instruction's catalog record must be a tile operation")
                if rec.mnemonic != self.mnemonic:
                    raise ValueError(f"catalog record mnemonic {rec.mnemonic!r} != {self.mnemonic!r}")
        return self

    @property
    def clause_id(self) -> str:
        """The implicit identity clause this instruction owns (``PTO-INST-<SURF>-<MN>``)."""
        return f"PTO-INST-{slug_upper(self.surface)}-{slug_upper(self.mnemonic)}"


class PreContractInstruction(InstructionHeader):
    """The ``pre-contract`` generation (:mod:`.generations`): no ``contract`` object yet.

    ``contract`` is None (the fact does not exist, it is not defaulted), and a
    mnemonic may hold single spaces between upper-case words (``HL.BSTART CALL``).
    """

    mnemonic: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_.]*(?: [A-Z][A-Z0-9_.]*)*$")]
    contract: None = None  # type: ignore[assignment]
    _no_contract = forbid_keys("contract")


def instruction_model(data: Any) -> type[InstructionHeader]:
    """The variant that validates one PTO-INSTRUCTION record (decided by its structure)."""
    return variant_without(data, "contract", InstructionHeader, PreContractInstruction)


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(FieldRole, FieldRef, Contract, Argument, DatrContract, TileOperation, EncodingWord, Piece, EncodedField, Constraint, AguAttributes, EncodingVariant, ExcludedValueOwner, EncodedForm, FieldDomainValue, FieldDomain, InstructionHeader, PreContractInstruction)
