"""The facts about a ``check`` run that every report format needs besides findings.

Formatters are pure functions of ``(findings, summary)``: anything a report
prints that is not a finding (tool version, rule catalogue, figures, timing)
travels here, so the same inputs always give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from specgen.diagnostics import Finding, KnownFinding, Severity, finding_key


class RuleInfo(NamedTuple):
    """One rule that ran: SARIF lists these as ``tool.driver.rules`` and JUnit
    gives each clean rule a passing testcase, so a CI view shows what was checked."""

    id: str
    severity: Severity
    description: str
    help: str = ""


def _frozen_counts(counts: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(counts))


@dataclass(frozen=True, slots=True)
class CheckSummary:
    """Run-level facts; ``elapsed_seconds=None`` keeps output byte-stable.

    ``counts`` are named figures (``"asl_units": 840``) printed in the order
    given. ``information_uri`` is where SARIF viewers link the tool name; it is
    left out of SARIF when ``None``. ``reused`` is said in the text summary
    only, next to the time it explains.
    """

    tool_version: str
    root: str
    release: str | None = None
    counts: Mapping[str, int] = field(default_factory=dict)
    rules: Sequence[RuleInfo] = ()
    elapsed_seconds: float | None = None
    information_uri: str | None = None
    content_sha256: str | None = None  # the manifest's declared content hash; the text summary prints it whole
    repo_root: str | None = None  # absolute repository top level; SARIF locates findings from it
    spec_in_repo: str | None = None  # POSIX path of the spec root inside ``repo_root`` ("" when equal)
    reused: bool = False  # the findings come from the result cache (nothing the check observed changed)
    # findings below ``--min-severity`` left out of the report, by plural severity ({"notes": 143}); the
    # text summary says so, so a shorter report never passes for a cleaner tree
    hidden: Mapping[str, int] = field(default_factory=dict)
    # findings a baseline or a suppression knows, by ``diagnostics.finding_key``: every format reports them as
    # known (SARIF baselineState/suppressions, JSON baseline/suppressed, JUnit skipped), none fails the check
    known: Mapping[str, KnownFinding] = field(default_factory=dict)
    baseline: str | None = None  # the baseline file the check compared with (SARIF baselineState is then set)
    # repository-relative paths a pull request changed: GitHub annotations rank their findings first
    changed_files: frozenset[str] = frozenset()

    def known_as(self, finding: Finding) -> KnownFinding | None:
        """How the team already knows ``finding``, or None when it is new."""
        return self.known.get(finding_key(finding)) if self.known else None
    # the same, by rule ({"example-sketch": 143}): JUnit says how many a rule's passing testcase hides
    hidden_rules: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", _frozen_counts(self.counts))
        object.__setattr__(self, "hidden", _frozen_counts(self.hidden))
        object.__setattr__(self, "known", MappingProxyType(dict(self.known)))
        object.__setattr__(self, "hidden_rules", _frozen_counts(self.hidden_rules))
        object.__setattr__(self, "rules", tuple(
            RuleInfo(r[0], Severity(r[1]), *r[2:]) for r in self.rules))
