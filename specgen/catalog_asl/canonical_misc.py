"""Generate the remaining catalog-wide validation functions the corpus's tests call.

* ``ValidateCanonicalDecoders``: every scalar form's canonical word (see
  :class:`specgen.catalog_asl.canonical.Catalog`) decodes to that form, every
  command form's word (primary encoding and each ``encoding_variants``
  entry) to that form, per the priority rule computed here in Python; every
  tile operation's code decodes to its index;
* ``ValidateCanonicalCommand<Group>Execution`` (0.58.3) and
  ``ValidateCanonicalCommandExecution`` (0.58.0, all forms): from reset, each
  canonical command word decodes to its form and ``ExecuteCommandInstruction``
  either executes with no fault or rejects with a fault recorded. Groups, by
  ``semantic_handler``: ``Header`` = ``SetBundle…``/``BindBundle…``;
  ``TileStart`` = ``ExecuteBundleStart`` forms that select a tile operation
  (their mnemonic is a ``command_mnemonic`` of ``tile-operations.json``),
  with each selector variant; ``ControlStart`` = the other
  ``ExecuteBundleStart`` forms; ``Lifecycle`` = every other handler;
* ``ValidateScalarFPFlagHelpers``: ``ScalarFPRecordFlags`` OR-accumulates into the sticky flags (the contract's
  "ORed into existing sticky CORE_STATE flags"), checked for pairs of flag
  vectors; ``ValidateScalarFPRoundingHelpers``: the active rounding mode
  follows each ``core_state[39:37]`` encoding, and each fixed-rounding
  conversion's mode is the one its catalog summary names ("round-away" RNA,
  "round-down" RTM, "round-nearest" RNE, "round-up" RTP, "round-toward-zero"
  RTZ); ``ValidateCanonicalScalarFSUFlagAndRoundingHelpers`` (0.58.0) is both;
* ``ValidateSystemRegisterResetAndAccess``: from reset, every readable
  register address of a behaviour class with ``reset`` ``zero``/``one`` and a
  stored or profile value reads that value, a write-only one rejects the read
  and a read-only one the write (``Fault_IllegalInstruction``).
"""

from __future__ import annotations

from .canonical import Catalog, body, checked_attempt
from .canonical_sys import _addresses
from .command_forms import _fixed_bits
from .scalar_shards import _ident, _w

_MODES = (("round-toward-zero", "RTZ"), ("round-away", "RNA"), ("round-down", "RTM"),
          ("round-nearest", "RNE"), ("round-up", "RTP"))


def _matches(encoding: list[dict], word: int) -> bool:
    for e in encoding:
        w = e["width_bits"]
        mask = int(e["mask"], 16) if isinstance(e.get("mask"), str) else (1 << w) - 1
        if (word >> (32 * e.get("index", 0))) & mask != int(e["match"], 16):
            return False
    return True


def _word(encoding: list[dict]) -> int:
    return sum(int(e["match"], 16) << (32 * e.get("index", 0)) for e in encoding)


def _command_words(forms: list[dict]) -> list[tuple[int, int, int]]:
    """(form, word, length) for every command form and encoding variant that decodes as the form."""
    order = sorted(range(len(forms)), key=lambda i: (-_fixed_bits(forms[i]), forms[i]["form_id"]))

    def alternatives(f: dict) -> list[list[dict]]:
        return [f["encoding"]] + [v["encoding"] for v in f.get("encoding_variants") or []]

    def decode(word: int, length: int) -> int | None:
        for i in order:
            f = forms[i]
            if f["length_bits"] == length and any(_matches(e, word) for e in alternatives(f)):
                return i
        return None

    out = []
    for i, f in enumerate(forms):
        for e in alternatives(f):
            word = _word(e)
            if decode(word, f["length_bits"]) == i:
                out.append((i, word, f["length_bits"]))
    return out


COMMAND_HARNESS = (
    "func CanonicalCommandAttempt(instruction: bits(64), length: integer, form: integer)\n"
    "begin\n"
    "    ResetProfileState();\n"
    + checked_attempt("DecodeCommandForm", "ExecuteCommandInstruction", "CommandExecution_Executed")
    + "end;\n")


def command_asl(forms_catalog: dict, tile_mnemonics: set[str]) -> str:
    forms = [f for f in forms_catalog.get("forms") or [] if isinstance(f, dict)]
    groups: dict[str, list[str]] = {"Header": [], "ControlStart": [], "TileStart": [], "Lifecycle": []}
    every: list[str] = []
    for i, word, length in _command_words(forms):
        h = forms[i].get("semantic_handler", "")
        if h.startswith(("SetBundle", "BindBundle")):
            g = "Header"
        elif h == "ExecuteBundleStart":
            g = "TileStart" if forms[i].get("mnemonic") in tile_mnemonics else "ControlStart"
        else:
            g = "Lifecycle"
        line = f"    CanonicalCommandAttempt(Zeros{{64}} + 0x{word:x}, {length}, {i});"
        groups[g].append(line)
        every.append(line)
    out = [COMMAND_HARNESS] + [body(f"ValidateCanonicalCommand{g}Execution", lines) for g, lines in groups.items()]
    out.append(body("ValidateCanonicalCommandExecution", every))
    return "\n".join(out)


def decoders_asl(scalar: dict, commands: dict | None, tiles: dict | None) -> str:
    cat = Catalog(scalar)
    lines = []
    for i, f in enumerate(cat.forms):
        c = cat.canonical(i)
        if c is not None:
            lines.append(f"    assert DecodeScalarForm(Zeros{{48}} + 0x{c[0]:x}, {f['length_bits']}) == {i};")
    if commands:
        forms = [f for f in commands.get("forms") or [] if isinstance(f, dict)]
        lines += [f"    assert DecodeCommandForm(Zeros{{64}} + 0x{w:x}, {n}) == {i};" for i, w, n in _command_words(forms)]
    for i, op in enumerate((tiles or {}).get("operations") or []):
        fam, code = op.get("family"), None
        if fam == "TEPL" and isinstance(op.get("selector"), str):
            code = int(op["selector"], 16)
        elif fam == "TEPL" and isinstance(op.get("mode"), int) and isinstance(op.get("function"), int):
            code = op["mode"] * 32 + op["function"]
        elif fam != "TEPL" and isinstance(op.get("function"), int):
            code = op["function"]
        if code is not None:
            lines.append(f"    assert DecodeTileOperation(TileDecode_{fam}, Zeros{{12}} + {code}) == {i};")
    return body("ValidateCanonicalDecoders", lines)


def fp_helpers_asl(scalar: dict) -> str:
    flags = []
    for a in (0, 1, 2, 4, 8, 16, 0b10101):
        for b in (0, 1, 2, 0b01010, 31):
            flags += ["    ResetProfileState();", f"    ScalarFPRecordFlags(Zeros{{5}} + {a});",
                      f"    assert ScalarFPFlags() == Zeros{{5}} + {a};",
                      f"    ScalarFPRecordFlags(Zeros{{5}} + {b});",
                      f"    assert ScalarFPFlags() == Zeros{{5}} + {a | b};"]
    rounding = []
    for e in range(8):
        rounding += ["    ResetProfileState();", f"    _SystemRegisters.core_state[39:37] = '{e:03b}';",
                     f"    assert ScalarFPActiveRoundingMode() == ResolveScalarFPActiveRoundingMode('{e:03b}');"]
    for f in scalar.get("forms") or []:
        summary = str(f.get("semantic_summary", "")) if isinstance(f, dict) else ""
        if f.get("semantic_family") != "FSU" or "fixed" not in summary:
            continue
        mode = next((m for words, m in _MODES if words in summary), None)
        if mode:
            rounding.append(f"    assert ScalarFPFixedConversionRoundingMode(ScalarOperation_{_ident(f['mnemonic'])})"
                            f" == NumericRound_{mode};")
    return "\n".join([body("ValidateScalarFPFlagHelpers", flags), body("ValidateScalarFPRoundingHelpers", rounding),
                      body("ValidateCanonicalScalarFSUFlagAndRoundingHelpers", flags + rounding)])


def sysreg_reset_asl(regs: dict) -> str:
    classes = {n: c for c in regs.get("behavior_classes") or [] for n in c.get("registers") or []}
    lines = ["    ResetProfileState();", "    SetCurrentACR(0);"]
    for address, access, name in _addresses(regs):
        c = classes.get(name, {})
        a = f"Zeros{{24}} + 0x{address:x}"
        if access in ("RO", "RW") and c.get("reset") in ("zero", "one") and \
                c.get("read") in ("stored-value", "profile-value"):
            lines += ["    ClearFault();",
                      f"    assert ReadSystemRegisterAddress({a}) == {_w(1 if c['reset'] == 'one' else 0)};",
                      "    assert _LastFault == Fault_None;"]
        if access == "WO":
            lines += ["    ClearFault();", f"    - = ReadSystemRegisterAddress({a});",
                      "    assert _LastFault == Fault_IllegalInstruction;"]
        if access == "RO":
            lines += ["    ClearFault();", f"    WriteSystemRegisterAddress({a}, {_w(0x1234)});",
                      "    assert _LastFault == Fault_IllegalInstruction;"]
    return body("ValidateSystemRegisterResetAndAccess", lines)
