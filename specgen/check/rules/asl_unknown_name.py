"""asl-unknown-name (error): the spec's ASL uses a name nothing binds.

A lower-case name that no parameter, local or definition binds, or a capitalised name
nothing defines that is one edit away from one that is defined (the message names it).
"""

from __future__ import annotations

from ...asl.static import findings_of
from ...diagnostics import Severity
from ..base import Rule

RULE = Rule("asl-unknown-name", Severity.ERROR, "The spec's ASL uses a name that nothing defines.",
            "Correct the spelling or declare the name.", findings_of("asl-unknown-name"))
