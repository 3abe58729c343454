"""What a hardware engineer copies off an instruction page: mask and match, the bit pattern, opcode maps.

Everything is derived from :class:`~specgen.encoding.model.Encoding` (the same
``opcode_mask``/``opcode_match`` the decoder compares), so the hex on a page is
exactly what ``specgen decode`` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Encoding, EncodingSet


def hex_word(value: int, width: int) -> str:
    """``0x`` and one upper-case digit per started nibble of ``width`` (``0x07FFFFFF`` for 32 bits)."""
    return f"0x{value:0{-(-width // 4)}X}"


def mask_hex(enc: Encoding) -> str:
    """Every bit a decoder compares (fixed bits and fields the form pins)."""
    return hex_word(enc.opcode_mask, enc.width)


def match_hex(enc: Encoding) -> str:
    """The value those bits must hold: ``word & mask == match``."""
    return hex_word(enc.opcode_match, enc.width)


def bit_pattern(enc: Encoding) -> str:
    """The word MSB first as a Verilog ``casez`` literal: ``32'b?????_00_00010_0001…``.

    A compared bit is its digit, a bit an assembler chooses is ``?``; ``_``
    separates the segments of the bit-field diagram so the string lines up with
    the decoded items. Verilog reads it unchanged (``_`` is ignored, ``?`` is a
    don't-care in ``casez``).
    """
    mask, match = enc.opcode_mask, enc.opcode_match
    groups: list[str] = []
    for seg in sorted(enc.segments(), key=lambda s: -s.lsb):
        groups.append("".join(str(match >> b & 1) if mask >> b & 1 else "?"
                              for b in range(seg.msb, seg.lsb - 1, -1)))
    return f"{enc.width}'b" + "_".join(groups)


@dataclass(frozen=True)
class OpcodeCell:
    """One selector value of a carrier: the operations that claim it (none: unassigned)."""

    mode: int | None
    function: int
    mnemonics: tuple[str, ...]


@dataclass(frozen=True)
class OpcodeMap:
    """Every Function value of each Mode of one carrier form, and the operation each selects."""

    carrier: str  # the carrier's assembly mnemonic (``BSTART.TEPL``)
    carrier_id: str
    function_bits: int
    modes: tuple[int | None, ...]  # None: a carrier without a Mode field (CUBE/TLSU)
    cells: tuple[OpcodeCell, ...]

    def row(self, mode: int | None) -> tuple[OpcodeCell, ...]:
        return tuple(c for c in self.cells if c.mode == mode)

    @property
    def assigned(self) -> int:
        return sum(1 for c in self.cells if c.mnemonics)


def _fixed(enc: Encoding, name: str) -> int | None:
    f = enc.field(name)
    return f.fixed_value if f is not None else None


def opcode_map(es: EncodingSet, carrier_id: str) -> OpcodeMap | None:
    """The operations a carrier form selects, laid out by Mode and Function; None when it selects none.

    Only a carrier whose operations pin a ``Function`` field (the TEPL carrier,
    the way the encoding builder reads FORMATS §9.3) has a map: one row per Mode
    its operations use, every Function value ``0 … 2^w - 1`` a cell, so gaps show.
    A carrier whose mask already fixes Function selects one operation and has none.
    """
    ops = [e for e in es if e.kind == "tile-operation" and e.base_form_id == carrier_id
           and _fixed(e, "Function") is not None]
    if not ops:
        return None
    carrier = es.by_form_id(carrier_id)
    by_key: dict[tuple[int | None, int], list[str]] = {}
    for e in ops:
        key = (_fixed(e, "Mode"), _fixed(e, "Function") or 0)
        names = by_key.setdefault(key, [])
        if e.mnemonic not in names:
            names.append(e.mnemonic)
    modes = tuple(sorted({m for m, _ in by_key}, key=lambda m: -1 if m is None else m))
    fn = ops[0].field("Function")
    width = fn.width if fn is not None else 0
    cells = tuple(OpcodeCell(m, f, tuple(by_key.get((m, f), ())))
                  for m in modes for f in range(1 << width))
    name = carrier.carrier.mnemonic if carrier is not None else ops[0].carrier.mnemonic
    return OpcodeMap(name, carrier_id, width, modes, cells)
