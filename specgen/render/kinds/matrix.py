"""The traceability matrix: one row per instruction with its tests and ADRs, and coverage.

Its rows are a :class:`~specgen.graph.Derived` fact of the graph, read by the
page of each language and by the digest that keys them (``MATRIX``), so an
edit that leaves the rows alone does not re-render the matrix.
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


@dataclass(frozen=True)
class MatrixFacts:
    """What the traceability matrix shows, before links: one row per instruction, and coverage."""

    rows: tuple[tuple[AslUnit, int, int, tuple[str, ...]], ...]  # unit, tests, semantic tests, ADR ids
    executable: int  # executable requirements
    executable_covered: int
    units_covered: int


def _matrix_facts(graph: SpecGraph) -> MatrixFacts:
    """Computed once per graph: the matrix page of each language and its dependency digest read it."""
    rows = []
    for u in graph.spec.units:
        if u.instruction is None:
            continue
        tests = graph.unit_tests(u)
        rows.append((u, len(tests), sum(1 for x in tests if x.header and x.header.semantic),
                     tuple(graph.readiness_subjects(u))))
    exe = [r for r in graph.requirements if r.executable]
    facts = MatrixFacts(tuple(rows), len(exe), sum(1 for r in exe if graph.tests_by_requirement.get(r.id)),
                        sum(1 for u in graph.spec.units if graph.unit_tests(u)))
    return facts


matrix_facts = Derived(_matrix_facts)


def matrix_digest(graph: SpecGraph) -> str:
    """Digest of the matrix's facts, so an edit that leaves its rows alone does not re-render it."""
    f = matrix_facts(graph)
    rows = [f"{u.path}\0{u.instruction.mnemonic}\0{u.instruction.surface}\0{n}\0{sem}\0{len(u.clauses)}\0"
            f"{','.join(adrs)}" for u, n, sem, adrs in f.rows if u.instruction is not None]
    rows.append(f"{f.executable}\0{f.executable_covered}\0{f.units_covered}\0{len(graph.spec.units)}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def _pct(a: int, b: int) -> str:
    return f"{(100.0 * a / b):.1f}%" if b else "—"


def matrix_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    g = cx.graph
    facts = matrix_facts(g)
    rows = []
    n_tested = n_sem = n_adr = 0
    for u, tests, sem, adrs in facts.rows:
        assert u.instruction is not None
        n_tested += bool(tests)
        n_sem += bool(sem)
        n_adr += bool(adrs)
        rows.append({"mnemonic": u.instruction.mnemonic, "surface": u.instruction.surface,
                     "href": cx.unit_href(u.path), "tests": tests, "semantic": sem,
                     "tests_href": cx.link(tests_uri(cx.plan.lang, u.path)) if tests else None,
                     "clauses": len(u.clauses),
                     "adrs": [(a, cx.adr_href(a)) for a in adrs]})
    rows.sort(key=lambda r: (r["surface"], r["mnemonic"]))
    exe_total, exe_cov, units_cov = facts.executable, facts.executable_covered, facts.units_covered
    total = len(rows)
    ctx.update({
        "title": cx.t("nav.traceability"), "crumbs": cx.crumbs(None), "rows": rows,
        "evidence": [{"id": p, "href": cx.link(f"{cx.plan.lang}/release.md", "artifacts")}
                     for p in evidence_paths(g)],
        "coverage": [
            (cx.t("label.tests"), cx.t("label.coverage", covered=n_tested, total=total, percent=_pct(n_tested, total))),
            (cx.t("label.semantic_tests"), cx.t("label.coverage", covered=n_sem, total=total, percent=_pct(n_sem, total))),
            (cx.t("label.adrs"), cx.t("label.coverage", covered=n_adr, total=total, percent=_pct(n_adr, total))),
            (cx.t("label.requirements"), cx.t("label.coverage", covered=exe_cov, total=exe_total,
                                              percent=_pct(exe_cov, exe_total))),
            (cx.t("label.units"), cx.t("label.coverage", covered=units_cov, total=len(g.spec.units),
                                       percent=_pct(units_cov, len(g.spec.units)))),
        ],
    })
    return ctx


KIND = PageKind("matrix", "matrix.html", matrix_context, digests=((IDS, ids_digest), (MATRIX, matrix_digest)))
