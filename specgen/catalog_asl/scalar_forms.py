"""Generate the scalar-form decoder from ``spec/catalog/scalar-forms.json``.

The scalar model (``asl/scalar/model/dispatch/*.asl``) calls a decoder the
upstream build generates and the tree only uses: ``DecodeScalarForm``, the
per-form projections (``ScalarOperationOfForm``, ``ScalarHandlerOfForm``,
``ScalarFamilyOfForm``, ``ScalarAGU…OfForm``), the per-field ones
(``ScalarOperandPresent``/``Width``/``Signedness``,
``DecodeScalarOperandRaw``) and the two legality checks the top-level
envelope runs before any effect (``ScalarFormOperandsLegal``,
``ScalarRegisterOperandsLegal``). Their signatures are read off the call
sites: the instruction is ``bits(48)``, a form is its position in
``forms``, the unmatched value is ``PTO_SCALAR_FORM_COUNT``, a raw operand
is ``bits(48)`` (the decode helpers slice it).

Operands are assembled piece by piece (``instruction_lsb`` → ``value_lsb``),
never by width, so a scaled immediate whose lowest piece starts above bit 0
keeps its zero low bits. Register legality is our reading of the Reg5
contract every scalar record states: each ``Src*`` register field must name
an available source (``ScalarSourceSelectorLegal``; ``SrcZero`` is
ignored, as ``InstructionContractIgnoresSrcZero_LR_*`` states), each ``RegDst*`` field
a legal destination (``ScalarDestinationSelectorLegal``).
"""

from __future__ import annotations

import re

_REG_SOURCE = re.compile(r"^Src(L|R|D|D1|A|P)$")  # SrcZero is ignored (LR.*, JR)
_REG_DEST = re.compile(r"^RegDst[01]?$")


def _ident(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def operation_member(mnemonic: str) -> str:
    """``HL.LB.PCR`` -> ``ScalarOperation_HL_LB_PCR`` (the tree's spelling)."""
    return "ScalarOperation_" + _ident(mnemonic)


def _bits(v: int, width: int) -> str:
    return "'" + format(v, f"0{width}b") + "'"


def _decode_runs(indexed: list[tuple[int, dict]]) -> list[tuple[int, list[tuple[int, int]]]]:
    """(mask, [(match, form)]) runs whose in-order, first-match evaluation equals the spec's
    priority decoder: forms by most fixed mask bits, ties by ``form_id``.

    A form joins the latest run with its mask when no run after that one holds a form
    that could match the same instruction (so moving it earlier changes no decode);
    an exact duplicate of an earlier (mask, match) never decodes and is dropped."""
    order = sorted(indexed, key=lambda p: (-_popcount(int(p[1]["encoding"][0]["mask"], 16)), p[1]["form_id"]))
    runs: list[tuple[int, list[tuple[int, int]]]] = []
    for i, f in order:
        mask, match = int(f["encoding"][0]["mask"], 16), int(f["encoding"][0]["match"], 16)
        target = None
        for r in range(len(runs) - 1, -1, -1):
            rmask, arms = runs[r]
            if rmask == mask:
                target = r
                break
            if any(not ((rmask & mask) & (m ^ match)) for m, _ in arms):
                break
        if target is None:
            runs.append((mask, [(match, i)]))
        elif all(m != match for m, _ in runs[target][1]):
            runs[target][1].append((match, i))
    return runs


def _popcount(v: int) -> int:
    return bin(v).count("1")


def _field_raw(fl: dict) -> list[str]:
    return [f"raw[{p['value_lsb'] + p['width'] - 1}:{p['value_lsb']}] = "
            f"instruction[{p['instruction_lsb'] + p['width'] - 1}:{p['instruction_lsb']}];"
            for p in fl.get("pieces", [])]


_AGU_ACTIONS = {"ExecuteScalarLoad": "Load", "ExecuteScalarLoadPair": "LoadPair", "ExecuteScalarStore": "Store",
                "ExecuteScalarStorePair": "StorePair", "ScalarPrefetch": "Prefetch"}
_AGU_SIZES = {"B": 1, "H": 2, "W": 4, "D": 8}
_AGU_MNEMONIC = re.compile(r"^(?P<c>C\.)?(?:HL\.)?(?P<op>L|S|PRF)(?P<size>[BHWD]?)(?P<u>U?)(?P<i>I?)P?"
                           r"(?:\.(?P<mod>PCR|U|UPO|UPR|PO|PR|A|UA))?$")


def _with_agu(form: dict) -> dict:
    """The form with its ``agu`` metadata; derived from the mnemonic when the catalog has none.

    Releases before 0.58.3 (0.58.0) carry no ``agu`` object; their mnemonics
    spell the same facts: ``L``/``S``/``PRF``, the size letter (B/H/W/D),
    ``U`` unsigned, ``I`` immediate (else a register index), ``C.`` compressed,
    ``.PCR`` PC-relative (scaled by 4), ``.PO``/``.PR`` post/pre-index, a
    ``.U…`` modifier an unscaled immediate (otherwise scaled by the size, as
    is a register index without its own ``shamt`` field),
    ``.A``/``.UA`` a prefetch that returns its address. A mnemonic outside
    that grammar keeps no metadata (its tests then fail at the AGU tables)."""
    if form.get("semantic_family") != "AGU" or isinstance(form.get("agu"), dict):
        return form
    action = _AGU_ACTIONS.get(form.get("semantic_handler", ""))
    m = _AGU_MNEMONIC.match(form.get("mnemonic", ""))
    if action is None or m is None:
        return form
    size = _AGU_SIZES.get(m["size"], 1)
    mod = m["mod"] or ""
    kind = ("PCRelative" if mod == "PCR" else "Compressed" if m["c"]
            else "Immediate" if m["i"] else "Register")
    has_shamt = any(fl.get("name") == "shamt" for fl in form.get("fields", []))
    scale = (2 if kind == "PCRelative" else 0 if action == "Prefetch" or mod.startswith("U")
             or (kind == "Register" and has_shamt) else size.bit_length() - 1)
    agu = {"action": action, "address_kind": kind, "size_bytes": size, "offset_scale": scale,
           "update_mode": {"PO": "PostIndex", "UPO": "PostIndex", "PR": "PreIndex", "UPR": "PreIndex"}.get(mod, "None"),
           "signed_load": action in ("Load", "LoadPair") and size < 8 and not m["u"],
           "prefetch_returns_address": action == "Prefetch" and mod in ("A", "UA")}
    return {**form, "agu": agu}


def scalar_forms_asl(catalog: dict) -> str:
    """Generated ASL text for one ``scalar-forms.json`` document."""
    forms = [_with_agu(f) for f in catalog.get("forms") or [] if isinstance(f, dict)]
    n = len(forms)
    fields: list[str] = []
    handlers: list[str] = []
    families: list[str] = []
    for f in forms:
        for fl in f.get("fields", []):
            nm = "ScalarField_" + _ident(fl["name"])
            if nm not in fields:
                fields.append(nm)
        h = "ScalarHandler_" + f["semantic_handler"]
        if h not in handlers:
            handlers.append(h)
        fam = "ScalarSemantic_" + f["semantic_family"]
        if fam not in families:
            families.append(fam)
    agu_keys = {"action": [], "address_kind": []}
    for f in forms:
        a = f.get("agu") or {}
        for k in agu_keys:
            if a.get(k) and "ScalarAGU_" + a[k] not in agu_keys[k]:
                agu_keys[k].append("ScalarAGU_" + a[k])
    out = [
        "// Generated by specgen from spec/catalog/scalar-forms.json. Do not edit.",
        f"constant PTO_SCALAR_FORM_COUNT = {n};",
        "type ScalarOperandField of enumeration {" + ", ".join(fields or ["ScalarField_None"]) + "};",
        "type ScalarSemanticHandler of enumeration {" + ", ".join(handlers) + "};",
        "type ScalarSemanticFamily of enumeration {" + ", ".join(families) + "};",
        "type ScalarOperation of enumeration {" + ", ".join(operation_member(f["mnemonic"]) for f in forms) + "};",
        "type ScalarAGUAction of enumeration {" + ", ".join(agu_keys["action"] or ["ScalarAGU_Load"]) + "};",
        "type ScalarAGUAddressKind of enumeration {"
        + ", ".join(agu_keys["address_kind"] or ["ScalarAGU_Immediate"]) + "};",
    ]

    # decoder: the spec's priority rule (most fixed bits first, ties by form_id,
    # first match wins), as a few ``case`` runs per length (see _decode_runs).
    out += ["pure func DecodeScalarForm(instruction: bits(48), length_bits: integer) => integer", "begin",
            "    case length_bits of"]
    for length in sorted({f["length_bits"] for f in forms}):
        out.append(f"        when {length} =>")
        for mask, arms in _decode_runs([(i, f) for i, f in enumerate(forms) if f["length_bits"] == length]):
            out.append(f"            case instruction[{length - 1}:0] AND {_bits(mask, length)} of")
            for match, i in arms:
                out.append(f"                when {_bits(match, length)} => return {i};")
            out.append("                otherwise => pass;")
            out.append("            end;")
        out.append("            return PTO_SCALAR_FORM_COUNT;")
    out += ["        otherwise => return PTO_SCALAR_FORM_COUNT;", "    end;", "end;"]

    def table(name: str, ret: str, values: list[str]) -> None:
        out.append(f"pure func {name}(form: integer) => {ret}")
        out.append("begin")
        out.append("    case form of")
        for i, v in enumerate(values):
            out.append(f"        when {i} => return {v};")
        out.append("    end;")
        out.append("end;")

    table("ScalarOperationOfForm", "ScalarOperation", [operation_member(f["mnemonic"]) for f in forms])
    table("ScalarHandlerOfForm", "ScalarSemanticHandler", ["ScalarHandler_" + f["semantic_handler"] for f in forms])
    table("ScalarFamilyOfForm", "ScalarSemanticFamily", ["ScalarSemantic_" + f["semantic_family"] for f in forms])

    def agu(key: str, conv, default: str) -> list[str]:
        return [conv(f["agu"][key]) if key in (f.get("agu") or {}) else default for f in forms]

    def boolean(v: object) -> str:
        return "TRUE" if v else "FALSE"

    first_action = (agu_keys["action"] or ["ScalarAGU_Load"])[0]
    first_kind = (agu_keys["address_kind"] or ["ScalarAGU_Immediate"])[0]
    table("ScalarAGUActionOfForm", "ScalarAGUAction", agu("action", lambda v: "ScalarAGU_" + v, first_action))
    table("ScalarAGUAddressKindOfForm", "ScalarAGUAddressKind",
          agu("address_kind", lambda v: "ScalarAGU_" + v, first_kind))
    table("ScalarAGUSizeOfForm", "integer", agu("size_bytes", str, "8"))
    table("ScalarAGUOffsetScaleOfForm", "integer", agu("offset_scale", str, "0"))
    table("ScalarAGUUpdateModeOfForm", "AddressUpdateMode",
          agu("update_mode", lambda v: "AddressUpdate_" + v, "AddressUpdate_None"))
    table("ScalarAGUSignedLoadOfForm", "boolean", agu("signed_load", boolean, "FALSE"))
    table("ScalarAGUPrefetchReturnsAddress", "boolean", agu("prefetch_returns_address", boolean, "FALSE"))

    def per_field(name: str, ret: str, value, default: str) -> None:
        out.extend([f"pure func {name}(form: integer, field: ScalarOperandField) => {ret}", "begin",
                    "    case form of"])
        for i, f in enumerate(forms):
            arms = [(fl, value(fl)) for fl in f.get("fields", [])]
            arms = [(fl, v) for fl, v in arms if v != default]
            if not arms:
                continue
            out.append(f"        when {i} =>")
            out.append("            case field of")
            for fl, v in arms:
                out.append(f"                when ScalarField_{_ident(fl['name'])} => return {v};")
            out.append(f"                otherwise => return {default};")
            out.append("            end;")
        out.extend([f"        otherwise => return {default};", "    end;", "end;"])

    per_field("ScalarOperandPresent", "boolean", lambda fl: "TRUE", "FALSE")
    per_field("ScalarOperandWidth", "integer", lambda fl: str(fl["width"]), "0")
    per_field("ScalarOperandSignedness", "ScalarFieldSignedness",
              lambda fl: "ScalarField_Signed" if fl.get("signedness") == "signed" else "ScalarField_Unsigned",
              "ScalarField_Unsigned")

    out += ["pure func DecodeScalarOperandRaw(instruction: bits(48), form: integer,",
            "    field: ScalarOperandField) => bits(48)", "begin", "    var raw = Zeros{48};", "    case form of"]
    for i, f in enumerate(forms):
        if not f.get("fields"):
            continue
        out.append(f"        when {i} =>")
        out.append("            case field of")
        for fl in f["fields"]:
            out.append(f"                when ScalarField_{_ident(fl['name'])} =>")
            out.extend("                    " + s for s in _field_raw(fl))
        out.append("                otherwise => pass;")
        out.append("            end;")
    out += ["        otherwise => pass;", "    end;", "    return raw;", "end;"]

    out += ["pure func ScalarFormOperandsLegal(instruction: bits(48), form: integer) => boolean", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        names = {fl["name"] for fl in f.get("fields", [])}
        conds = []
        for c in f.get("constraints", []):
            if c.get("field") not in names:
                continue
            v = f"UInt(DecodeScalarOperandRaw(instruction, form, ScalarField_{_ident(c['field'])}))"
            op = c.get("operator")
            if op == "one-of":
                conds.append("(" + " || ".join(f"{v} == {x}" for x in c.get("values", [])) + ")")
            elif op == "not-equal":
                conds.append(f"{v} != {c['value']}")
            elif op == "equal":
                conds.append(f"{v} == {c['value']}")
        if conds:
            out.append(f"        when {i} => return {' && '.join(conds)};")
    out += ["        otherwise => return TRUE;", "    end;", "end;"]

    out += ["readonly func ScalarRegisterOperandsLegal(instruction: bits(48), form: integer) => boolean", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        conds = []
        for fl in f.get("fields", []):
            sel = f"ScalarDecodedSelector(instruction, form, ScalarField_{_ident(fl['name'])})"
            if fl.get("width") == 5 and _REG_SOURCE.match(fl["name"]):
                conds.append(f"ScalarSourceSelectorLegal({sel})")
            elif fl.get("width") == 5 and _REG_DEST.match(fl["name"]):
                conds.append(f"ScalarDestinationSelectorLegal({sel})")
        if conds:
            out.append(f"        when {i} => return {' && '.join(conds)};")
    out += ["        otherwise => return TRUE;", "    end;", "end;"]
    return "\n".join(out) + "\n"
