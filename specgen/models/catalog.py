"""Catalog files under ``spec/catalog/``: envelopes around the records the ASL headers own.

The envelopes carry counts and reservations the spec may extend, so they stay
open; the records inside are the closed models of :mod:`.instruction`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .common import Closed, NonEmptyStr, Open
from .instruction import Constraint, EncodedForm, EncodingWord, Piece, TileOperation
from ..cache import codec


class FormCatalog(Open):
    """``scalar-forms.json`` / ``command-forms.json``."""

    schema_version: int
    forms: list[EncodedForm]


class TileOperationCatalog(Open):
    """``tile-operations.json``: operations with projected classification and engine."""

    schema_version: int
    operations: list[TileOperation]


class ReservationField(Closed):
    name: NonEmptyStr
    pieces: Annotated[list[Piece], Field(min_length=1)]
    signedness: Literal["encoding-defined", "signed", "unsigned"] | None = None
    width: int


class Reservation(Closed):
    encoding: list[EncodingWord]
    fields: list[ReservationField]
    length_bits: Literal[16, 32, 48, 64]
    mnemonic: NonEmptyStr
    owner: NonEmptyStr
    status: Literal["reserved-in-pto"]
    constraints: list[Constraint] | None = None


class ReservationCatalog(Open):
    """``extension-encoding-reservations.json`` (``linx-vector-reservations.json`` before)."""

    schema_version: int
    reservations: list[Reservation]


# The one list of catalog stems (``<json_root>/catalog/<stem>.json``), in the order encodings are built.
CATALOG_MODELS: dict[str, type[Open]] = {
    "command-forms": FormCatalog,
    "scalar-forms": FormCatalog,
    "tile-operations": TileOperationCatalog,
    "extension-encoding-reservations": ReservationCatalog,
    "linx-vector-reservations": ReservationCatalog,  # the same records, an older generation's file name
}
#: The catalogs that hold encoding reservations, by generation (same record shape); all are read.
RESERVATION_STEMS: tuple[str, ...] = ("extension-encoding-reservations", "linx-vector-reservations")
CATALOG_STEMS: tuple[str, ...] = tuple(CATALOG_MODELS)


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(FormCatalog, TileOperationCatalog, ReservationField, Reservation, ReservationCatalog)
