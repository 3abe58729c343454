"""Records of non-instruction units: ``PTO-UNIT``, ``PTO-STATE`` and ``PTO-REVIEW``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from .common import Closed, DependsOn, NonEmptyStr, PtoId
from .instruction import FieldDomain
from ..cache import codec

REVIEWED_FIELDS = ["assembly", "encoding", "defaults", "operation", "state", "memory",
                   "ordering", "faults", "reserved"]


class ReservationReviewRecord(Closed):
    review_method: Literal["formal-definition-read"]
    outcome: Literal["RESERVED"]
    reviewed_fields: list[str]


class ReservationReview(Closed):
    """A reserved mnemonic's review: ``RESERVED`` is legal here and nowhere else."""

    mnemonic: NonEmptyStr
    review: ReservationReviewRecord


class UnitHeader(Closed):
    """``// PTO-UNIT: {…}``: a model, state or data-type unit that instructions depend on."""

    id: PtoId
    surface: Literal["arch", "block", "scalar", "tile"]
    classification: Annotated[list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")]],
                              Field(min_length=1)]
    depends_on: DependsOn
    catalog_projection: dict[str, Any] | None = None
    field_domains: list[FieldDomain] | None = None
    deleted_names: list[NonEmptyStr] | None = None
    manual_reservation_reviews: list[ReservationReview] | None = None


class ReviewRecord(Closed):
    """``// PTO-REVIEW: {…}``: the formal review of one instruction (one per file)."""

    review_method: Literal["formal-definition-read"]
    outcome: Literal["FORMAL-COMPLETE", "FORMAL-INCOMPLETE", "AMBIGUOUS"]
    reviewed_fields: list[str]

    @field_validator("reviewed_fields")
    @classmethod
    def _fields(cls, v: list[str]) -> list[str]:
        if v != REVIEWED_FIELDS:
            raise ValueError(f"reviewed_fields must be exactly {REVIEWED_FIELDS}")
        return v


class StateRecord(Closed):
    """``// PTO-STATE: {…}``: an architectural state family and its ASL members."""

    id: Annotated[str, Field(pattern=r"^PTO-STATE-[A-Z0-9]+(?:-[A-Z0-9]+)*$")]
    classification: Annotated[list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]],
                              Field(min_length=1)]
    scope: Literal["core", "system", "pe", "bundle", "acr", "memory-agent"]
    owner: PtoId
    members: list[NonEmptyStr]
    depends_on: list[str]


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(ReservationReviewRecord, ReservationReview, UnitHeader, ReviewRecord, StateRecord)
