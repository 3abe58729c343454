"""The page of an instruction: its signature, encodings, field values, related instructions, contract, examples.

Its cache key also carries the digest of the examples this build ran for the
mnemonic: they depend on the whole ASL (the interpreter runs it), not on the
page's own files.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup

from ...encoding.model import Encoding, binary_literal, ones
from ...encoding.present import bit_pattern, mask_hex, match_hex, opcode_map
from ...encoding.svg import ENGLISH as SVG_WORDS, svg as encoding_svg
from ...encoding.wavejson import wavejson_text
from ...examples.results import ExampleResult
from ...graph import SpecGraph
from ...models.instruction import InstructionHeader
from ...models.located import AslUnit
from ...vocabulary import VOCABULARY
from ..blocks import parse_composition, signature
from ..conformance import page_key, unit_tests
from ..examples import instruction_examples, results_digest, worked_digest, worked_view
from ..i18n import Messages
from ..instr_facts import columns, grid_width, domain_tables, instruction_path, neighbours_digest, related
from ..instr_prose import contract_topics, declared_words, sentence
from ..links import unit_uri
from ..pages import Ctx, PageKind, PagePlan
from ..plan import TREE, Planning, Search
from .changes import instruction_changes
from .unit import unit_common


def instruction_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    unit = cx.graph.units_by_path[plan.subject]
    ins = unit.instruction
    assert ins is not None
    t = cx.t
    ctx = unit_common(cx, unit)
    c = ins.contract if ins.contract is not None else _no_contract(ins)
    comp = parse_composition(list(c.block_composition))
    ops = [(o.field, o.role) for o in c.operands]
    sig = signature(ins.mnemonic, ins.surface, comp, ops)
    operands = [{"group": t("group." + o.group), "group_key": o.group, "name": o.name,
                 "meaning": o.meaning if o.meaning is not None else t(o.meaning_key or "meaning.param"),
                 "spec_text": o.meaning is not None, "source": o.source} for o in sig.operands]
    encs: list[Encoding] = cx.data.encodings.by_mnemonic(ins.mnemonic)
    domains = domain_tables(cx.graph, encs, list(c.legality))
    with_values = {d.field for d in domains}
    fields: list[dict[str, Any]] = []
    seen: set[str] = set()
    roles = {o.field: o.role for o in c.operands}
    for enc in encs:
        for f in enc.fields:
            if f.name in seen:
                continue
            seen.add(f.name)
            fields.append({"name": f.name, "width": f.width, "signedness": _signedness(t, f.signedness),
                           "role": f.role or roles.get(f.name, ""),
                           "zero": c.field_zero_meanings.get(f.name) or f.zero_meaning or "",
                           "fixed": f.fixed_value, "has_values": f.name in with_values})
    for o in c.operands:
        if o.field not in seen:
            seen.add(o.field)
            fields.append({"name": o.field, "width": None, "signedness": "", "role": o.role,
                           "zero": c.field_zero_meanings.get(o.field, ""), "fixed": None, "has_values": False})
    maps: dict[str, Any] = {}
    encodings = [_encoding(cx, enc, ins.mnemonic, maps) for enc in encs]
    examples = instruction_examples(cx.data.examples.get(ins.mnemonic, []), ins.id, list(c.examples), cx.src)
    tile_rec = next((r for r in ins.catalog_records if hasattr(r, "family")), None)
    lead, topics = contract_topics(t, ins, c, sig, tile_rec, VOCABULARY(cx.graph))
    ctx.update({
        "ins": ins, "summary": ins.summary, "signature": sig.text(), "operands": operands,
        "composition": comp, "composition_structured": comp.structured, "minimal": comp.minimal,
        "fields": fields, "encodings": encodings, "encoding_class": c.encoding_class,
        "domains": [{"table": d, "grid": columns(d.rows, grid_width(d.rows))} for d in domains],
        "canonical_assembly": list(c.canonical_assembly), "related": _related(cx, unit),
        "lead": lead, "topics": topics,
        "does": " ".join(f"{w}:{n}" for w, n in declared_words(t, ins, ins.catalog_records) if " " not in w and ":" not in w),
        "pattern_help": sentence(t, "instr.pattern_help", rule="word & mask = match", q="?", sep="_", casez="casez"),
        "opcode_legend": sentence(t, "instr.opcode_legend", mode="Mode", function="Function"),
        "examples": examples, "changes": instruction_changes(cx, ins.mnemonic),
        "worked": worked_view(cx.graph, ins.mnemonic, cx.src),
    })
    for r in ctx["records"]:
        r["lines"] = r["json"].count("\n") + 1
    return ctx


_SIGNEDNESS = ("encoding-defined", "signed", "unsigned")


def _signedness(t: Messages, value: str | None) -> str:
    """The catalog's signedness word in the page's language (an unknown word as the spec writes it)."""
    return t("instr.signedness." + value) if value in _SIGNEDNESS else (value or "")


def _encoding(cx: Ctx, enc: Encoding, mnemonic: str, maps: dict[str, Any]) -> dict[str, Any]:
    t = cx.t
    svg_text = encoding_svg(enc, {k: t("svg." + k) for k in SVG_WORDS})
    if svg_text.startswith("<?xml"):
        svg_text = svg_text.split("?>", 1)[1]
    items = []
    for i in enc.items():
        lsb = int(i.bits.split(":")[-1])
        width = int(i.bits.split(":")[0]) - lsb + 1
        if i.value == "variable":
            pinned = i.fixed_value is not None
            value = binary_literal((enc.opcode_match >> lsb) & ones(width), width) if pinned else t("label.variable")
            items.append({"name": i.name, "bits": i.bits, "value": value,
                          "note": t("instr.pinned", value=i.fixed_value, mnemonic=mnemonic) if pinned else ""})
        elif i.name == "Constant":
            items.append({"name": t("instr.item.constant"), "bits": i.bits, "value": i.value, "note": ""})
        else:
            items.append({"name": t("instr.item.dont_care"), "bits": i.bits,
                          "value": t("instr.value.unspecified"), "note": ""})
    carrier_id = enc.carrier.form_id
    if carrier_id not in maps:
        maps[carrier_id] = _opcode_map(cx, carrier_id, mnemonic)
    carrier_path = instruction_path(cx.graph, enc.carrier.mnemonic)
    return {
        "form_id": enc.form_id, "variant": enc.variant, "width": enc.width, "assembly": enc.assembly,
        "mask": mask_hex(enc), "match": match_hex(enc), "pattern": bit_pattern(enc), "decoded": items,
        "svg": Markup(svg_text.strip()), "wavejson": json_pretty_compactless(wavejson_text(enc)),
        "carrier": enc.carrier.asm, "carrier_id": carrier_id,
        "carrier_href": cx.unit_href(carrier_path) if carrier_path and enc.carrier.mnemonic != mnemonic else None,
        "catalog": enc.source.path, "catalog_line": enc.source.line,
        "catalog_src": cx.src(enc.source.path, enc.source.line, enc.source.line),
        "constraints": [k.describe() for k in enc.constraints], "opcode_map": maps[carrier_id],
    }


def _opcode_map(cx: Ctx, carrier_id: str, mnemonic: str) -> dict[str, Any] | None:
    om = opcode_map(cx.data.encodings, carrier_id)
    if om is None or om.assigned < 2:
        return None
    rows = []
    for fn in range(1 << om.function_bits):
        cells = []
        for mode in om.modes:
            cell = om.cells[om.modes.index(mode) * (1 << om.function_bits) + fn]
            cells.append([{"mnemonic": m, "self": m == mnemonic,
                           "href": cx.unit_href(p) if (p := instruction_path(cx.graph, m)) else None}
                          for m in cell.mnemonics])
        rows.append({"function": fn, "cells": cells})
    return {"carrier": om.carrier, "modes": om.modes, "rows": rows, "assigned": om.assigned}


def _related(cx: Ctx, unit: AslUnit) -> list[dict[str, Any]]:
    rel = related(cx.graph, unit)
    ins = unit.instruction
    assert ins is not None

    def links(names: tuple[str, ...]) -> list[tuple[str, str | None]]:
        return [(m, cx.unit_href(p) if (p := instruction_path(cx.graph, m)) else None) for m in names]

    groups = [("same-class", cx.t("instr.related.same_class", classification=" / ".join(ins.classification)),
               rel.same_class),
              ("same-operation", cx.t("instr.related.same_operation", constants=", ".join(rel.constants)),
               rel.same_operation),
              ("named", cx.t("instr.related.named"), rel.named)]
    return [{"id": gid, "label": label, "entries": links(names)} for gid, label, names in groups if names]


def _no_contract(ins: InstructionHeader) -> SimpleNamespace:
    """What a record of an older generation without a contract shows: its own block lines and assembly,
    every contract list empty (the page says "none" for each, the record itself is on the page)."""
    return SimpleNamespace(block_composition=list(ins.block), operands=[], field_zero_meanings={},
                           encoding_class="", standalone_opcode=False, canonical_assembly=list(ins.assembly),
                           examples=[], defaults=[], legality=[], state_effects=[], memory_effects=[],
                           ordering=[], exceptions=[])


def json_pretty_compactless(compact: str) -> str:
    return json.dumps(json.loads(compact), indent=2, ensure_ascii=False)


def examples_key(graph: SpecGraph, plan: PagePlan, results: dict[str, list[ExampleResult]]) -> str:
    """The digest of what this build's examples showed for the page's mnemonic, and of its neighbours.

    The page also shows facts of other records (related instructions, the
    carrier's opcode map, field value tables): :func:`neighbours_digest`.
    """
    ins = graph.units_by_path[plan.subject].instruction
    if ins is None:
        return ""
    unit = graph.units_by_path[plan.subject]
    return (results_digest(results.get(ins.mnemonic, [])) + ":" + neighbours_digest(graph)
            + ":" + worked_digest(graph, ins.mnemonic)
            + ":" + page_key(graph, unit_tests(graph, unit), unit.path))


def plan_instructions(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(unit_uri(lang, u.path), KIND, lang, u.path, p.unit_deps(u), u.instruction.mnemonic)
            for u in p.graph.spec.units if u.instruction is not None]


KIND = PageKind("instruction", "instruction.html", instruction_context, plan_instructions, nav=TREE,
                search=Search.ONE_ENTRY, key=examples_key)
