"""The names assembly text gives to register codes and suffix options, read from the spec's own prose.

A PTO catalog template says *where* an operand goes (``add SrcL,
SrcR<{.sw,.uw,.neg}><<<shamt>, ->{t, u, Rd}``) but not which code a name
stands for. The records state that in their contract prose, and nowhere
else in machine-readable form, so this module reads those sentences (and
only those: :data:`ASSEMBLY_PROSE` picks them out of ``legality`` and
``defaults`` when the encodings are built, see :mod:`.from_spec`):

- register codes: "codes 0..23 select absolute GPRs, 24..27 select
  T#1..T#4, and 28..31 select U#1..U#4" (a source), "code 30 pushes U, code
  31 pushes T" (a destination ``->u`` / ``->t``), and "Encoded zero reads the
  architectural zero GPR" (``zero``). An absolute GPR is written ``R<n>``,
  the spelling the spec's B.IOR decision says an assembler may accept. The
  ABI names the spec's examples use (``a0``, ``sp``) are listed there without
  codes (and ``PTO_FRAME_SP_INDEX = 2`` contradicts reading that list in
  order), so they are refused with that reason rather than guessed.
- suffix option codes: "SrcRType=00 selects .sw, ..., SrcRType=11 selects no
  modifier" (a value read as binary when it has exactly the field's width in
  0/1 digits). Flag options (``lw.add<.{aq, rl, f, aqrl}>``) need no prose:
  each atom names a one-bit field (``f`` is ``far``).

Where a spec states none of this, every operand is written as a number, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: the contract sentences this module reads (the builder keeps only these)
ASSEMBLY_PROSE = re.compile(r"\d+\s*\.\.\s*\d+ (?:select|for|write)|\d+ pushes [TU]\b|=[0-9]+ selects ")
_RANGE = re.compile(r"(\d+)\s*\.\.\s*(\d+) (?:select|for|write)s? (?:the )?(?:named )?"
                    r"(absolute GPRs?|GPRs?|([A-Za-z])#(\d+)\s*\.\.\s*[A-Za-z]#(\d+))")
_PUSH = re.compile(r"(\d+) pushes ([TU])\b")
_SELECTS = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)=([0-9]+) selects (\.[A-Za-z0-9]+|no modifier)")
_OMITTED = re.compile(r"omitted (?:assembly )?suffix encodes ([A-Za-z_][A-Za-z0-9_]*)=([0-9]+)")
_ZERO_GPR = re.compile(r"architectural zero (?:GPR|register)", re.IGNORECASE)


def gpr_name(index: int) -> str:
    """How a program writes an absolute GPR whatever the spec names: ``zero`` or ``R<n>`` (the spelling
    ADR 0055 says an assembler may accept); the Block syntax (B.IOR) and the run's GPR tables use it."""
    return "zero" if index == 0 else f"R{index}"


@dataclass(frozen=True)
class RegisterNames:
    """Register codes by name for a source and a destination operand, and the name each code is written."""

    sources: Mapping[str, int] = field(default_factory=dict)       # lower-case name -> code
    destinations: Mapping[str, int] = field(default_factory=dict)
    absolute: int = 0  # how many codes are absolute GPRs (``R0`` .. ``R<absolute-1>``)

    def code(self, text: str, destination: bool) -> int | None:
        """The code a written register stands for (None: not a name this spec gives a code)."""
        t = text.strip().lower()
        table = self.destinations if destination else self.sources
        if t in table:
            return table[t]
        m = re.fullmatch(r"r([0-9]+)", t)
        if m and int(m.group(1)) < self.absolute:
            return int(m.group(1))
        return None

    def text(self, code: int, destination: bool) -> str:
        """How a code is written: its spec name, ``R<n>`` for an absolute GPR, else the number."""
        table = self.destinations if destination else self.sources
        for name, c in table.items():
            if c == code:
                return name
        return f"R{code}" if code < self.absolute else str(code)

    def describe(self, destination: bool) -> str:
        names = sorted(self.destinations if destination else self.sources, key=lambda n: (len(n), n))
        head = [f"R0..R{self.absolute - 1}"] if self.absolute else []
        return ", ".join(head + names) or "numbers only"


def read_registers(lines: Iterable[str], zero_meanings: Iterable[str] = ()) -> RegisterNames:
    """Register names from the records' legality sentences; a name two sentences give different codes is dropped."""
    src: dict[str, set[int]] = {}
    dst: dict[str, set[int]] = {}
    absolute = 0
    for line in lines:
        for m in _RANGE.finditer(line):
            lo, hi = int(m.group(1)), int(m.group(2))
            if m.group(4) is None:  # absolute GPRs
                absolute = max(absolute, hi + 1) if lo <= 1 else absolute
                continue
            letter, first, last = m.group(4).lower(), int(m.group(5)), int(m.group(6))
            if last - first == hi - lo:
                for k in range(hi - lo + 1):
                    src.setdefault(f"{letter}#{first + k}", set()).add(lo + k)
        for m in _PUSH.finditer(line):
            dst.setdefault(m.group(2).lower(), set()).add(int(m.group(1)))
    if absolute and any(_ZERO_GPR.search(z) for z in zero_meanings):
        src.setdefault("zero", set()).add(0)
        dst.setdefault("zero", set()).add(0)
    return RegisterNames({n: min(c) for n, c in src.items() if len(c) == 1},
                         {n: min(c) for n, c in dst.items() if len(c) == 1}, absolute)


@dataclass(frozen=True)
class SuffixCodes:
    """The codes a suffix-option field takes for each written option, and the code of no suffix."""

    options: Mapping[str, int]  # ".sw" -> 0
    omitted: int | None

    def option_of(self, code: int) -> str | None:
        return next((o for o, c in self.options.items() if c == code), None)


def suffix_codes(lines: Iterable[str], field_name: str, width: int) -> SuffixCodes | None:
    """What the record's defaults say each option of ``field_name`` encodes (None: they say nothing)."""
    options: dict[str, int] = {}
    omitted: int | None = None
    for line in lines:
        for m in _SELECTS.finditer(line):
            if m.group(1) != field_name:
                continue
            code = _code(m.group(2), width)
            if m.group(3) == "no modifier":
                omitted = code
            else:
                options[m.group(3).lower()] = code
        for m in _OMITTED.finditer(line):
            if m.group(1) == field_name:
                omitted = _code(m.group(2), width)
    return SuffixCodes(options, omitted) if options else None


def _code(digits: str, width: int) -> int:
    """``00`` of a two-bit field is binary; ``2`` is decimal."""
    return int(digits, 2) if len(digits) == width and set(digits) <= {"0", "1"} else int(digits)


def flag_atoms(options: Iterable[str]) -> list[str]:
    """The options no other two combine to (``aq``, ``rl``, ``f`` of ``aq, rl, f, aqrl, aqf``)."""
    opts = sorted({o.lstrip(".").lower() for o in options}, key=len)
    atoms: list[str] = []
    for o in opts:
        if split_flags(o, atoms) is None:
            atoms.append(o)
    return atoms


def split_flags(text: str, atoms: list[str]) -> list[str] | None:
    """``aqrl`` as ``[aq, rl]`` (None when the atoms cannot spell it)."""
    if not text:
        return []
    for a in sorted(atoms, key=len, reverse=True):
        if text.startswith(a):
            rest = split_flags(text[len(a):], atoms)
            if rest is not None:
                return [a, *rest]
    return None
