"""The traceability matrix: a summary page and one page per surface, one row per instruction.

Coverage is honest: an instruction counts as covered only when it has a
semantic AVS test *and* the evidence artifact its index record names is in
the tree, the two things ``specgen check`` verifies about it
(``instruction-untested``, ``manifest-missing-file`` /
``instruction-missing-artifact``). Both are read from the same graph facts the
rules read (``graph.tests_by_source`` with the header's ``semantic`` flag, and
``spec.hash_of`` of the named artifact); ``tests/test_render_pages.py`` holds
the matrix to the check's findings on both corpora so they cannot drift apart.

The rows are a :class:`~specgen.graph.Derived` fact of the graph, read by every
matrix page and by the digest that keys them (``MATRIX``), so an edit that
leaves the rows alone does not re-render the matrix.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ...graph import Derived, SpecGraph
from ...models.located import AslUnit
from ..chain import evidence_paths
from ..links import tests_uri
from ..pages import IDS, MATRIX, Ctx, PageKind, PagePlan, ids_digest
from ..plan import Planning, tail

# why an instruction is not covered, in the order a reader fixes them
REASONS = ("no-tests", "no-semantic-test", "evidence-missing", "no-index-row")


@dataclass(frozen=True)
class MatrixRow:
    unit: AslUnit
    tests: int
    semantic: int
    adrs: tuple[str, ...]
    evidence: str | None  # the instruction-contract artifact its index record names
    evidence_present: bool
    reasons: tuple[str, ...]  # empty: covered

    @property
    def covered(self) -> bool:
        return not self.reasons


@dataclass(frozen=True)
class MatrixFacts:
    """What the matrix shows, before links: one row per instruction, and requirement coverage."""

    rows: tuple[MatrixRow, ...]
    executable: int  # executable requirements
    executable_tested: int  # ... named by at least one test
    executable_covered: int  # ... tested and their owner's evidence present
    units_tested: int
    missing_evidence: tuple[tuple[str, int], ...]  # (artifact path, instructions naming it)
    semantic_required: bool  # False: the release's format generation records no semantic-test requirement


def _matrix_facts(graph: SpecGraph) -> MatrixFacts:
    """Computed once per graph: every matrix page and the dependency digest read it."""
    view = graph.spec.traceability_view
    index_rows = {r.source: r for r in view.units} if view is not None else {}
    # an older format generation records no semantic-test requirement per instruction (its rows have
    # no ``semantic_tests``); check does not hold it to one (``rule-not-run``), and neither does the matrix
    semantic_required = view is None or any(r.semantic_tests is not None for r in view.units)
    rows = []
    missing: dict[str, int] = {}
    owner_ok: dict[str, bool] = {}
    for u in graph.spec.units:
        if u.instruction is None:
            continue
        tests = graph.tests_by_source.get(u.path, [])
        semantic = sum(1 for x in tests if x.header and x.header.semantic)
        row = index_rows.get(u.path)
        art = row.instruction_contract.artifact if row is not None and row.instruction_contract else None
        present = art is None or graph.spec.hash_of(art) is not None
        reasons = []
        if not tests:
            reasons.append("no-tests")
        elif not semantic and semantic_required:
            reasons.append("no-semantic-test")
        if not present:
            reasons.append("evidence-missing")
            missing[art] = missing.get(art, 0) + 1  # type: ignore[index]
        if view is not None and row is None:
            reasons.append("no-index-row")
        owner_ok[u.path] = present and row is not None if view is not None else present
        rows.append(MatrixRow(u, len(tests), semantic, tuple(graph.readiness_subjects(u)), art, present,
                              tuple(reasons)))
    exe = [r for r in graph.requirements if r.executable]
    tested = [r for r in exe if graph.tests_by_requirement.get(r.id)]
    covered = [r for r in tested if owner_ok.get(r.owner.path, True)]
    return MatrixFacts(tuple(sorted(rows, key=lambda r: (r.unit.instruction.surface, r.unit.instruction.mnemonic))),  # type: ignore[union-attr]
                       len(exe), len(tested), len(covered),
                       sum(1 for u in graph.spec.units if graph.unit_tests(u)), tuple(sorted(missing.items())),
                       semantic_required)


matrix_facts = Derived(_matrix_facts)


def _matrix_digest(graph: SpecGraph) -> str:
    """Digest of the matrix's facts, so an edit that leaves its rows alone does not re-render it."""
    f = matrix_facts(graph)
    rows = [f"{r.unit.path}\0{r.unit.instruction.mnemonic}\0{r.unit.instruction.surface}\0"  # type: ignore[union-attr]
            f"{'/'.join(r.unit.instruction.classification)}\0{r.tests}\0{r.semantic}\0{len(r.unit.clauses)}\0"  # type: ignore[union-attr]
            f"{','.join(r.adrs)}\0{r.evidence}\0{r.evidence_present}\0{','.join(r.reasons)}" for r in f.rows]
    rows.append(f"{f.executable}\0{f.executable_tested}\0{f.executable_covered}\0{f.units_tested}\0"
                f"{len(graph.spec.units)}\0{f.missing_evidence}\0{f.semantic_required}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


# records, tests, ADRs, evidence present: the structure (kept across a server's prose and ASL edits)
matrix_digest: Derived[str] = Derived(_matrix_digest, structural=True)


def surfaces(graph: SpecGraph) -> list[str]:
    """The surfaces that have instructions: one matrix page each (planned in :mod:`..pages`)."""
    return sorted({u.instruction.surface for u in graph.spec.units if u.instruction is not None})


def matrix_uri(lang: str, surface: str | None = None) -> str:
    return f"{lang}/traceability.md" if surface is None else f"{lang}/traceability/{surface}.md"


def _pct(a: int, b: int) -> str:
    return f"{(100.0 * a / b):.1f} %" if b else "—"


def _cov(cx: Ctx, a: int, b: int) -> str:
    return cx.t("label.coverage", covered=a, total=b, percent=_pct(a, b))


def matrix_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    g, t, lang = cx.graph, cx.t, cx.plan.lang
    facts = matrix_facts(g)
    surface = plan.subject
    crumbs = cx.crumbs(None)
    if surface is not None:
        crumbs.append((t("nav.traceability"), cx.link(matrix_uri(lang))))
    per_surface = []
    for s in surfaces(g):
        rs = [r for r in facts.rows if r.unit.instruction.surface == s]  # type: ignore[union-attr]
        per_surface.append({"key": s, "name": t("surface." + s), "href": cx.link(matrix_uri(lang, s)),
                            "total": len(rs), "covered": sum(r.covered for r in rs),
                            "semantic": sum(bool(r.semantic) for r in rs),
                            "evidence": sum(r.evidence_present for r in rs)})
    total = len(facts.rows)
    n_cov = sum(r.covered for r in facts.rows)
    reasons = [(t("matrix.reason." + k), sum(k in r.reasons for r in facts.rows)) for k in REASONS]
    ctx.update({
        "title": t("nav.traceability") if surface is None else t("matrix.surface_title", surface=t("surface." + surface)),
        "crumbs": crumbs, "surface": surface, "per_surface": per_surface,
        "evidence": [{"id": p, "href": cx.link(f"{lang}/release.md", "artifacts")} for p in evidence_paths(g)],
        "coverage": [
            (t("matrix.covered_instructions"), _cov(cx, n_cov, total)),
            (t("matrix.semantic_instructions"), _cov(cx, sum(bool(r.semantic) for r in facts.rows), total)),
            (t("matrix.evidence_instructions"), _cov(cx, sum(r.evidence_present for r in facts.rows), total)),
            (t("matrix.adr_instructions"), _cov(cx, sum(bool(r.adrs) for r in facts.rows), total)),
            (t("matrix.covered_requirements"), _cov(cx, facts.executable_covered, facts.executable)),
            (t("matrix.tested_requirements"), _cov(cx, facts.executable_tested, facts.executable)),
            (t("matrix.tested_units"), _cov(cx, facts.units_tested, len(g.spec.units))),
        ],
        "covered": n_cov, "total": total,
        "rule": t("matrix.rule") if facts.semantic_required else t("matrix.rule_no_semantic"),
        "reasons": [(name, n) for name, n in reasons if n],
        "missing": [{"path": p, "count": n, "href": cx.link(f"{lang}/release.md", "artifacts")}
                    for p, n in facts.missing_evidence],
        "rows": [], "classes": [], "statuses": [],
    })
    if surface is not None:
        rows = []
        for r in facts.rows:
            ins = r.unit.instruction
            assert ins is not None
            if ins.surface != surface:
                continue
            status = "covered" if r.covered else "not-covered"
            rows.append({"mnemonic": ins.mnemonic, "href": cx.unit_href(r.unit.path),
                         "classification": " / ".join(ins.classification), "class_key": ins.classification[0],
                         "tests": r.tests, "semantic": r.semantic,
                         "tests_href": cx.link(tests_uri(lang, r.unit.path)) if r.tests else None,
                         "clauses": len(r.unit.clauses), "adrs": [(a, cx.adr_href(a)) for a in r.adrs],
                         "evidence": r.evidence, "evidence_present": r.evidence_present,
                         "status": status, "status_label": t("matrix.status." + status),
                         "reasons": [t("matrix.reason." + k) for k in r.reasons]})
        ctx["rows"] = rows
        ctx["classes"] = sorted({(r["class_key"]) for r in rows})
        ctx["statuses"] = [(k, t("matrix.status." + k)) for k in ("covered", "not-covered")
                           if any(r["status"] == k for r in rows)]
    return ctx


def plan_matrix(p: Planning, lang: str) -> list[PagePlan]:
    """The whole matrix, and a page per surface with instructions."""
    deps = frozenset({MATRIX, IDS} | p.common)
    return [PagePlan(matrix_uri(lang), KIND, lang, None, deps, "")] + \
        [PagePlan(matrix_uri(lang, s), KIND, lang, s, deps, s) for s in surfaces(p.graph)]


KIND = PageKind("matrix", "matrix.html", matrix_context, plan_matrix, nav=tail(4),
                digests=((IDS, ids_digest), (MATRIX, matrix_digest)))
