"""The instruction index (kind ``instruction-index``): every instruction of the release on one page.

One row per instruction with its summary, surface, engine, classification and
encoding, in a plain table: complete and readable without JavaScript; the
page script adds filters and sortable columns. Everything shown is read from
the instruction records and the encodings the check builds, never typed in.
"""

from __future__ import annotations

from typing import Any

from ..pages import Ctx, PageKind, PagePlan
from ..plan import RECORD_OF, Planning, tail

URI = "instructions/index.md"  # below each language directory


def instruction_index_uri(lang: str) -> str:
    return f"{lang}/{URI}"


def _encoding(cx: Ctx, mnemonic: str, encoding_class: str) -> tuple[str, str]:
    """(encoding class, word widths of its forms): what a reader scans for in a list."""
    widths = sorted({e.width for e in cx.data.encodings.by_mnemonic(mnemonic)})
    return encoding_class, " / ".join(cx.t("index.bits", width=w) for w in widths)


def instruction_index_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    t = cx.t
    rows = []
    for u in cx.graph.spec.units:
        ins = u.instruction
        if ins is None:
            continue
        enc_class, widths = _encoding(cx, ins.mnemonic, ins.contract.encoding_class if ins.contract else "")
        rows.append({"mnemonic": ins.mnemonic, "href": cx.unit_href(u.path), "summary": ins.summary,
                     "surface": ins.surface, "surface_name": t("surface." + ins.surface),
                     "engine": ins.engine or "", "classification": list(ins.classification),
                     "class_key": ins.classification[0], "encoding_class": enc_class, "widths": widths})
    rows.sort(key=lambda r: (r["mnemonic"], r["surface"]))

    def options(key: str) -> list[tuple[str, str]]:
        vals = sorted({r[key] for r in rows if r[key]})
        return [(v, t("surface." + v) if key == "surface" else v) for v in vals]

    ctx.update({"title": t("index.title"), "crumbs": cx.crumbs(None), "rows": rows,
                "filters": [(k, t(label), options(k)) for k, label in
                            (("surface", "label.surface"), ("engine", "label.engine"),
                             ("class_key", "label.classification"), ("encoding_class", "index.encoding_class"))
                            if options(k)]})
    return ctx


def plan_instruction_index(p: Planning, lang: str) -> list[PagePlan]:
    """Only a tree with instructions has one; it shows their records."""
    if not p.instruction_paths:
        return []
    # a row shows the instruction's record and its encodings (the records and the catalogs), not its prose or ASL
    deps = frozenset(RECORD_OF + path for path in p.instruction_paths) | p.common
    return [PagePlan(instruction_index_uri(lang), KIND, lang, None, deps, "")]


KIND = PageKind("instruction-index", "instruction_index.html", instruction_index_context, plan_instruction_index,
                nav=tail(1))
