"""Which pages the site has, what each depends on, and the data each template gets.

Planning is cheap (no rendering): it lists every page with its dependency set
so a cache can skip pages whose inputs did not change. Building a context
turns graph records into plain dicts and strings; templates only lay them out.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup

from ..encoding.from_spec import STEMS as CATALOG_STEMS, spec_encodings
from ..encoding.model import Encoding, EncodingSet
from ..encoding.svg import svg as encoding_svg
from ..encoding.wavejson import wavejson_text
from ..examples.results import ExampleResult
from ..graph import Derived, SpecGraph
from ..models.evidence import TraceabilityView, UnitRow
from ..models.located import Adr, AslUnit, AvsTest
from . import links as L
from .blocks import parse_composition, signature
from .chain import evidence_id, evidence_paths, recorded_hash, unit_chain
from .examples import instruction_examples
from .html import highlight_asl, json_pretty, markdown_body, resolve_relative
from .i18n import Messages

ALL = "*"  # dependency meaning "the whole tree" (home, release, the tests and ADR indexes)
IDS = "#ids"  # dependency on which file defines each ID (what ID links resolve to), not on file contents
MATRIX = "#matrix"  # dependency on the rows of the traceability matrix, not on the files behind them


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
    lang: str  # "en" | "zh" | "" for language-neutral pages
    subject: Any
    deps: frozenset[str]
    title: str


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


def plan_site(graph: SpecGraph, langs: tuple[str, ...], local_sources: bool) -> list[PagePlan]:
    spec = graph.spec
    plans: list[PagePlan] = []
    common = {p for p in evidence_paths(graph)} | _catalog_deps(graph) | {"specification.toml"}
    if spec.manifest_path:
        common.add(spec.manifest_path)
    units = spec.units
    dirs = sorted({posixpath.dirname(u.path) for u in units} | {
        posixpath.dirname(posixpath.dirname(u.path)) for u in units})
    all_dirs: set[str] = set()
    for u in units:
        d = posixpath.dirname(u.path)
        while d.count("/") >= 1:
            all_dirs.add(d)
            d = posixpath.dirname(d)
    del dirs
    # a directory index lists the units below it with their test counts: those files (and IDs,
    # for its links) are what it shows, not the whole tree
    below: dict[str, set[str]] = {d: set() for d in all_dirs}
    for u in units:
        files = {u.path, *(t.path for t in graph.unit_tests(u))}
        d = posixpath.dirname(u.path)
        while d in below:
            below[d] |= files
            d = posixpath.dirname(d)
    dir_deps = {d: frozenset(fs | {IDS} | common) for d, fs in below.items()}
    for lang in langs:
        plans.append(PagePlan(f"{lang}/index.md", "home", lang, None, frozenset({ALL}), ""))
        for d in sorted(all_dirs):
            plans.append(PagePlan(L.dir_index_uri(lang, d), "index", lang, d, dir_deps[d], d))
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
            kind = "instruction" if u.instruction is not None else "unit"
            plans.append(PagePlan(L.unit_uri(lang, u.path), kind, lang, u.path, frozenset(deps), unit_title(u)))
            if tests:
                plans.append(PagePlan(L.tests_uri(lang, u.path), "tests", lang, u.path,
                                      frozenset({u.path, *(t.path for t in tests)} | common),
                                      unit_title(u)))
        plans.append(PagePlan(f"{lang}/tests/index.md", "tests-index", lang, None, frozenset({ALL}), ""))
        for a in graph.adrs:
            # an ADR page shows its own file and links resolved through IDs: not the whole tree
            plans.append(PagePlan(L.adr_uri(lang, a.path), "adr", lang, a.path, frozenset({a.path, IDS} | common),
                                  a.front.id if a.front else a.path))
        plans.append(PagePlan(f"{lang}/adr/index.md", "adr-index", lang, None, frozenset({ALL}), ""))
        plans.append(PagePlan(f"{lang}/traceability.md", "matrix", lang, None,
                              frozenset({MATRIX, IDS} | common), ""))
        plans.append(PagePlan(f"{lang}/release.md", "release", lang, None, frozenset({ALL}), ""))
    if local_sources:
        for u in units:
            plans.append(PagePlan(L.source_uri(u.path), "source", "", u.path, frozenset({u.path}), u.path))
    return plans


# ------------------------------------------------------------------ contexts
class Ctx:
    """Helpers every context builder shares (messages, links, source links)."""

    def __init__(self, data: SiteData, plan: PagePlan, t: Messages, linker: L.Linker,
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
            return self.link(L.source_uri(path), f"L-{start}" if start else "")
        if path.startswith(self.graph.spec.config.test_root + "/"):
            t = self._test_by_path(path)
            if t is not None and t.header is not None and t.header.source in self.graph.units_by_path:
                return self.link(L.tests_uri(self.plan.lang or self.langs[0], t.header.source), t.header.id)
        adr = self._adr_by_path(path)
        if adr is not None and adr.front is not None and adr in self.graph.adrs:
            return self.link(L.adr_uri(self.plan.lang or self.langs[0], adr.path))
        return self.link(f"{self.plan.lang or self.langs[0]}/release.md", "artifacts")

    def _test_by_path(self, path: str) -> AvsTest | None:
        idx = getattr(self.data, "_tests_by_path", None)
        if idx is None:
            idx = {t.path: t for t in self.graph.spec.tests}
            setattr(self.data, "_tests_by_path", idx)
        return idx.get(path)

    def _adr_by_path(self, path: str) -> Adr | None:
        idx = getattr(self.data, "_adrs_by_path", None)
        if idx is None:
            idx = {a.path: a for a in self.graph.spec.adrs}
            setattr(self.data, "_adrs_by_path", idx)
        return idx.get(path)

    def unit_href(self, path: str, anchor: str = "") -> str:
        return self.link(L.unit_uri(self.plan.lang, path), anchor)

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
        return self.link(L.adr_uri(self.plan.lang, a.path))

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
                            self.link(L.dir_index_uri(lang, d))))
        return out

    def switch(self) -> dict[str, str] | None:
        lang = self.plan.lang
        if not lang or len(self.langs) < 2:
            return None
        other = next(x for x in self.langs if x != lang)
        uri = L.other_lang_uri(self.plan.uri, lang, other)
        return {"href": self.link(uri), "lang": Messages(other).locale, "label": self.t("lang.switch"),
                "title": self.t("lang.switch_label")}

    def base(self) -> dict[str, Any]:
        return {"t": self.t, "lang": self.plan.lang, "html_lang": Messages(self.plan.lang or "en").locale,
                "switch": self.switch(), "release": self.release(), "src": self.src, "link": self.link,
                "uri": self.plan.uri}

    def listing(self, path: str, text: str, start: int, anchor: str) -> Markup:
        return highlight_asl(text, first_line=start, anchor=anchor)

    def trace(self, unit: AslUnit) -> dict[str, Any]:
        chain = unit_chain(self.graph, unit)
        entries: list[dict[str, Any]] = []
        for tst in chain["tests"]:
            entries.append({"kind": "test", "id": tst["id"], "title": tst["kind"], "path": tst["path"],
                            "sha256": tst["sha256"], "present": True,
                            "href": self.link(L.tests_uri(self.plan.lang, tst["source"]), tst["id"])
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
                        "tests": [(t.header.id, self.link(L.tests_uri(self.plan.lang, t.header.source), t.header.id))
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


def _unit_common(cx: Ctx, unit: AslUnit) -> dict[str, Any]:
    ctx = cx.base()
    ctx.update({
        "unit": unit, "title": unit_title(unit), "path": unit.path, "sha256": unit.sha256,
        "crumbs": cx.crumbs(posixpath.dirname(unit.path)),
        "records": cx.records(unit), "clauses": cx.clauses(unit), "listings": cx.doc_listings(unit),
        "trace": cx.trace(unit), "index_record": cx.index_record(unit),
        "source_href": cx.src(unit.path),
        "tests_href": cx.link(L.tests_uri(cx.plan.lang, unit.path)) if cx.graph.unit_tests(unit) else None,
        "depends_on": [(d, cx.requirement_href(d)) for d in
                       ((unit.instruction or unit.unit).depends_on if (unit.instruction or unit.unit) else [])],
    })
    return ctx


def instruction_context(cx: Ctx, unit: AslUnit) -> dict[str, Any]:
    ins = unit.instruction
    assert ins is not None
    t = cx.t
    ctx = _unit_common(cx, unit)
    c = ins.contract
    comp = parse_composition(list(c.block_composition))
    ops = [(o.field, o.role) for o in c.operands]
    sig = signature(ins.mnemonic, ins.surface, comp, ops)
    operands = [{"group": t("group." + o.group), "group_key": o.group, "name": o.name,
                 "meaning": o.meaning if o.meaning is not None else t(o.meaning_key or "meaning.param"),
                 "source": o.source} for o in sig.operands]
    encs: list[Encoding] = cx.data.encodings.by_mnemonic(ins.mnemonic)
    fields: list[dict[str, Any]] = []
    seen: set[str] = set()
    roles = {o.field: o.role for o in c.operands}
    for enc in encs:
        for f in enc.fields:
            if f.name in seen:
                continue
            seen.add(f.name)
            fields.append({"name": f.name, "width": f.width, "signedness": f.signedness or "",
                           "role": f.role or roles.get(f.name, ""),
                           "zero": c.field_zero_meanings.get(f.name) or f.zero_meaning or "",
                           "fixed": f.fixed_value})
    for o in c.operands:
        if o.field not in seen:
            seen.add(o.field)
            fields.append({"name": o.field, "width": None, "signedness": "", "role": o.role,
                           "zero": c.field_zero_meanings.get(o.field, ""), "fixed": None})
    encodings = []
    for enc in encs:
        svg_text = encoding_svg(enc)
        if svg_text.startswith("<?xml"):
            svg_text = svg_text.split("?>", 1)[1]
        encodings.append({
            "form_id": enc.form_id, "variant": enc.variant, "width": enc.width, "assembly": enc.assembly,
            "decoded": [{"name": i.name, "bits": i.bits,
                       "value": t("label.variable") if i.value == "variable" else i.value,
                       "fixed": i.fixed_value if i.value == "variable" else None} for i in enc.items()],
            "svg": Markup(svg_text.strip()), "wavejson": json_pretty_compactless(wavejson_text(enc)),
            "wavejson_compact": wavejson_text(enc),
            "carrier": enc.carrier.asm, "carrier_id": enc.carrier.form_id,
            "catalog": enc.source.path, "catalog_line": enc.source.line,
            "catalog_src": cx.src(enc.source.path, enc.source.line, enc.source.line),
            "constraints": [k.describe() for k in enc.constraints],
        })
    examples = instruction_examples(cx.data.examples.get(ins.mnemonic, []), ins.id, list(c.examples), cx.src)
    rec = next((r for r in ins.catalog_records if hasattr(r, "semantic_handler")), None)
    prose = [t("prose.identity", mnemonic=ins.mnemonic, surface=ins.surface,
               classification=" / ".join(ins.classification), summary=ins.summary)]
    if ins.engine:
        prose.append(t("prose.engine", engine=ins.engine))
    tile_rec = next((r for r in ins.catalog_records if hasattr(r, "family")), None)
    if tile_rec is not None and getattr(tile_rec, "mode", None) is not None:
        prose.append(t("prose.selector", carrier=tile_rec.command_mnemonic, mode=tile_rec.mode,
                       function=tile_rec.function, selector=tile_rec.selector))
    elif tile_rec is not None:
        prose.append(t("prose.selector_nomode", carrier=tile_rec.command_mnemonic, function=tile_rec.function))
    elif c.standalone_opcode:
        prose.append(t("prose.standalone", encoding_class=c.encoding_class))
    else:
        prose.append(t("prose.encoding_other", encoding_class=c.encoding_class))
    if tile_rec is not None:
        prose.append(t("prose.handler", handler=tile_rec.semantic_handler, legality=tile_rec.legality_handler,
                       fault=tile_rec.fault_contract, restart=tile_rec.restart_contract))
    if c.operands:
        prose.append(t("prose.operands", operands=t("prose.list_sep").join(
            t("prose.operand_item", field=o.field, role=o.role) for o in c.operands)))
    prose.append(t("prose.preflight", count=len(c.legality)))
    prose.append(t("prose.snapshot", ordering=" ".join(c.ordering)))
    prose.append(t("prose.publication", count=len(c.state_effects), memory=t("prose.list_sep").join(c.memory_effects)))
    prose.append(t("prose.faults", count=len(c.exceptions)))
    prose.append(t("prose.defaults", count=len(c.defaults)))
    del rec
    ctx.update({
        "ins": ins, "summary": ins.summary, "signature": sig.text(), "operands": operands,
        "composition": comp, "composition_structured": comp.structured, "minimal": comp.minimal,
        "fields": fields, "encodings": encodings, "encoding_class": c.encoding_class,
        "canonical_assembly": list(c.canonical_assembly),
        "prose": prose, "examples": examples,
        "contract_lists": [("defaults", t("label.defaults"), c.defaults),
                           ("legality", t("label.legality"), c.legality),
                           ("state-effects", t("label.state_effects"), c.state_effects),
                           ("memory-effects", t("label.memory_effects"), c.memory_effects),
                           ("ordering", t("label.ordering"), c.ordering),
                           ("exceptions", t("label.exceptions"), c.exceptions)],
    })
    return ctx


def json_pretty_compactless(compact: str) -> str:
    import json
    return json.dumps(json.loads(compact), indent=2, ensure_ascii=False)


def unit_context(cx: Ctx, unit: AslUnit) -> dict[str, Any]:
    ctx = _unit_common(cx, unit)
    ctx["full_listing"] = highlight_asl(unit.text, anchor="L") if unit.text else None
    return ctx


def tests_context(cx: Ctx, path: str) -> dict[str, Any]:
    unit = cx.graph.units_by_path[path]
    ctx = cx.base()
    tests = []
    for tst in cx.graph.unit_tests(unit):
        h = tst.header
        assert h is not None
        s, e = tst.span.lines
        tests.append({
            "id": h.id, "kind": h.kind, "summary": h.summary, "pass_condition": h.pass_condition,
            "path": tst.path, "sha256": tst.sha256,
            "requirements": [(r, cx.requirement_href(r)) for r in h.requirements],
            "related": [(p, cx.unit_href(p) if p in cx.graph.units_by_path else None) for p in h.related_sources],
            "header_src": cx.src(tst.path, s, e) if cx.source_url else None,
            "html": highlight_asl(tst.text, anchor=h.id),
        })
    ctx.update({"unit": unit, "title": unit_title(unit), "path": unit.path, "tests": tests,
                "unit_href": cx.unit_href(unit.path), "crumbs": cx.crumbs(posixpath.dirname(unit.path))})
    return ctx


def _pct(a: int, b: int) -> str:
    return f"{(100.0 * a / b):.1f}%" if b else "—"


def index_context(cx: Ctx, d: str) -> dict[str, Any]:
    ctx = cx.base()
    units = sorted(cx.data.dir_units.get(d, []), key=lambda u: unit_title(u).lower())
    subdirs = cx.data.dirs.get(d, [])
    ctx.update({
        "title": d.removeprefix("asl/"), "dir": d,
        "crumbs": cx.crumbs(posixpath.dirname(d)) if d.count("/") > 1 else cx.crumbs(None),
        "subdirs": [{"name": s.rsplit("/", 1)[-1], "href": cx.link(L.dir_index_uri(cx.plan.lang, s)),
                     "count": sum(1 for u in cx.graph.spec.units if u.path.startswith(s + "/"))}
                    for s in subdirs],
        "units": [{"title": unit_title(u), "href": cx.unit_href(u.path), "id": u.id or "",
                   "summary": u.instruction.summary if u.instruction else "",
                   "kind": "instruction" if u.instruction else "unit",
                   "tests": len(cx.graph.unit_tests(u))} for u in units],
    })
    return ctx


def home_context(cx: Ctx) -> dict[str, Any]:
    ctx = cx.base()
    spec = cx.graph.spec
    surfaces = sorted({u.path.split("/")[1] for u in spec.units if u.path.count("/") >= 2})
    lang = cx.plan.lang
    ctx.update({
        "title": spec.config.name or cx.t("site.title"),
        "crumbs": [],
        "surfaces": [{"name": cx.t("surface." + s), "key": s, "href": cx.link(L.dir_index_uri(lang, "asl/" + s)),
                      "instructions": sum(1 for u in spec.units if u.instruction and u.path.startswith(f"asl/{s}/")),
                      "units": sum(1 for u in spec.units if u.path.startswith(f"asl/{s}/"))} for s in surfaces],
        "links": [(cx.t("nav.adrs"), cx.link(f"{lang}/adr/index.md")),
                  (cx.t("nav.tests"), cx.link(f"{lang}/tests/index.md")),
                  (cx.t("nav.traceability"), cx.link(f"{lang}/traceability.md")),
                  (cx.t("nav.release"), cx.link(f"{lang}/release.md"))],
        "counts": spec.counts(),
    })
    return ctx


def adr_context(cx: Ctx, path: str) -> dict[str, Any]:
    adr = cx._adr_by_path(path)
    assert adr is not None and adr.front is not None
    ctx = cx.base()
    lang = cx.plan.lang

    def resolve(href: str) -> str | None:
        if href.startswith("#"):
            return href
        if href.startswith("https://") or href.startswith("http://"):
            return href
        rel = resolve_relative(adr.path, href)
        if rel is None:
            return None
        if rel in cx.graph.units_by_path:
            return cx.unit_href(rel)
        other = cx._adr_by_path(rel)
        if other is not None and other in cx.graph.adrs:
            return cx.link(L.adr_uri(lang, other.path))
        if cx.source_url:
            return cx.src(rel)
        return None

    front = adr.raw if isinstance(adr.raw, dict) else adr.front.model_dump(mode="json")
    rows = []
    for k in sorted(front):
        v = front[k]
        if isinstance(v, list):
            v = ", ".join(str(x) for x in v) if v else "—"
        elif v is None:
            v = "—"
        rows.append((k, str(v)))
    f = adr.front
    ctx.update({
        "title": f"{f.id}: {f.title}", "adr": adr, "front": f, "front_rows": rows,
        "crumbs": [(cx.t("nav.home"), cx.link(f"{lang}/index.md")), (cx.t("nav.adrs"), cx.link(f"{lang}/adr/index.md"))],
        "body": markdown_body(adr.body, resolve),
        "units": [(uid, cx.requirement_href(uid)) for uid in f.affected_units],
        "ndf": [(nid, cx.requirement_href(nid)) for nid in f.affected_ndf],
        "related": [(x, cx.adr_href(x)) for x in sorted(set(f.resolves + f.supersedes + f.superseded_by))],
        "issue": f.implementation_issue if f.implementation_issue and f.implementation_issue.startswith("https://") else None,
        "src_href": cx.src(adr.path, 1, adr.span.lines[1]),
    })
    return ctx


def adr_index_context(cx: Ctx) -> dict[str, Any]:
    ctx = cx.base()
    lang = cx.plan.lang
    ctx.update({"title": cx.t("nav.adrs"), "crumbs": cx.crumbs(None),
                "adrs": [{"id": a.front.id, "title": a.front.title, "status": a.front.status,
                          "created": str(a.front.created), "href": cx.link(L.adr_uri(lang, a.path))}
                         for a in sorted(cx.graph.adrs, key=lambda a: a.front.id)]})  # type: ignore[union-attr]
    return ctx


def tests_index_context(cx: Ctx) -> dict[str, Any]:
    ctx = cx.base()
    groups: dict[str, list[dict[str, Any]]] = {}
    for u in cx.graph.spec.units:
        tests = cx.graph.unit_tests(u)
        if not tests:
            continue
        groups.setdefault(u.surface, []).append({
            "title": unit_title(u), "path": u.path, "count": len(tests),
            "semantic": sum(1 for x in tests if x.header and x.header.semantic),
            "href": cx.link(L.tests_uri(cx.plan.lang, u.path))})
    orphans = [t for t in cx.graph.spec.tests if t.header is None or t.header.source not in cx.graph.units_by_path]
    ctx.update({"title": cx.t("nav.tests"), "crumbs": cx.crumbs(None),
                "groups": [(cx.t("surface." + k), k, v) for k, v in sorted(groups.items())],
                "total": len(cx.graph.spec.tests),
                "orphans": [{"path": t.path, "sha256": t.sha256, "id": t.header.id if t.header else ""}
                            for t in orphans]})
    return ctx


def matrix_context(cx: Ctx) -> dict[str, Any]:
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
                     "tests_href": cx.link(L.tests_uri(cx.plan.lang, u.path)) if tests else None,
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


def release_context(cx: Ctx) -> dict[str, Any]:
    ctx = cx.base()
    g = cx.graph
    spec = g.spec
    arts = []
    for p in evidence_paths(g):
        sha, present = recorded_hash(g, p)
        arts.append({"id": evidence_id(p), "path": p, "sha256": sha, "present": present})
    man = spec.manifest
    ctx.update({
        "title": cx.t("nav.release"), "crumbs": cx.crumbs(None), "artifacts": arts,
        "counts": sorted(spec.counts().items()),
        "catalog_counts": json_pretty(man.catalog_counts) if man else None,
        "manifest_src": cx.src(spec.manifest_path, 1, 1) if spec.manifest_path in spec.files and cx.source_url else None,
    })
    return ctx


def source_context(cx: Ctx, path: str) -> dict[str, Any]:
    unit = cx.graph.units_by_path[path]
    ctx = cx.base()
    ctx.update({"title": path, "unit": unit, "path": path, "sha256": unit.sha256, "crumbs": [],
                "pages": [(Messages(lang)("lang.name"),
                           cx.link(L.unit_uri(lang, path))) for lang in cx.langs],
                "html": highlight_asl(unit.text, anchor="L")})
    return ctx


BUILDERS: dict[str, tuple[str, Callable[..., dict[str, Any]]]] = {
    "instruction": ("instruction.html", lambda cx, p: instruction_context(cx, cx.graph.units_by_path[p.subject])),
    "unit": ("unit.html", lambda cx, p: unit_context(cx, cx.graph.units_by_path[p.subject])),
    "tests": ("tests.html", lambda cx, p: tests_context(cx, p.subject)),
    "index": ("index.html", lambda cx, p: index_context(cx, p.subject)),
    "home": ("home.html", lambda cx, p: home_context(cx)),
    "adr": ("adr.html", lambda cx, p: adr_context(cx, p.subject)),
    "adr-index": ("adr_index.html", lambda cx, p: adr_index_context(cx)),
    "tests-index": ("tests_index.html", lambda cx, p: tests_index_context(cx)),
    "matrix": ("matrix.html", lambda cx, p: matrix_context(cx)),
    "release": ("release.html", lambda cx, p: release_context(cx)),
    "source": ("source.html", lambda cx, p: source_context(cx, p.subject)),
}
