"""asl-type (error): a type mismatch the spec's ASL shows before running (results, declarations, conditions, operands)."""

from __future__ import annotations

from ...asl.static import findings_of
from ...diagnostics import Severity
from ..base import Rule

RULE = Rule("asl-type", Severity.ERROR, "The spec's ASL returns or uses a value its declarations do not allow.",
            "Make the value agree with the declared type: the function's result, the local's declaration, a boolean condition.",
            findings_of("asl-type"))
