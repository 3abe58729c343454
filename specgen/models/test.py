"""The ``// PTO-TEST: {…}`` header of an AVS test."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from .common import Closed, NonEmptyStr, RelPath, UniqueStrList
from ..cache import codec

TestKind = Literal["execution", "boundary", "fault", "decode-positive", "decode-negative",
                   "static-invariant", "state-transition", "ordering", "atomicity"]
SEMANTIC_KINDS = frozenset({"execution", "boundary", "fault", "state-transition", "ordering",
                            "atomicity"})
KIND_TOKEN = {"execution": "exec", "boundary": "bound", "fault": "fault",
              "decode-positive": "decode", "decode-negative": "decode",
              "static-invariant": "static", "state-transition": "state", "ordering": "order",
              "atomicity": "atomic"}
FORBIDDEN_SUMMARY = ("migrated independent behavior point for", "run test", "validate execution")


class TestHeader(Closed):
    """An AVS test's metadata (exactly seven keys)."""

    __test__ = False  # not a pytest class

    id: Annotated[str, Field(pattern=r"^PTO-(AVS|TEST)-[A-Z0-9]+(?:-[A-Z0-9]+)*$")]
    source: Annotated[RelPath, Field(pattern=r"^asl/.+\.asl$")]
    requirements: UniqueStrList
    kind: TestKind
    summary: NonEmptyStr
    pass_condition: NonEmptyStr
    related_sources: list[Annotated[RelPath, Field(pattern=r"^asl/.+\.asl$")]]

    @field_validator("summary")
    @classmethod
    def _summary(cls, v: str) -> str:
        if v.lower().startswith(FORBIDDEN_SUMMARY):
            raise ValueError(f"summary must describe the behaviour, not start with {v.split()[0]!r}…")
        return v

    @property
    def semantic(self) -> bool:
        return self.kind in SEMANTIC_KINDS


class IdNamedTestHeader(TestHeader):
    """A test of the ``id-named`` generation (file ``<PTO-TEST-ID>.asl``): summaries are free text.

    The summary rule came with the later naming convention; this generation's tests were
    migrated with summaries such as "Migrated independent behavior point for …".
    """

    __test__ = False

    @field_validator("summary")
    @classmethod
    def _summary(cls, v: str) -> str:
        return v


def test_model(data: Any, file_stem: str) -> type[TestHeader]:
    """The variant that validates a test header: a file named by its own id is ``id-named``."""
    if isinstance(data, dict) and data.get("id") == file_stem:
        return IdNamedTestHeader
    return TestHeader


test_model.__test__ = False  # type: ignore[attr-defined]  # not a pytest function


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(TestHeader, IdNamedTestHeader)
