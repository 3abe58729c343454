"""Facts an instruction page shows about things beside it: field value tables and related instructions.

Both read other records than the page's own unit (the field domains, the
other instructions' classification, catalog records and mnemonics), so the
page's cache key carries :func:`neighbours_digest`: an edit elsewhere that
changes what the page shows re-renders it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ..encoding.model import Encoding
from ..graph import Derived, SpecGraph
from ..models.located import AslUnit
from ..prose import datatype_sentence
from ..vocabulary import DATATYPE_DOMAIN, VOCABULARY, DataType

_WORD = re.compile(r"[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*")


@dataclass(frozen=True)
class DomainRow:
    value: int
    bits: str  # the value as the field's binary digits
    meaning: str
    admitted: bool | None = None  # DataType tables: named by the instruction's DataType sentence


@dataclass(frozen=True)
class DomainTable:
    """The values one encoded field can hold, as the spec assigns them."""

    field: str
    domain_id: str | None  # None: read from the ASL (a tree without the field domain)
    width: int
    rows: tuple[DomainRow, ...]
    reserved: tuple[str, ...]  # ranges, "21–23"
    zero_meaning: str = ""
    rejection: str = ""
    closed: bool = False  # the DataType sentence is a closed list (marks mean "legal")


@dataclass
class _Index:
    path_of: dict[str, str] = field(default_factory=dict)  # mnemonic -> unit path
    by_class: dict[tuple[str, ...], list[str]] = field(default_factory=dict)
    by_constant: dict[str, list[str]] = field(default_factory=dict)  # operation constant -> mnemonics
    digest: str = ""


def _index(graph: SpecGraph) -> _Index:
    idx = _Index()
    rows: list[str] = []
    for u in graph.iter_instruction_units():
        ins = u.instruction
        assert ins is not None
        idx.path_of.setdefault(ins.mnemonic, u.path)
        idx.by_class.setdefault(tuple(ins.classification), []).append(ins.mnemonic)
        consts = sorted({a.constant for r in ins.catalog_records for a in getattr(r, "arguments", [])
                         if a.constant})
        for c in consts:
            idx.by_constant.setdefault(c, []).append(ins.mnemonic)
        rows.append(f"{ins.mnemonic}\0{u.path}\0{'/'.join(ins.classification)}\0{','.join(consts)}")
    rows += [d.model_dump_json() for d in graph.spec.field_domains]
    rows += [f"{t.name}\0{t.code}" for t in VOCABULARY(graph).datatypes]
    idx.digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
    return idx


INDEX = Derived(_index, structural=True)  # records and domains: structure; the vocabulary: a query


def neighbours_digest(graph: SpecGraph) -> str:
    """What an instruction page reads outside its own files: other instructions' names and classes, domains."""
    return INDEX(graph).digest


def instruction_path(graph: SpecGraph, mnemonic: str) -> str | None:
    """The unit whose record names ``mnemonic`` (the page a mnemonic links to)."""
    return INDEX(graph).path_of.get(mnemonic)


@dataclass(frozen=True)
class Related:
    """Instructions a reader of one page looks at next, each group from the spec's own data."""

    same_class: tuple[str, ...]
    same_operation: tuple[str, ...]  # share an operation constant (TMUL/TMULS: TileBinary_MUL)
    constants: tuple[str, ...]
    named: tuple[str, ...]  # mnemonics its NDF clauses name

    def __bool__(self) -> bool:
        return bool(self.same_class or self.same_operation or self.named)


def related(graph: SpecGraph, unit: AslUnit) -> Related:
    ins = unit.instruction
    assert ins is not None
    idx = INDEX(graph)
    me = ins.mnemonic
    same_class = tuple(m for m in idx.by_class.get(tuple(ins.classification), []) if m != me)
    consts = tuple(sorted({a.constant for r in ins.catalog_records for a in getattr(r, "arguments", [])
                           if a.constant}))
    same_op: list[str] = []
    for c in consts:
        same_op += [m for m in idx.by_constant.get(c, []) if m != me and m not in same_op]
    named: list[str] = []
    for c in unit.clauses:
        for w in _WORD.findall(c.text):
            if w != me and w in idx.path_of and w not in named:
                named.append(w)
    return Related(same_class, tuple(same_op), consts, tuple(named))


def _ranges(values: list[int]) -> tuple[str, ...]:
    out: list[str] = []
    vs = sorted(values)
    i = 0
    while i < len(vs):
        j = i
        while j + 1 < len(vs) and vs[j + 1] == vs[j] + 1:
            j += 1
        out.append(str(vs[i]) if i == j else f"{vs[i]}–{vs[j]}")
        i = j + 1
    return tuple(out)


def domain_tables(graph: SpecGraph, encs: list[Encoding], legality: list[str]) -> list[DomainTable]:
    """One table per encoded field that has a value domain: the spec's field domain, else the ASL's DataType codes.

    A tree that declares no ``PTO-FIELD-BLOCK-DATATYPE`` domain (0.58.0) still
    codes its DataTypes in the ASL; :mod:`specgen.vocabulary` reads them, and
    the ``DataType`` field shows that table.
    """
    domains = {d.id: d for d in graph.spec.field_domains}
    vocab = VOCABULARY(graph)
    sentence = datatype_sentence(legality, vocab)
    out: list[DomainTable] = []
    seen: set[str] = set()
    for enc in encs:
        for f in enc.free_fields:
            if f.name in seen:
                continue
            d = domains.get(f.domain or "")
            is_dtype = d is not None and d.id == DATATYPE_DOMAIN or d is None and f.name == "DataType"
            mark = (lambda m: m in sentence.names) if is_dtype and sentence is not None else (lambda m: None)
            if d is not None:
                seen.add(f.name)
                rows = tuple(DomainRow(a.value, f"{a.value:0{d.width}b}", a.meaning, mark(a.meaning))
                             for a in sorted(d.assigned, key=lambda a: a.value))
                out.append(DomainTable(f.name, d.id, d.width, rows, _ranges(list(d.reserved)), d.zero_meaning,
                                       d.rejection, bool(sentence and sentence.closed and is_dtype)))
            elif f.name == "DataType" and any(t.code is not None for t in vocab.datatypes):
                seen.add(f.name)
                types: list[DataType] = sorted((t for t in vocab.datatypes if t.code is not None),
                                               key=lambda t: t.code or 0)
                used = {t.code for t in types}
                rows = tuple(DomainRow(t.code or 0, f"{t.code:0{f.width}b}", t.name, mark(t.name)) for t in types)
                out.append(DomainTable(f.name, None, f.width, rows,
                                       _ranges([v for v in range(1 << f.width) if v not in used]),
                                       closed=bool(sentence and sentence.closed)))
    return out


def grid_width(rows: tuple[DomainRow, ...]) -> int:
    """How many code/name column pairs a value table gets: one for a short domain; else as many as keep it
    at most six rows, up to five pairs of short names (four when a name is long), so a 5-bit domain is a
    compact block rather than a long list (issue 14: page height)."""
    if len(rows) <= 8:
        return 1
    cap = 5 if all(len(r.meaning) <= 8 for r in rows) else 4
    return min(cap, -(-len(rows) // 6))


def columns(rows: tuple[Any, ...], n: int) -> list[list[Any]]:
    """``rows`` laid out down ``n`` columns (row-major table of column-major order), padded with None."""
    per = -(-len(rows) // n) if rows else 0
    cols = [list(rows[i * per:(i + 1) * per]) for i in range(n)]
    return [[c[r] if r < len(c) else None for c in cols] for r in range(per)]
