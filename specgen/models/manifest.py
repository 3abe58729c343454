"""``spec/release-manifest.json``: the release identity that binds every input to its SHA-256."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from .common import Closed, NonEmptyStr, Open, PtoId, RelPath, Sha256, forbid_keys, variant_without
from ..cache import codec


class HashedPath(Closed):
    # Kept as written (not RelPath): an unsafe path is the check's finding
    # (manifest-unsafe-path), and must not make the whole manifest unreadable.
    path: NonEmptyStr
    sha256: Sha256


class OwnedArtifact(Closed):
    kind: Literal["generated-documentation", "generated-evidence"]
    path: NonEmptyStr
    sha256: Sha256


class NdfDigest(Closed):
    id: PtoId
    sha256: Sha256


class ReleaseSelection(Closed):
    architecture_version: NonEmptyStr
    baseline_commit: Annotated[str, Field(pattern=r"^[0-9a-f]{40}$")]
    blockers: list[Any]
    excluded_draft_adrs: list[Annotated[str, Field(pattern=r"^ADR-[0-9]{4}$")]]
    expanded_ndf: list[NdfDigest]
    included_ndf_statuses: list[Literal["accepted", "open"]]
    policy_sha256: Sha256
    required_readiness_floor: Literal["executable", "validated", "released"]
    selected_adr_ids: list[Annotated[str, Field(pattern=r"^ADR-[0-9]{4}$")]]


class HashContract(Closed):
    algorithm: Literal["SHA-256"]
    content_projection: NonEmptyStr
    encoding_projection: NonEmptyStr | None = None
    json_encoding: NonEmptyStr


class HardwareProfileRef(Closed):
    evidence: RelPath
    path: RelPath
    profile_id: NonEmptyStr
    repository_implementation_conformance: NonEmptyStr
    sha256: Sha256


class ReleaseManifest(Closed):
    """The release manifest (pretty-printed, sorted keys); hashes are re-checked by ``check``."""

    schema_version: Literal[1]
    release: NonEmptyStr
    specification_status: Literal["draft", "candidate", "released", "final"]
    encoding_abi: NonEmptyStr
    content_sha256: Sha256
    encoding_projection_sha256: Sha256 | None = None
    hardware_conformance_profile: HardwareProfileRef | None = None
    release_selection: ReleaseSelection
    hash_contract: HashContract
    catalog_counts: dict[str, Any]
    elf_identity: Open | None = None
    canonical_inputs: list[HashedPath]
    owned_artifacts: list[OwnedArtifact]

    @field_validator("canonical_inputs", "owned_artifacts")
    @classmethod
    def _sorted_unique(cls, v: list[Any]) -> list[Any]:
        paths = [row.path for row in v]
        if len(set(paths)) != len(paths):
            dup = sorted({p for p in paths if paths.count(p) > 1})
            raise ValueError(f"path listed twice: {', '.join(dup[:3])}")
        return v


class UnselectedReleaseManifest(ReleaseManifest):
    """The ``no-release-selection`` generation: NDF digests and ADR selection are not recorded.

    ``release_selection`` is None (absent in the tree, not defaulted); rules that compare
    it do not apply to such a tree.
    """

    release_selection: None = None  # type: ignore[assignment]
    _no_selection = forbid_keys("release_selection")


def manifest_model(data: Any) -> type[ReleaseManifest]:
    """The variant that validates a manifest (decided by its structure)."""
    return variant_without(data, "release_selection", ReleaseManifest, UnselectedReleaseManifest)


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(HashedPath, OwnedArtifact, NdfDigest, ReleaseSelection, HashContract, HardwareProfileRef, ReleaseManifest, UnselectedReleaseManifest)
