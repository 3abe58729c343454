"""An instruction's block composition, read as a template the worked-example generator can fill.

The record's ``contract.block_composition`` (or, in older generations, its
``block`` lines) lists the commands of the instruction's Block, with symbolic
operands (``B.DIM LB0=ValidCol``, ``B.IOT SrcLeft, SrcRight, mask=PE_MASK,
<last>, ->DstTile<TSize>``) and ``(optional)`` annotations. This module reads
that list into what a concrete program needs: the BSTART spelling and
operation, the DataTypes the line itself names, whether B.DATR can carry a
PadValue, which loop bounds B.DIM sets, the shape of each B.IOT binding, and
every command the generator cannot fill, with the exact reason. Nothing here
knows an instruction by name; the composition text is the only input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models.instruction import InstructionHeader
from ..cache import codec

# the spellings that name the operation after them (``BSTART.VEC TMUL, FP16``); any other BSTART spelling names it
# itself (``BSTART.TMATMUL AType``) or is an older generation's engine spelling (``BSTART.CUBE TMATMUL, AType``), which
# the generator resolves through the operation's own form in the spec's encodings
SPELLINGS = ("BSTART.VEC", "BSTART.SFU")
_LB = re.compile(r"\bLB([0-2])\b")
_LB_NAME = re.compile(r"\bLB([0-2])\s*(?:=|\s)\s*([A-Z])\b")  # ``B.DIM LB0 M``: the loop bound's matrix dimension
_ONLY = re.compile(r"\bonly\s+([A-Z])\s*=\s*([0-9]+)")   # ``TGEMV permits only M=1``
_CUBE = re.compile(r"\b([A-Z][A-Za-z]*)\s+(CUBE_[A-Z0-9]+)")  # ``A CUBE_M16/M32 primary``: role and layout
_VECTOR = re.compile(r"\b([0-9]+|[A-Z])x([0-9]+|[A-Z])\s+([A-Z][A-Za-z]*)")  # ``1xN Bias``
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Binding:
    """One B.IOT line: how many sources it names (None: the line does not say), destination, last."""

    sources: int | None
    destination: bool
    last: bool
    predicate: bool = False  # the destination is a predicate Tile (``->Predicate<TSize>``)
    names: tuple[str, ...] = ()  # the source operands as the composition names them (``SrcLeft``)

    def broadcast(self, k: int) -> bool:
        """Whether source ``k`` is named a broadcast operand (a row or column vector, not a full Tile)."""
        return k < len(self.names) and "broadcast" in self.names[k].lower()


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something could not be instantiated: a catalog key (``worked.reason.<key>``) and its values."""

    key: str
    params: tuple[tuple[str, str], ...] = ()

    def english(self) -> str:
        """The reason in the build log's words (pages use the catalogs)."""
        p = dict(self.params)
        return ENGLISH[self.key].format(**p)


ENGLISH = {
    "spelling": "the Block opens with {command}, a BSTART form the Block assembly syntax does not spell yet",
    "datr": "the composition requires '{line}', whose fields the generator does not derive",
    "ior": "the composition requires '{line}' (scalar register operands); the generator sets no "
           "general-purpose registers",
    "ior-faulted": "the composition requires '{line}' (scalar register operands); every attempt, with one "
                   "seeded GPR bound by B.IOR and without B.IOR, faulted (the attempts say where)",
    "command": "the composition line '{line}' is a command the Block assembly syntax does not spell",
    "no-bstart": "the composition has no BSTART command",
    "no-iot": "the composition binds no Tile (no B.IOT command)",
    "destination-state": "its legality predicate {predicate} ({site}) requires of the destination Tile: {needs}; "
                         "a Block's destination is the Tile its commit newly allocates, which does not meet that, "
                         "and every attempt faulted in this check",
    "no-executor": "the spec's ASL has no command path to run a program ({missing})",
    "no-type": "no DataType is admitted by the ASL (and named by the composition)",
    "matrix-operand": "the matrix operation's operand-legality ASL ({function}) names a source that is not a GEMM "
                      "operand ('{parameter}') and whose DataType and valid extents its checks do not state, so no "
                      "source list is derived",
    "no-tile": "the operation has no Tile operand (its ASL operand fields: {fields}); it writes no Tile, GPR or "
               "memory value a worked example could show (a prefetch only records memory-load events), so no "
               "example is run",
    "faulted": "every attempt faulted or could not run ({attempts} tried); the last: {problem}",
    "refused": "no input assignment tried is admitted: {function} refused it at {site} ({attempts} tried); "
               "the last: {problem}",
}


@dataclass(slots=True)
class Template:
    """A block composition read for instantiation; ``blockers`` say exactly why it cannot be filled."""

    lines: list[str]
    spelling: str = ""
    operation: str = ""
    listed_types: list[str] = field(default_factory=list)
    datr: str = "absent"  # absent | pad (optional, carries PadValue) | optional (no PadValue) | required
    datr_text: str = ""
    loop_bounds: set[int] = field(default_factory=set)
    bindings: list[Binding] = field(default_factory=list)
    omitted: list[str] = field(default_factory=list)  # optional commands left out, as written
    blockers: list[Reason] = field(default_factory=list)
    # B.IOR lines the composition lists without "(optional)": left out, so the spec's ASL decides whether the
    # bindings are complete without them (its scalar operands then keep their architectural default)
    scalar_lines: list[str] = field(default_factory=list)
    fpatr: int = 0  # a required B.FPATR: how many fields its line names (written all zero: no postprocess)
    # a matrix Block's ordered sources (role, CUBE layout or "" for a row-major vector, rows, columns as named)
    matrix: list[tuple[str, str, str, str]] = field(default_factory=list)
    dims: dict[int, str] = field(default_factory=dict)  # loop bound -> matrix dimension (LB0 -> "M")
    fixed: dict[str, int] = field(default_factory=dict)  # dimensions the composition pins (TGEMV: M=1)
    # a matrix source's other layouts the predicate admits, in its order (role -> layouts): the first may not
    # hold the example's shape (a layout chosen by M), so each is tried, the ASL verifying (issue 39)
    layout_choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the fields of the spec's own B.FPATR form (0: none): a matrix Block whose composition lists no B.FPATR is
    # retried with one of every field zero, for a model that requires it (a development branch does)
    fpatr_form: int = 0

    @property
    def fillable(self) -> bool:
        return not self.blockers and bool(self.bindings)

    @property
    def scalar_reason(self) -> Reason | None:
        """Why no attempt ran, when the Block lists a B.IOR: one seeded GPR may not be what it needs."""
        return Reason("ior-faulted", (("line", self.scalar_lines[0]),)) if self.scalar_lines else None

    def infer_sources(self, sources: int) -> None:
        """Give bindings whose line names no operands (``B.IOT`` alone, 0.58.0) the record's source count.

        ``sources`` is how many source operands the instruction's catalog record binds (-1: no record says;
        0: a destination-only binding, TEXPANDS); they fill the
        unspecified bindings in order, at most two a binding (the B.IOT forms bind two sources). A lone bare
        ``B.IOT`` of a record with more than two sources (0.58.0's MSCATTER_MASK, MGATHER_CAS: three) stands
        for as many B.IOT words as they need, the last one closing the stream.
        """
        if sources < 0 or all(b.sources is not None for b in self.bindings):
            return
        if len(self.bindings) == 1 and self.bindings[0].sources is None and sources > 2:
            b = self.bindings[0]
            counts = [2] * ((sources - 1) // 2) + [sources - 2 * ((sources - 1) // 2)]
            self.bindings = [Binding(n, False, False) for n in counts[:-1]] + \
                [Binding(counts[-1], b.destination, b.last, b.predicate, b.names)]
            return
        left = sources - sum(b.sources or 0 for b in self.bindings)
        out = []
        for b in self.bindings:
            if b.sources is None:
                n = max(0, min(2, left))
                left -= n
                b = Binding(n, b.destination, b.last, b.predicate, b.names)
            out.append(b)
        self.bindings = out


def composition_lines(record: InstructionHeader) -> list[str]:
    """The record's block composition: ``contract.block_composition`` or, without a contract, ``block``."""
    lines = list(record.contract.block_composition) if record.contract is not None else []
    return lines or list(record.block)


def is_block_program(lines: list[str]) -> bool:
    """Whether the composition spells a Block (a ``BSTART…`` command and a closing ``BSTOP``), not prose."""
    heads = [_head(x) for x in lines]
    return any(h.startswith("BSTART.") for h in heads) and "BSTOP" in heads


def _head(line: str) -> str:
    return line.strip().split(None, 1)[0].rstrip(";,").upper() if line.strip() else ""


def _optional(line: str) -> bool:
    return "optional" in line.lower()


def read_template(lines: list[str], datatype_names: tuple[str, ...]) -> Template:
    """Read ``lines`` (a Block program composition) into a :class:`Template`."""
    tpl = Template(list(lines))
    names = {n.upper(): n for n in datatype_names}
    for raw in lines:
        line = raw.strip()
        head = _head(line)
        if head.startswith("#") and tpl.spelling:
            break  # a further form of the Block (0.58.0's ``# Shared form``): the first form is the example's
        if not head or head.startswith("#"):
            continue
        if head == "B.DATR/B.DIM":  # 0.58.0's TLOAD/TSTORE: the Block's data attributes and its three bounds
            tpl.datr = "optional" if tpl.datr == "absent" else tpl.datr
            tpl.loop_bounds.update({0, 1, 2})
            continue
        rest = line.split(None, 1)[1] if " " in line else ""
        if head.startswith("BSTART."):
            tpl.spelling = head
            op, comma, types = rest.partition(",")
            if comma or head in SPELLINGS:
                tpl.operation = op.strip().split()[0] if op.strip() else ""
            else:
                types = rest
            tpl.listed_types = [names[w.upper()] for w in _WORD.findall(types) if w.upper() in names]
        elif head == "B.DATR":
            tpl.datr_text = line
            if _optional(line):
                tpl.datr = "pad" if "padvalue" in line.lower() else "optional"
                if tpl.datr == "optional":
                    tpl.omitted.append(line)
            else:
                tpl.datr = "required"
                tpl.blockers.append(Reason("datr", (("line", line),)))
        elif head == "B.DIM":
            tpl.loop_bounds.update(int(m) for m in _LB.findall(line))
            tpl.dims.update((int(lb), name) for lb, name in _LB_NAME.findall(line))
            tpl.fixed.update((name, int(v)) for name, v in _ONLY.findall(line))
        elif head == "B.FPATR" and not _optional(line) and not rest.strip():
            tpl.omitted.append(line)  # names no field (0.58.0): the postprocess default, no command to write
        elif head == "B.FPATR" and not _optional(line):
            tpl.fpatr = len([x for x in line.split("(", 1)[0].split(None, 1)[-1].split(",") if x.strip()])
        elif head == "B.IOS" and _optional(line):
            tpl.omitted.append(line)
        elif head in ("B.IOT", "B.IOT/B.IOR") and tpl.matrix:
            # a matrix Block's further lines describe its destination and the postprocess operands B.FPATR
            # selects (none with an all-zero B.FPATR): one binding carries the sources and the destination
            if head != "B.IOT" or "postprocess" in line.lower():
                tpl.omitted.append(line)
        elif head == "B.IOT" and _CUBE.search(line):
            tpl.matrix = _matrix_sources(rest)
            tpl.bindings.append(Binding(len(tpl.matrix), True, True, False, tuple(r for r, *_ in tpl.matrix)))
        elif head in ("B.IOT", "B.IOT/B.IOR"):
            tpl.bindings.append(_binding(line, rest))
        elif head == "B.IOR":
            if _optional(line):
                tpl.omitted.append(line)
            else:
                tpl.scalar_lines.append(line)
        elif head == "BSTOP":
            continue
        else:
            tpl.blockers.append(Reason("command", (("line", line),)))
    if not tpl.spelling:
        tpl.blockers.append(Reason("no-bstart"))
    if not tpl.bindings and not tpl.blockers:
        tpl.blockers.append(Reason("no-iot"))
    if not tpl.loop_bounds and tpl.bindings:
        tpl.loop_bounds = {0}
    return tpl


def _matrix_sources(rest: str) -> list[tuple[str, str, str, str]]:
    """The ordered required sources of a matrix binding line; optional ones (``optional A scale``) are left out.

    A CUBE operand is ``A CUBE_M16/M32 primary`` (the first layout named); its shape follows the GEMM names the
    records use (``A[M x K]``, ``B[K x N]``, an accumulator ``C`` and the destination ``M x N``); a row-major
    vector names its shape (``1xN Bias``)."""
    shapes = {"A": ("M", "K"), "B": ("K", "N")}
    out = []
    for part in rest.split(":", 1)[-1].split(","):
        if "optional" in part.lower():
            continue
        m = _CUBE.search(part)
        if m:
            rows, cols = shapes.get(m.group(1), ("M", "N"))
            out.append((m.group(1), m.group(2), rows, cols))
            continue
        v = _VECTOR.search(part)
        if v:
            out.append((v.group(3), "", v.group(1), v.group(2)))
    return out


def _binding(line: str, rest: str) -> Binding:
    low = line.lower()
    sources: int | None = None
    names: tuple[str, ...] = ()
    if "mask" in low:
        before = re.split(r"\bmask\b|\bPE_MASK\b", rest, maxsplit=1)[0]
        names = tuple(x.strip() for x in before.split(",") if x.strip())
        sources = len(names)
    elif re.search(r"\btwo\b[^;]*\bsources?\b", low):
        sources = 2
    elif re.search(r"\b(one|a)\b[^;]*\bsource\b", low):
        sources = 1
    destination = "->" in line or "destination" in low
    last = "last" in low or "l=1" in low
    return Binding(sources, destination, last, "->predicate" in low.replace(" ", ""), names)


# what the dependency-tracked layer may hold of this module (specgen.cache.codec)
codec.register(Reason)
