"""Read a catalog assembly template into the operands a written command has (see :mod:`.asm_template`).

``add SrcL, SrcR<{.sw,.uw,.neg}><<<shamt>, ->{t, u, Rd}`` becomes four slots:
SrcL; SrcR with its type field SrcRType (codes from the record's prose) and
the shift field shamt; the destination RegDst. The head's ``<.{aq, rl, f}>``
becomes flag fields. Fields no slot or flag reaches stay named operands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..workspace import current
from .asm import AsmError, resolve_field
from .asm_names import SuffixCodes, flag_atoms, split_flags, suffix_codes
from .model import Encoding

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERAND = re.compile(r"(?P<base>[A-Za-z_][A-Za-z0-9_#]*)(?:<(?P<opts>[^<>]*)>)?"
                      r"(?:<<(?:<(?P<shf>[A-Za-z_][A-Za-z0-9_]*)>|(?P<shn>[0-9]+)))?")
_HEAD = re.compile(r"(?P<base>[A-Za-z0-9_.]+?)(?:<\.?\{?(?P<opts>[^<>{}]*)\}?>)?")


@dataclass(frozen=True)
class Slot:
    """One written operand: the field it fills (``=KEYWORD`` for a template keyword) and what rides on it."""

    field: str
    destination: bool = False
    suffix: str | None = None  # the field its ``.option`` sets
    codes: SuffixCodes | None = None
    shift: str | None = None   # the field its ``<<n`` sets
    fixed_shift: int | None = None
    brackets: str = ""  # the template's address brackets around it: "[", "]" or "[]"


@dataclass(frozen=True)
class TemplateShape:
    """A form's operands as its template orders them, its flag options, and the fields only a name can reach."""

    head: str
    slots: tuple[Slot, ...]
    named: tuple[str, ...]
    flags: Mapping[str, str] = field(default_factory=dict)  # atom -> one-bit field
    options: tuple[str, ...] = ()  # the flag options as the template lists them

    @property
    def positional(self) -> tuple[str, ...]:
        return tuple(s.field for s in self.slots)


def _split_head(assembly: str) -> tuple[str, str]:
    """The template's first word (mnemonic with its suffix options) and the operand text."""
    depth = 0
    for i, ch in enumerate(assembly):
        if ch in "{<":
            depth += 1
        elif ch in "}>":
            depth -= 1
        elif ch.isspace() and depth <= 0:
            return assembly[:i], assembly[i:].strip()
    return assembly, ""


def _template_operands(rest: str) -> list[tuple[str, bool, str]]:
    """The template's operands (``{t, u, Rd}`` as its last alternative), each with whether it is a
    destination (written after ``->``) and the address brackets around it (``[``, ``]``, ``[]``)."""
    protected = re.sub(r"<[^<>]*>|\{[^{}]*\}", lambda m: m.group(0).replace(",", "\0"), rest)
    out: list[tuple[str, bool, str]] = []
    dest = False
    for raw in protected.split(","):
        raw = raw.replace("\0", ",").strip()
        brackets = ("[" if raw.startswith("[") else "") + ("]" if raw.endswith("]") else "")
        op = raw.strip("[]").strip()
        if not op:
            continue
        alternatives = op.startswith(("->{", "{->"))
        dest = dest or op.startswith(("->", "{->"))
        op = op.replace("->", "").strip()
        if op.startswith("{") and alternatives:  # ->{t, u, Rd}: one destination, the field is the last
            op = op.strip("{}").split(",")[-1].strip()
        elif op.startswith("{"):  # {trap, atomic, far}: a group of operands
            out += [(inner, dest, "") for inner, _, _ in _template_operands(op[1:-1] if op.endswith("}") else op[1:])]
            continue
        out.append((op, dest, brackets))
    return out


def _destination(enc: Encoding, word: str, used: set[str]) -> str:
    """A destination operand (``Rd``, ``Dst0``): its field by name, else the next unused ``…Dst…`` field."""
    try:
        return resolve_field(enc, word, used)
    except AsmError:
        dsts = [f.name for f in enc.free_fields if f.name not in used and "dst" in f.name.lower()]
        if not dsts:
            raise
        return dsts[0]


def _allowed(enc: Encoding, name: str) -> set[int]:
    f = enc.field(name)
    cons = enc.constraints_for(name)
    return {v for v in range(1 << (f.width if f else 0)) if all(c.allows(v) for c in cons)}


def _suffix(enc: Encoding, base: str, opts: str, used: set[str]) -> tuple[str, SuffixCodes] | None:
    """The type field an operand's ``<{.sw,.uw}>`` sets, when the record states a code for every value."""
    free = {f.name: f for f in enc.free_fields if f.name not in used}
    cands = [n for n in free if n.startswith(base) and n != base]
    if len(cands) != 1:
        return None
    f = free[cands[0]]
    codes = suffix_codes(enc.assembly_prose, f.name, f.width)
    written = {o.strip().lower() for o in opts.strip("{}").split(",") if o.strip()}
    if codes is None or set(codes.options) != written:
        return None
    covered = set(codes.options.values()) | ({codes.omitted} if codes.omitted is not None else set())
    return (f.name, codes) if _allowed(enc, f.name) <= covered else None


def _flags(enc: Encoding, opts: str, used: set[str]) -> dict[str, str] | None:
    """Each flag atom's one-bit field, when every combination of them is a listed option."""
    options = [o.strip().lstrip(".").lower() for o in opts.split(",") if o.strip()]
    atoms = flag_atoms(options)
    out: dict[str, str] = {}
    for a in atoms:
        hits = [f.name for f in enc.free_fields if f.width == 1 and f.name not in used
                and f.name.lower().startswith(a)]
        if len(hits) != 1:
            return None
        out[a] = hits[0]
    combos = {frozenset(split_flags(o, atoms) or ()) for o in options}
    if len(combos) != (1 << len(atoms)) - 1:  # every non-empty combination is spelled
        return None
    return out


def _shapes() -> dict[tuple[object, ...], TemplateShape]:
    """The workspace's table (it dies with the workspace)."""
    return current().table("encoding.asm_shape._SHAPES")


def shape_of(enc: Encoding) -> TemplateShape:
    """Read the form's template (see the module doc); raises AsmError when it has none."""
    key = (enc.form_id, enc.assembly, enc.assembly_prose, tuple((f.name, f.width) for f in enc.fields),
           enc.constraints)
    shape = _shapes().get(key)
    if shape is None:
        shape = _shapes()[key] = _read_shape(enc)
    return shape


def _read_shape(enc: Encoding) -> TemplateShape:
    if not enc.assembly.strip():
        raise AsmError(f"form {enc.form_id}: no assembly template")
    head_text, rest = _split_head(enc.assembly)
    used: set[str] = set()
    slots: list[Slot] = []
    free = {f.name for f in enc.free_fields}
    for op, dest, brackets in _template_operands(rest):
        m = _OPERAND.fullmatch(op)
        if m and m.group("opts") and not m.group("opts").lstrip().startswith(("{", ".")):
            m = None  # ``T<SizeCode>``: two operands' names, not an option list
        words = [m.group("base")] if m else [w.group(0) for w in _IDENT.finditer(op)]
        for w in words:
            if _keyword(w):
                slots.append(Slot("=" + w.upper(), dest))  # written as is: it tells forms of one mnemonic apart
                continue
            try:
                name = _destination(enc, w, used) if dest else resolve_field(enc, w, used)
            except AsmError:
                if (dest or "#" in w) and m and not m.group("opts") and len(words) == 1:
                    slots.append(Slot("=" + w.upper(), dest))  # ``->t``, ``t#1``: a fixed register, written as is
                continue  # a letter (M, N) or a label: its field stays a named operand
            if name not in free:
                continue
            used.add(name)
            slot = Slot(name, dest)
            if m and m.group("opts"):
                suffix = _suffix(enc, name, m.group("opts"), used)
                if suffix is not None:
                    used.add(suffix[0])
                    slot = Slot(name, dest, suffix[0], suffix[1])
            if m and m.group("shf"):
                try:
                    sh = resolve_field(enc, m.group("shf"), used)
                except AsmError:
                    sh = None
                if sh in free:
                    used.add(sh)
                    slot = Slot(slot.field, dest, slot.suffix, slot.codes, sh)
            elif m and m.group("shn"):
                slot = Slot(slot.field, dest, slot.suffix, slot.codes, None, int(m.group("shn")))
            slots.append(Slot(slot.field, dest, slot.suffix, slot.codes, slot.shift, slot.fixed_shift, brackets))
    hm = _HEAD.fullmatch(head_text)
    head = (hm.group("base") if hm else head_text).upper()
    flags: dict[str, str] = {}
    options: tuple[str, ...] = ()
    if hm and hm.group("opts"):
        flags = _flags(enc, hm.group("opts"), used) or {}
        if flags:
            options = tuple(o.strip().lstrip(".").lower() for o in hm.group("opts").split(",") if o.strip())
            used.update(flags.values())
    named = tuple(f.name for f in enc.free_fields if f.name not in used)
    return TemplateShape(head if re.fullmatch(r"[A-Z0-9_.]+", head) else enc.mnemonic.upper(),
                         tuple(slots), named, flags, options)


def _keyword(word: str) -> bool:
    """An upper-case template word of three or more characters names no field (``RET``, ``DIRECT``, ``LB0``)."""
    return len(word) >= 3 and word == word.upper() and not word.isdigit()
