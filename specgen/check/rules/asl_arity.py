"""asl-arity (error): a call in the spec's ASL passes a number of arguments no declaration takes."""

from __future__ import annotations

from ...asl.static import findings_of
from ...diagnostics import Severity
from ..base import Rule

RULE = Rule("asl-arity", Severity.ERROR, "A call in the spec's ASL has the wrong number of arguments.",
            "Pass the arguments the function declares, or declare the overload.", findings_of("asl-arity"))
