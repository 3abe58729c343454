"""Block composition: required / optional / repeatable marks, minimal form, signature.

The spec has no structured data for these (FORMATS §9.4); they live in the
text of ``contract.block_composition``. The rules, in order, per line:

* a line starting with ``#`` is a **note** (TLOAD's ``# Local destination``);
* a line that reads as a sentence (ends with ``.``, contains ``; `` or ``: ``
  before its first command, or has more than 14 words) is **prose** and gets
  no marks;
* otherwise it is a **command** line whose head is its first token, or the
  token after a leading ``optional``/``one``/``replace`` word group
  (``optional B.DATR Layout``, ``one terminating destination B.IOT``);
* a command is **optional** when a leading ``optional`` word or a
  parenthesised suffix containing ``optional`` says so, otherwise **required**
  (``(mandatory)``/``(exactly one)`` stay required);
* a command is **repeatable** when another command line of the same
  composition has the same head (several ``B.DIM`` lines), or the line says
  ``one or more``;
* the **minimal form** is the required command lines, in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEAD = re.compile(r"^[A-Z][A-Z0-9]*(?:\.[A-Z0-9]+)*$")
_SUFFIX = re.compile(r"\s*\(([^()]*)\)\s*$")
_LEAD = re.compile(r"^(optional|one terminating destination|one terminating|one)\s+", re.I)


@dataclass(frozen=True)
class CompositionLine:
    text: str
    kind: str  # "command" | "note" | "prose"
    head: str = ""
    optional: bool = False
    repeatable: bool = False
    args: str = ""  # the command's operand text, without head and suffix

    @property
    def required(self) -> bool:
        return self.kind == "command" and not self.optional


@dataclass(frozen=True)
class Composition:
    lines: tuple[CompositionLine, ...]

    @property
    def structured(self) -> bool:
        return any(line.kind == "command" for line in self.lines)

    @property
    def minimal(self) -> tuple[str, ...]:
        return tuple(line.text for line in self.lines if line.required)


def _is_prose(text: str) -> bool:
    words = text.split()
    if text.rstrip().endswith(".") or len(words) > 14:
        return True
    if "; " in text:
        return True
    first = words[0] if words else ""
    return first.endswith(":")


def parse_line(text: str) -> CompositionLine:
    s = text.strip()
    if not s or s.lower() == "none":
        return CompositionLine(text, "prose")
    if s.startswith("#"):
        return CompositionLine(text, "note")
    if _is_prose(s):
        return CompositionLine(text, "prose")
    optional = False
    body = s
    m = _LEAD.match(body)
    if m:
        optional = m.group(1).lower() == "optional"
        body = body[m.end():]
    suffix = _SUFFIX.search(body)
    if suffix:
        note = suffix.group(1).lower()
        if "optional" in note:
            optional = True
        body = body[: suffix.start()]
    parts = body.split(None, 1)
    head = parts[0] if parts else ""
    if not _HEAD.match(head):
        # e.g. "replace B.IOT with one destination B.IOS": read as an instruction to the reader
        return CompositionLine(text, "prose")
    args = parts[1].strip() if len(parts) > 1 else ""
    return CompositionLine(text, "command", head=head, optional=optional, args=args,
                           repeatable="one or more" in s.lower())


def parse_composition(lines: list[str]) -> Composition:
    parsed = [parse_line(x) for x in lines]
    heads: dict[str, int] = {}
    for p in parsed:
        if p.kind == "command":
            heads[p.head] = heads.get(p.head, 0) + 1
    out = []
    for p in parsed:
        if p.kind == "command" and heads[p.head] > 1 and not p.repeatable:
            p = CompositionLine(p.text, p.kind, p.head, p.optional, True, p.args)
        out.append(p)
    return Composition(tuple(out))


# ---------------------------------------------------------------- operands
@dataclass(frozen=True)
class Operand:
    group: str  # "parameter" | "input" | "output"
    name: str
    meaning_key: str | None  # message key for derived meanings
    meaning: str | None  # spec text (the contract role)
    source: str  # where in the record it comes from


@dataclass
class Signature:
    mnemonic: str
    parameters: list[Operand] = field(default_factory=list)
    inputs: list[Operand] = field(default_factory=list)
    outputs: list[Operand] = field(default_factory=list)

    @property
    def operands(self) -> list[Operand]:
        return self.parameters + self.inputs + self.outputs

    def text(self) -> str:
        s = self.mnemonic
        if self.parameters:
            s += " <" + ", ".join(p.name for p in self.parameters) + ">"
        if self.inputs:
            s += " " + ", ".join(p.name for p in self.inputs)
        if self.outputs:
            s += " -> " + ", ".join(p.name for p in self.outputs)
        return s


_DIM = re.compile(r"\b(LB[0-9])\s*=\s*([A-Za-z_][A-Za-z0-9_]*)")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _meaning_for(head: str, name: str) -> str:
    n = name.lower()
    if head == "B.DIM":
        return "meaning.dim"
    if "datatype" in n:
        return "meaning.datatype"
    if "pad" in n:
        return "meaning.pad"
    if "layout" in n:
        return "meaning.layout"
    if head == "B.FPATR":
        return "meaning.fpatr"
    if head == "B.DATR":
        return "meaning.datr"
    return "meaning.param"


def _is_output(field_name: str, role: str) -> bool:
    f, r = field_name.lower(), role.lower()
    return f.startswith(("destination", "dst", "regdst", "rd")) or "destination" in r or r.startswith("result")


def operand_name(field_name: str, surface: str, n_dest: int) -> str:
    """Tile operands read as Tiles: ``source1`` -> ``SrcTile1``, a lone ``destination0`` -> ``DstTile``."""
    if surface == "tile":
        m = re.fullmatch(r"source([0-9]+)", field_name)
        if m:
            return f"SrcTile{m.group(1)}"
        m = re.fullmatch(r"destination([0-9]+)", field_name)
        if m:
            return "DstTile" if n_dest == 1 else f"DstTile{m.group(1)}"
    return field_name


def signature(mnemonic: str, surface: str, comp: Composition,
              operands: list[tuple[str, str]]) -> Signature:
    """Parameters from the composition's command lines, inputs/outputs from ``contract.operands``.

    Parameters: every ``LBn=Name`` binding (``LBn:Name``), then the start line's
    operands after the mnemonic, then identifiers on attribute lines (``B.DATR PadValue``).
    Operand lines (``B.IOT``/``B.IOR``/``B.IOS``) and ``BSTOP`` give no parameters:
    their operands are the contract's.
    """
    sig = Signature(mnemonic)
    seen: set[str] = set()

    def add(name: str, head: str, src: str) -> None:
        if name in seen:
            return
        seen.add(name)
        sig.parameters.append(Operand("parameter", name, _meaning_for(head, name), None, src))

    dims: list[tuple[str, str, str]] = []
    start: list[tuple[str, str, str]] = []
    attrs: list[tuple[str, str, str]] = []
    if comp.structured:
        for line in comp.lines:
            if line.kind != "command":
                continue
            if line.head == "B.DIM":
                for lb, name in _DIM.findall(line.args):
                    dims.append((f"{lb}:{name}", "B.DIM", line.text))
            elif line.head.startswith("BSTART"):
                toks = [t.strip() for t in line.args.split(",")]
                for t in toks:
                    if t and t != mnemonic and _IDENT.match(t):
                        start.append((t, line.head, line.text))
            elif line.head in ("B.DATR", "B.FPATR"):
                for t in (x.strip() for x in line.args.split(",")):
                    if _IDENT.match(t):
                        attrs.append((t, line.head, line.text))
    for name, head, src in dims + start + attrs:
        add(name, head, src)
    n_dest = sum(1 for f, r in operands if _is_output(f, r))
    for i, (f, role) in enumerate(operands):
        src = f"contract.operands[{i}].{f}"
        name = operand_name(f, surface, n_dest)
        op = Operand("output" if _is_output(f, role) else "input", name, None, role, src)
        (sig.outputs if op.group == "output" else sig.inputs).append(op)
    sig.inputs.sort(key=lambda o: o.name)
    sig.outputs.sort(key=lambda o: o.name)
    return sig
