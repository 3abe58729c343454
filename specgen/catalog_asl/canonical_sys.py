"""Generate the SYS-specific canonical sweeps (``ValidateCanonicalScalarSYS<Kind>``).

From ``scalar-forms.json`` (the SYS records, by ``semantic_handler``) and
``system-registers.json`` (addresses, access, behaviour classes), with the
harness of :mod:`specgen.catalog_asl.canonical`:

* ``RegisterTransfers<A>To<B>``: our enumeration of transfers, in catalog
  order: for every register address (a ``base`` register's ``address``; a
  ``context-family`` register's ``low_index`` in each ring ``0..15`` of bits
  15:12, or only its ``fixed_context``), a get (``ExecuteSystemRegisterGet``
  forms), a set (``…Set``) and a swap (``…Swap``), each with the narrowest
  form whose ``SSR_ID`` holds the address; readable (RO/RW) registers get,
  writable (WO/RW) ones set, RW ones swap, every other combination rejects
  with ``Fault_IllegalInstruction`` (each attempt from ring 0 inside a
  ``BundleKind_System`` block, where the model admits these forms); and, for a register of a behaviour class
  that stores the written value with no side effect, set-then-get returns
  the value. The upstream index split is not stated in the catalogs: the
  names the spec's tests call partition ``0..T-1`` (T = the largest upper
  bound + 1) and the shard ``A..B`` covers the entries ``e`` with
  ``A <= e*T/N <= B`` (``N`` entries), so every entry is in exactly one shard;
* ``SwapAliases<A>To<B>``: a swap of the first plain read-write register
  with ``RegDst`` = ``SrcL`` = each selector ``A..B``: the source is read
  before the old value is published (``SelectorReadWriteAliases``: get and
  set with every selector as destination / source);
* ``RequestTotality``, ``MaintenanceSelectorTotality``, ``FenceTotality``,
  ``TrapAndRecoveryTotality``: every value of every field (at most 64 per
  field) of the ``…Request``, ``ExecuteMaintenance``, ``Fence…`` and
  breakpoint/assert records, under the ``Execution`` rule; trap attempts run
  from ring 2 with ring 1's vector set, and a rejected one traps to ring 1
  and recovers to the faulting TPC; ``MaintenanceLegalityTotality``: the
  canonical word of each maintenance record from each ring 0..3.
"""

from __future__ import annotations

import re

from ..encoding.model import catalog_word
from .canonical import TPC, Catalog, attempt, body, checked_attempt
from .scalar_shards import _w

_VECTOR = 0x900

SYS_HARNESS = f"""\
func CanonicalEnterSystemBlock()
begin
    SetCurrentACR(0);
    BeginBundle(BundleKind_System, BundleTransfer_Fallthrough, Zeros{{PTO_XLEN}}, {_w(TPC)},
        Zeros{{PTO_XLEN}}, FALSE);
    EnterBundleBody();
end;

func CanonicalTransfer(instruction: bits(48), length: integer, form: integer, executes: boolean)
begin
    CanonicalStart();
    CanonicalEnterSystemBlock();
    ClearFault();
    assert DecodeScalarForm(instruction, length) == form;
    let tpc = ReadTPC();
    if executes then
        assert ExecuteScalarInstruction(instruction, length) == ScalarExecution_Executed;
        assert _LastFault == Fault_None;
        assert ReadTPC() == tpc + (length DIV 8);
    else
        assert ExecuteScalarInstruction(instruction, length) == ScalarExecution_Rejected;
        assert _LastFault == Fault_IllegalInstruction;
    end;
end;

func CanonicalRoundTrip(set: bits(48), set_length: integer, get: bits(48), get_length: integer)
begin
    CanonicalStart();
    CanonicalEnterSystemBlock();
    ClearFault();
    assert ExecuteScalarInstruction(set, set_length) == ScalarExecution_Executed;
    assert ExecuteScalarInstruction(get, get_length) == ScalarExecution_Executed;
    assert ReadGPR(5) == ReadGPR(3);
end;

func CanonicalSelectorValue(selector: integer) => bits(PTO_XLEN)
begin
    if selector == 0 then return Zeros{{PTO_XLEN}};
    elsif selector < 24 then return ReadGPR(selector);
    elsif selector < 28 then return ReadTemporaryQueue(TRUE, selector - 24);
    else return ReadTemporaryQueue(FALSE, selector - 28);
    end;
end;

func CanonicalSeedQueues()
begin
    for k = 0 to 3 do
        PushTemporaryQueue(TRUE, Zeros{{PTO_XLEN}} + (0x7000 + k));
        PushTemporaryQueue(FALSE, Zeros{{PTO_XLEN}} + (0x7100 + k));
    end;
end;

func CanonicalCheckDestination(selector: integer, value: bits(PTO_XLEN))
begin
    if selector > 0 && selector < 24 then assert ReadGPR(selector) == value;
    elsif selector == 30 then assert ReadTemporaryQueue(FALSE, 0) == value;
    elsif selector == 31 then assert ReadTemporaryQueue(TRUE, 0) == value;
    end;
end;

func CanonicalAliasedAccess(instruction: bits(48), length: integer, address: bits(24),
                            source: integer, destination: integer)
begin
    CanonicalStart();
    CanonicalSeedQueues();
    CanonicalEnterSystemBlock();
    WriteSystemRegisterAddress(address, Zeros{{PTO_XLEN}} + 0x5EED);
    let old = Zeros{{PTO_XLEN}} + 0x5EED;
    let incoming = if source >= 0 then CanonicalSelectorValue(source) else old;
    ClearFault();
    assert ExecuteScalarInstruction(instruction, length) == ScalarExecution_Executed;
    assert _LastFault == Fault_None;
    assert ReadSystemRegisterAddress(address) == incoming;
    if destination >= 0 then CanonicalCheckDestination(destination, old); end;
end;

func CanonicalTrapAttempt(instruction: bits(48), length: integer, form: integer)
begin
    CanonicalStart();
    SetCurrentACR(2);
    PTOv0WriteContextRegister(1, 0x0f01, {_w(_VECTOR)});
""" + checked_attempt("DecodeScalarForm", "ExecuteScalarInstruction", "ScalarExecution_Executed", (
    "        assert CurrentACR() == 1;",
    f"        assert ReadTPC() == {_w(_VECTOR)};",
    f"        assert _TrapContexts[[1]].tpc == {_w(TPC)};",
    "        assert RecoverTrapContext(1);",
    "        assert CurrentACR() == 2;",
    f"        assert ReadTPC() == {_w(TPC)};")) + "end;\n"


def _addresses(regs: dict) -> list[tuple[int, str, str]]:
    """(address, access, name) for every register address the catalog defines, in its order."""
    out: list[tuple[int, str, str]] = []
    for r in regs.get("registers") or []:
        if not isinstance(r, dict) or r.get("access") not in ("RW", "RO", "WO"):
            continue
        if r.get("scope") == "base" and "address" in r:
            out.append((int(r["address"], 16), r["access"], r["name"]))
        elif "low_index" in r:
            fixed = r.get("fixed_context")
            rings = [fixed] if isinstance(fixed, int) else range(16)
            out += [((ring << 12) | int(r["low_index"], 16), r["access"], r["name"]) for ring in rings]
    return out


def _plain_registers(regs: dict) -> set[str]:
    """Registers of a class that stores the written value and reads it back with no side effect."""
    out: set[str] = set()
    for c in regs.get("behavior_classes") or []:
        if c.get("read") == "stored-value" and c.get("write") == "store-value" and not c.get("side_effects"):
            out.update(c.get("registers") or [])
    return out


class _Sys:
    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.by_handler: dict[str, list[int]] = {}
        for i in cat.family("SYS"):
            self.by_handler.setdefault(cat.forms[i]["semantic_handler"], []).append(i)

    def forms(self, pattern: str) -> list[int]:
        return [i for h, ids in self.by_handler.items() if re.search(pattern, h) for i in ids]

    def access_form(self, kind: str, address: int) -> int | None:
        """The narrowest form of ``ExecuteSystemRegister<kind>`` whose SSR_ID holds ``address``."""
        fitting = []
        for i in self.by_handler.get(f"ExecuteSystemRegister{kind}", []):
            width = next((fl["width"] for fl in self.cat.forms[i]["fields"] if fl["name"] == "SSR_ID"), 0)
            if address < (1 << width):
                fitting.append((width, i))
        return min(fitting)[1] if fitting else None

    def word(self, i: int, **vals: int) -> int:
        names = {fl["name"] for fl in self.cat.forms[i].get("fields", [])}
        return catalog_word(self.cat.forms[i], {k: v for k, v in vals.items() if k in names})

    def length(self, i: int) -> int:
        return self.cat.forms[i]["length_bits"]


def transfers(s: _Sys, regs: dict) -> list[str]:
    """One ASL statement per transfer entry (module docstring)."""
    plain = _plain_registers(regs)
    out: list[str] = []
    for address, access, name in _addresses(regs):
        get, set_, swap = (s.access_form(k, address) for k in ("Get", "Set", "Swap"))
        for i, ok in ((get, access in ("RO", "RW")), (set_, access in ("WO", "RW")), (swap, access == "RW")):
            if i is not None:
                w = s.word(i, SSR_ID=address, RegDst=5, SrcL=3)
                out.append(f"    CanonicalTransfer(Zeros{{48}} + 0x{w:x}, {s.length(i)}, {i}, "
                           f"{'TRUE' if ok else 'FALSE'});")
        if name in plain and get is not None and set_ is not None:
            out.append(f"    CanonicalRoundTrip(Zeros{{48}} + 0x{s.word(set_, SSR_ID=address, SrcL=3):x}, "
                       f"{s.length(set_)}, Zeros{{48}} + 0x{s.word(get, SSR_ID=address, RegDst=5):x}, "
                       f"{s.length(get)});")
    return out


def _slices(names: list[str], stem: str) -> list[tuple[int, int]]:
    pattern = re.compile(rf"^{stem}(\d+)To(\d+)$")
    return sorted({(int(m.group(1)), int(m.group(2))) for n in names if (m := pattern.match(n))})


def _sweep(s: _Sys, forms: list[int], *, trap: bool = False, rings: tuple[int, ...] = ()) -> list[str]:
    out: list[str] = []
    for i in forms:
        f = s.cat.forms[i]
        if rings:  # legality from each ring: the canonical word of each record
            c = s.cat.canonical(i)
            out += [f"    CanonicalAttemptInRing(Zeros{{48}} + 0x{c[0]:x}, {s.length(i)}, {i}, {r});"
                    for r in rings if c is not None]
            continue
        for fl in f.get("fields", []) or [{"name": "", "width": 0}]:
            for v in range(1 << min(fl["width"], 6)):
                c = s.cat.canonical(i, {fl["name"]: v} if fl["name"] else {})
                if c is None:
                    continue
                if trap:
                    out.append(f"    CanonicalTrapAttempt(Zeros{{48}} + 0x{c[0]:x}, {s.length(i)}, {i});")
                else:
                    out += attempt(s.cat, i, c[0])
    return out


RING_HARNESS = (
    "func CanonicalAttemptInRing(instruction: bits(48), length: integer, form: integer, ring: integer)\n"
    "begin\n"
    "    CanonicalStart();\n"
    "    SetCurrentACR(ring);\n"
    + checked_attempt("DecodeScalarForm", "ExecuteScalarInstruction", "ScalarExecution_Executed")
    + "end;\n")


def sys_canonical_asl(catalog: dict, regs: dict | None, called: list[str]) -> str:
    """The SYS sweeps; ``called``: the validation names the spec's tests call (for the slices)."""
    cat = Catalog(catalog)
    s = _Sys(cat)
    p = "ValidateCanonicalScalarSYS"
    out = ["// Generated by specgen (canonical SYS sweeps). Do not edit.", SYS_HARNESS, RING_HARNESS]
    out.append(body(f"{p}RequestTotality", _sweep(s, s.forms(r"Request$"))))
    maintenance = s.forms(r"^ExecuteMaintenance$")
    out.append(body(f"{p}MaintenanceSelectorTotality", _sweep(s, maintenance)))
    out.append(body(f"{p}MaintenanceLegalityTotality", _sweep(s, maintenance, rings=(0, 1, 2, 3))))
    out.append(body(f"{p}FenceTotality", _sweep(s, s.forms(r"^Fence"))))
    out.append(body(f"{p}TrapAndRecoveryTotality", _sweep(s, s.forms(r"Breakpoint$|Assert$"), trap=True)))
    if regs:
        entries = transfers(s, regs)
        slices = _slices(called, f"{p}RegisterTransfers")
        total = max((b for _, b in slices), default=-1) + 1
        for a, b in slices:
            part = [e for k, e in enumerate(entries) if a <= k * total // max(len(entries), 1) <= b]
            out.append(body(f"{p}RegisterTransfers{a}To{b}", part))
        plain = sorted(_plain_registers(regs))
        target = next((a for a, acc, n in _addresses(regs) if n in plain and acc == "RW"), None)
        swap = s.access_form("Swap", target) if target is not None else None
        if swap is not None:
            for a, b in _slices(called, f"{p}SwapAliases"):
                lines = [f"    CanonicalAliasedAccess(Zeros{{48}} + 0x{s.word(swap, SSR_ID=target, RegDst=k, SrcL=k):x}, "
                         f"{s.length(swap)}, Zeros{{24}} + 0x{target:x}, {k}, {k});" for k in range(a, b + 1)]
                out.append(body(f"{p}SwapAliases{a}To{b}", lines))
            get, set_ = s.access_form("Get", target), s.access_form("Set", target)
            lines = []
            for k in range(32):
                if set_ is not None:
                    lines.append(f"    CanonicalAliasedAccess(Zeros{{48}} + 0x{s.word(set_, SSR_ID=target, SrcL=k):x}, "
                                 f"{s.length(set_)}, Zeros{{24}} + 0x{target:x}, {k}, -1);")
                if get is not None:
                    lines.append(f"    CanonicalAliasedAccess(Zeros{{48}} + 0x{s.word(get, SSR_ID=target, RegDst=k):x}, "
                                 f"{s.length(get)}, Zeros{{24}} + 0x{target:x}, -1, {k});")
            out.append(body(f"{p}SelectorReadWriteAliases", lines))
    return "\n".join(out) + "\n"
