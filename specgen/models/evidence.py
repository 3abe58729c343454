"""The release-traceability view (``pto.release-traceability.v2``) and the ADR index.

These are the evidence files specgen reads for meaning: the check compares
them with the tree (``evidence-stale``) and the pages show their rows.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from .common import Closed, NonEmptyStr, PtoId, RelPath, Sha256, forbid_keys
from ..cache import codec


class InstructionContractRef(Closed):
    artifact: RelPath
    mnemonic: NonEmptyStr
    ndf_clause: PtoId


class UnitRow(Closed):
    """The per-unit index record a page shows (``units[]``)."""

    classification: list[str]
    documentation: RelPath
    id: PtoId
    instruction_contract: InstructionContractRef | None = None
    mnemonic: str | None
    readiness_subjects: list[str]
    semantic_tests: list[str]
    source: RelPath
    surface: Literal["arch", "block", "scalar", "tile"]
    tests: list[str]


class RequirementRow(Closed):
    executable: bool
    id: PtoId
    owners: list[RelPath]
    readiness_subjects: list[str]
    tests: list[str]


class TestRow(Closed):
    __test__ = False

    id: NonEmptyStr
    kind: NonEmptyStr
    path: RelPath
    requirements: list[str]
    sha256: Sha256
    source: RelPath


class TraceabilitySummary(Closed):
    documentation_page_count: int
    executable_requirement_count: int
    mnemonic_count: int
    mnemonic_semantic_gap_count: int
    mnemonics_without_semantic_tests: list[str]
    requirement_count: int
    status: Literal["open", "closed"]
    test_count: int
    uncovered_executable_requirement_count: int
    uncovered_executable_requirements: list[str]
    uncovered_unit_count: int
    uncovered_units: list[str]
    unit_count: int


class TraceabilityView(Closed):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["pto.release-traceability.v2"] = Field(alias="schema")
    derivation: dict[str, str]
    requirements: list[RequirementRow]
    sources: dict[str, Sha256]
    summary: TraceabilitySummary
    tests: list[TestRow]
    units: list[UnitRow]


# ---- the ``no-readiness-subjects`` generation (:mod:`.generations`): same schema string, fewer facts


class BareUnitRow(UnitRow):
    """A unit row without readiness subjects and semantic tests (None: the view has no such fact)."""

    readiness_subjects: None = None  # type: ignore[assignment]
    semantic_tests: None = None  # type: ignore[assignment]
    _absent = forbid_keys("readiness_subjects", "semantic_tests")


class BareRequirementRow(RequirementRow):
    readiness_subjects: None = None  # type: ignore[assignment]
    _absent = forbid_keys("readiness_subjects")


class BareTraceabilitySummary(TraceabilitySummary):
    mnemonic_semantic_gap_count: None = None  # type: ignore[assignment]
    mnemonics_without_semantic_tests: None = None  # type: ignore[assignment]
    _absent = forbid_keys("mnemonic_semantic_gap_count", "mnemonics_without_semantic_tests")


class BareTraceabilityView(TraceabilityView):
    """The traceability view of the ``no-readiness-subjects`` generation."""

    requirements: list[BareRequirementRow]  # type: ignore[assignment]
    summary: BareTraceabilitySummary  # type: ignore[assignment]
    units: list[BareUnitRow]  # type: ignore[assignment]


def traceability_model(data: Any) -> type[TraceabilityView]:
    """The variant that validates a traceability view, decided by its summary's keys."""
    summary = data.get("summary") if isinstance(data, dict) else None
    if isinstance(summary, dict) and "mnemonic_semantic_gap_count" not in summary \
            and "mnemonics_without_semantic_tests" not in summary:
        return BareTraceabilityView
    return TraceabilityView


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(InstructionContractRef, UnitRow, RequirementRow, TestRow, TraceabilitySummary, TraceabilityView, BareUnitRow, BareRequirementRow, BareTraceabilitySummary, BareTraceabilityView)
