"""The spec as a graph: indexes from every ID to the records that define or cite it.

Built once from a loaded :class:`~specgen.loader.Spec`; checks, trace, pages and
the executor all read the same indexes instead of re-scanning records.
"""

from __future__ import annotations

import posixpath

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Generic, Iterable, TypeVar

from . import structure
from .loader import Spec
from .models.adr import AdrFrontMatter
from .models.located import Adr, AslUnit, AvsTest, NdfClause
from .models.unit import StateRecord
from .diagnostics import Span
from .workspace import Query, Workspace, current


@dataclass(slots=True)
class Requirement:
    """A requirement ID a test may name: an explicit clause or an instruction identity."""

    id: str
    owner: AslUnit
    clause: NdfClause | None  # None: the implicit PTO-INST identity (the whole file)

    @property
    def executable(self) -> bool:
        if self.clause is None:
            return True
        return self.clause.attrs is not None and self.clause.attrs.kind == "executable"

    @property
    def span(self) -> Span:
        if self.clause is not None:
            return self.clause.span
        return self.owner.header_span or Span(self.owner.path)


T = TypeVar("T")


class Derived(Generic[T]):
    """A fact derived from a graph once and shared by every reader of that graph.

    The module that owns a fact declares it next to the function that computes
    it (``ENCODINGS = Derived(build_encodings)``) and readers call it
    (``ENCODINGS(graph)``): the value is typed, computed on first use, and kept
    on the graph, so the graph needs no knowledge of the layers above it and
    no fact hides behind a string key.

    ``structural=True`` declares a fact of the spec's structure alone (:mod:`specgen.structure`): it is
    then a query of the workspace, kept across the graphs of one root while their structure is the same
    (a server's edit of prose or ASL computes it no more).
    """

    __slots__ = ("compute", "name", "query")

    def __init__(self, compute: "Callable[[SpecGraph], T]", *, structural: bool = False) -> None:
        self.compute = compute
        self.name = getattr(compute, "__name__", "derived")
        self.query: Query[T] | None = Query(f"structural:{self.name}", self._of_structure) if structural else None

    def __repr__(self) -> str:
        return f"Derived({self.name})"

    def __call__(self, graph: "SpecGraph") -> T:
        if self.query is not None:  # asked of the workspace every time: a query that reads it records it
            ws = current()
            with ws.lock:
                return ws.query(self.query, structure.enter(graph, ws))
        store = graph._derived
        if self in store:
            return store[self]  # type: ignore[return-value]
        value = store[self] = self.compute(graph)  # type: ignore[index]
        return value

    def _of_structure(self, ws: Workspace, root: str) -> T:
        ws.input(structure.input_name(root))  # the dependency: the structure of the root's current graph
        return self.compute(structure.graph_of(ws, root))

    def peek(self, graph: "SpecGraph") -> T | None:
        """The value if it was already derived on this graph (None: not yet; a fact of the graph, not a
        structural one, which the workspace holds)."""
        return graph._derived.get(self)  # type: ignore[return-value]

    def set(self, graph: "SpecGraph", value: T) -> None:
        """Seed the fact (a caller that computed it another way, e.g. from an on-disk cache)."""
        graph._derived[self] = value  # type: ignore[index]


class UnitFact(Generic[T]):
    """A fact of one unit's text, the way a structural fact reads a unit beyond its structure.

    A query of the workspace by (root, unit path) that reads that unit's file input
    (:func:`specgen.structure.file_input`): an edit of one unit recomputes the fact for that unit alone,
    and a structural fact that read it is computed again only when the unit's answer came out different
    (early cutoff). The vocabulary reads the ASL's enumerations this way. Like a structural fact, the
    value holds no object of the graph (a tuple of strings, a small record).
    """

    __slots__ = ("compute", "name", "query")

    def __init__(self, compute: "Callable[[AslUnit], T]") -> None:
        self.compute = compute
        self.name = getattr(compute, "__name__", "unit")
        self.query: Query[T] = Query(f"unit:{self.name}", self._of_unit)

    def __repr__(self) -> str:
        return f"UnitFact({self.name})"

    def __call__(self, graph: "SpecGraph", unit: AslUnit) -> T:
        ws = current()
        with ws.lock:
            return ws.query(self.query, (structure.enter(graph, ws), unit.path))

    def _of_unit(self, ws: Workspace, arg: tuple[str, str]) -> T:
        root, path = arg
        structure.sha(ws, root, path)  # the dependency: this unit's text in the root's current graph
        return self.compute(structure.graph_of(ws, root).units_by_path[path])


@dataclass
class SpecGraph:
    """Indexes over one loaded spec."""

    spec: Spec
    units_by_path: dict[str, AslUnit] = field(default_factory=dict)
    units_by_id: dict[str, list[AslUnit]] = field(default_factory=lambda: defaultdict(list))
    instructions: dict[str, AslUnit] = field(default_factory=dict)  # mnemonic -> unit
    clauses: dict[str, list[NdfClause]] = field(default_factory=lambda: defaultdict(list))
    identities: dict[str, AslUnit] = field(default_factory=dict)  # PTO-INST-* -> unit
    states: dict[str, list[tuple[StateRecord, Span]]] = field(default_factory=lambda: defaultdict(list))
    tests_by_id: dict[str, list[AvsTest]] = field(default_factory=lambda: defaultdict(list))
    tests_by_source: dict[str, list[AvsTest]] = field(default_factory=lambda: defaultdict(list))
    tests_by_requirement: dict[str, list[AvsTest]] = field(default_factory=lambda: defaultdict(list))
    adrs_by_id: dict[str, list[Adr]] = field(default_factory=lambda: defaultdict(list))
    _derived: dict["Derived[object]", object] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, spec: Spec) -> "SpecGraph":
        g = cls(spec)
        for u in spec.units:
            g.units_by_path[u.path] = u
            if u.id:
                g.units_by_id[u.id].append(u)
            if u.instruction is not None:
                g.instructions.setdefault(u.instruction.mnemonic, u)
                g.identities[u.instruction.clause_id] = u
            for c in u.clauses:
                g.clauses[c.id].append(c)
            for rec, span in u.states:
                g.states[rec.id].append((rec, span))
        shards = _shard_units(spec)
        for t in spec.tests:
            if t.header is None:  # a shard of test functions (an older layout) belongs to the unit it mirrors
                if t.path in shards:
                    g.tests_by_source[shards[t.path]].append(t)
                continue
            g.tests_by_id[t.header.id].append(t)
            g.tests_by_source[t.header.source].append(t)
            for r in t.header.requirements:
                g.tests_by_requirement[r].append(t)
        for a in spec.adrs:
            if a.front is not None:
                g.adrs_by_id[a.front.id].append(a)
        return g

    # -- lookups -----------------------------------------------------------------
    def requirement(self, rid: str) -> Requirement | None:
        if rid in self.identities:
            return Requirement(rid, self.identities[rid], None)
        cl = self.clauses.get(rid)
        if cl:
            return Requirement(rid, self.units_by_path[cl[0].source], cl[0])
        return None

    @cached_property
    def requirements(self) -> list[Requirement]:
        out = [Requirement(i, u, None) for i, u in self.identities.items()]
        out += [Requirement(cid, self.units_by_path[cs[0].source], cs[0]) for cid, cs in self.clauses.items()]
        return sorted(out, key=lambda r: r.id)

    @cached_property
    def adrs(self) -> list[Adr]:
        """ADRs with a valid front matter, the template (ADR-0000) left out."""
        return [a for a in self.spec.adrs if a.front is not None and a.front.id != "ADR-0000"]

    @cached_property
    def _adr_subjects(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        by_unit: dict[str, list[str]] = defaultdict(list)
        by_ndf: dict[str, list[str]] = defaultdict(list)
        for a in self.adrs:
            f: AdrFrontMatter = a.front  # type: ignore[assignment]
            if f.status not in ("draft", "accepted"):
                continue
            for uid in f.affected_units or ():  # None: the ADR generation does not record it
                by_unit[uid].append(f.id)
            for nid in f.affected_ndf or ():
                by_ndf[nid].append(f.id)
        return by_unit, by_ndf

    def readiness_subjects(self, unit: AslUnit) -> list[str]:
        """The ADRs (draft or accepted) that name this unit, as the traceability view derives them."""
        return sorted(set(self._adr_subjects[0].get(unit.id or "", [])))

    def adrs_for_requirement(self, rid: str) -> list[str]:
        return sorted(set(self._adr_subjects[1].get(rid, [])))

    def adr(self, adr_id: str) -> Adr | None:
        found = self.adrs_by_id.get(adr_id)
        return found[0] if found else None

    def unit_tests(self, unit: AslUnit) -> list[AvsTest]:
        return sorted(self.tests_by_source.get(unit.path, []), key=lambda t: t.header.id if t.header else "")

    def iter_instruction_units(self) -> Iterable[AslUnit]:
        return (u for u in self.spec.units if u.instruction is not None)

    def known_id(self, ident: str) -> bool:
        return (ident in self.identities or ident in self.clauses or ident in self.units_by_id
                or ident in self.states)


def _shard_units(spec: Spec) -> dict[str, str]:
    """Shard path -> the unit it mirrors, in a tree whose README says tests are shards of functions
    (``tests/asl/<x>.asl`` holds the tests of ``asl/<x>.asl``); empty otherwise."""
    if getattr(spec, "test_functions", None) is None:
        return {}
    roots = spec.config.source_roots
    base = posixpath.commonpath(roots) if roots else ""
    prefix = spec.config.test_root.rstrip("/") + "/"
    units = {u.path for u in spec.units}
    out = {}
    for t in spec.tests:
        if t.header is None and t.path.startswith(prefix):
            mirror = posixpath.join(base, t.path.removeprefix(prefix))
            if mirror not in units:  # one test per file: tests/asl/<x>/<test>.asl tests asl/<x>.asl
                mirror = posixpath.dirname(mirror) + ".asl"
            if mirror in units:
                out[t.path] = mirror
    return out
