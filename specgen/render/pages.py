"""The helpers every page context shares: per-build indexes, messages, links, common blocks.

Each kind of page declares itself (:mod:`specgen.render.plan`) and builds its
context in its own module under :mod:`specgen.render.kinds` from :class:`Ctx`;
contexts turn graph records into plain dicts and strings, templates only lay them out.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..diff import SpecDiff
from ..encoding.from_spec import spec_encodings
from ..encoding.model import EncodingSet
from ..examples.results import ExampleResult
from ..graph import Derived, SpecGraph
from ..models.evidence import TraceabilityView, UnitRow
from ..models.located import Adr, AslUnit, AvsTest
from .chain import unit_chain
from .html import json_pretty
from .i18n import Messages
from .links import (Linker, adr_uri, dir_index_uri, nearest_uri, other_lang_uri, release_relative, source_uri,
                    tests_uri, unit_uri)
from .plan import ALL, FACTS, IDS, MATRIX, RECORD_OF, PageKind, PagePlan, unit_title
from .xref import linked_listing

__all__ = ["ALL", "FACTS", "IDS", "MATRIX", "RECORD_OF", "Ctx", "PageKind", "PagePlan", "ReleaseSite",
           "SiteData", "human_label", "ids_digest", "site_data", "unit_title"]


def _ids_digest(graph: SpecGraph) -> str:
    """Digest of every ID -> defining path mapping a link on a page can resolve through."""
    rows = [f"i\0{k}\0{u.path}" for k, u in graph.identities.items()]
    rows += [f"c\0{k}\0{cs[0].source}" for k, cs in graph.clauses.items() if cs]
    rows += [f"u\0{k}\0{us[0].path}" for k, us in graph.units_by_id.items() if us]
    rows += [f"a\0{a.front.id}\0{a.path}" for a in graph.adrs if a.front is not None]
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()


ids_digest: Derived[str] = Derived(_ids_digest, structural=True)  # records, markers, ADRs: the structure


@dataclass(frozen=True)
class ReleaseSite:
    """Where the release being rendered sits on a multi-release site (``render_site``'s ``releases``)."""

    names: tuple[str, ...]  # every release, oldest first
    current: str
    newest_uris: frozenset[str] = frozenset()  # the newest release's pages (an older page links its own there)
    changes: SpecDiff | None = None  # since the release before ``current`` (None for the oldest)

    @property
    def newest(self) -> str:
        return self.names[-1]

    @property
    def previous(self) -> str | None:
        i = self.names.index(self.current)
        return self.names[i - 1] if i > 0 else None

    def key(self) -> str:
        """Part of every page's cache key: the release banner and the links into other releases."""
        digest = hashlib.sha256("\n".join(sorted(self.newest_uris)).encode()).hexdigest()
        return repr((self.names, self.current, digest))


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
    releases: ReleaseSite | None = None  # a multi-release site: this release's place among the others

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


def term(t: Messages, prefix: str, value: str) -> str:
    """A word of the spec's own vocabulary (a status, a test kind) in the page's language when the catalogs
    know it, else as the spec writes it."""
    label = t(prefix + value)
    return value if label == prefix + value else label


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

    def release_link(self, release: str, uri: str, anchor: str = "") -> str:
        """A link to ``uri`` in another release of a multi-release site."""
        return release_relative(self.plan.uri, release, uri, self.link.directory_urls, anchor)

    def banner(self) -> dict[str, str] | None:
        """On a page of an older release: the newest release and the same page there (or the nearest)."""
        rs = self.data.releases
        if rs is None or rs.current == rs.newest:
            return None
        target = nearest_uri(self.plan.uri, rs.newest_uris) or (f"{self.plan.lang}/index.md" if self.plan.lang else "")
        if not target:
            return None
        same = target == self.plan.uri
        return {"text": self.t("release.older", release=rs.current, newest=rs.newest),
                "href": self.release_link(rs.newest, target),
                "label": self.t("release.same_page" if same else "release.nearest_page", newest=rs.newest),
                "same": "1" if same else ""}

    def base(self) -> dict[str, Any]:
        rs = self.data.releases
        return {"t": self.t, "lang": self.plan.lang, "html_lang": Messages(self.plan.lang or "en").locale,
                "switch": self.switch(), "release": self.release(), "src": self.src, "link": self.link,
                "uri": self.plan.uri, "banner": self.banner(), "spec_lang": self.graph.spec.config.text_language,
                "say": self.t.say, "term": lambda prefix, value: term(self.t, prefix, str(value)),
                "release_notice": self.t("release.missing", page="{page}", release="{release}") if rs else ""}

    def listing(self, path: str, text: str, start: int, anchor: str) -> Markup:
        return linked_listing(self, text, first_line=start, anchor=anchor)

    def trace(self, unit: AslUnit) -> dict[str, Any]:
        chain = unit_chain(self.graph, unit)
        entries: list[dict[str, Any]] = []
        for tst in chain["tests"]:
            entries.append({"kind": "test", "id": tst["id"], "title": term(self.t, "test.kind.", tst["kind"]),
                            "path": tst["path"], "sha256": tst["sha256"], "present": True,
                            "result": self.test_result(tst["path"]),
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
