"""The release-traceability view (``pto.release-traceability.v2``) and the ADR index.

These are the evidence files specgen reads for meaning: the check compares
them with the tree (``evidence-stale``) and the pages show their rows.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from .common import Closed, NonEmptyStr, PtoId, RelPath, Sha256


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
