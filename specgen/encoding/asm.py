"""Assemble a parsed Block command into its instruction word, from the spec's own encodings.

The exact inverse of :func:`specgen.encoding.decode.decode`: a command
(its mnemonic and the fields the program parser read, see
:mod:`specgen.program.statements`) selects the encodable form whose
assembly template has the same operands, and each operand is written into
the field the template names. Nothing here knows a bit position or a code:
forms, fields, widths and constraints are the catalog's; DataType and PadValue
codes were already resolved by the parser from the spec's field domains; the
PE mask a ``B.IOT`` names is turned into its ``PEMode`` code by the table the
caller derives from the spec's ASL (``*PEMaskOfPEMode``).

This layer does not import the parser (``encoding`` sits below ``examples``):
it takes the parsed fields as a plain mapping.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .asm_names import gpr_name
from .model import Encoding, EncodingSet

_SLOT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class AsmError(Exception):
    """The command has no encodable form in this spec, or a value does not fit its field."""


@dataclass(frozen=True)
class Assembled:
    """One command's word, with the form chosen and every field's value."""

    encoding: Encoding
    values: dict[str, int]
    word: int

    @property
    def width(self) -> int:
        return self.encoding.width

    def hex(self) -> str:
        return f"0x{self.word:0{-(-self.width // 4)}X}"


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def template_operands(enc: Encoding) -> list[str]:
    """The operands of the form's assembly template, after the mnemonic (and tile operation)."""
    text = enc.assembly.split(None, 1)
    rest = text[1] if len(text) > 1 else ""
    ops = [o.strip() for o in re.split(r",(?![^{]*})", rest) if o.strip()]
    if enc.kind == "tile-operation" and ops:
        ops[0] = ops[0].split(None, 1)[-1] if " " in ops[0] else ops[0]
        if ops[0].upper() == enc.mnemonic.upper():
            ops = ops[1:]
    return ops


def spells_operation(enc: Encoding) -> bool:
    """Whether a tile operation's template names the operation after its BSTART spelling
    (``BSTART.VEC TMUL, DataType``) rather than in the spelling itself (``BSTART.TMATMUL DataType``)."""
    words = enc.assembly.replace(",", " ").split()
    return len(words) > 1 and words[1].upper() == enc.mnemonic.upper()


def resolve_field(enc: Encoding, slot: str, used: set[str]) -> str:
    """The field a template slot names (``uimm`` is ``uimm17``, ``<last>`` is ``L``, ``PE_MASK`` is ``PEMode``)."""
    s = _norm(slot.strip("<>"))
    free = [f.name for f in enc.fields if f.name not in used]
    for test in (lambda n: _norm(n) == s,
                 lambda n: _norm(n).startswith(s) or s.startswith(_norm(n))):
        hits = [n for n in free if test(n)]
        if len(hits) == 1:
            return hits[0]

    def common(n: str) -> int:
        k = 0
        for a, b in zip(_norm(n), s):
            if a != b:
                break
            k += 1
        return k

    best = sorted(free, key=lambda n: -common(n))
    if best and common(best[0]) >= 2 and (len(best) == 1 or common(best[1]) < common(best[0])):
        return best[0]
    raise AsmError(f"form {enc.form_id}: template operand {slot!r} names no field of the form")


@dataclass(frozen=True)
class Slots:
    """Where the parsed operands of a command go in one form: field names by role."""

    plain: tuple[str, ...]          # positional operands, in template order
    mask: str | None = None         # mask=PE_MASK
    last: str | None = None         # <last>
    dest: tuple[str, str] | None = None  # ->Hand<SizeCode>
    lb: int | None = None           # ->LBn
    mask_direct: bool = False       # the mask field holds the mask itself (0.58.0's PE_MASK), not a mode code


def slots_of(enc: Encoding) -> Slots:
    """Read the form's template into the roles of its operands."""
    used: set[str] = set()
    plain: list[str] = []
    mask = last = None
    dest = None
    lb = None
    direct = False
    for op in template_operands(enc):
        if op.startswith("{"):
            for inner in op.strip("{}").split(","):
                name = resolve_field(enc, inner.strip(), used)
                used.add(name)
                plain.append(name)
            continue
        m = re.fullmatch(r"->\s*LB([0-9]+)", op)
        if m:
            lb = int(m.group(1))
            continue
        m = re.fullmatch(r"->\s*([A-Za-z_][A-Za-z0-9_]*)<([A-Za-z_][A-Za-z0-9_]*)>", op)
        if m:
            hand = resolve_field(enc, m.group(1), used)
            used.add(hand)
            size = resolve_field(enc, m.group(2), used)
            used.add(size)
            dest = (hand, size)
            continue
        if op.lower() == "<last>":
            last = resolve_field(enc, "last", used)
            used.add(last)
            continue
        if "=" in op:
            named = op.split("=", 1)[1]
            mask = resolve_field(enc, named, used)
            direct = _norm(mask) == _norm(named)
            used.add(mask)
            continue
        name = resolve_field(enc, op, used)
        used.add(name)
        plain.append(name)
    return Slots(tuple(plain), mask, last, dest, lb, direct)


def candidates(es: EncodingSet, mnemonic: str, fields: Mapping[str, object]) -> list[Encoding]:
    """The forms a command may take: a tile operation's own form under a BSTART spelling, else the mnemonic's."""
    op = fields.get("operation")
    if mnemonic.startswith("BSTART") and isinstance(op, str):
        return [e for e in es.by_mnemonic(op) if e.kind == "tile-operation"
                and e.assembly.split(None, 1)[0] == mnemonic]
    forms = [e for e in es.by_mnemonic(mnemonic) if e.kind == "command-form"]
    variant = fields.get("variant")
    if isinstance(variant, str):  # ``[TMOV.L2S.INSERT form]``: that row of the catalog's encoding_variants
        return [e for e in forms if (e.variant or "").upper() == variant.upper()]
    # no variant written: the form's own row (a spelling whose rows are all variants keeps them all)
    return [e for e in forms if e.variant is None] or forms


def variants_of(es: EncodingSet, mnemonic: str) -> list[str]:
    """The encoding variants the catalog defines for a command spelling (``BSTART.TMOV``), in catalog order."""
    return list(dict.fromkeys(e.variant for e in es.by_mnemonic(mnemonic)
                              if e.kind == "command-form" and e.variant))


def assemble_command(es: EncodingSet, mnemonic: str, fields: Mapping[str, object],
                     pe_modes: Mapping[int, int] | None = None) -> Assembled:
    """The word of one parsed command (``fields`` as the program parser reads them).

    ``pe_modes`` maps a four-bit PE mask to its PEMode code (the spec's ASL
    states it); without it a ``mask=`` operand is refused.
    """
    forms = candidates(es, mnemonic, fields)
    if not forms and fields.get("variant"):
        known = variants_of(es, mnemonic)
        raise AsmError(f"{mnemonic}: no encoding variant {fields['variant']!r} in this spec; "
                       + (f"it defines [{' form], ['.join(known)} form]" if known else "the spelling has no variants"))
    if not forms:
        what = f"{mnemonic} {fields.get('operation')}" if fields.get("operation") else mnemonic
        raise AsmError(f"{what}: no encodable form in this spec")
    order = _operands(mnemonic, fields)
    errors: list[str] = []
    for enc in forms:
        try:
            values = (_gpr_values(enc, fields) if "gpr_sources" in fields else
                      _values(enc, slots_of(enc), mnemonic, fields, order, pe_modes))
        except AsmError as e:
            errors.append(str(e))
            continue
        return Assembled(enc, values, enc.encode(values))
    raise AsmError(errors[0] if len(errors) == 1 else
                   f"{mnemonic}: no form takes these operands ({'; '.join(errors)})")


def _operands(mnemonic: str, fields: Mapping[str, object]) -> list[object]:
    """The parsed positional operands in assembly order (the parser's field names are its syntax)."""
    if "values" in fields:  # every field of the form in template order (B.FPATR)
        return list(fields["values"])  # type: ignore[call-overload]
    if mnemonic.startswith("BSTART"):
        return [fields[k] for k in ("mode", "function") if k in fields] + [fields.get("data_type")]
    if mnemonic == "B.DIM":
        return [0, fields.get("value")]
    if mnemonic == "B.IOT":
        return [fields[k] for k in ("source_left", "source_right") if fields.get(k) is not None]
    if mnemonic == "B.DATR" and "layout" in fields:
        return [fields[k] for k in ("layout", "data_type", "pad", "cmode", "rmode", "sat", "canonicalize")]
    return []


def _values(enc: Encoding, slots: Slots, mnemonic: str, fields: Mapping[str, object], order: list[object],
            pe_modes: Mapping[int, int] | None) -> dict[str, int]:
    if len(slots.plain) != len(order):
        raise AsmError(f"{enc.assembly}: takes {len(slots.plain)} operands, the command has {len(order)}")
    if slots.lb is not None and fields.get("lb") != slots.lb:
        raise AsmError(f"{enc.assembly}: writes LB{slots.lb}")
    values: dict[str, int] = {}
    for name, v in zip(slots.plain, order):
        values[name] = _int(v, name)
    has_dest = fields.get("destination_hand") is not None
    if (slots.dest is not None) != has_dest and mnemonic == "B.IOT":
        raise AsmError(f"{enc.assembly}: {'needs' if slots.dest else 'has no'} destination")
    if slots.dest is not None:
        values[slots.dest[0]] = _int(fields.get("destination_hand"), slots.dest[0])
        values[slots.dest[1]] = _int(fields.get("size_code"), slots.dest[1])
    if slots.last is not None:
        values[slots.last] = 1 if fields.get("last") else 0
    if slots.mask is not None:
        mask = _int(fields.get("pe_mask"), "PE mask")
        if slots.mask_direct:
            values[slots.mask] = mask
        elif pe_modes is None or mask not in pe_modes:
            raise AsmError(f"PE mask 0b{mask:04b} has no {slots.mask} code in this spec")
        else:
            values[slots.mask] = pe_modes[mask]
    return _checked(enc, values)


def _gpr_values(enc: Encoding, fields: Mapping[str, object]) -> dict[str, int]:
    """B.IOR's fields: the template ``[<gpr>[, <gpr>[, <gpr>]]][, -><gpr>]`` names no field, so the
    form's fields are read in their catalog order: the one named a destination (``…Dst…``) takes
    ``-><gpr>``, the others the sources in order; an operand not written is the zero GPR (the spec's
    encoded surplus rule: unconsumed fields are zero)."""
    names = [f.name for f in enc.fields]
    dest = [n for n in names if "dst" in _norm(n) or "dest" in _norm(n)]
    srcs = [n for n in names if n not in dest]
    given = list(fields.get("gpr_sources") or [])
    if len(given) > len(srcs) or len(dest) > 1 or (fields.get("gpr_destination") is not None and not dest):
        raise AsmError(f"{enc.assembly}: takes {len(srcs)} source GPRs{' and a destination' if dest else ''}")
    values = {n: 0 for n in names}
    for n, v in zip(srcs, given):
        values[n] = _int(v, n)
    if dest and fields.get("gpr_destination") is not None:
        values[dest[0]] = _int(fields.get("gpr_destination"), dest[0])
    return _checked(enc, values)


def _checked(enc: Encoding, values: dict[str, int]) -> dict[str, int]:
    """``values``, once each fits its field and the catalog's constraints allow it (else one AsmError)."""
    for name, v in values.items():
        f = enc.field(name)
        if f is None or not f.representable(v):
            raise AsmError(f"{enc.assembly}: {name}={v} does not fit its {f.width if f else 0}-bit field")
        for c in enc.constraints_for(name):
            if not c.allows(v):
                raise AsmError(f"{enc.assembly}: {name}={v} is not allowed ({c.describe()})")
    return values


def _int(v: object, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise AsmError(f"{name}: needs a concrete value, found {v!r}")
    return v


def variant_carrier(es: EncodingSet, enc: Encoding) -> Encoding | None:
    """The command-form variant row that carries a tile operation's variant row (``TMOV.L2S.INSERT DataType``
    is carried by ``BSTART.TMOV``'s ``TMOV.L2S.INSERT`` row); None for any other form."""
    if enc.kind != "tile-operation" or not enc.variant:
        return None
    return next((e for e in es if e.kind == "command-form" and e.variant == enc.variant
                 and e.base_form_id == enc.base_form_id), None)


def disassemble(enc: Encoding, values: Mapping[str, int], register: Callable[[int], str],
                datatype: Callable[[int], str], pe_masks: Mapping[int, int] | None = None,
                es: EncodingSet | None = None) -> str:
    """The command a decoded word spells, in the syntax :func:`assemble_command`'s parser reads.

    ``register`` names a TileIndex (``T1``), ``datatype`` a DataType code, and
    ``pe_masks`` maps a PEMode code to its four-bit mask (the spec's ASL). A variant row is written
    in its carrier's spelling with the variant in brackets, as the spec's sketches write it
    (``BSTART.TMOV U8 [TMOV.L2S.INSERT form]``); a tile operation's variant row is found under its
    carrier through ``es``.
    """
    carrier = variant_carrier(es, enc) if es is not None else None
    if carrier is not None:
        return disassemble(carrier, carrier.decode_fields(enc.encode(dict(values))), register, datatype, pe_masks)
    head = enc.assembly.split(None, 1)[0]
    mn = head if enc.kind == "tile-operation" else enc.mnemonic
    if mn == "B.IOR":  # every field written out: an encoded zero names the zero GPR, not an omitted one
        dest = [f.name for f in enc.fields if "dst" in _norm(f.name) or "dest" in _norm(f.name)]
        regs = [gpr_name(values[f.name]) for f in enc.fields if f.name not in dest]
        return f"B.IOR {', '.join(regs + [f'->{gpr_name(values[n])}' for n in dest[:1]])}".rstrip()
    slots = slots_of(enc)
    parts: list[str] = []
    if enc.kind == "tile-operation" and spells_operation(enc):
        parts.append(enc.mnemonic)
    if mn.startswith("BSTART"):
        parts += [str(values[n]) for n in slots.plain[:-1]] + [datatype(values[slots.plain[-1]])]
        if enc.kind == "command-form" and enc.variant:
            return f"{mn} {', '.join(parts)} [{enc.variant} form]"
    elif mn == "B.DIM":
        parts = [f"LB{slots.lb}={values[slots.plain[1]]}"]
    elif mn == "B.IOT":
        parts = [register(values[n]) for n in slots.plain]
        if slots.mask is not None:
            mode = values[slots.mask]
            shown = mode if slots.mask_direct else (pe_masks or {}).get(mode, mode)
            parts.append(f"mask=0b{shown:04b}")
        if slots.last is not None and values[slots.last]:
            parts.append("<last>")
        if slots.dest is not None:
            hand = register(values[slots.dest[0]] * 16).rstrip("0123456789")  # the hand's name, as registers spell it
            parts.append(f"->{hand}<{values[slots.dest[1]]}>")
    elif slots.plain and "{" in enc.assembly:
        parts = ["{" + ", ".join(str(values[n]) for n in slots.plain) + "}"]
    elif slots.plain:
        parts = [str(values[n]) for n in slots.plain]
    return f"{mn} {', '.join(parts)}".rstrip()
