"""The encoding model: one :class:`Encoding` per encodable instruction form.

Everything here is plain data plus bit arithmetic. It is kept apart from the
code that derives it from the catalogs (:mod:`specgen.encoding.build`) so the
renderers, the checks and the decoder share one vocabulary and never look at
catalog JSON themselves.

Bit numbering is little-endian over the whole instruction: bit 0 is the LSB of
the first 32-bit (or 16/48-bit) word, and for 64-bit forms the second catalog
word starts at bit 32, exactly like ``instruction_lsb`` in the catalogs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..cache import codec
from ..diagnostics import Finding
from .asm_names import RegisterNames, read_registers

SegmentKind = Literal["constant", "field", "gap"]
EncodingKind = Literal["tile-operation", "command-form", "scalar-form", "reservation"]


def bit_range(msb: int, lsb: int) -> str:
    """Spell a bit range the way the reference page does (``31:27``; one bit is ``7``)."""
    return str(lsb) if msb == lsb else f"{msb}:{lsb}"


def ones(width: int) -> int:
    return (1 << width) - 1 if width > 0 else 0


def binary_literal(value: int, width: int) -> str:
    """Verilog-style sized binary literal, the name given to constant segments."""
    return f"{width}'b{value:0{width}b}"


def assemble(base: int, values: Mapping[str, int], pieces: Mapping[str, Iterable[FieldSlice]]) -> int:
    """``base`` with each field value written into that field's pieces (the bits under them replaced).

    The one place a word is put together from field values: the encoding model
    and the generators of ASL test shards (which hold catalog forms as JSON) both use it.
    """
    word = base
    for name, value in values.items():
        for p in pieces[name]:
            word = (word & ~p.mask) | (((value >> p.value_lsb) & ones(p.width)) << p.instruction_lsb)
    return word


def catalog_word(form: Mapping[str, Any], values: Mapping[str, int]) -> int:
    """The word of a catalog form as JSON (first encoding word's match) with ``values`` in its fields."""
    fields = {f["name"]: f for f in form.get("fields", [])}
    pieces = {name: [FieldSlice(int(p["instruction_lsb"]), int(p["value_lsb"]), int(p["width"]))
                     for p in fields[name]["pieces"]] for name in values}
    return assemble(int(form["encoding"][0]["match"], 16), values, pieces)


@dataclass(frozen=True, slots=True)
class FieldSlice:
    """One contiguous slice of a field: instruction bits ↔ value bits.

    Not the catalog record ``models.instruction.Piece``: that is a piece as the catalog must write it
    (validated bounds, its ``part_index``); this is the slice the tree has, in part order, built even
    from a record that does not validate so the ``encoding-*`` rules can report it, with the bit
    arithmetic the decoder, the assembler and the pages share.
    """

    instruction_lsb: int
    value_lsb: int
    width: int

    @property
    def instruction_msb(self) -> int:
        return self.instruction_lsb + self.width - 1

    @property
    def value_msb(self) -> int:
        return self.value_lsb + self.width - 1

    @property
    def mask(self) -> int:
        return ones(self.width) << self.instruction_lsb


@dataclass(frozen=True, slots=True)
class Field:
    """An encoded operand field.

    ``fixed_value`` is set when the field cannot vary for this encoding: a tile
    operation's Mode/Function (``fixed_by == "operation"``) or a field whose
    ``one-of`` constraint admits a single value (``fixed_by == "constraint"``,
    e.g. B.FPATR's ``Func``). Such a field still reads as a field on the page.
    """

    name: str
    pieces: tuple[FieldSlice, ...]
    width: int
    signedness: str | None = None
    role: str | None = None
    zero_meaning: str | None = None
    zero_meaning_source: str | None = None  # "contract" | "default" | "domain" | None
    domain: str | None = None
    fixed_value: int | None = None
    fixed_by: str | None = None

    @property
    def mask(self) -> int:
        m = 0
        for p in self.pieces:
            m |= p.mask
        return m

    @property
    def value_width(self) -> int:
        """Bits needed to hold the value the pieces can express (≥ the covered bits)."""
        return max((p.value_msb + 1 for p in self.pieces), default=0)

    @property
    def covered_value_mask(self) -> int:
        m = 0
        for p in self.pieces:
            m |= ones(p.width) << p.value_lsb
        return m

    @property
    def is_split(self) -> bool:
        """True when the pieces are not simply value bits ``width-1:0`` in one run.

        Multi-piece immediates and scaled immediates (FENTRY ``uimm`` carries
        value bits 14:3 only) are drawn with value-bit suffixes.
        """
        return not (len(self.pieces) == 1 and self.pieces[0].value_lsb == 0)

    @property
    def signed(self) -> bool:
        return self.signedness == "signed"

    def piece_label(self, piece: FieldSlice) -> str:
        if not self.is_split:
            return self.name
        return f"{self.name}[{bit_range(piece.value_msb, piece.value_lsb)}]"

    def to_raw(self, value: int) -> int:
        """The unsigned bit pattern of ``value`` (two's complement when signed)."""
        return value & ones(max(self.value_width, self.width))

    def from_raw(self, raw: int) -> int:
        if self.signed and self.value_width and raw >> (self.value_width - 1) & 1:
            return raw - (1 << self.value_width)
        return raw

    def representable(self, value: int) -> bool:
        """Whether the pieces can carry ``value`` exactly (no bits fall outside them)."""
        raw = self.to_raw(value)
        if raw & ~self.covered_value_mask:
            return False
        return self.from_raw(raw) == value

    def insert(self, value: int) -> int:
        """Instruction bits for ``value`` (bits outside the pieces are dropped)."""
        raw = self.to_raw(value)
        word = 0
        for p in self.pieces:
            word |= ((raw >> p.value_lsb) & ones(p.width)) << p.instruction_lsb
        return word

    def extract(self, word: int) -> int:
        raw = 0
        for p in self.pieces:
            raw |= ((word >> p.instruction_lsb) & ones(p.width)) << p.value_lsb
        return self.from_raw(raw)


@dataclass(frozen=True, slots=True)
class FieldCondition:
    """A catalog constraint on one field's value, as the set of values it admits or excludes.

    Not the catalog record ``models.instruction.Constraint`` (``one-of`` with ``values``, ``not-equal``
    with one ``value``, as written and validated): here both operators carry a tuple of values, and the
    decoder and the pages ask :meth:`allows` and :meth:`describe`.
    """

    field: str
    operator: str  # "one-of" | "not-equal"
    values: tuple[int, ...]

    def allows(self, value: int) -> bool:
        if self.operator == "one-of":
            return value in self.values
        if self.operator == "not-equal":
            return value not in self.values
        return True

    def describe(self) -> str:
        if self.operator == "one-of":
            return f"{self.field} ∈ {{{', '.join(map(str, self.values))}}}"
        return f"{self.field} ≠ {', '.join(map(str, self.values))}"


@dataclass(frozen=True, slots=True)
class Segment:
    """A contiguous run of bits drawn as one box (LSB-first order in layouts)."""

    lsb: int
    width: int
    kind: SegmentKind
    name: str
    value: int | None = None  # constant bits for "constant"; the fixed value slice for fixed fields
    field: str | None = None
    overlaps_fixed: bool = False

    @property
    def msb(self) -> int:
        return self.lsb + self.width - 1

    @property
    def bits(self) -> str:
        return bit_range(self.msb, self.lsb)


@dataclass(frozen=True, slots=True)
class Item:
    """One decoded-item row: name, bit range, and ``variable`` or the constant."""

    name: str
    bits: str
    value: str
    fixed_value: int | None = None

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.name, self.bits, self.value)


@dataclass(frozen=True, slots=True)
class Carrier:
    """The command form that carries the encoding (the form itself for non-tile forms)."""

    mnemonic: str
    asm: str
    form_id: str


@dataclass(frozen=True, slots=True)
class Source:
    """Where the form is declared: root-relative catalog path and 1-based line."""

    path: str
    line: int
    pointer: str = ""
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Encoding:
    """One encodable form of one instruction (or one alternative row of it)."""

    mnemonic: str
    form_id: str
    kind: EncodingKind
    width: int
    fields: tuple[Field, ...]
    fixed_mask: int
    fixed_match: int
    constraints: tuple[FieldCondition, ...]
    carrier: Carrier
    source: Source
    assembly: str = ""
    surface: str = ""
    status: str = ""
    encoding_kind: str = ""
    variant: str | None = None
    base_form_id: str = ""
    domain_values: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    excluded_values: tuple[tuple[str, int, str], ...] = ()
    parts: tuple[tuple[int, int, int, int], ...] = ()  # (bit offset, width_bits, mask, match) per catalog word
    parts_width: int = 0  # sum of the catalog words' width_bits
    assembly_prose: tuple[str, ...] = ()  # the contract sentences naming assembly codes (asm_names)

    # ----------------------------------------------------------------- bits
    @property
    def word_mask(self) -> int:
        return ones(self.width)

    @property
    def opcode_mask(self) -> int:
        """Every bit a decoder must compare: fixed bits plus fields with a fixed value."""
        m = self.fixed_mask
        for f in self.fields:
            if f.fixed_value is not None:
                m |= f.mask
        return m & self.word_mask

    @property
    def opcode_match(self) -> int:
        v = self.fixed_match & self.fixed_mask
        for f in self.fields:
            if f.fixed_value is not None:
                v = (v & ~f.mask) | f.insert(f.fixed_value)
        return v & self.word_mask

    @property
    def field_mask(self) -> int:
        m = 0
        for f in self.fields:
            m |= f.mask
        return m

    @property
    def gap_mask(self) -> int:
        return self.word_mask & ~(self.fixed_mask | self.field_mask)

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    @property
    def free_fields(self) -> tuple[Field, ...]:
        """Fields an assembler chooses (not fixed by the operation or a single-value constraint)."""
        return tuple(f for f in self.fields if f.fixed_value is None)

    def constraints_for(self, name: str) -> tuple[FieldCondition, ...]:
        return tuple(c for c in self.constraints if c.field == name)

    def encode(self, values: Mapping[str, int]) -> int:
        """The instruction word for ``values`` (missing free fields encode as zero)."""
        free = [f for f in self.fields if f.fixed_value is None]
        return assemble(self.opcode_match, {f.name: f.to_raw(values.get(f.name, 0)) for f in free},
                        {f.name: f.pieces for f in free}) & self.word_mask

    def decode_fields(self, word: int) -> dict[str, int]:
        return {f.name: f.extract(word) for f in self.fields}

    def matches(self, word: int) -> bool:
        """Whether ``word`` decodes as this form: fixed bits and every constraint hold."""
        if word & ~self.word_mask or (word & self.opcode_mask) != self.opcode_match:
            return False
        for c in self.constraints:
            f = self.field(c.field)
            if f is not None and not c.allows(f.extract(word)):
                return False
        return True

    # ------------------------------------------------------------- layout
    @property
    def fixed_segments(self) -> tuple[Segment, ...]:
        """Contiguous runs of fixed bits, each with its constant value."""
        out: list[Segment] = []
        bit = 0
        while bit < self.width:
            if self.fixed_mask >> bit & 1:
                start = bit
                while bit < self.width and self.fixed_mask >> bit & 1:
                    bit += 1
                w = bit - start
                val = (self.fixed_match >> start) & ones(w)
                out.append(Segment(start, w, "constant", binary_literal(val, w), value=val))
            else:
                bit += 1
        return tuple(out)

    def segments(self) -> tuple[Segment, ...]:
        """The whole word as LSB-first boxes: constants, field pieces, don't-care gaps.

        A field piece wins over fixed bits it overlaps (B.FPATR names its
        opcode sub-fields); that segment is flagged ``overlaps_fixed`` and
        carries the fixed value so a renderer can still show it.
        """
        owner: list[tuple[str, ...]] = []
        labels: dict[tuple[str, ...], tuple[str, str]] = {}
        piece_of: list[tuple[Field, FieldSlice] | None] = [None] * self.width
        for f in self.fields:
            for i, p in enumerate(f.pieces):
                for b in range(p.instruction_lsb, min(p.instruction_msb + 1, self.width)):
                    if piece_of[b] is None:
                        piece_of[b] = (f, p)
                labels[("field", f.name, str(i))] = (f.piece_label(p), f.name)
        for b in range(self.width):
            fp = piece_of[b]
            if fp is not None:
                f, p = fp
                owner.append(("field", f.name, str(f.pieces.index(p))))
            elif self.fixed_mask >> b & 1:
                owner.append(("constant",))
            else:
                owner.append(("gap",))
        out: list[Segment] = []
        b = 0
        while b < self.width:
            key = owner[b]
            start = b
            while b < self.width and owner[b] == key:
                b += 1
            w = b - start
            if key[0] == "constant":
                val = (self.fixed_match >> start) & ones(w)
                out.append(Segment(start, w, "constant", binary_literal(val, w), value=val))
            elif key[0] == "gap":
                out.append(Segment(start, w, "gap", ""))
            else:
                label, fname = labels[key]
                seg_mask = ones(w) << start
                overl = bool(self.fixed_mask & seg_mask)
                f = self.field(fname)
                val: int | None = None
                if f is not None and f.fixed_value is not None:
                    val = (f.insert(f.fixed_value) >> start) & ones(w)
                elif overl:
                    val = (self.fixed_match >> start) & ones(w)
                out.append(Segment(start, w, "field", label, value=val, field=fname,
                                   overlaps_fixed=overl))
        return tuple(out)

    def items(self) -> tuple[Item, ...]:
        """Decoded-item rows, MSB first, like the reference page's encoding table."""
        rows: list[tuple[int, Item]] = []
        for f in self.fields:
            for p in f.pieces:
                rows.append((p.instruction_msb, Item(f.piece_label(p),
                                                     bit_range(p.instruction_msb, p.instruction_lsb),
                                                     "variable", f.fixed_value)))
        covered = self.field_mask
        for s in self.fixed_segments:
            # Fixed bits a field already names (B.FPATR) are shown once, as the field.
            b = s.lsb
            while b <= s.msb:
                if covered >> b & 1:
                    b += 1
                    continue
                start = b
                while b <= s.msb and not covered >> b & 1:
                    b += 1
                w = b - start
                val = (self.fixed_match >> start) & ones(w)
                rows.append((b - 1, Item("Constant", bit_range(b - 1, start), binary_literal(val, w), val)))
        gap = self.gap_mask
        b = 0
        while b < self.width:
            if gap >> b & 1:
                start = b
                while b < self.width and gap >> b & 1:
                    b += 1
                rows.append((b - 1, Item("Don't care", bit_range(b - 1, start), "unspecified")))
            else:
                b += 1
        rows.sort(key=lambda r: -r[0])
        return tuple(r[1] for r in rows)

    def value_name(self, field_name: str, value: int) -> str | None:
        names = self.domain_values.get(field_name)
        return None if names is None else names.get(value)


@dataclass
class EncodingSet:
    """All encodings of a corpus, indexed by mnemonic, form id and width."""

    encodings: list[Encoding]
    aliases: dict[str, str] = field(default_factory=dict)  # alias mnemonic -> owning mnemonic
    reviewed_overlaps: tuple[tuple[str, str, str], ...] = ()  # (broad, narrow, reason)
    field_domains: tuple[Mapping[str, object], ...] = ()
    build_findings: list[Finding] = field(default_factory=list)  # records the builder could not read

    def __post_init__(self) -> None:
        self._registers: RegisterNames | None = None
        self._by_mn: dict[str, list[Encoding]] = {}
        self._by_id: dict[str, Encoding] = {}
        self._by_width: dict[int, list[Encoding]] = {}
        for e in self.encodings:
            self._by_mn.setdefault(e.mnemonic, []).append(e)
            self._by_id.setdefault(e.form_id, e)
            self._by_width.setdefault(e.width, []).append(e)

    def __iter__(self) -> Iterator[Encoding]:
        return iter(self.encodings)

    def __len__(self) -> int:
        return len(self.encodings)

    @property
    def registers(self) -> RegisterNames:
        """Register names the records' prose gives codes (read once, on first use: only assembly text needs them)."""
        if self._registers is None:
            lines = [line for e in self.encodings for line in e.assembly_prose]
            zeros = [f.zero_meaning for e in self.encodings for f in e.fields
                     if f.zero_meaning and f.role and "reg5" in f.role.lower()]
            self._registers = read_registers(lines, zeros)
        return self._registers

    def by_mnemonic(self, mnemonic: str) -> list[Encoding]:
        """Every form of ``mnemonic`` (an alias such as BSTART.VEC yields its owner's forms)."""
        found = self._by_mn.get(mnemonic)
        if found is None and mnemonic in self.aliases:
            found = self._by_mn.get(self.aliases[mnemonic])
        return list(found or ())

    def by_form_id(self, form_id: str) -> Encoding | None:
        return self._by_id.get(form_id)

    def mnemonics(self) -> list[str]:
        return list(self._by_mn)

    def widths(self) -> list[int]:
        return sorted(self._by_width)

    def of_width(self, width: int) -> Sequence[Encoding]:
        return tuple(self._by_width.get(width, ()))


# stored between processes (specgen.encoding.from_spec): data, never code
codec.register(FieldSlice, Field, FieldCondition, Segment, Item, Carrier, Source, Encoding, EncodingSet)
