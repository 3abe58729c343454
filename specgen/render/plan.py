"""What a kind of page declares, and the facts every kind's plan shares.

A :class:`PageKind` is the whole registration of a kind of page, the way a
markdown-it-py rule is one function in one list: its template and context,
which pages of it exist with what dependencies (:attr:`PageKind.plan`), where
the site's navigation places them (:class:`Nav`) and what shape its search
entries take (:class:`Search`). The renderer and the site read only these
declarations; neither names a kind. Planning is cheap (no rendering): the
dependency set of every page is what lets a cache skip pages whose inputs did
not change.
"""

from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..graph import SpecGraph
from ..models.catalog import CATALOG_STEMS
from ..models.located import AslUnit
from .chain import evidence_paths
from .xref import symbol_deps

if TYPE_CHECKING:
    from ..examples.results import ExampleResult

ALL = "*"  # dependency meaning "the whole tree" (the release page: every file's hash is on it; changes)
FACTS = "#home"  # the home page's facts: the units by surface, the record counts, the site's name
RECORD_OF = "#record:"  # dependency on a unit's record lines, not its ASL or prose (directory index rows)
IDS = "#ids"  # dependency on which file defines each ID (what ID links resolve to), not on file contents
MATRIX = "#matrix"  # dependency on the rows of the traceability matrix, not on the files behind them


@dataclass(frozen=True)
class Nav:
    """Where the navigation the plugin supplies puts a kind's pages.

    ``home``: a language's first entry; ``directory``: opens the directory it indexes; ``tree``: a
    leaf under its directory; ``tail``: one entry each after the tree, lower ``order`` first (only
    pages at most one directory below the language); ``section``: a leaf under its directory in the
    section a tail page at ``<lang>/<top>/index.md`` opens (the documents under their index);
    ``none``: reached through links only.
    """

    place: str
    order: int = 0


HOME, DIRECTORY, TREE, HIDDEN = Nav("home"), Nav("directory"), Nav("tree"), Nav("none")
SECTION = Nav("section")


def tail(order: int) -> Nav:
    return Nav("tail", order)


class Search(Enum):
    """The shape of a kind's entries in the search index (:mod:`specgen.site.searchindex`)."""

    SECTIONS = "sections"  # the theme's entry per section; the first loses its breadcrumb
    ONE_ENTRY = "one-entry"  # one entry: title, summary section, IDs as tags (an instruction page)
    IDS = "ids"  # one small entry: the title, the section headings as tags, no text (a test page: its IDs)
    EXCLUDED = "excluded"  # data, not prose (listings): no entry


@dataclass(frozen=True)
class PagePlan:
    """One page to render: where it goes, of which kind, about what, and what it is made from."""

    uri: str
    kind: PageKind
    lang: str  # "en" | "zh" | "" for language-neutral pages
    subject: Any
    deps: frozenset[str]
    title: str


@dataclass(frozen=True)
class PageKind:
    """One kind of page, as :mod:`specgen.render.kinds` registers it.

    ``plan(planning, lang)`` lists the kind's pages of one language (``lang`` is ``""`` once for a
    kind that is not ``per_language``). ``digests`` name the pseudo-dependencies (``IDS``,
    ``MATRIX``) its plans list, with the function that digests each; ``key`` adds a part to a
    page's cache key that its files do not determine (an instruction's example results).
    """

    name: str
    template: str
    context: Callable[[Any, PagePlan], dict[str, Any]]  # (a pages.Ctx, the plan) -> the template's context
    plan: Callable[[Planning, str], Iterable[PagePlan]]
    nav: Nav = HIDDEN
    search: Search = Search.SECTIONS
    per_language: bool = True
    digests: tuple[tuple[str, Callable[[SpecGraph], str]], ...] = ()
    key: Callable[[SpecGraph, PagePlan, dict[str, list[ExampleResult]]], str] | None = None

    def __str__(self) -> str:
        return self.name

    @property
    def searchable(self) -> bool:
        return self.search is not Search.EXCLUDED


def unit_title(u: AslUnit) -> str:
    if u.instruction is not None:
        return u.instruction.mnemonic
    return u.stem


class Planning:
    """The facts the plans of one site share, each computed once (dependencies of every page shown)."""

    def __init__(self, graph: SpecGraph, langs: tuple[str, ...], local_sources: bool,
                 changes: bool = False, releases: tuple[str, ...] = ()) -> None:
        self.graph, self.langs, self.local_sources, self.changes = graph, langs, local_sources, changes
        self.releases = releases  # every release of a multi-release site, oldest first (else empty)
        self._shown: dict[tuple[str | None, tuple[str, ...]], frozenset[str]] = {}

    @functools.cached_property
    def common(self) -> frozenset[str]:
        """What every page shows: the evidence, the catalogs, the manifest and ``specification.toml``."""
        spec = self.graph.spec
        out = set(evidence_paths(self.graph)) | {f"{spec.config.json_root}/catalog/{s}.json" for s in CATALOG_STEMS}
        out.add("specification.toml")
        if spec.manifest_path:
            out.add(spec.manifest_path)
        return frozenset(out)

    @functools.cached_property
    def dirs(self) -> list[str]:
        """Every directory of the ASL tree below a surface (``asl/tile``, ``asl/tile/x``), sorted."""
        found: set[str] = set()
        for u in self.graph.spec.units:
            d = posixpath.dirname(u.path)
            while d.count("/") >= 1:
                found.add(d)
                d = posixpath.dirname(d)
        return sorted(found)

    @functools.cached_property
    def dir_deps(self) -> dict[str, frozenset[str]]:
        """A directory index lists the units below it with their test counts: those files (and IDs, for
        its links) are what it shows, not the whole tree."""
        below: dict[str, set[str]] = {d: set() for d in self.dirs}
        for u in self.graph.spec.units:  # a row shows the unit's record (title, summary, engine) and its tests
            files = {RECORD_OF + u.path, *(t.path for t in self.graph.unit_tests(u))}
            d = posixpath.dirname(u.path)
            while d in below:
                below[d] |= files
                d = posixpath.dirname(d)
        return {d: frozenset(fs | {IDS} | self.common) for d, fs in below.items()}

    @functools.cached_property
    def instruction_paths(self) -> frozenset[str]:
        return frozenset(u.path for u in self.graph.spec.units if u.instruction is not None)

    def unit_deps(self, u: AslUnit) -> frozenset[str]:
        """A unit or instruction page: its file, its tests, the ADRs it cites, the lines its links show."""
        g = self.graph
        deps = {u.path} | self.common
        deps |= {t.path for t in g.unit_tests(u)}
        for rid in [c.id for c in u.clauses] + ([u.instruction.clause_id] if u.instruction else []):
            deps |= {t.path for t in g.tests_by_requirement.get(rid, [])}
        for aid in g.readiness_subjects(u):
            a = g.adr(aid)
            if a is not None:
                deps.add(a.path)
        for c in u.clauses:
            for aid in g.adrs_for_requirement(c.id):
                a = g.adr(aid)
                if a is not None:
                    deps.add(a.path)
        deps |= self.shown(u.path)
        return frozenset(deps)

    def shown(self, path: str | None, texts: tuple[str, ...] = ()) -> frozenset[str]:
        """The lines and signatures of other units a page's links show (the same in every language: once)."""
        key = (path, texts)
        hit = self._shown.get(key)
        if hit is None:
            hit = self._shown[key] = symbol_deps(self.graph, path, texts)
        return hit


def plan_pages(planning: Planning, kinds: Iterable[PageKind]) -> list[PagePlan]:
    """Every page: per language, each kind's pages in registry order; then the language-neutral kinds."""
    kinds = tuple(kinds)
    plans: list[PagePlan] = []
    for lang in planning.langs:
        for kind in kinds:
            if kind.per_language:
                plans.extend(kind.plan(planning, lang))
    for kind in kinds:
        if not kind.per_language:
            plans.extend(kind.plan(planning, ""))
    return plans
