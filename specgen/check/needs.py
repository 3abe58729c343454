"""The facts a rule needs, and which of them this tree lacks and why.

A rule declares what it reads (``Rule(..., requires=("release_selection",))``);
the registry (:func:`specgen.check.run_checks`) asks :func:`missing_facts`
before running it. A fact can be absent for two reasons, and a reader must
tell them apart:

* the tree's format generation does not have it (release 0.58.0 records no
  release selection and no instruction contracts): the rule does not apply,
  said in a note;
* the artifact that holds it is absent or could not be read (a manifest
  missing a key, a traceability view that does not validate): the rule could
  not verify what it was asked to, said as an error that carries the loader's
  reason, so one cause is one finding and the check fails.

Either way one ``rule-not-run`` finding per cause names every rule it stopped,
and nothing degrades silently.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Callable

from ..diagnostics import Finding, Severity
from ..graph import Derived, SpecGraph
from ..loader import TRACEABILITY_SCHEMA
from ..loader.formats import RULE_UNKNOWN

NOT_RUN = "rule-not-run"
# loader findings that mean "this artifact could not be read"; folded into the one rule-not-run finding
UNREADABLE_KINDS = frozenset({"record-schema", "record-json", "manifest-absent", "file-empty", RULE_UNKNOWN})


@dataclass(frozen=True, slots=True)
class Gap:
    """Why a fact is missing: the artifact that should hold it, the reason, and whether that is a failure."""

    artifact: str
    reason: str
    failure: bool  # True: the artifact is absent or unreadable; False: the generation has no such fact
    line: int = 0
    per_rule: bool = False  # one note per stopped rule (an artifact of a shape specgen does not know)


def _generation(graph: SpecGraph, kind: str) -> str:
    formats = getattr(graph.spec, "formats", None) or {}
    label = formats.get(kind)
    return f" (format generation {label})" if label else ""


def _loader_reason(graph: SpecGraph, path: str) -> tuple[str, int] | None:
    """The loader's first reason an artifact is unreadable, and how many more it gave (None: no error)."""
    errs = sorted((f for f in graph.spec.findings if f.path == path and f.rule in UNREADABLE_KINDS
                   and f.severity is Severity.ERROR), key=lambda f: (f.line, f.col, f.message))
    if not errs:
        return None
    first = errs[0]
    more = f" (and {len(errs) - 1} more problem(s))" if len(errs) > 1 else ""
    return first.message + more, first.line


def _unreadable(graph: SpecGraph, path: str, what: str) -> Gap:
    found = _loader_reason(graph, path)
    if path not in graph.spec.artifacts:
        return Gap(path, f"{what} is absent" + (f" ({found[0]})" if found else ""), True, found[1] if found else 0)
    if found is not None:
        return Gap(path, f"{what} could not be read: {found[0]}", True, found[1])
    return Gap(path, f"{what} could not be read", True, 1)


def _manifest(graph: SpecGraph) -> Gap | None:
    spec = graph.spec
    if spec.manifest is not None:
        return None
    return _unreadable(graph, spec.manifest_path, "the release manifest")


def _release_selection(graph: SpecGraph) -> Gap | None:
    gap = _manifest(graph)
    if gap is not None or getattr(graph.spec.manifest, "release_selection", None) is not None:
        return gap
    return Gap(graph.spec.manifest_path, "the release manifest records no release selection"
               + _generation(graph, "manifest"), False)


def _traceability_view(graph: SpecGraph) -> Gap | None:
    spec = graph.spec
    if spec.traceability_view is not None:
        return None
    for rel, art in sorted(spec.artifacts.items()):
        if isinstance(art.data, dict) and art.data.get("schema") == TRACEABILITY_SCHEMA:
            shape = [f for f in spec.findings if f.path == rel and f.rule == RULE_UNKNOWN
                     and f.severity is Severity.WARNING]
            if shape:  # readable, of a shape specgen does not know: its warning says which keys
                return Gap(rel, "the traceability view has a shape specgen does not know (see its "
                           "format-generation-unknown warning)", False, shape[0].line, per_rule=True)
            return _unreadable(graph, rel, "the traceability view")
    return Gap(spec.config.json_root + "/evidence", "the tree has no release-traceability view"
               + _generation(graph, "evidence"), False)


def _source_root(graph: SpecGraph) -> str:
    roots = graph.spec.config.source_roots
    return posixpath.commonpath(roots) if roots else "."


def _contracts(graph: SpecGraph) -> Gap | None:
    records = [u.instruction for u in graph.spec.units if u.instruction is not None]
    if not records or any(getattr(r, "contract", None) is not None for r in records):
        return None
    return Gap(_source_root(graph), f"none of the {len(records)} instruction records has a contract object"
               + _generation(graph, "instruction"), False)


def _reviews(graph: SpecGraph) -> Gap | None:
    records = [u.instruction for u in graph.spec.units if u.instruction is not None]
    if not records or any(getattr(u, "review", None) is not None for u in graph.spec.units):
        return None
    return Gap(_source_root(graph), f"none of the {len(records)} instruction units has a review record"
               + _generation(graph, "review"), False)


def _by_generation(kind: str, lacking: str, artifact: str, reason: str) -> Callable[[SpecGraph], Gap | None]:
    """A fact that a named generation of ``kind`` does not have (``Spec.formats[kind] == lacking``)."""

    def probe(graph: SpecGraph) -> Gap | None:
        formats = getattr(graph.spec, "formats", None) or {}
        if formats.get(kind) != lacking:
            return None
        where = artifact.format(adr_dir=graph.spec.config.adr_dir, tests=graph.spec.config.test_root)
        if kind == "evidence" and graph.spec.traceability is not None:
            where = graph.spec.traceability.path
        return Gap(where, reason + _generation(graph, kind), False)

    return probe


# fact name -> probe; a probe returns None when the fact is there
FACTS: dict[str, Callable[[SpecGraph], Gap | None]] = {
    "manifest": _manifest,
    "release_selection": _release_selection,
    "traceability_view": _traceability_view,
    "contracts": _contracts,
    "review": _reviews,
    "adr_affected": _by_generation("adr", "markdown-headers", "{adr_dir}",
                                   "the ADRs name their requirements in prose, not in affected_ndf/affected_units"),
    "semantic_tests": _by_generation("evidence", "no-readiness-subjects", "{tests}",
                                     "the traceability view records no semantic-test requirement per instruction"),
}


def _gaps(graph: SpecGraph) -> dict[str, Gap]:
    return {name: gap for name, probe in FACTS.items() if (gap := probe(graph)) is not None}


GAPS = Derived(_gaps, structural=True)  # records and JSON artifacts: structure


def missing_facts(graph: SpecGraph, requires: tuple[str, ...]) -> list[Gap]:
    """The gaps that stop a rule needing ``requires`` (an unknown fact name is a programming error)."""
    unknown = [r for r in requires if r not in FACTS]
    if unknown:
        raise KeyError(f"unknown fact(s) {unknown}; known: {sorted(FACTS)}")
    gaps = GAPS(graph)
    return [gaps[r] for r in requires if r in gaps]


def not_run_findings(stopped: dict[Gap, list[str]]) -> list[Finding]:
    """One finding per cause, naming every rule it stopped."""
    out = []
    for gap, rule_ids in stopped.items():
        if gap.per_rule:
            out.extend(Finding(NOT_RUN, Severity.NOTE, gap.artifact, gap.line,
                               f"{rule_id} did not run: {gap.reason}", subject=gap.artifact, related=(rule_id,))
                       for rule_id in sorted(set(rule_ids)))
            continue
        ids = ", ".join(sorted(set(rule_ids)))
        if gap.failure:
            msg = f"{gap.reason}; so {ids} did not run and verified nothing"
            sev = Severity.ERROR
        else:
            verb = "does" if len(set(rule_ids)) == 1 else "do"
            msg = f"{gap.reason}, so {ids} {verb} not apply to this tree and did not run"
            sev = Severity.NOTE
        out.append(Finding(NOT_RUN, sev, gap.artifact, gap.line, msg, subject=gap.artifact,
                           related=tuple(sorted(set(rule_ids)))))
    return out


def absorbed(findings: list[Finding], stopped: dict[Gap, list[str]]) -> list[Finding]:
    """Drop the loader findings a failure gap already reports (one cause, one finding)."""
    paths = {g.artifact for g in stopped if g.failure}
    return [f for f in findings if not (f.path in paths and f.rule in UNREADABLE_KINDS)]
