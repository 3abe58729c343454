"""Which pages the site has, what each depends on, and the helpers every page context shares.

Planning is cheap (no rendering): it lists every page with its dependency set
so a cache can skip pages whose inputs did not change. Each kind of page builds
its context in its own module under :mod:`specgen.render.kinds` from :class:`Ctx`;
contexts turn graph records into plain dicts and strings, templates only lay them out.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..diff import SpecDiff
from ..encoding.from_spec import spec_encodings
from ..encoding.model import EncodingSet
from ..examples.results import ExampleResult
from ..graph import SpecGraph
from ..models.catalog import CATALOG_STEMS
from ..models.evidence import TraceabilityView, UnitRow
from ..models.located import Adr, AslUnit, AvsTest
from .chain import evidence_paths, unit_chain
from .html import json_pretty
from .i18n import Messages
from .xref import linked_listing, symbol_deps
from .links import Linker, adr_uri, dir_index_uri, other_lang_uri, source_uri, tests_uri, unit_uri

ALL = "*"  # dependency meaning "the whole tree" (the release page: every file's hash is on it; changes)
HOME = "#home"  # the home page's facts: the units by surface, the record counts, the site's name
RECORD_OF = "#record:"  # dependency on a unit's record lines, not its ASL or prose (directory index rows)
IDS = "#ids"  # dependency on which file defines each ID (what ID links resolve to), not on file contents
MATRIX = "#matrix"  # dependency on the rows of the traceability matrix, not on the files behind them


def ids_digest(graph: SpecGraph) -> str:
    """Digest of every ID -> defining path mapping a link on a page can resolve through."""
    rows = [f"i\0{k}\0{u.path}" for k, u in graph.identities.items()]
    rows += [f"c\0{k}\0{cs[0].source}" for k, cs in graph.clauses.items() if cs]
    rows += [f"u\0{k}\0{us[0].path}" for k, us in graph.units_by_id.items() if us]
    rows += [f"a\0{a.front.id}\0{a.path}" for a in graph.adrs if a.front is not None]
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()


@dataclass(frozen=True)
class PagePlan:
    uri: str
    kind: str  # instruction | unit | index | home | adr | adr-index | tests | tests-index | matrix | release | source
    # | instruction-index | changes
    lang: str  # "en" | "zh" | "" for language-neutral pages
    subject: Any
    deps: frozenset[str]
    title: str


@dataclass(frozen=True)
class PageKind:
    """One kind of page, as :mod:`specgen.render.kinds` registers it.

    ``digests`` name the pseudo-dependencies (``IDS``, ``MATRIX``) its plans list, with the
    function that digests each; ``key`` adds a part to a page's cache key that its files do not
    determine (an instruction's example results); listings that are data, not prose, are not
    ``searchable``.
    """

    name: str
    template: str
    context: Callable[[Ctx, PagePlan], dict[str, Any]]
    digests: tuple[tuple[str, Callable[[SpecGraph], str]], ...] = ()
    key: Callable[[SpecGraph, PagePlan, dict[str, list[ExampleResult]]], str] | None = None
    searchable: bool = True


@dataclass
class SiteData:
    """Per-build indexes shared by every page context (computed once)."""

    graph: SpecGraph
    encodings: EncodingSet
    rows: dict[str, UnitRow]
    uris: frozenset[str] = frozenset()
    dirs: dict[str, list[str]] = field(default_factory=dict)  # asl dir -> child dirs
    dir_units: dict[str, list[AslUnit]] = field(default_factory=dict)
    examples: dict[str, list[ExampleResult]] = field(default_factory=dict)  # by mnemonic, run by this build
    changes: SpecDiff | None = None  # since the previous release, on a multi-release site only

    @functools.cached_property
    def tests_by_path(self) -> dict[str, AvsTest]:
        return {t.path: t for t in self.graph.spec.tests}

    @functools.cached_property
    def listed_adrs(self) -> frozenset[int]:
        """Identities of the ADRs that get pages (a set: pages ask once per link)."""
        return frozenset(id(a) for a in self.graph.adrs)


# ------------------------------------------------------------------ planning
def encodings_for(graph: SpecGraph) -> EncodingSet:
    """The check's encodings of this graph (built once from the loaded catalogs and headers)."""
    try:
        return spec_encodings(graph)
    except Exception:  # a malformed catalog is the check's business; pages go without diagrams
        return EncodingSet([])


def site_data(graph: SpecGraph) -> SiteData:
    view = graph.spec.traceability_view
    rows = {r.source: r for r in view.units} if isinstance(view, TraceabilityView) else {}
    data = SiteData(graph, encodings_for(graph), rows)
    for u in graph.spec.units:
        d = posixpath.dirname(u.path)
        data.dir_units.setdefault(d, []).append(u)
        while d.count("/") >= 1:
            parent = posixpath.dirname(d)
            kids = data.dirs.setdefault(parent, [])
            if d not in kids:
                kids.append(d)
            d = parent
    for k in data.dirs:
        data.dirs[k].sort()
    return data


def _catalog_deps(graph: SpecGraph) -> set[str]:
    root = graph.spec.config.json_root
    return {f"{root}/catalog/{s}.json" for s in CATALOG_STEMS}


def unit_title(u: AslUnit) -> str:
    if u.instruction is not None:
        return u.instruction.mnemonic
    return u.stem


def plan_site(graph: SpecGraph, langs: tuple[str, ...], local_sources: bool,
              changes: bool = False) -> list[PagePlan]:
    """Every page with its dependencies; ``changes``: a multi-release site, with a changes page per language."""
    spec = graph.spec
    plans: list[PagePlan] = []
    common = {p for p in evidence_paths(graph)} | _catalog_deps(graph) | {"specification.toml"}
    if spec.manifest_path:
        common.add(spec.manifest_path)
    units = spec.units
    all_dirs: set[str] = set()
    for u in units:
        d = posixpath.dirname(u.path)
        while d.count("/") >= 1:
            all_dirs.add(d)
            d = posixpath.dirname(d)
    # a directory index lists the units below it with their test counts: those files (and IDs,
    # for its links) are what it shows, not the whole tree
    below: dict[str, set[str]] = {d: set() for d in all_dirs}
    for u in units:  # a row shows the unit's record (title, summary, engine) and its number of tests
        files = {RECORD_OF + u.path, *(t.path for t in graph.unit_tests(u))}
        d = posixpath.dirname(u.path)
        while d in below:
            below[d] |= files
            d = posixpath.dirname(d)
    dir_deps = {d: frozenset(fs | {IDS} | common) for d, fs in below.items()}
    # the matrix has a page per surface with instructions; the instruction index shows their records
    instruction_paths = {u.path for u in units if u.instruction is not None}
    instruction_surfaces = sorted({u.instruction.surface for u in units if u.instruction is not None})
    # the lines and signatures a unit's links show: the same in every language, computed once
    shown = {u.path: symbol_deps(graph, u.path) for u in units}
    shown_tests = {u.path: symbol_deps(graph, None, tuple(t.text for t in graph.unit_tests(u)))
                   for u in units if graph.unit_tests(u)}
    # the tests index lists each unit with tests (its record's title) and every test (its header)
    tests_index_deps = frozenset({RECORD_OF + u.path for u in units if graph.unit_tests(u)}
                                 | {t.path for t in spec.tests})
    for lang in langs:
        plans.append(PagePlan(f"{lang}/index.md", "home", lang, None, frozenset({HOME}), ""))
        for d in sorted(all_dirs):
            plans.append(PagePlan(dir_index_uri(lang, d), "index", lang, d, dir_deps[d], d))
        for u in units:
            deps = {u.path} | common
            tests = graph.unit_tests(u)
            deps |= {t.path for t in tests}
            for rid in [c.id for c in u.clauses] + ([u.instruction.clause_id] if u.instruction else []):
                deps |= {t.path for t in graph.tests_by_requirement.get(rid, [])}
            for aid in graph.readiness_subjects(u):
                a = graph.adr(aid)
                if a is not None:
                    deps.add(a.path)
            for c in u.clauses:
                for aid in graph.adrs_for_requirement(c.id):
                    a = graph.adr(aid)
                    if a is not None:
                        deps.add(a.path)
            deps |= shown[u.path]  # the lines and signatures its links show
            kind = "instruction" if u.instruction is not None else "unit"
            plans.append(PagePlan(unit_uri(lang, u.path), kind, lang, u.path, frozenset(deps), unit_title(u)))
            if tests:
                plans.append(PagePlan(tests_uri(lang, u.path), "tests", lang, u.path,
                                      frozenset({u.path, *(t.path for t in tests)} | common
                                                | shown_tests[u.path]),
                                      unit_title(u)))
        plans.append(PagePlan(f"{lang}/tests/index.md", "tests-index", lang, None, tests_index_deps, ""))
        for a in graph.adrs:
            # an ADR page shows its own file and links resolved through IDs: not the whole tree
            plans.append(PagePlan(adr_uri(lang, a.path), "adr", lang, a.path, frozenset({a.path, IDS} | common),
                                  a.front.id if a.front else a.path))
        plans.append(PagePlan(f"{lang}/adr/index.md", "adr-index", lang, None,
                              frozenset(a.path for a in graph.adrs), ""))
        plans.append(PagePlan(f"{lang}/traceability.md", "matrix", lang, None,
                              frozenset({MATRIX, IDS} | common), ""))
        for s in instruction_surfaces:
            plans.append(PagePlan(f"{lang}/traceability/{s}.md", "matrix", lang, s,
                                  frozenset({MATRIX, IDS} | common), s))
        if instruction_paths:
            plans.append(PagePlan(f"{lang}/instructions/index.md", "instruction-index", lang, None,
                                  frozenset(instruction_paths | common), ""))
        plans.append(PagePlan(f"{lang}/release.md", "release", lang, None, frozenset({ALL}), ""))
        if changes:
            plans.append(PagePlan(f"{lang}/changes.md", "changes", lang, None, frozenset({ALL}), ""))
    if local_sources:
        for u in units:
            plans.append(PagePlan(source_uri(u.path), "source", "", u.path,
                                  frozenset({u.path} | symbol_deps(graph, u.path)), u.path))
    return plans


def human_label(t: Messages, prefix: str, key: str) -> str:
    """The catalog's label for ``prefix + key``; a key the catalogs do not know (a newer or older
    format generation) reads as words, never as snake_case."""
    label = t(prefix + key)
    if label != prefix + key:
        return label
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


# ------------------------------------------------------------------ contexts
class Ctx:
    """Helpers every context builder shares (messages, links, source links)."""

    def __init__(self, data: SiteData, plan: PagePlan, t: Messages, linker: Linker,
                 source_url: str | None, commit: str | None, langs: tuple[str, ...]) -> None:
        self.data, self.plan, self.t, self.link = data, plan, t, linker
        self.graph = data.graph
        self.source_url, self.commit, self.langs = source_url, commit, langs

    # -- links
    def src(self, path: str, start: int = 0, end: int = 0) -> str:
        """Where a source line range is shown: the repository at the release commit, or our source page."""
        if self.source_url:
            try:
                return self.source_url.format(commit=self.commit or "HEAD", path=path,
                                              start=start or 1, end=end or start or 1)
            except (KeyError, IndexError, ValueError):
                return self.source_url
        if path.endswith(".asl") and path in self.graph.units_by_path:
            return self.link(source_uri(path), f"L-{start}" if start else "")
        if path.startswith(self.graph.spec.config.test_root + "/"):
            t = self._test_by_path(path)
            if t is not None and t.header is not None and t.header.source in self.graph.units_by_path:
                return self.link(tests_uri(self.plan.lang or self.langs[0], t.header.source), t.header.id)
        adr = self.adr_by_path(path)
        if adr is not None and adr.front is not None and adr in self.graph.adrs:
            return self.link(adr_uri(self.plan.lang or self.langs[0], adr.path))
        return self.link(f"{self.plan.lang or self.langs[0]}/release.md", "artifacts")

    def _test_by_path(self, path: str) -> AvsTest | None:
        idx = getattr(self.data, "_tests_by_path", None)
        if idx is None:
            idx = {t.path: t for t in self.graph.spec.tests}
            setattr(self.data, "_tests_by_path", idx)
        return idx.get(path)

    def adr_by_path(self, path: str) -> Adr | None:
        idx = getattr(self.data, "_adrs_by_path", None)
        if idx is None:
            idx = {a.path: a for a in self.graph.spec.adrs}
            setattr(self.data, "_adrs_by_path", idx)
        return idx.get(path)

    def unit_href(self, path: str, anchor: str = "") -> str:
        return self.link(unit_uri(self.plan.lang, path), anchor)

    def requirement_href(self, rid: str) -> str | None:
        if rid in self.graph.identities:
            return self.unit_href(self.graph.identities[rid].path, "summary")
        cl = self.graph.clauses.get(rid)
        if cl:
            return self.unit_href(cl[0].source, rid)
        units = self.graph.units_by_id.get(rid)
        if units:
            return self.unit_href(units[0].path)
        return None

    def adr_href(self, adr_id: str) -> str | None:
        a = self.graph.adr(adr_id)
        if a is None or id(a) not in self.data.listed_adrs:
            return None
        return self.link(adr_uri(self.plan.lang, a.path))

    # -- common blocks
    def release(self) -> dict[str, Any]:
        spec = self.graph.spec
        man = spec.manifest
        return {
            "version": man.release if man else spec.config.release,
            "status": man.specification_status if man else spec.config.status,
            "commit": self.commit or "",
            "content_sha256": man.content_sha256 if man else "",
            "encoding_abi": man.encoding_abi if man else spec.config.encoding_abi,
            "manifest_path": spec.manifest_path,
            "manifest_sha256": spec.files.get(spec.manifest_path, ""),
            "href": self.link(f"{self.plan.lang or self.langs[0]}/release.md"),
        }

    def crumbs(self, upto_dir: str | None) -> list[tuple[str, str]]:
        lang = self.plan.lang
        out = [(self.t("nav.home"), self.link(f"{lang}/index.md"))]
        if upto_dir:
            parts = upto_dir.split("/")
            for i in range(2, len(parts) + 1):
                d = "/".join(parts[:i])
                out.append((parts[i - 1] if i > 2 else self.t("surface." + parts[1]),
                            self.link(dir_index_uri(lang, d))))
        return out

    def switch(self) -> dict[str, str] | None:
        lang = self.plan.lang
        if not lang or len(self.langs) < 2:
            return None
        other = next(x for x in self.langs if x != lang)
        uri = other_lang_uri(self.plan.uri, lang, other)
        return {"href": self.link(uri), "lang": Messages(other).locale, "label": self.t("lang.switch"),
                "title": self.t("lang.switch_label")}

    def base(self) -> dict[str, Any]:
        return {"t": self.t, "lang": self.plan.lang, "html_lang": Messages(self.plan.lang or "en").locale,
                "switch": self.switch(), "release": self.release(), "src": self.src, "link": self.link,
                "uri": self.plan.uri}

    def listing(self, path: str, text: str, start: int, anchor: str) -> Markup:
        return linked_listing(self, text, first_line=start, anchor=anchor)

    def trace(self, unit: AslUnit) -> dict[str, Any]:
        chain = unit_chain(self.graph, unit)
        entries: list[dict[str, Any]] = []
        for tst in chain["tests"]:
            entries.append({"kind": "test", "id": tst["id"], "title": tst["kind"], "path": tst["path"],
                            "sha256": tst["sha256"], "present": True, "result": self.test_result(tst["path"]),
                            "href": self.link(tests_uri(self.plan.lang, tst["source"]), tst["id"])
                            if tst["source"] in self.graph.units_by_path else self.src(tst["path"])})
        for ev in chain["evidence"]:
            entries.append({"kind": "artifact", "id": ev["id"], "title": "", "path": ev["path"],
                            "sha256": ev["sha256"], "present": ev["present"],
                            "href": self.link(f"{self.plan.lang}/release.md", ev["id"])})
        for adr in chain["adrs"]:
            entries.append({"kind": "adr", "id": adr["id"], "title": adr["title"], "path": adr["path"],
                            "sha256": adr["sha256"], "present": True, "status": adr["status"],
                            "href": self.adr_href(adr["id"]) or self.src(adr["path"])})
        clauses = [dict(c, href=self.unit_href(unit.path, c["id"]), src=self.src(c["path"], c["start"], c["end"]))
                   for c in chain["clauses"]]
        return {"clauses": clauses, "source": dict(chain["source"], src=self.src(unit.path)),
                "entries": entries, "count": len(entries), "identity": chain["identity"]}

    def test_result(self, path: str) -> dict[str, Any] | None:
        """A listed test's outcome in this build (None: the tree has no such test file)."""
        from .conformance import test_result
        test = self.data.tests_by_path.get(path)
        return test_result(self, test) if test is not None else None

    def index_record(self, unit: AslUnit) -> str | None:
        row = self.data.rows.get(unit.path)
        if row is None:
            return None
        return json_pretty(row.model_dump(mode="json", by_alias=True, exclude_none=True))

    def clauses(self, unit: AslUnit) -> list[dict[str, Any]]:
        out = []
        for c in unit.clauses:
            s, e = c.span.lines
            out.append({"id": c.id, "attrs": c.attrs.model_dump() if c.attrs else {}, "text": c.text,
                        "start": s, "end": e, "src": self.src(unit.path, s, e),
                        "adrs": [(a, self.adr_href(a)) for a in self.graph.adrs_for_requirement(c.id)],
                        "tests": [(t.header.id, self.link(tests_uri(self.plan.lang, t.header.source), t.header.id))
                                  for t in self.graph.tests_by_requirement.get(c.id, [])
                                  if t.header is not None and t.header.source in self.graph.units_by_path]})
        return out

    def records(self, unit: AslUnit) -> list[dict[str, Any]]:
        out = []
        if unit.raw_header is not None:
            s, e = unit.header_span.lines if unit.header_span else (1, 1)
            label = "label.instruction_record" if unit.instruction is not None else "label.unit_header"
            out.append({"id": "record-header", "label": self.t(label), "json": json_pretty(unit.raw_header),
                        "src": self.src(unit.path, s, e)})
        if unit.review is not None:
            s, e = unit.review_span.lines if unit.review_span else (1, 1)
            out.append({"id": "record-review", "label": self.t("label.review_record"),
                        "json": json_pretty(unit.review.model_dump(mode="json")), "src": self.src(unit.path, s, e)})
        for i, (rec, span) in enumerate(unit.states):
            s, e = span.lines
            out.append({"id": rec.id, "label": "PTO-STATE " + rec.id,
                        "json": json_pretty(rec.model_dump(mode="json")), "src": self.src(unit.path, s, e)})
        return out

    def doc_listings(self, unit: AslUnit) -> list[dict[str, Any]]:
        out = []
        for d in unit.docs:
            s, e = d.span.lines
            label = {"decode": self.t("label.decode"), "operation": self.t("label.operation")}.get(
                d.name, self.t("label.region", name=d.name))
            out.append({"name": d.name, "label": label, "html": self.listing(unit.path, d.text, s, f"{d.name}-L"),
                        "start": s, "end": e, "src": self.src(unit.path, s, e)})
        return out
