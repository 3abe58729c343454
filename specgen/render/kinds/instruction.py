"""The page of an instruction: its signature, encodings, prose, examples and contract lists.

Its cache key also carries the digest of the examples this build ran for the
mnemonic: they depend on the whole ASL (the interpreter runs it), not on the
page's own files.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup

from ...encoding.model import Encoding
from ...encoding.svg import svg as encoding_svg
from ...encoding.wavejson import wavejson_text
from ...examples.results import ExampleResult
from ...graph import SpecGraph
from ..blocks import parse_composition, signature
from ..examples import instruction_examples, results_digest, worked_digest, worked_view
from ..pages import Ctx, PageKind, PagePlan
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
                 "source": o.source} for o in sig.operands]
    encs: list[Encoding] = cx.data.encodings.by_mnemonic(ins.mnemonic)
    fields: list[dict[str, Any]] = []
    seen: set[str] = set()
    roles = {o.field: o.role for o in c.operands}
    for enc in encs:
        for f in enc.fields:
            if f.name in seen:
                continue
            seen.add(f.name)
            fields.append({"name": f.name, "width": f.width, "signedness": f.signedness or "",
                           "role": f.role or roles.get(f.name, ""),
                           "zero": c.field_zero_meanings.get(f.name) or f.zero_meaning or "",
                           "fixed": f.fixed_value})
    for o in c.operands:
        if o.field not in seen:
            seen.add(o.field)
            fields.append({"name": o.field, "width": None, "signedness": "", "role": o.role,
                           "zero": c.field_zero_meanings.get(o.field, ""), "fixed": None})
    encodings = []
    for enc in encs:
        svg_text = encoding_svg(enc)
        if svg_text.startswith("<?xml"):
            svg_text = svg_text.split("?>", 1)[1]
        encodings.append({
            "form_id": enc.form_id, "variant": enc.variant, "width": enc.width, "assembly": enc.assembly,
            "decoded": [{"name": i.name, "bits": i.bits,
                       "value": t("label.variable") if i.value == "variable" else i.value,
                       "fixed": i.fixed_value if i.value == "variable" else None} for i in enc.items()],
            "svg": Markup(svg_text.strip()), "wavejson": json_pretty_compactless(wavejson_text(enc)),
            "wavejson_compact": wavejson_text(enc),
            "carrier": enc.carrier.asm, "carrier_id": enc.carrier.form_id,
            "catalog": enc.source.path, "catalog_line": enc.source.line,
            "catalog_src": cx.src(enc.source.path, enc.source.line, enc.source.line),
            "constraints": [k.describe() for k in enc.constraints],
        })
    examples = instruction_examples(cx.data.examples.get(ins.mnemonic, []), ins.id, list(c.examples), cx.src)
    prose = [t("prose.identity", mnemonic=ins.mnemonic, surface=ins.surface,
               classification=" / ".join(ins.classification), summary=ins.summary)]
    if ins.engine:
        prose.append(t("prose.engine", engine=ins.engine))
    tile_rec = next((r for r in ins.catalog_records if hasattr(r, "family")), None)
    if tile_rec is not None and getattr(tile_rec, "mode", None) is not None:
        prose.append(t("prose.selector", carrier=tile_rec.command_mnemonic, mode=tile_rec.mode,
                       function=tile_rec.function, selector=tile_rec.selector))
    elif tile_rec is not None:
        prose.append(t("prose.selector_nomode", carrier=tile_rec.command_mnemonic, function=tile_rec.function))
    elif c.standalone_opcode:
        prose.append(t("prose.standalone", encoding_class=c.encoding_class))
    else:
        prose.append(t("prose.encoding_other", encoding_class=c.encoding_class))
    if tile_rec is not None:
        prose.append(t("prose.handler", handler=tile_rec.semantic_handler, legality=tile_rec.legality_handler,
                       fault=tile_rec.fault_contract, restart=tile_rec.restart_contract))
    if c.operands:
        prose.append(t("prose.operands", operands=t("prose.list_sep").join(
            t("prose.operand_item", field=o.field, role=o.role) for o in c.operands)))
    prose.append(t("prose.preflight", count=len(c.legality)))
    prose.append(t("prose.snapshot", ordering=" ".join(c.ordering)))
    prose.append(t("prose.publication", count=len(c.state_effects), memory=t("prose.list_sep").join(c.memory_effects)))
    prose.append(t("prose.faults", count=len(c.exceptions)))
    prose.append(t("prose.defaults", count=len(c.defaults)))
    ctx.update({
        "ins": ins, "summary": ins.summary, "signature": sig.text(), "operands": operands,
        "composition": comp, "composition_structured": comp.structured, "minimal": comp.minimal,
        "fields": fields, "encodings": encodings, "encoding_class": c.encoding_class,
        "canonical_assembly": list(c.canonical_assembly),
        "prose": prose, "examples": examples, "changes": instruction_changes(cx, ins.mnemonic),
        "worked": worked_view(cx.graph, ins.mnemonic, cx.src),
        "contract_lists": [("defaults", t("label.defaults"), c.defaults),
                           ("legality", t("label.legality"), c.legality),
                           ("state-effects", t("label.state_effects"), c.state_effects),
                           ("memory-effects", t("label.memory_effects"), c.memory_effects),
                           ("ordering", t("label.ordering"), c.ordering),
                           ("exceptions", t("label.exceptions"), c.exceptions)],
    })
    return ctx


def _no_contract(ins: Any) -> SimpleNamespace:
    """What a record of an older generation without a contract shows: its own block lines and assembly,
    every contract list empty (the page says "none" for each, the record itself is on the page)."""
    return SimpleNamespace(block_composition=list(ins.block), operands=[], field_zero_meanings={},
                           encoding_class="", standalone_opcode=False, canonical_assembly=list(ins.assembly),
                           examples=[], defaults=[], legality=[], state_effects=[], memory_effects=[],
                           ordering=[], exceptions=[])


def json_pretty_compactless(compact: str) -> str:
    return json.dumps(json.loads(compact), indent=2, ensure_ascii=False)


def examples_key(graph: SpecGraph, plan: PagePlan, results: dict[str, list[ExampleResult]]) -> str:
    """The digest of what this build's examples showed for the page's mnemonic."""
    ins = graph.units_by_path[plan.subject].instruction
    if ins is None:
        return ""
    return results_digest(results.get(ins.mnemonic, [])) + worked_digest(graph, ins.mnemonic)


KIND = PageKind("instruction", "instruction.html", instruction_context, key=examples_key)
