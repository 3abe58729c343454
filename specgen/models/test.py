"""The ``// PTO-TEST: {…}`` header of an AVS test."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from .common import Closed, NonEmptyStr, RelPath, UniqueStrList

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
