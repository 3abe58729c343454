"""Generate the whole-catalog scalar sweeps (``ValidateCanonicalScalar<F><Kind>``).

The corpus's dispatch tests call catalog-wide validation functions whose only
statement of intent is their name and header ("executes every canonical ALU
form independently from reset state", "covers canonical scalar AMO
totality"). specgen writes its own sweep for each, from ``scalar-forms.json``
alone, with one harness (:func:`attempt`) and these rules, checked on every
form of the family ``F`` (``ALU``, ``AGU``, …, read from the catalog's
``semantic_family`` values):

* a form's *canonical word* is its ``match`` with field values chosen so the
  spec's priority decoder (most fixed bits first, ties by ``form_id``)
  selects that form; the sweep asserts ``DecodeScalarForm`` agrees;
* ``Execution``: from reset, with GPR ``r`` = ``0x100 + 8·r`` (aligned
  addresses inside the model memory), the attempt either executes (no fault;
  TPC advanced by the length unless ``ScalarHandlerWritesTPC``) or is
  rejected with a fault recorded: never an ASL assertion or ``unreachable``;
* ``Effects`` (also ``BinaryEffects``: the forms with ``SrcL`` and ``SrcR``,
  each also with both sources on one register): an executed attempt leaves
  every GPR that no ``RegDst*`` field (nor ``->Ra``) names unchanged;
* ``Aliases`` / ``AliasAndFaults``: every Reg5 source reads T#1 (and, in a
  second attempt, U#1); an executed attempt does not consume the queues
  (not checked for a form that pushes its result to a queue implicitly:
  ``->t`` in its asm and no ``RegDst`` field);
* ``Totality``: the ``Execution`` rule for every form, then every value (up
  to 64) of every constrained field (``one-of``, ``not-equal``): an assigned
  value passes ``ScalarFormOperandsLegal``, a reserved one that still decodes
  as the form rejects with ``Fault_IllegalInstruction`` and leaves TPC.

``ValidateCanonicalScalarExecution`` (0.58.0) is ``Execution`` over every
family. The SYS-specific sweeps live in :mod:`specgen.catalog_asl.canonical_sys`.
"""

from __future__ import annotations

import re

try:  # the extra `fast`: without it a word is matched against the forms one by one, same result
    import numpy as np
except ImportError:  # pragma: no cover - the core install
    np = None

from ..encoding.model import catalog_word
from .scalar_shards import MASK64, _ident, _w

TPC = 0x200
_REG5 = ("Src", "RegDst")


def seed(reg: int) -> int:
    return 0x100 + 8 * reg


def _fixed_bits(form: dict) -> int:
    return bin(int(form["encoding"][0]["mask"], 16)).count("1")


class _Probes:
    """The forms of one word length as arrays: the first whose mask and match accept a word, in one pass."""

    def __init__(self, rows: list[tuple[int, int, int]]) -> None:
        self.rows = rows
        wide = np is None or any(m >= 1 << 64 or v >= 1 << 64 for m, v, _ in rows)
        self.masks = None if wide else np.array([m for m, _, _ in rows], dtype=np.uint64)
        self.matches = None if wide else np.array([v for _, v, _ in rows], dtype=np.uint64)

    def first(self, word: int) -> int | None:
        if self.masks is None or word >= 1 << 64:
            return next((i for m, v, i in self.rows if word & m == v), None)
        hits = np.flatnonzero((np.uint64(word) & self.masks) == self.matches)
        return self.rows[int(hits[0])][2] if hits.size else None


class Catalog:
    """The scalar forms in the decoder's priority order."""

    def __init__(self, catalog: dict) -> None:
        self.forms: list[dict] = [f for f in catalog.get("forms") or [] if isinstance(f, dict)]
        self.order = sorted(range(len(self.forms)), key=lambda i: (-_fixed_bits(self.forms[i]),
                                                                     self.forms[i]["form_id"]))
        # per word length: masks, matches and form indices in priority order, parsed once (decode runs
        # for every candidate word of every sweep: tens of thousands of times over ~1,000 forms)
        by_length: dict[int, list[tuple[int, int, int]]] = {}
        for i in self.order:
            enc = self.forms[i]["encoding"][0]
            by_length.setdefault(self.forms[i]["length_bits"], []).append((int(enc["mask"], 16), int(enc["match"], 16), i))
        self._probes = {n: _Probes(rows) for n, rows in by_length.items()}

    def decode(self, word: int, length: int) -> int | None:
        probes = self._probes.get(length)
        return probes.first(word) if probes is not None else None

    def family(self, name: str | None) -> list[int]:
        return [i for i, f in enumerate(self.forms) if name is None or f.get("semantic_family") == name]

    def canonical(self, i: int, base: dict[str, int] | None = None) -> tuple[int, dict[str, int]] | None:
        """A word that decodes as form ``i`` (with ``base`` field values kept), and its fields."""
        f = self.forms[i]
        fields = {fl["name"]: fl for fl in f.get("fields", [])}
        legal = legal_values(f)
        for attempt in range(4):
            vals: dict[str, int] = {}
            for name, fl in fields.items():
                top = (1 << fl["width"]) - 1
                if name in legal:
                    vals[name] = legal[name][min(attempt, len(legal[name]) - 1)]
                elif name.startswith(_REG5):
                    vals[name] = min(top, [3, 5, 7, 9][attempt])
                else:
                    vals[name] = [0, 1, top, 2][attempt] & top
            vals.update(base or {})
            word = catalog_word(f, vals)
            if self.decode(word, f["length_bits"]) == i:
                return word, vals
        return None


def legal_values(form: dict) -> dict[str, list[int]]:
    """Assigned values per constrained field (``one-of``; ``not-equal`` = all but one)."""
    widths = {fl["name"]: fl["width"] for fl in form.get("fields", [])}
    out: dict[str, list[int]] = {}
    for c in form.get("constraints", []):
        name = c.get("field")
        if name not in widths:
            continue
        values = out.get(name, list(range(1 << min(widths[name], 12))))
        if c.get("operator") == "one-of":
            values = [v for v in values if v in c.get("values", [])]
        elif c.get("operator") == "not-equal":
            values = [v for v in values if v != c.get("value")]
        out[name] = values
    return out


HARNESS = f"""\
func CanonicalSeedRegisters()
begin
    for r = 1 to 23 do WriteGPR(r, Zeros{{PTO_XLEN}} + (256 + 8 * r)); end;
end;

func CanonicalStart()
begin
    ResetProfileState();
    WriteTPC({_w(TPC)});
    CanonicalSeedRegisters();
end;

func CanonicalAttempt(instruction: bits(48), length: integer, form: integer, keep: bits(24), queue: integer)
begin
    CanonicalStart();
    if queue == 1 || queue == 3 then PushTemporaryQueue(TRUE, {_w(0x180)});
    elsif queue == 2 || queue == 4 then PushTemporaryQueue(FALSE, {_w(0x180)});
    end;
    ClearFault();
    assert DecodeScalarForm(instruction, length) == form;
    let status = ExecuteScalarInstruction(instruction, length);
    if status == ScalarExecution_Executed then
        assert _LastFault == Fault_None;
        if !ScalarHandlerWritesTPC(ScalarHandlerOfForm(form)) then
            assert ReadTPC() == {_w(TPC)} + (length DIV 8);
        end;
        for r = 1 to 23 do
            if keep[r] == '1' then assert ReadGPR(r) == Zeros{{PTO_XLEN}} + (256 + 8 * r); end;
        end;
        if queue == 1 then assert ReadTemporaryQueue(TRUE, 0) == {_w(0x180)}; end;
        if queue == 2 then assert ReadTemporaryQueue(FALSE, 0) == {_w(0x180)}; end;
    else
        assert _LastFault != Fault_None;
    end;
end;

func CanonicalReserved(instruction: bits(48), length: integer)
begin
    CanonicalStart();
    ClearFault();
    assert ExecuteScalarInstruction(instruction, length) == ScalarExecution_Rejected;
    assert _LastFault == Fault_IllegalInstruction;
    assert ReadTPC() == {_w(TPC)};
end;
"""


def checked_attempt(decode: str, execute: str, executed: str, rejected: tuple[str, ...] = ()) -> str:
    """The lines every canonical attempt harness ends with: decode to ``form``, execute,
    and a fault recorded exactly when the attempt did not execute (``rejected``: more checks then)."""
    return "\n".join([
        "    ClearFault();",
        f"    assert {decode}(instruction, length) == form;",
        f"    if {execute}(instruction, length) == {executed} then",
        "        assert _LastFault == Fault_None;",
        "    else",
        "        assert _LastFault != Fault_None;",
        *rejected,
        "    end;",
    ]) + "\n"


def attempt(cat: Catalog, i: int, word: int, *, keep: set[int] | None = None, queue: int = 0) -> list[str]:
    """One attempt of form ``i`` with ``word`` under the ``Execution`` rule (module docstring);
    ``keep``: GPRs that must be unchanged, ``queue`` 1/2: a T/U entry that must not be consumed."""
    mask = sum(1 << r for r in keep or ())
    return [f"    CanonicalAttempt(Zeros{{48}} + 0x{word:x}, {cat.forms[i]['length_bits']}, {i}, "
            f"'{mask:024b}', {queue});"]


def _destinations(form: dict, vals: dict[str, int]) -> set[int]:
    out = {v for n, v in vals.items() if n.startswith("RegDst")}
    if re.search(r"-\s*>\s*ra\b", form.get("asm", ""), re.IGNORECASE):  # ->Ra, ->ra, "- >Ra" (0.58.0): the link register R10
        out.add(10)
    return out


def execution(cat: Catalog, forms: list[int]) -> list[str]:
    lines: list[str] = []
    for i in forms:
        c = cat.canonical(i)
        if c is not None:
            lines += attempt(cat, i, c[0])
    return lines


def effects(cat: Catalog, forms: list[int], *, binary: bool = False) -> list[str]:
    lines: list[str] = []
    for i in forms:
        f = cat.forms[i]
        names = {fl["name"] for fl in f.get("fields", [])}
        if binary and not {"SrcL", "SrcR"} <= names:
            continue
        for base in ([{}, {"SrcL": 4, "SrcR": 4}] if binary else [{}]):
            c = cat.canonical(i, base)
            if c is None:
                continue
            word, vals = c
            keep = {r for r in range(1, 24) if r not in _destinations(f, vals)}
            lines += attempt(cat, i, word, keep=keep)
    return lines


def aliases(cat: Catalog, forms: list[int]) -> list[str]:
    lines: list[str] = []
    for i in forms:
        f = cat.forms[i]
        sources = [fl["name"] for fl in f.get("fields", []) if fl["name"].startswith("Src") and fl["width"] == 5]
        if not sources:
            continue
        for sel, queue in ((24, 1), (28, 2)):
            base = {s: sel for s in sources}
            base.update({fl["name"]: 5 for fl in f.get("fields", []) if fl["name"].startswith("RegDst")})
            c = cat.canonical(i, base)
            if c is None:
                continue
            # a form that pushes its result to a queue with no RegDst field (``->t``): not checked
            implicit = not any(n.startswith("RegDst") for n in base) and re.search(r"->\s*\{?\s*[tu]\b", f.get("asm", ""))
            lines += attempt(cat, i, c[0], queue=queue + 2 if implicit else queue)
    return lines


def totality(cat: Catalog, forms: list[int]) -> list[str]:
    lines = execution(cat, forms)
    for i in forms:
        f = cat.forms[i]
        for name, legal in legal_values(f).items():
            width = next(fl["width"] for fl in f.get("fields", []) if fl["name"] == name)
            for v in range(1 << min(width, 6)):
                c = cat.canonical(i, {name: v})
                word = catalog_word(f, {**(c[1] if c else {}), name: v})
                if cat.decode(word, f["length_bits"]) != i:
                    continue  # the value belongs to another form's encoding
                if v in legal:
                    lines.append(f"    assert ScalarFormOperandsLegal(Zeros{{48}} + 0x{word:x}, {i});")
                else:
                    lines.append(f"    CanonicalReserved(Zeros{{48}} + 0x{word:x}, {f['length_bits']});")
    return lines


def body(name: str, lines: list[str]) -> str:
    return "\n".join([f"func {name}()", "begin", *(lines or ["    pass;"]), "end;"])


def canonical_asl(catalog: dict) -> str:
    """Every family sweep, for one ``scalar-forms.json`` document."""
    cat = Catalog(catalog)
    out = ["// Generated by specgen from spec/catalog/scalar-forms.json (canonical sweeps). Do not edit.", HARNESS]
    families = sorted({str(f.get("semantic_family")) for f in cat.forms if f.get("semantic_family")})
    for fam in families:
        forms = cat.family(fam)
        p = f"ValidateCanonicalScalar{_ident(fam)}"
        out.append(body(f"{p}Execution", execution(cat, forms)))
        out.append(body(f"{p}Effects", effects(cat, forms)))
        alias = aliases(cat, forms)
        out.append(body(f"{p}Aliases", alias))
        out.append(body(f"{p}AliasAndFaults", alias + totality(cat, forms)))
        out.append(body(f"{p}Totality", totality(cat, forms)))
    everything = cat.family(None)
    out.append(body("ValidateCanonicalScalarExecution", execution(cat, everything)))
    out.append(body("ValidateCanonicalScalarBinaryEffects", effects(cat, everything, binary=True)))
    return "\n".join(out) + "\n"
