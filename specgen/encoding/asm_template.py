"""Assemble one command of any form whose catalog assembly template can be read.

The block syntax (:mod:`specgen.encoding.asm`) spells the Block commands; every
other form (the scalar forms, the B.CATR/B.HINT/BSTART-with-label command forms,
tile-operation sub-forms) is assembled here from its own template, so nothing
is typed in per mnemonic:

- the template's operand text (after its first word) is read for identifiers;
  an identifier right after ``.`` is a suffix option (``.sw``), one inside a
  ``->{t, u, Rd}`` destination group stands for its last alternative (``Rd``);
  each remaining identifier is matched to a field of the form by name
  (:func:`specgen.encoding.asm.resolve_field`: ``simm`` is ``simm12``, ``Rd``
  the destination ``RegDst``).  These fields are the *positional* operands, in
  template order;
- every other free field of the form (one the template writes only as a
  suffix alternative such as ``SrcRType`` or ``far``, or as a letter such as
  ``M``) is a *named* operand ``Field=value``.

So the canonical text of a form is ``MNEMONIC p1, p2, …, Name=v, …``: decode
writes it (:func:`disassemble_form`) and :func:`assemble_text` reads it back.
A written command selects, among the forms of its mnemonic, the one whose
positional count and named-field set are exactly those written; values are
checked against the field's width and signedness and the catalog's
constraints.  A register operand (a field whose role says Reg5/GPR) may be
written ``xN`` or ``rN`` or as its number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .asm import AsmError, Assembled, _checked, resolve_field
from .model import Encoding, EncodingSet

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_REG = re.compile(r"[xXrR]([0-9]+)")


@dataclass(frozen=True)
class TemplateShape:
    """A form's operands as its template orders them, and the fields only a name can reach."""

    positional: tuple[str, ...]  # field names; a template keyword (RET, ->LB0) as "=KEYWORD"
    named: tuple[str, ...]
    destinations: frozenset[str] = frozenset()  # positional fields the template writes after ``->``


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


def _operand_words(rest: str) -> list[str]:
    """Identifiers of the operand text that name operands (suffix options and t/u alternatives dropped)."""
    rest = re.sub(r"->\s*\{([^}]*)\}", lambda m: "->" + m.group(1).split(",")[-1].strip(), rest)
    words: list[str] = []
    dest = False
    for m in _IDENT.finditer(rest):
        before = rest[:m.start()].rstrip()
        dest = dest or before.endswith("->")
        if before.endswith("."):
            continue
        words.append(("->" if dest else "") + m.group(0))
    return words


def _destination(enc: Encoding, word: str, used: set[str]) -> str:
    """A destination operand (``Rd``, ``Dst0``): its field by name, else the next unused ``…Dst…`` field."""
    try:
        return resolve_field(enc, word, used)
    except AsmError:
        dsts = [f.name for f in enc.free_fields if f.name not in used and "dst" in f.name.lower()]
        if not dsts:
            raise
        return dsts[0]


def shape_of(enc: Encoding) -> TemplateShape:
    """Read the form's template (see the module doc); raises AsmError when it cannot be read."""
    if not enc.assembly.strip():
        raise AsmError(f"form {enc.form_id}: no assembly template")
    _, rest = _split_head(enc.assembly)
    used: set[str] = set()
    positional: list[str] = []
    dests: set[str] = set()
    free = {f.name for f in enc.free_fields}
    for w in _operand_words(rest):
        if _keyword(w.removeprefix("->")):
            positional.append("=" + w.removeprefix("->").upper())  # written as is: it tells forms of one mnemonic apart
            continue
        try:
            name = _destination(enc, w[2:], used) if w.startswith("->") else resolve_field(enc, w, used)
        except AsmError:
            continue  # a letter (M, N) or a label: its field stays a named operand
        if name not in free:
            continue
        used.add(name)
        positional.append(name)
        if w.startswith("->"):
            dests.add(name)
    named = tuple(f.name for f in enc.free_fields if f.name not in used)
    return TemplateShape(tuple(positional), named, frozenset(dests))


def _keyword(word: str) -> bool:
    """An upper-case template word of three or more characters names no field (``RET``, ``DIRECT``, ``LB0``)."""
    return len(word) >= 3 and word == word.upper() and not word.isdigit()


def written_mnemonic(enc: Encoding) -> str:
    """The template's first word when it is a plain name (``TMOV.L2S.INSERT``), else the catalog mnemonic."""
    head, _ = _split_head(enc.assembly)
    return head.upper() if re.fullmatch(r"[A-Za-z0-9_.]+", head) else enc.mnemonic.upper()


def is_register(enc: Encoding, name: str) -> bool:
    f = enc.field(name)
    role = (f.role or "") if f else ""
    return f is not None and f.width == 5 and ("reg5" in role.lower() or "gpr" in role.lower())


def disassemble_form(enc: Encoding, values: dict[str, int]) -> str:
    """The canonical text of a word of ``enc`` (what :func:`assemble_text` reads back)."""
    shape = shape_of(enc)
    parts = [n[1:] if n.startswith("=") else ("->" if n in shape.destinations else "")
             + (f"x{values[n]}" if is_register(enc, n) else str(values[n])) for n in shape.positional]
    parts += [f"{n}={values[n]}" for n in shape.named]
    return f"{written_mnemonic(enc)} {', '.join(parts)}".rstrip()


def _split_operands(text: str) -> list[str]:
    """Operands as written; the template's ``[`` ``]`` address brackets and ``->`` destination marks may be written or left out."""
    ops = [o.strip().strip("[]").strip() for o in text.split(",")]
    return [o[2:].strip() if o.startswith("->") else o for o in ops if o]


def _value(enc: Encoding, name: str, text: str) -> int:
    m = _REG.fullmatch(text)
    if m and is_register(enc, name):
        return int(m.group(1))
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(f"{enc.mnemonic}: operand {text!r} for {name} is not a number"
                       f"{' or register xN' if is_register(enc, name) else ''}") from None


def forms_of(es: EncodingSet, mnemonic: str) -> list[Encoding]:
    """Every form written with this mnemonic (case as in the catalog's mnemonic or its template)."""
    up = mnemonic.upper()
    return [e for e in es if e.kind != "reservation" and written_mnemonic(e) == up]


def assemble_text(es: EncodingSet, text: str, forms: Iterable[Encoding] | None = None) -> Assembled:
    """The word of one command written in the canonical template syntax."""
    text = text.strip()
    head, _, rest = text.partition(" ")
    cands = list(forms) if forms is not None else forms_of(es, head)
    if not cands:
        raise AsmError(f"{head}: no encodable form in this spec")
    ops = _split_operands(rest)
    pos = [o for o in ops if "=" not in o or o.startswith("=")]
    named = dict(o.split("=", 1) for o in ops if "=" in o)
    named = {k.strip(): v.strip() for k, v in named.items()}
    errors: list[str] = []
    for enc in cands:
        try:
            shape = shape_of(enc)
        except AsmError as e:
            errors.append(str(e))
            continue
        if len(pos) != len(shape.positional) or set(named) != set(shape.named):
            errors.append(f"{enc.assembly}: takes {len(shape.positional)} operands"
                          + (f" and {', '.join(n + '=' for n in shape.named)}" if shape.named else ""))
            continue
        try:
            for n, v in zip(shape.positional, pos):
                if n.startswith("=") and v.upper() != n[1:]:
                    raise AsmError(f"{enc.assembly}: expects {n[1:]}, found {v}")
            values = {n: _value(enc, n, v) for n, v in zip(shape.positional, pos) if not n.startswith("=")}
            values.update({n: _value(enc, n, named[n]) for n in shape.named})
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
    allowed value, the rest zero): when its canonical text assembles to another
    word, what is written cannot tell it from an earlier form of the same
    mnemonic (the catalog's carrier rows of BSTART.TMOV's sub-operations share
    one text and one DataType domain); the first is the one a command selects.
    """
    out: dict[str, str] = {}
    for e in es:
        if e.kind == "reservation":
            continue
        word = e.encode(first_legal_values(e))
        try:
            got = assemble_text(es, disassemble_form(e, e.decode_fields(word)))
        except AsmError as x:
            out[e.form_id] = str(x)
            continue
        if got.word != word:
            out[e.form_id] = f"template {e.assembly!r} selects form {got.encoding.form_id} first"
    return out
