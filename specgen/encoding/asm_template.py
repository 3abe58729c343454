"""Assemble one command of any form whose catalog assembly template can be read.

The block syntax (:mod:`specgen.encoding.asm`) spells the Block commands; every
other form (the scalar forms, the B.CATR/B.HINT/BSTART-with-label command forms,
tile-operation sub-forms) is assembled here from its own template, so nothing
is typed in per mnemonic. The text is the spec's own assembly syntax, as its
templates and contract examples write it (``add t#1, u#1.neg<<1, ->u``,
``lw.add.aqrl [R3], R4, ->t``):

- the template's first word is the mnemonic; a ``<.{aq, rl, f, aqrl}>`` after
  it lists flag options, each atom a one-bit field (``f`` is ``far``), written
  ``lw.add.aqrl``;
- each operand of the template names a field (:func:`specgen.encoding.asm.resolve_field`:
  ``simm`` is ``simm12``, ``Rd`` after ``->`` the destination ``RegDst``); an
  operand's ``<{.sw,.uw,.neg}>`` is a suffix option of its type field
  (``SrcRType``), whose codes the record's defaults state, and ``<<<shamt>``
  a shift written ``<<3``. A register operand (a field whose role says Reg5)
  is written by the names the spec's prose gives codes (:mod:`.asm_names`:
  ``R5``, ``zero``, ``t#1``, ``->u``) or as its number;
- every other free field of the form (one the template writes only as a type
  suffix such as ``.{T}``, or as a letter such as ``M``, or whose option codes
  the spec does not state) is a *named* operand ``Field=value``, zero when not
  written (the spec's rule for fields a form does not consume);
- a catalog variant row written with its base row's template (BSTART.TMOV's
  TMOV.L2S.INSERT carrier) is selected as the spec's own example sketches
  write it: ``BSTART.TMOV 27 [TMOV.L2S.INSERT form]``.

Decode writes this text (:func:`disassemble_form`) and :func:`assemble_text`
reads it back; a written command selects, among the forms of its mnemonic, the
one whose operand count, named fields and options are exactly those written.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from .asm import AsmError, Assembled, _checked
from .asm_names import split_flags
from .asm_shape import Slot, TemplateShape, shape_of
from .model import Encoding, EncodingSet

__all__ = ["Slot", "TemplateShape", "shape_of", "assemble_text", "disassemble_form", "forms_of", "written_mnemonic",
           "is_register", "first_legal_values", "unassemblable"]

_WRITTEN = re.compile(r"(?P<reg>[^.<]+?)(?P<suf>\.[A-Za-z0-9]+)?(?:<<(?P<sh>[-+]?[0-9A-Fa-fxX]+))?")
_VARIANT = re.compile(r"\[\s*(?P<name>[A-Za-z0-9_.]+)\s+form\s*\]\s*$", re.IGNORECASE)


def written_mnemonic(enc: Encoding) -> str:
    """The template's first word without its options (``LW.ADD``, ``TMOV.L2S.INSERT``), else the catalog mnemonic."""
    try:
        return shape_of(enc).head
    except AsmError:
        return enc.mnemonic.upper()


def is_register(enc: Encoding, name: str) -> bool:
    f = enc.field(name)
    role = (f.role or "") if f else ""
    return f is not None and f.width == 5 and ("reg5" in role.lower() or "gpr" in role.lower())


def _shares_base_text(es: EncodingSet | None, enc: Encoding) -> bool:
    """A variant row written exactly as its base row: only ``[NAME form]`` tells them apart."""
    if not enc.variant:
        return False
    base = es.by_form_id(enc.base_form_id) if es is not None else None
    return base is None or base.assembly == enc.assembly


def disassemble_form(enc: Encoding, values: Mapping[str, int], es: EncodingSet | None = None) -> str:
    """The text of a word of ``enc`` in the spec's syntax (what :func:`assemble_text` reads back).

    ``es`` gives the register names; without it registers are written as numbers.
    """
    shape = shape_of(enc)
    regs = es.registers if es is not None else None
    parts: list[str] = []
    for s in shape.slots:
        if s.field.startswith("="):
            parts.append(s.field[1:])
            continue
        v = values[s.field]
        text = regs.text(v, s.destination) if regs is not None and is_register(enc, s.field) else str(v)
        if s.suffix is not None and s.codes is not None:
            code = values[s.suffix]
            text += "" if code == s.codes.omitted else (s.codes.option_of(code) or "")
        if s.shift is not None and values[s.shift]:
            text += f"<<{values[s.shift]}"
        elif s.fixed_shift is not None:
            text += f"<<{s.fixed_shift}"
        text = ("[" if "[" in s.brackets else "") + text + ("]" if "]" in s.brackets else "")
        parts.append(("->" if s.destination else "") + text)
    parts += [f"{n}={values[n]}" for n in shape.named if values[n]]  # one not written encodes zero
    head = shape.head
    on = {a for a, f in shape.flags.items() if values.get(f)}
    if on:
        head += "." + next(o for o in shape.options if set(split_flags(o, list(shape.flags)) or ()) == on).upper()
    text = f"{head} {', '.join(parts)}".rstrip()
    if _shares_base_text(es, enc):
        text += f" [{enc.variant} form]"
    return text


def _split_operands(text: str) -> list[str]:
    """Operands as written; the template's ``[`` ``]`` address brackets and ``->`` destination marks may be written or left out."""
    ops = [o.strip().strip("[]").strip() for o in text.split(",")]
    return [o[2:].strip() if o.startswith("->") else o for o in ops if o]


def _number(enc: Encoding, name: str, text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(f"{enc.mnemonic}: operand {text!r} for {name} is not a number") from None


def _register(es: EncodingSet, enc: Encoding, name: str, text: str, destination: bool) -> int:
    code = es.registers.code(text, destination)
    if code is not None:
        return code
    m = re.fullmatch(r"[rR]([0-9]+)", text.strip())
    if m and not es.registers.absolute:  # a spec that names no registers: R<n> is the number n
        return int(m.group(1))
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(f"{enc.mnemonic}: {text!r} for {name} is not a register this spec gives a code "
                       f"({es.registers.describe(destination)}, or a number)") from None


def _slot_values(es: EncodingSet, enc: Encoding, slot: Slot, written: str) -> dict[str, int]:
    """The fields one written operand fills (its register or number, its suffix option, its shift)."""
    if slot.field.startswith("="):
        if written.upper() != slot.field[1:]:
            raise AsmError(f"{enc.assembly}: expects {slot.field[1:]}, found {written}")
        return {}
    m = _WRITTEN.fullmatch(written) if (slot.suffix or slot.shift or slot.fixed_shift is not None) else None
    base = m.group("reg") if m else written
    out = {slot.field: (_register(es, enc, slot.field, base, slot.destination) if is_register(enc, slot.field)
                        else _number(enc, slot.field, base))}
    if slot.suffix is not None and slot.codes is not None:
        suf = (m.group("suf") or "").lower() if m else ""
        if suf:
            if suf not in slot.codes.options:
                raise AsmError(f"{enc.assembly}: {suf} is not one of {', '.join(slot.codes.options)}")
            out[slot.suffix] = slot.codes.options[suf]
        elif slot.codes.omitted is None:
            raise AsmError(f"{enc.assembly}: {written} needs one of {', '.join(slot.codes.options)}")
        else:
            out[slot.suffix] = slot.codes.omitted
    sh = m.group("sh") if m else None
    if slot.shift is not None:
        out[slot.shift] = _number(enc, slot.shift, sh) if sh else 0
    elif slot.fixed_shift is not None and sh and int(sh, 0) != slot.fixed_shift:
        raise AsmError(f"{enc.assembly}: the shift is always {slot.fixed_shift}")
    return out


def _head_flags(enc: Encoding, head: str) -> dict[str, int] | None:
    """The flag fields a written mnemonic sets (None: it is not this form's mnemonic)."""
    shape = shape_of(enc)
    up = head.upper()
    if up == shape.head:
        return {f: 0 for f in shape.flags.values()}
    if not shape.flags or not up.startswith(shape.head + "."):
        return None
    opt = up[len(shape.head) + 1:].lower()
    atoms = split_flags(opt, list(shape.flags)) if opt in shape.options else None
    if atoms is None:
        return None
    return {f: int(a in atoms) for a, f in shape.flags.items()}


def forms_of(es: EncodingSet, mnemonic: str) -> list[Encoding]:
    """Every form written with this mnemonic (with or without its flag options)."""
    out: list[Encoding] = []
    for e in es:
        if e.kind == "reservation":
            continue
        try:
            if _head_flags(e, mnemonic) is not None:
                out.append(e)
        except AsmError:
            if e.mnemonic.upper() == mnemonic.upper():
                out.append(e)
    return out


def assemble_text(es: EncodingSet, text: str, forms: Iterable[Encoding] | None = None) -> Assembled:
    """The word of one command written in the spec's template syntax."""
    text = text.strip()
    vm = _VARIANT.search(text)
    variant = vm.group("name").upper() if vm else None
    if vm:
        text = text[:vm.start()].strip()
    head, _, rest = text.partition(" ")
    cands = list(forms) if forms is not None else forms_of(es, head)
    if variant is not None:
        named = [e for e in cands if (e.variant or "").upper() == variant]
        if not named:
            known = sorted({e.variant for e in cands if e.variant})
            raise AsmError(f"{head}: no variant {variant}" + (f" (this spec defines {', '.join(known)})" if known
                                                               else " (its forms have no variants)"))
        cands = named
    else:
        cands = [e for e in cands if not _shares_base_text(es, e)]
    if not cands:
        base = head.rsplit(".", 1)[0] if "." in head else ""
        known = sorted({o for e in (forms_of(es, base) if base else []) for o in shape_of(e).options})
        if known:
            raise AsmError(f"{head}: {base.upper()} options are {', '.join(known)}")
        raise AsmError(f"{head}: no encodable form in this spec")
    ops = _split_operands(rest)
    pos = [o for o in ops if "=" not in o or o.startswith("=")]
    named_ops = {k.strip(): v.strip() for k, v in (o.split("=", 1) for o in ops if "=" in o and not o.startswith("="))}
    errors: list[str] = []
    for enc in cands:
        try:
            shape = shape_of(enc)
            flags = _head_flags(enc, head)
        except AsmError as e:
            errors.append(str(e))
            continue
        if flags is None:
            errors.append(f"{enc.assembly}: options are {', '.join(shape.options) or 'none'}")
            continue
        if len(pos) != len(shape.slots) or not set(named_ops) <= set(shape.named):
            errors.append(f"{enc.assembly}: takes {len(shape.slots)} operands"
                          + (f" and {', '.join(n + '=' for n in shape.named)}" if shape.named else ""))
            continue
        try:
            values = dict(flags)
            for slot, written in zip(shape.slots, pos):
                values.update(_slot_values(es, enc, slot, written))
            values.update({n: _number(enc, n, named_ops[n]) if n in named_ops else 0 for n in shape.named})
            values = _checked(enc, values)
        except AsmError as e:
            errors.append(str(e))
            continue
        return Assembled(enc, values, enc.encode(values))
    raise AsmError(errors[0] if len(errors) == 1 else f"{head}: no form takes these operands ({'; '.join(errors)})")


def first_legal_values(enc: Encoding) -> dict[str, int]:
    """Each constrained free field's smallest allowed value (the others encode as zero)."""
    out: dict[str, int] = {}
    for f in enc.free_fields:
        cons = enc.constraints_for(f.name)
        if cons:
            out[f.name] = next((v for v in range(1 << min(f.width, 12)) if all(c.allows(v) for c in cons)), 0)
    return out


def unassemblable(es: EncodingSet) -> dict[str, str]:
    """Forms whose written text does not select them, by form id, with the reason.

    A form is tried with its first legal values (each constrained field's first
    allowed value, the rest zero): when its text assembles to another word, what
    is written cannot tell it from an earlier form of the same mnemonic.
    """
    out: dict[str, str] = {}
    for e in es:
        if e.kind == "reservation":
            continue
        word = e.encode(first_legal_values(e))
        try:
            got = assemble_text(es, disassemble_form(e, e.decode_fields(word), es))
        except AsmError as x:
            out[e.form_id] = str(x)
            continue
        if got.word != word:
            out[e.form_id] = f"template {e.assembly!r} selects form {got.encoding.form_id} first"
    return out
