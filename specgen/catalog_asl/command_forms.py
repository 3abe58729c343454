"""Generate the command-form decoder from ``spec/catalog/command-forms.json``.

The block model calls a decoder the upstream build generates
(``DecodeCommandForm``, ``CommandHandlerOfForm``, ``DecodeCommandOperandRaw``
…); the tree only uses it. This module writes our own ASL for it from the
catalog's forms (mask/match, fields with their pieces, constraints): the form
index is the position in ``forms``, the unmatched value is
``PTO_COMMAND_FORM_COUNT``. When several forms match, the one with the most
fixed mask bits wins (the catalog's ``reviewed_encoding_overlaps`` are
narrower forms nested in wider ones, e.g. B.IOT with and without operands).

The bundle-start projections (kind, operation class, transfer) are not in the
catalog as data; they are derived from the mnemonic (``BSTART.<KIND>``) and
the asm text, and documented as our reading in docs-internal.
"""

from __future__ import annotations

import re

_SIGNED = "ScalarField_Signed"
_UNSIGNED = "ScalarField_Unsigned"


def _ident(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _lit(hexv: str, width: int) -> str:
    return "'" + format(int(hexv, 16), f"0{width}b") + "'"


def _popcount(v: int) -> int:
    return bin(v).count("1")


# The bundle projections are not catalog data: the upstream build reads them
# off the mnemonic and the asm text, by substring, in this order (first hit
# wins). We keep the same rule, as data, so a decoded form carries the kind,
# class and transfer the spec's own build gives it (``B.FPATR`` is Floating
# because its mnemonic contains ``.FP``; ``FRET.*`` returns because its asm
# contains ``RET``).
_KIND_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    ((".MPAR",), "MachineParallel"),
    ((".MSEQ",), "MachineSequential"),
    ((".FP",), "Floating"),
    ((".SYS",), "System"),
    ((".MGATHER", ".MSCATTER", ".TLOAD", ".TSTORE", ".TPREFETCH"), "TileMemory"),
    ((".CUBE", ".TGEMV", ".TMATMUL"), "TileMatrix"),
    ((".TEPL", ".FIXP", ".TMOV"), "TileElement"),
)
_CLASS_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    ((".MPAR", ".MSEQ"), "Machine"),
    ((".TEPL",), "TileElement"),
    ((".FIXP",), "FixedPoint"),
    ((".MGATHER", ".MSCATTER", ".TLOAD", ".TSTORE", ".TMOV", ".GMOV", ".TPREFETCH"), "TileMemory"),
    ((".CUBE", ".TGEMV", ".TMATMUL"), "TileMatrix"),
)
_TRANSFER_RULES: tuple[tuple[str, str], ...] = (
    ("{DIRECT, CALL}", "Direct"), ("ICALL", "IndirectCall"), ("CALL", "Call"), ("RET", "Return"),
    ("COND", "Conditional"), ("IND", "Indirect"), ("DIRECT", "Direct"),
)


def _first_rule(text: str, rules: tuple[tuple[tuple[str, ...], str], ...]) -> str | None:
    return next((value for tokens, value in rules if any(t in text for t in tokens)), None)


def _kind(form: dict) -> str:
    mn = form.get("mnemonic", "")
    hit = _first_rule(mn, _KIND_RULES)
    return "BundleKind_" + (hit or ("FrameTemplate" if mn.startswith("F") else "Standard"))


def _class(form: dict) -> str:
    if form.get("semantic_handler") != "ExecuteBundleStart":
        return "BundleOperation_Control"
    return "BundleOperation_" + (_first_rule(form.get("mnemonic", ""), _CLASS_RULES) or "Control")


def _transfer(form: dict) -> str:
    asm = form.get("asm", "")
    return "BundleTransfer_" + next((v for t, v in _TRANSFER_RULES if t in asm), "Fallthrough")


def tile_selectors(tile_catalog: dict | None) -> dict[str, list[int]]:
    """``command_mnemonic`` -> the ``function`` of every tile-operation record it starts.

    A command form selects a tile operation when its mnemonic is the
    ``command_mnemonic`` of a record; with exactly one record the selector is
    that record's constant, with several (BSTART.TEPL) it is read from the
    form's Mode/Function fields."""
    out: dict[str, list[int]] = {}
    for o in (tile_catalog or {}).get("operations", []):
        mn, fn = o.get("command_mnemonic"), o.get("selector", o.get("function"))
        if isinstance(fn, str):
            fn = int(fn, 0)
        if isinstance(mn, str) and isinstance(fn, int):
            out.setdefault(mn, []).append(fn)
    return out


def _encoding_test(length: int | None, encoding: list[dict]) -> str:
    conds = [] if length is None else [f"length_bits == {length}"]
    for e in encoding:
        w = e["width_bits"]
        mask = int(e["mask"], 16) if isinstance(e.get("mask"), str) else (1 << w) - 1
        conds.append(f"(instruction[{e.get('index', 0) * 32} +: {w}] AND {_lit(hex(mask), w)}) == {_lit(e['match'], w)}")
    return "(" + " && ".join(conds) + ")"


def _fixed_bits(form: dict) -> int:
    return sum(_popcount(int(e["mask"], 16)) if isinstance(e.get("mask"), str) else e["width_bits"]
               for e in form["encoding"])


def command_forms_asl(catalog: dict, selectors: dict[str, list[int]] | None = None,
                      extra_fields: frozenset[str] = frozenset()) -> str:
    """Generated ASL text for one ``command-forms.json`` document.

    ``selectors`` (from :func:`tile_selectors`) says which forms start a tile
    operation: a TLSU/CUBE form carries no Function field, its mnemonic is
    the ``command_mnemonic`` of exactly one tile-operation record, whose
    function is the form's constant selector."""
    selectors = selectors or {}
    constant = {mn: fns[0] for mn, fns in selectors.items() if len(fns) == 1}
    forms = catalog.get("forms") or []
    n = len(forms)
    fields: list[str] = []
    for f in forms:
        for fl in f.get("fields", []):
            nm = "CommandField_" + _ident(fl["name"])
            if nm not in fields:
                fields.append(nm)
    for nm in sorted(extra_fields):
        if nm not in fields:
            fields.append(nm)
    handlers: list[str] = []
    for f in forms:
        h = "CommandHandler_" + f["semantic_handler"]
        if h not in handlers:
            handlers.append(h)
    out = [
        "// Generated by specgen from spec/catalog/command-forms.json. Do not edit.",
        f"constant PTO_COMMAND_FORM_COUNT = {n};",
        "type CommandOperandField of enumeration {" + ", ".join(fields) + "};",
        "type CommandSemanticHandler of enumeration {" + ", ".join(handlers) + "};",
        "type ScalarFieldSignedness of enumeration {ScalarField_Unsigned, ScalarField_Signed};",
        "type CommandOperation of enumeration {"
        + ", ".join("CommandOperation_" + _ident(f["form_id"]) for f in forms) + "};",
    ]
    # decoder: the spec's priority rule: most fixed bits of the primary
    # encoding first, ties by form_id; a form matches through its primary
    # encoding or any of its encoding_variants.
    order = sorted(range(n), key=lambda i: (-_fixed_bits(forms[i]), forms[i]["form_id"]))
    out += ["pure func DecodeCommandForm(instruction: bits(64), length_bits: integer) => integer", "begin"]
    for i in order:
        f = forms[i]
        alts = [f["encoding"]] + [v["encoding"] for v in f.get("encoding_variants") or []]
        out.append(f"    if {' || '.join(_encoding_test(f['length_bits'], e) for e in alts)} then return {i}; end;")
    out += ["    return PTO_COMMAND_FORM_COUNT;", "end;"]

    def table(name: str, params: str, ret: str, values: list[str], default: str | None = None) -> None:
        out.append(f"pure func {name}({params}) => {ret}")
        out.append("begin")
        out.append("    case form of")
        for i, v in enumerate(values):
            out.append(f"        when {i} => return {v};")
        if default is not None:
            out.append(f"        otherwise => return {default};")
        out.append("    end;")
        out.append("end;")

    fp = "form: integer"
    table("CommandHandlerOfForm", fp, "CommandSemanticHandler", ["CommandHandler_" + f["semantic_handler"] for f in forms])
    table("CommandOperationOfForm", fp, "CommandOperation", ["CommandOperation_" + _ident(f["form_id"]) for f in forms])
    table("CommandBundleKindOfForm", fp, "BundleKind", [_kind(f) for f in forms])
    table("CommandBundleOperationClassOfForm", fp, "BundleOperationClass", [_class(f) for f in forms])
    table("CommandBundleTransferOfForm", fp, "BundleTransfer", [_transfer(f) for f in forms])

    def has(f: dict, name: str) -> bool:
        return any(fl["name"] == name for fl in f.get("fields", []))

    table("CommandFormSelectsTileOperation", fp, "boolean",
          ["TRUE" if f.get("mnemonic") in selectors else "FALSE" for f in forms])
    table("CommandBundleSelectorUsesEncodingVariant", fp, "boolean",
          ["TRUE" if f.get("encoding_variants") else "FALSE" for f in forms])
    table("CommandBundleSelectorConstantPresent", fp, "boolean",
          ["TRUE" if (f.get("encoding_variants") or f.get("mnemonic") in constant) else "FALSE" for f in forms])
    signed_off = []
    for f in forms:
        s = [fl for fl in f.get("fields", []) if fl.get("signedness") == "signed" and fl["name"].startswith("simm")]
        signed_off.append(s[0]["name"] if s else None)
    table("CommandHasSignedOffset", fp, "boolean", ["TRUE" if s else "FALSE" for s in signed_off])

    # per-field properties
    out += ["pure func CommandOperandPresent(form: integer, field: CommandOperandField) => boolean", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        c = " || ".join(f"field == CommandField_{_ident(fl['name'])}" for fl in f.get("fields", [])) or "FALSE"
        out.append(f"        when {i} => return {c};")
    out += ["        otherwise => return FALSE;", "    end;", "end;"]

    out += ["pure func CommandOperandWidth(form: integer, field: CommandOperandField) => integer", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        out.append(f"        when {i} =>")
        for fl in f.get("fields", []):
            out.append(f"            if field == CommandField_{_ident(fl['name'])} then return {fl['width']}; end;")
        out.append("            return 0;")
    out += ["        otherwise => return 0;", "    end;", "end;"]

    out += ["pure func CommandOperandSignedness(form: integer, field: CommandOperandField) => ScalarFieldSignedness",
            "begin", "    case form of"]
    for i, f in enumerate(forms):
        out.append(f"        when {i} =>")
        for fl in f.get("fields", []):
            if fl.get("signedness") == "signed":
                out.append(f"            if field == CommandField_{_ident(fl['name'])} then return {_SIGNED}; end;")
        out.append(f"            return {_UNSIGNED};")
    out += [f"        otherwise => return {_UNSIGNED};", "    end;", "end;"]

    out += ["pure func DecodeCommandOperandRaw(instruction: bits(64), form: integer,",
            "    field: CommandOperandField) => bits(64)", "begin", "    var raw = Zeros{64};", "    case form of"]
    for i, f in enumerate(forms):
        out.append(f"        when {i} =>")
        for fl in f.get("fields", []):
            out.append(f"            if field == CommandField_{_ident(fl['name'])} then")
            for p in fl["pieces"]:
                w, il, vl = p["width"], p["instruction_lsb"], p["value_lsb"]
                out.append(f"                raw[{vl + w - 1}:{vl}] = instruction[{il + w - 1}:{il}];")
            out.append("            end;")
        out.append("            pass;")
    out += ["        otherwise => pass;", "    end;", "    return raw;", "end;"]

    # operand legality from constraints
    out += ["pure func CommandFormOperandsLegal(instruction: bits(64), form: integer) => boolean", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        conds = []
        for c in f.get("constraints", []):
            v = f"UInt(DecodeCommandOperandRaw(instruction, form, CommandField_{_ident(c['field'])}))"
            if not any(fl["name"] == c["field"] for fl in f.get("fields", [])):
                continue
            if c.get("operator") == "one-of":
                conds.append("(" + " || ".join(f"{v} == {x}" for x in c["values"]) + ")")
            elif c.get("operator") == "not-equal":
                conds.append(f"{v} != {c['value']}")
            elif c.get("operator") == "equal":
                conds.append(f"{v} == {c['value']}")
        out.append(f"        when {i} => return {' && '.join(conds) or 'TRUE'};")
    out += ["        otherwise => return FALSE;", "    end;", "end;"]

    # selector / tile code / data type / signed offset
    out += ["pure func CommandTileCodeOfForm(instruction: bits(64), form: integer) => bits(12)", "begin",
            "    case form of"]
    for i, f in enumerate(forms):
        if f.get("mnemonic") in constant:
            out.append(f"        when {i} => return Zeros{{12}} + {constant[f['mnemonic']]};")
    out += ["        otherwise =>",
            "            var code = Zeros{12};",
            "            code[6:5] = DecodeCommandOperandRaw(instruction, form, CommandField_Mode)[1:0];",
            "            code[4:0] = DecodeCommandOperandRaw(instruction, form, CommandField_Function)[4:0];",
            "            return code;", "    end;", "end;",
            "pure func CommandTileDataTypeOfForm(instruction: bits(64), form: integer) => bits(5)", "begin",
            "    return DecodeCommandOperandRaw(instruction, form, CommandField_DataType)[4:0];", "end;"]
    out += ["pure func CommandBundleSelectorConstantOfForm(instruction: bits(64), form: integer) => bits(10)",
            "begin", "    case form of"]
    for i, f in enumerate(forms):
        vs = f.get("encoding_variants") or []
        base = constant.get(f.get("mnemonic"), 0)
        if not vs and f.get("mnemonic") not in constant:
            continue
        out.append(f"        when {i} =>")
        for v in vs:
            test = _encoding_test(None, v["encoding"])
            out.append(f"            if {test} then return Zeros{{10}} + {v['function']}; end;")
        out.append(f"            return Zeros{{10}} + {base};")
    out += ["        otherwise => return Zeros{10};", "    end;", "end;"]
    out += ["pure func CommandSignedOffsetOfForm(instruction: bits(64), form: integer) => bits(64)", "begin",
            "    case form of"]
    for i, s in enumerate(signed_off):
        if s:
            w = next(fl["width"] for fl in forms[i]["fields"] if fl["name"] == s)
            out.append(f"        when {i} => return SignExtend{{64}}(DecodeCommandOperandRaw(instruction, form, "
                       f"CommandField_{_ident(s)})[{w - 1}:0]);")
    out += ["        otherwise => return Zeros{64};", "    end;", "end;"]
    return "\n".join(out) + "\n"
