"""The spec's hash contract: canonical JSON digests for the manifest and NDF rows.

``canon`` is the one definition of "canonical JSON" (sorted keys, separators
``,`` ``:``, ASCII escapes) used by the manifest's ``content_sha256`` and by
``release_selection.expanded_ndf``; both the check and ``manifest --write``
call it, so they cannot disagree.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .models.located import AslUnit, NdfClause


def canon(value: Any) -> str:
    """SHA-256 hex of the canonical JSON encoding of ``value``."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def content_sha256(rows: list[tuple[str, str]]) -> str:
    """``content_sha256``: the canonical digest of the ``{path: sha256}`` mapping of canonical inputs."""
    return canon({p: h for p, h in rows})


def clause_digest(clause: NdfClause) -> str:
    """Digest of an explicit clause (id, status, owning source, stripped body)."""
    status = clause.attrs.status if clause.attrs else "accepted"
    return canon({"id": clause.id, "status": status, "source": clause.source, "body": clause.text})


def identity_digest(clause_id: str, unit: AslUnit) -> str:
    """Digest of an instruction's implicit identity clause: the whole file's text hash."""
    file_hash = hashlib.sha256(unit.text.encode("utf-8")).hexdigest()
    return canon({"id": clause_id, "status": "accepted", "source": unit.path, "source_sha256": file_hash})
