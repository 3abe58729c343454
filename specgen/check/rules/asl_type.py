"""asl-type (error): a type mismatch the spec's ASL shows before running (returns and result values)."""

from __future__ import annotations

from ...asl.static import findings_of
from ...diagnostics import Severity
from ..base import Rule

RULE = Rule("asl-type", Severity.ERROR, "The spec's ASL returns or uses a value its declarations do not allow.",
            "Make the return statement agree with the function's result type, or declare the result.",
            findings_of("asl-type"))
