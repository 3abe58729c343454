"""Commands of the forms the Block syntax does not spell, run as the spec's AVS tests run them.

A block program may hold a scalar command (``addi zero, 5, ->R3``) or any other
form whose catalog assembly template :mod:`specgen.encoding.asm_template`
reads. Its word goes through the spec's own entry point for its kind, the one
the AVS tests call:

* a scalar form (``tests/asl/scalar/**``: ``ExecuteScalarInstruction(instruction,
  length_bits)``, whose ``instruction`` is as wide as the function declares,
  ``bits(48)`` in 0.58.x);
* any other form (a command form such as ``B.CATR``, a tile operation's own
  spelling) through ``ExecuteCommandInstruction``, as a Block command is.

Where the command runs (before, inside or after a Block) is the program's
order; whether the spec allows it there is the spec's call (0.58.3's
``ScalarOperationApplicable`` refuses, for example, a system-block operation
outside its Block with ``Fault_BundleControl``), so its fault is the result.

The general-purpose registers a scalar command wrote are read back with the
spec's ``ReadGPR``: the register its template writes after ``->`` and every
register whose value the command changed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .. import speccontract as contract
from ..asl import ASLError, Bits, Interpreter
from ..encoding.asm import AsmError, Assembled
from ..encoding.asm_template import assemble_text, forms_of, is_register, shape_of, written_mnemonic
from ..encoding.model import Encoding, EncodingSet
from ..program.syntax import FORMS, NAMED_BSTART, Statement
from .words import COMMAND_ENTRY

SCALAR_ENTRY = contract.SCALAR_ENTRY.name
SCALAR_KIND = "scalar-form"
GPR_READ = contract.READ_GPR.name
_GPR_PROBE = 64  # more selectors than any register field names; ReadGPR's index type stops the probe first


@dataclass(frozen=True, slots=True)
class TemplateRun:
    """One command of another form, run: the entry the spec's tests call, its arguments and status."""

    entry: str
    args: tuple
    status: str
    gprs: tuple[int, ...] = ()  # GPRs the command wrote (absolute selectors), lowest first

    @property
    def executed(self) -> bool:
        return self.status.endswith("_Executed")


def accepted(es: EncodingSet) -> str:
    """What a block program's statement may be in this spec (for the unknown-command finding)."""
    kinds: dict[str, list[str]] = {}
    for e in es:
        if e.kind != "reservation" and e.assembly.strip():
            kinds.setdefault(e.kind, []).append(written_mnemonic(e).lower() if e.kind == SCALAR_KIND
                                                else written_mnemonic(e))
    parts = [f"the Block commands {', '.join(FORMS)}, {NAMED_BSTART}"]
    for kind, names in sorted(kinds.items()):
        names = list(dict.fromkeys(names))
        shown = ", ".join(names[:12]) + (f", … ({len(names)} in all)" if len(names) > 12 else "")
        parts.append(f"a {kind.replace('-', ' ')} of the spec's catalogs ({shown})")
    if SCALAR_KIND not in kinds:
        parts.append("no scalar form: this spec's catalogs define none")
    return "; ".join(parts)


def unknown_command(es: EncodingSet, st: Statement) -> str:
    """The finding for a statement whose mnemonic no form of the spec writes."""
    head = st.text.split(None, 1)[0] if st.text else st.mnemonic
    names = {written_mnemonic(e).upper() for e in es if e.kind != "reservation"} | set(FORMS)
    near = difflib.get_close_matches(head.upper(), sorted(names), n=3)
    hint = f" (did you mean {' or '.join(near)}?)" if near else ""
    return f"unknown command {head!r}{hint}; accepted: {accepted(es)}"


def assemble_template(es: EncodingSet, st: Statement) -> Assembled:
    """The word of ``st`` from its form's template; AsmError names an unknown mnemonic and what is accepted."""
    head = st.text.split(None, 1)[0] if st.text else st.mnemonic
    if not forms_of(es, head):
        raise AsmError(unknown_command(es, st))
    return assemble_text(es, st.text)


class TemplateRunner:
    """Assemble and run template statements on one interpreter (the executor's)."""

    def __init__(self, interp: Interpreter, encodings: EncodingSet) -> None:
        self.interp = interp
        self.encodings = encodings
        self.scalar_bits = _declared_bits(interp, SCALAR_ENTRY)

    def assemble(self, st: Statement) -> Assembled:
        return assemble_template(self.encodings, st)

    def missing(self, st: Statement) -> str:
        """Why this spec cannot run ``st`` ("" when it can): a scalar command needs the scalar entry point."""
        head = st.text.split(None, 1)[0] if st.text else st.mnemonic
        forms = forms_of(self.encodings, head)
        scalar = not forms or any(e.kind == SCALAR_KIND for e in forms)
        if scalar and not self.interp.has_function(SCALAR_ENTRY):
            what = "" if forms else f" and its catalogs no form {head!r}"
            return (f"this spec's ASL does not define {SCALAR_ENTRY}{what}: a scalar command runs as its word "
                    f"through {SCALAR_ENTRY}(instruction, length_bits), as the spec's scalar AVS tests run it")
        return ""

    def execute(self, st: Statement) -> TemplateRun:
        """Assemble ``st`` and hand its word to the spec's entry point for the form's kind."""
        it = self.interp
        a = self.assemble(st)
        if a.encoding.kind != SCALAR_KIND:
            status = str(it.call(COMMAND_ENTRY, Bits(a.word, 64), a.width))
            return TemplateRun(COMMAND_ENTRY, (a.hex(), a.width), status)
        before = gpr_file(it)
        status = str(it.call(SCALAR_ENTRY, Bits(a.word, self.scalar_bits), a.width))
        after = gpr_file(it)
        named = {a.values[n] for n in destination_fields(a.encoding) if is_register(a.encoding, n)}
        wrote = {i for i, (x, y) in enumerate(zip(before, after)) if x != y}
        wrote |= {i for i in named if i < len(after)}
        return TemplateRun(SCALAR_ENTRY, (a.hex(), a.width), status, tuple(sorted(wrote)))


def destination_fields(enc: Encoding) -> set[str]:
    """The fields the form's template writes after ``->`` (``RegDst`` of ``addi SrcL, uimm, ->{t, u, Rd}``)."""
    return {s.field for s in shape_of(enc).slots if s.destination}


def gpr_file(it: Interpreter) -> list[int]:
    """Every GPR the spec's ``ReadGPR`` reads, from 0 up to the first selector its index type refuses."""
    out: list[int] = []
    if not it.has_function(GPR_READ):
        return out
    for i in range(_GPR_PROBE):
        try:
            v = it.call(GPR_READ, i)
        except ASLError:
            break
        out.append(v.v if isinstance(v, Bits) else int(v))  # type: ignore[call-overload]
    return out


def _declared_bits(it: Interpreter, name: str) -> int:
    """The width of function ``name``'s first parameter (``instruction: bits(48)``), 64 when unknown."""
    decls = it.declarations(name)
    params = next((d.params for d in decls if getattr(d, "params", None)), ())
    m = re.search(r"bits\D*?(\d+)", str(params[0][-1])) if params else None
    return int(m.group(1)) if m else 64
