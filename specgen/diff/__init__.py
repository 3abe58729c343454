"""What changed between two releases of a spec, instruction by instruction.

``specgen diff`` prints it (:mod:`specgen.diff.report`) and the pages of a
multi-release site show it (the changes summary and each instruction's
"Changes since" section), so both read the one result computed here. Every
aspect is compared as a set of plain lines (a field with its bit ranges, a
clause id with a digest of its text, a test id): a line present in one release
only is what a reader has to learn, whatever the generation of the records that
produced it. Form ids carry a digest that changes with any edit, so encodings
are compared by what they say (kind, width, fixed bits, fields), never by their
ids.

An aspect one release does not state at all (an older record generation without
a contract, an ASL without the DataType predicate) is not compared: a reader
would otherwise see "removed: not stated" beside every instruction. It is named
once per instruction as not compared, and the summary counts it. The ASL body
and the unit's records are real unified diffs.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from ..asl.legality import ADMITTED
from ..encoding.from_spec import spec_encodings
from ..encoding.model import Encoding, FieldSlice
from ..graph import Derived, SpecGraph
from ..models.instruction import Contract
from ..models.located import AslUnit
from ..prose import datatype_sentence
from ..vocabulary import VOCABULARY

# The aspects in the order a reader meets them on an instruction page.
ASPECTS: tuple[str, ...] = ("encoding", "operands", "block composition", "DataTypes (ASL)", "DataTypes (prose)",
                            "NDF clauses", "tests", "ASL body", "records")
BODY, RECORDS = "ASL body", "records"  # the two aspects shown as unified diffs
CONTEXT_LINES = 2  # unchanged lines around each hunk


@dataclass(frozen=True)
class AspectChange:
    """One aspect of one instruction that differs: the lines only the old and only the new release have
    (for the ASL body and the records: the diff's removed and added lines)."""

    aspect: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


@dataclass(frozen=True)
class Listed:
    """An instruction as a release lists it: where its unit is and how it is classified."""

    mnemonic: str
    path: str
    surface: str
    classification: tuple[str, ...]


@dataclass(frozen=True)
class InstructionChange:
    """Everything that differs for one mnemonic present in both releases."""

    mnemonic: str
    aspects: tuple[AspectChange, ...]
    asl_diff: str = ""  # a unified diff of the ASL body; empty when the body is unchanged
    record_diffs: tuple[tuple[str, str], ...] = ()  # (record label, unified diff of its formatted JSON)
    not_compared: tuple[str, ...] = ()  # aspects one of the two releases does not state
    listed: Listed | None = None  # the instruction in the newer release

    def aspect(self, name: str) -> AspectChange | None:
        return next((a for a in self.aspects if a.aspect == name), None)


@dataclass(frozen=True)
class SpecDiff:
    """The instructions one release adds, removes and changes relative to the one before it."""

    old: str
    new: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[InstructionChange, ...]
    listed: dict[str, Listed] = field(default_factory=dict, compare=False)  # added (new) and removed (old)
    not_compared: dict[str, int] = field(default_factory=dict)  # aspect -> instructions it was not compared for
    unchanged: int = 0  # instructions in both releases with no compared difference
    _by_mnemonic: dict[str, InstructionChange] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_mnemonic", {c.mnemonic: c for c in self.changed})

    def change(self, mnemonic: str) -> InstructionChange | None:
        return self._by_mnemonic.get(mnemonic)

    def to_json(self) -> dict[str, Any]:
        """Plain values for ``--format json`` (stable key order, lists sorted as computed)."""
        def where(mn: str) -> dict[str, Any]:
            x = self.listed[mn]
            return {"mnemonic": mn, "path": x.path, "surface": x.surface, "classification": list(x.classification)}
        return {"old": self.old, "new": self.new, "added": list(self.added), "removed": list(self.removed),
                "added_where": [where(mn) for mn in self.added], "removed_where": [where(mn) for mn in self.removed],
                "unchanged": self.unchanged, "not_compared": dict(self.not_compared),
                "changed": [{"mnemonic": c.mnemonic, "path": c.listed.path if c.listed else "",
                             "surface": c.listed.surface if c.listed else "",
                             "aspects": {a.aspect: {"removed": list(a.removed), "added": list(a.added)}
                                         for a in c.aspects},
                             "not_compared": list(c.not_compared),
                             "asl_diff": c.asl_diff, "record_diffs": {k: v for k, v in c.record_diffs}}
                            for c in self.changed]}


def release_name(graph: SpecGraph) -> str:
    """What a release calls itself: the manifest's release, else ``specification.toml``'s version."""
    man = graph.spec.manifest
    return (man.release if man is not None else "") or graph.spec.config.release or graph.spec.root.name


def _ranges(pieces: tuple[FieldSlice, ...]) -> str:
    return ",".join(f"{p.instruction_msb}:{p.instruction_lsb}" if p.width > 1 else f"{p.instruction_lsb}"
                    for p in sorted(pieces, key=lambda p: -p.instruction_lsb))


def encoding_lines(encodings: list[Encoding]) -> set[str]:
    """What a reader of the encoding table sees: per form its word and fixed bits, then each field's bits."""
    out: set[str] = set()
    for e in encodings:
        head = f"{e.encoding_kind or e.kind} {e.width}-bit"
        if e.variant:
            head += f" ({e.variant})"
        out.add(f"{head}: fixed bits mask 0x{e.fixed_mask:0{e.width // 4}x} match 0x{e.fixed_match:0{e.width // 4}x}")
        for f in e.fields:
            fixed = f" = {f.fixed_value}" if f.fixed_value is not None else ""
            out.add(f"{head}: field {f.name} [{_ranges(f.pieces)}]{fixed}")
    return out


def _contract(unit: AslUnit) -> Contract | None:
    return unit.instruction.contract if unit.instruction is not None else None


def _operands(unit: AslUnit) -> set[str] | None:
    c = _contract(unit)
    if c is None or getattr(c, "operands", None) is None:
        return None  # no contract record states the operands
    return {f"{o.field}: {o.role}" for o in c.operands}


def _block(unit: AslUnit) -> set[str]:
    c = _contract(unit)
    return set(getattr(c, "block_composition", None) or getattr(unit.instruction, "block", None) or [])


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _clauses(unit: AslUnit) -> set[str]:
    return {f"{c.id} (text {_digest(c.text)})" for c in unit.clauses}


def _body(unit: AslUnit) -> list[str]:
    """The unit's lines with its records blanked: they are compared as formatted JSON (:func:`_records`),
    and blanking (not dropping) keeps the diff's line numbers those of the file."""
    lines = unit.text.splitlines()
    spans = [unit.header_span, unit.review_span, *(s for _, s in unit.states)]
    for span in spans:
        if span is not None and span.line > 0:
            end = min(span.end_line, len(lines))
            lines[span.line - 1:end] = [""] * (end - span.line + 1)
    return lines


def _records(unit: AslUnit) -> dict[str, list[str]]:
    """Each record of the unit as formatted JSON lines (keys sorted, so reordering is not a change)."""
    def lines(value: Any) -> list[str]:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    out: dict[str, list[str]] = {}
    if unit.raw_header is not None:
        out["PTO-INSTRUCTION" if unit.instruction is not None else "PTO-UNIT"] = lines(unit.raw_header)
    if unit.review is not None:
        out["PTO-REVIEW"] = lines(unit.review.model_dump(mode="json", by_alias=True, exclude_none=True))
    for rec, _ in unit.states:
        out[f"PTO-STATE {rec.id}"] = lines(rec.model_dump(mode="json", by_alias=True, exclude_none=True))
    return out


def _unified(old: list[str], new: list[str], a: str, b: str) -> str:
    return "\n".join(difflib.unified_diff(old, new, a, b, lineterm="", n=CONTEXT_LINES))


def _changed_lines(diff: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    lines = diff.splitlines()
    return (tuple(x[1:] for x in lines if x.startswith("-") and not x.startswith("---")),
            tuple(x[1:] for x in lines if x.startswith("+") and not x.startswith("+++")))


@dataclass(frozen=True)
class _Side:
    """One release's facts, computed once per graph (both the diff command and the site read them)."""

    graph: SpecGraph
    admitted: dict[str, frozenset[str]]
    prose: Callable[[AslUnit], set[str] | None]

    def facts(self, mn: str) -> dict[str, set[str] | None]:
        """Each aspect's lines; None where this release does not state the aspect at all."""
        u = self.graph.instructions[mn]
        return {"encoding": encoding_lines(spec_encodings(self.graph).by_mnemonic(mn)),
                "operands": _operands(u),
                "block composition": _block(u),
                "DataTypes (ASL)": set(self.admitted[mn]) if mn in self.admitted else None,
                "DataTypes (prose)": self.prose(u),
                "NDF clauses": _clauses(u),
                "tests": {t.header.id for t in self.graph.unit_tests(u) if t.header is not None}}


def _side(graph: SpecGraph) -> _Side:
    vocab = VOCABULARY(graph)
    admitted = ADMITTED(graph)

    def prose(u: AslUnit) -> set[str] | None:
        legality = getattr(_contract(u), "legality", None) or []
        s = datatype_sentence(legality, vocab)
        return set(s.names) if s is not None else None
    return _Side(graph, admitted, prose)


_SIDE = Derived(_side)


def listed(unit: AslUnit) -> Listed:
    ins = unit.instruction
    assert ins is not None
    return Listed(ins.mnemonic, unit.path, ins.surface, tuple(ins.classification))


def instruction_change(old: SpecGraph, new: SpecGraph, mnemonic: str) -> InstructionChange | None:
    """What differs for ``mnemonic`` (present in both); None when nothing compared does."""
    return _compare(old, new, mnemonic)[0]


def _compare(old: SpecGraph, new: SpecGraph, mnemonic: str) -> tuple[InstructionChange | None, tuple[str, ...]]:
    """The change (or None) and the aspects one release does not state, so not compared."""
    a, b = _SIDE(old).facts(mnemonic), _SIDE(new).facts(mnemonic)
    aspects: list[AspectChange] = []
    not_compared: list[str] = []
    for k in ASPECTS:
        if k not in a:
            continue
        x, y = a[k], b[k]
        if x is None or y is None:
            if x is not None or y is not None:
                not_compared.append(k)
        elif x != y:
            aspects.append(AspectChange(k, tuple(sorted(x - y)), tuple(sorted(y - x))))
    ou, nu = old.instructions[mnemonic], new.instructions[mnemonic]
    body = ""
    if _body(ou) != _body(nu):
        body = _unified(_body(ou), _body(nu), ou.path, nu.path)
        aspects.append(AspectChange(BODY, *_changed_lines(body)))
    ro, rn = _records(ou), _records(nu)
    record_diffs = tuple((k, _unified(ro.get(k, []), rn.get(k, []), k, k)) for k in sorted(set(ro) | set(rn))
                         if ro.get(k) != rn.get(k))
    if record_diffs:
        removed = tuple(x for _, d in record_diffs for x in _changed_lines(d)[0])
        added = tuple(x for _, d in record_diffs for x in _changed_lines(d)[1])
        aspects.append(AspectChange(RECORDS, removed, added))
    if not aspects:
        return None, tuple(not_compared)
    return (InstructionChange(mnemonic, tuple(aspects), body, record_diffs, tuple(not_compared), listed(nu)),
            tuple(not_compared))


def spec_diff(old: SpecGraph, new: SpecGraph, old_name: str = "old", new_name: str = "new",
              progress: Callable[[int, int], None] | None = None) -> SpecDiff:
    """Instructions added, removed and changed from ``old`` to ``new`` (mnemonics sorted).

    ``progress(done, total)`` is told after each instruction present in both (``specgen diff`` shows it).
    """
    before, after = set(old.instructions), set(new.instructions)
    both = sorted(before & after)
    changed: list[InstructionChange] = []
    not_compared: dict[str, int] = {}
    for i, mn in enumerate(both, 1):
        c, unstated = _compare(old, new, mn)
        if c is not None:
            changed.append(c)
        for k in unstated:
            not_compared[k] = not_compared.get(k, 0) + 1
        if progress is not None:
            progress(i, len(both))
    added, removed = tuple(sorted(after - before)), tuple(sorted(before - after))
    where = {mn: listed(new.instructions[mn]) for mn in added}
    where.update({mn: listed(old.instructions[mn]) for mn in removed})
    return SpecDiff(old_name, new_name, added, removed, tuple(changed), where, not_compared,
                    len(both) - len(changed))
