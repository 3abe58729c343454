"""The traceability chain a page shows: exactly :func:`specgen.trace.unit_chain`.

``specgen trace`` (what CI prints) and the traceability section (what readers
see) read one function, so they cannot disagree.
"""

from __future__ import annotations

from ..trace import clause_digest, evidence_id, evidence_paths, recorded_hash, unit_chain

__all__ = ["clause_digest", "evidence_id", "evidence_paths", "recorded_hash", "unit_chain"]
