"""The AVS tests of one unit (kind ``tests``): each test's header, requirements, last result and listing.

A test's result is the one ``specgen test`` recorded for exactly this content
and configuration: the same test file (its SHA-256) run against the same tree
(ASL, catalogs, JSON artifacts, ``specification.toml``) with the tree's own
budgets, the default profile and the same specgen (:mod:`specgen.asl.runkey`).
Anything else reads "not run", never a guess. ``store_results`` is what
``specgen test`` calls; a failed write only costs the site its view.
Listings are data, not prose: the site keeps them out of the search index.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from pathlib import Path
from typing import Any, Iterable

from ...asl.runkey import run_key
from ...cache import atomic_write, cache_dir
from ...graph import Derived, SpecGraph
from ...loader import Spec

from ..links import tests_uri
from ..pages import RESULTS, Ctx, PageKind, PagePlan, unit_title
from ..plan import Planning, Search
from ..xref import symbol_deps
from ..xref import linked_listing


def tests_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ctx = cx.base()
    tests = []
    stored = STORED_RESULTS(cx.graph)
    for tst in cx.graph.unit_tests(unit):
        h = tst.header
        if h is None:  # a shard of test functions: each function with its own last result
            tests.append(_shard(cx, tst, stored))
            continue
        s, e = tst.span.lines
        tests.append({
            "id": h.id, "shard": False, "kind": h.kind, "summary": h.summary, "pass_condition": h.pass_condition,
            "path": tst.path, "sha256": tst.sha256,
            "requirements": [(r, cx.requirement_href(r)) for r in h.requirements],
            "related": [(p, cx.unit_href(p) if p in cx.graph.units_by_path else None) for p in h.related_sources],
            "header_src": cx.src(tst.path, s, e) if cx.source_url else None,
            "html": linked_listing(cx, tst.text, anchor=h.id),
            "result": _result(cx, stored.get(tst.path) if stored is not None else None, tst.sha256),
        })
    ctx.update({"unit": unit, "title": unit_title(unit), "path": unit.path, "tests": tests,
                "unit_href": cx.unit_href(unit.path), "crumbs": cx.crumbs(posixpath.dirname(unit.path))})
    return ctx


def _shard(cx: Ctx, tst: Any, stored: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    conv = cx.graph.spec.test_functions
    functions = conv.functions(tst.text) if conv is not None else []
    return {"id": posixpath.basename(tst.path), "shard": True, "path": tst.path, "sha256": tst.sha256,
            "functions": [{"name": name, "line": line,
                           "result": _result(cx, stored.get(f"{tst.path}::{name}") if stored is not None else None,
                                             tst.sha256)} for name, line in functions],
            "html": linked_listing(cx, tst.text, anchor=posixpath.basename(tst.path))}


def _result(cx: Ctx, rec: dict[str, Any] | None, sha256: str) -> dict[str, Any]:
    if rec is None or rec.get("sha256") != sha256:
        return {"status": "not-run", "label": cx.t("test.status.not-run"), "note": cx.t("test.not_run_note"),
                "message": "", "location": "", "profile": ""}
    status = str(rec.get("status", ""))
    return {"status": status, "label": cx.t("test.status." + status), "note": "",
            "message": str(rec.get("message", "")), "location": str(rec.get("location", "")),
            "profile": str(rec.get("profile", ""))}


def _results_file(key: str) -> Path:
    """Where the results of the tests run under ``key`` (:func:`specgen.asl.runkey.run_key`) are kept."""
    return cache_dir("test-results") / f"{key}.json"


def store_results(spec: Spec, results: Iterable[Any], profile: str, max_steps: int | None = None,
                  max_value_bits: int | None = None) -> bool:
    """Record each result (``TestResult``-like: id, path, status, message, location) for the site.

    Kept under the key of everything the verdicts depend on (tree content, budgets, profile,
    specgen's code; each record also carries its test file's digest) and merged into what earlier
    runs of other tests recorded under the same key, so a run of one directory does not forget the rest.
    """
    path = _results_file(run_key(spec, profile, max_steps, max_value_bits))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        tests = doc["tests"] if isinstance(doc.get("tests"), dict) else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        tests = {}
    digests = {t.path: t.sha256 for t in spec.tests}
    for r in results:
        if r.path in digests:  # a shard's test function is recorded by its id, ``<path>::<function>``
            tests[r.id if "::" in r.id else r.path] = {"id": r.id, "sha256": digests[r.path], "status": r.status,
                             "message": (r.message or "")[:2000], "location": r.location or "", "profile": profile}
    return atomic_write(path, json.dumps({"tests": tests}, sort_keys=True).encode())


def _shown(graph: SpecGraph) -> Path:
    """The results the site shows: those of a plain ``specgen test`` (the tree's budgets, the default profile)."""
    return _results_file(run_key(graph.spec))


def _stored_results(graph: SpecGraph) -> dict[str, dict[str, Any]] | None:
    try:
        doc = json.loads(_shown(graph).read_text(encoding="utf-8"))
        tests = doc["tests"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return tests if isinstance(tests, dict) else None


STORED_RESULTS = Derived(_stored_results)


def results_digest(graph: SpecGraph) -> str:
    """The stored results' digest ("-" for none): a new ``specgen test`` run re-renders the test pages."""
    try:
        return hashlib.sha256(_shown(graph).read_bytes()).hexdigest()
    except OSError:
        return "-"


def plan_tests(p: Planning, lang: str) -> list[PagePlan]:
    out = []
    for u in p.graph.spec.units:
        tests = p.graph.unit_tests(u)
        if tests:
            deps = ({u.path, RESULTS, *(t.path for t in tests)} | p.common
                    | symbol_deps(p.graph, None, tuple(t.text for t in tests)))
            out.append(PagePlan(tests_uri(lang, u.path), KIND, lang, u.path, frozenset(deps), unit_title(u)))
    return out


KIND = PageKind("tests", "tests.html", tests_context, plan_tests, search=Search.EXCLUDED,
                digests=((RESULTS, results_digest),))
