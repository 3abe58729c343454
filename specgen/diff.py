"""What changed between two releases of a spec, instruction by instruction.

``specgen diff`` prints it and each instruction page of a multi-release site
shows it ("Changes since <release>"), so both read the one result computed
here. Every aspect is compared as a set of plain lines (a field with its bit
ranges, a clause id with a digest of its text, a test id): a line present in
one release only is what a reader has to learn, whatever the generation of the
records that produced it. Form ids carry a digest that changes with any edit,
so encodings are compared by what they say (kind, width, fixed bits, fields),
never by their ids.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .asl.legality import ADMITTED
from .encoding.from_spec import spec_encodings
from .encoding.model import Encoding, FieldSlice
from .graph import Derived, SpecGraph
from .models.instruction import Contract
from .models.located import AslUnit
from .prose import datatype_sentence
from .vocabulary import VOCABULARY

# The aspects in the order a reader meets them on an instruction page.
ASPECTS: tuple[str, ...] = ("encoding", "operands", "block composition", "DataTypes (ASL)", "DataTypes (prose)",
                            "NDF clauses", "tests", "ASL body")


@dataclass(frozen=True)
class AspectChange:
    """One aspect of one instruction that differs: the lines only the old and only the new release have."""

    aspect: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


@dataclass(frozen=True)
class InstructionChange:
    """Everything that differs for one mnemonic present in both releases."""

    mnemonic: str
    aspects: tuple[AspectChange, ...]
    asl_diff: str = ""  # a unified diff of the ASL body; empty when the body is unchanged

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
    _by_mnemonic: dict[str, InstructionChange] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_mnemonic", {c.mnemonic: c for c in self.changed})

    def change(self, mnemonic: str) -> InstructionChange | None:
        return self._by_mnemonic.get(mnemonic)

    def to_json(self) -> dict[str, Any]:
        """Plain values for ``--format json`` (stable key order, lists sorted as computed)."""
        return {"old": self.old, "new": self.new, "added": list(self.added), "removed": list(self.removed),
                "changed": [{"mnemonic": c.mnemonic,
                             "aspects": {a.aspect: {"removed": list(a.removed), "added": list(a.added)}
                                         for a in c.aspects},
                             "asl_diff": c.asl_diff} for c in self.changed]}


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


# What an aspect holds when a release does not state it at all (an older record generation without a
# contract, an ASL without the DataType predicate): shown as such, never as "nothing" or "everything".
NOT_STATED = {"operands": "(no contract record states the operands)",
              "DataTypes (ASL)": "(no DataType predicate in the ASL)",
              "DataTypes (prose)": "(no DataType sentence in the legality prose)"}


def _operands(unit: AslUnit) -> set[str]:
    c = _contract(unit)
    if c is None or getattr(c, "operands", None) is None:
        return {NOT_STATED["operands"]}
    return {f"{o.field}: {o.role}" for o in c.operands}


def _block(unit: AslUnit) -> set[str]:
    c = _contract(unit)
    return set(getattr(c, "block_composition", None) or getattr(unit.instruction, "block", None) or [])


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _clauses(unit: AslUnit) -> set[str]:
    return {f"{c.id} (text {_digest(c.text)})" for c in unit.clauses}


def _body(unit: AslUnit) -> list[str]:
    """The unit's lines with its header records blanked: the header is compared aspect by aspect, and
    blanking (not dropping) keeps the diff's line numbers those of the file."""
    lines = unit.text.splitlines()
    span = unit.header_span
    if span is not None and span.line > 0:
        lines[span.line - 1:span.end_line] = [""] * (min(span.end_line, len(lines)) - span.line + 1)
    return lines


@dataclass(frozen=True)
class _Side:
    """One release's facts, computed once per graph (both the diff command and the site read them)."""

    graph: SpecGraph
    admitted: dict[str, frozenset[str]]
    prose: Callable[[AslUnit], set[str]]

    def facts(self, mn: str) -> dict[str, set[str]]:
        u = self.graph.instructions[mn]
        return {"encoding": encoding_lines(spec_encodings(self.graph).by_mnemonic(mn)),
                "operands": _operands(u),
                "block composition": _block(u),
                "DataTypes (ASL)": set(self.admitted[mn]) if mn in self.admitted else {NOT_STATED["DataTypes (ASL)"]},
                "DataTypes (prose)": self.prose(u),
                "NDF clauses": _clauses(u),
                "tests": {t.header.id for t in self.graph.unit_tests(u) if t.header is not None}}


def _side(graph: SpecGraph) -> _Side:
    vocab = VOCABULARY(graph)
    admitted = ADMITTED(graph)

    def prose(u: AslUnit) -> set[str]:
        legality = getattr(_contract(u), "legality", None) or []
        s = datatype_sentence(legality, vocab)
        return set(s.names) if s is not None else {NOT_STATED["DataTypes (prose)"]}
    return _Side(graph, admitted, prose)


_SIDE = Derived(_side)


def instruction_change(old: SpecGraph, new: SpecGraph, mnemonic: str) -> InstructionChange | None:
    """What differs for ``mnemonic`` (present in both); None when nothing does."""
    a, b = _SIDE(old).facts(mnemonic), _SIDE(new).facts(mnemonic)
    aspects = [AspectChange(k, tuple(sorted(a[k] - b[k])), tuple(sorted(b[k] - a[k])))
               for k in ASPECTS if k in a and a[k] != b[k]]
    ou, nu = old.instructions[mnemonic], new.instructions[mnemonic]
    body = ""
    if _body(ou) != _body(nu):
        body = "\n".join(difflib.unified_diff(_body(ou), _body(nu), ou.path, nu.path, lineterm="", n=2))
        removed = sum(1 for ln in body.splitlines() if ln.startswith("-") and not ln.startswith("---"))
        added = sum(1 for ln in body.splitlines() if ln.startswith("+") and not ln.startswith("+++"))
        aspects.append(AspectChange("ASL body", (f"{removed} line(s)",), (f"{added} line(s)",)))
    if not aspects:
        return None
    return InstructionChange(mnemonic, tuple(aspects), body)


def spec_diff(old: SpecGraph, new: SpecGraph, old_name: str = "old", new_name: str = "new") -> SpecDiff:
    """Instructions added, removed and changed from ``old`` to ``new`` (mnemonics sorted)."""
    before, after = set(old.instructions), set(new.instructions)
    changed = [c for mn in sorted(before & after) if (c := instruction_change(old, new, mn)) is not None]
    return SpecDiff(old_name, new_name, tuple(sorted(after - before)), tuple(sorted(before - after)), tuple(changed))


def format_text(d: SpecDiff) -> str:
    """One line per added/removed instruction, then each change aspect by aspect; the ASL diff indented."""
    out = [f"{d.old} -> {d.new}: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed"]
    out += [f"+ {mn}" for mn in d.added] + [f"- {mn}" for mn in d.removed]
    for c in d.changed:
        out.append(f"~ {c.mnemonic}")
        for a in c.aspects:
            if a.aspect == "ASL body":
                out.append(f"    ASL body: -{a.removed[0]} +{a.added[0]}")
                out += ["      " + ln for ln in c.asl_diff.splitlines()]
                continue
            out.append(f"    {a.aspect}:")
            out += [f"      - {x}" for x in a.removed] + [f"      + {x}" for x in a.added]
    return "\n".join(out) + "\n"


def format_markdown(d: SpecDiff) -> str:
    """A Markdown report: the summary, the lists, one section per changed instruction."""
    out = [f"# Changes from {d.old} to {d.new}", "",
           f"{len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed.", ""]
    for title, names in (("Added", d.added), ("Removed", d.removed)):
        if names:
            out += [f"## {title}", ""] + [f"- `{mn}`" for mn in names] + [""]
    if d.changed:
        out += ["## Changed", ""]
    for c in d.changed:
        out += [f"### `{c.mnemonic}`", ""]
        for a in c.aspects:
            if a.aspect == "ASL body":
                out += ["ASL body:", "", "```diff", c.asl_diff, "```", ""]
                continue
            out += [f"{a.aspect}:", ""] + [f"- removed: `{x}`" for x in a.removed] \
                + [f"- added: `{x}`" for x in a.added] + [""]
    return "\n".join(out)
