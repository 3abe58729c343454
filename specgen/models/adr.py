"""Architecture decision records: JSON front matter between ``---`` fences."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .common import Closed, NonEmptyStr, UniqueStrList
from ..cache import codec

AdrId = Annotated[str, Field(pattern=r"^ADR-[0-9]{4}$")]
NdfRef = Annotated[str, Field(pattern=r"^PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*$")]
HTTPS = r"^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[^\s]*)?$"


class AdrFrontMatter(Closed):
    """The 19 keys of an ADR's front matter (the corpus schema ``pto-adr.schema.json``)."""

    id: AdrId
    title: NonEmptyStr
    status: Literal["draft", "accepted", "rejected", "superseded"]
    authors: Annotated[list[NonEmptyStr], Field(min_length=1)]
    approvers: UniqueStrList
    created: dt.date
    accepted: dt.date | None
    rejected: dt.date | None
    superseded: dt.date | None
    baseline: Annotated[str, Field(pattern=r"^[0-9a-f]{40}$")]
    target_releases: Annotated[list[Annotated[str, Field(pattern=r"^([0-9]+\.[0-9]+\.[0-9]+|unassigned)$")]],
                               Field(min_length=1)]
    affected_ndf: list[NdfRef]
    affected_units: list[NdfRef]
    resolves: list[AdrId]
    supersedes: list[AdrId]
    superseded_by: list[AdrId]
    implementation_issue: Annotated[str, Field(pattern=HTTPS)] | None
    release_impact: Literal["required", "not-required"]
    legacy_ids: list[Annotated[str, Field(pattern=r"^(PRD-[0-9]{3}|PDR-[0-9]{3}|PD-[0-9]{2}(-[A-Z0-9]+)?)$")]]

    @model_validator(mode="after")
    def _status(self) -> "AdrFrontMatter":
        if self.status == "accepted":
            if self.accepted is None or not self.approvers or not self.affected_ndf:
                raise ValueError("an accepted ADR needs an accepted date, an approver and affected_ndf")
        if self.status == "rejected" and self.rejected is None:
            raise ValueError("a rejected ADR needs a rejected date")
        if self.status == "superseded" and (self.superseded is None or not self.superseded_by):
            raise ValueError("a superseded ADR needs a superseded date and superseded_by")
        for name in ("affected_ndf", "affected_units", "resolves", "supersedes", "superseded_by",
                     "authors", "target_releases"):
            vals = getattr(self, name)
            if len(set(vals)) != len(vals):
                raise ValueError(f"{name} has a duplicate entry")
        return self


class MarkdownAdrHeader(AdrFrontMatter):
    """An ADR of the ``markdown-headers`` generation: ``# ADR NNNN: Title`` then ``- Status:`` lines.

    The facts it states are the same AdrFrontMatter facts (id, title, status, dates,
    requirements, issue, superseding ADRs); what this generation never recorded
    (authors, baseline, target releases, …) is None, not defaulted. Its CI accepted two
    header variants the JSON generation does not: ``Status: proposed`` (an ADR under
    discussion, a draft in the later vocabulary) and a superseded ADR that does not name
    its successor (``superseded_by`` is then None: not recorded, not "none").

    This generation defines no status vocabulary: ``- Status:`` is free text (0.58.1's ADR 0062
    says "audit complete and frozen"). A status that starts with a word of the JSON list is that
    word (``Accepted (2026-01-02)`` is ``accepted``, so rules comparing statuses still apply);
    any other is kept as written and no rule reads it as one of the list.
    """

    status: NonEmptyStr  # type: ignore[assignment]

    authors: list[NonEmptyStr] | None = None  # type: ignore[assignment]
    approvers: list[NonEmptyStr] | None = None  # type: ignore[assignment]
    created: dt.date | None = None  # type: ignore[assignment]
    accepted: dt.date | None = None
    rejected: dt.date | None = None
    superseded: dt.date | None = None
    baseline: None = None  # type: ignore[assignment]
    target_releases: None = None  # type: ignore[assignment]
    affected_ndf: list[NdfRef] | None = None  # type: ignore[assignment]
    affected_units: None = None  # type: ignore[assignment]
    resolves: None = None  # type: ignore[assignment]
    supersedes: None = None  # type: ignore[assignment]
    superseded_by: list[AdrId] | None = None  # type: ignore[assignment]  # None: the header names no successor
    implementation_issue: Annotated[str, Field(pattern=HTTPS)] | None = None
    release_impact: None = None  # type: ignore[assignment]
    legacy_ids: None = None  # type: ignore[assignment]

    @model_validator(mode="after")
    def _status(self) -> "MarkdownAdrHeader":
        return self  # no relation is required: a generation that does not record one cannot contradict it


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(AdrFrontMatter, MarkdownAdrHeader)
