"""The changes summary of a multi-release site, and each instruction page's "Changes since" section.

Only a site built from several releases has them (the build hands a
:class:`~specgen.diff.SpecDiff` over). Pages are split by design: the summary
(one per language) holds counts and one short row per added, removed or changed
instruction, never a diff; an instruction's diffs (its ASL body and records,
collapsed and coloured) are on its own page, each diff cut at
:data:`MAX_DIFF_LINES` lines, so no page grows with the size of a release.
Both read the one diff, so they can never disagree.
"""

from __future__ import annotations

from typing import Any

from ...diff import BODY, RECORDS, InstructionChange, Listed
from ..html import highlight_diff
from ..links import unit_uri
from ..pages import Ctx, PageKind, PagePlan
from ..plan import ALL, Planning, tail

ASPECT_KEYS = {"encoding": "encoding", "operands": "operands", "block composition": "block",
               "DataTypes (ASL)": "datatypes_asl", "DataTypes (prose)": "datatypes_prose",
               "NDF clauses": "clauses", "tests": "tests", BODY: "body", RECORDS: "records"}
MAX_DIFF_LINES = 1500  # of one diff on an instruction page (a 1 MiB unit rewritten would be megabytes)
URI = "changes.md"  # below each language directory


def changes_uri(lang: str) -> str:
    return f"{lang}/{URI}"


def aspect_label(cx: Ctx, aspect: str) -> tuple[str, str]:
    key = ASPECT_KEYS.get(aspect, "other")
    return key, cx.t("changes.aspect." + key)


def _diffs(cx: Ctx, change: InstructionChange) -> list[dict[str, Any]]:
    out = []
    for i, (label, diff) in enumerate(([(BODY, change.asl_diff)] if change.asl_diff else [])
                                      + list(change.record_diffs)):
        html, cut = highlight_diff(diff, MAX_DIFF_LINES)
        removed = sum(1 for x in diff.splitlines() if x.startswith("-") and not x.startswith("---"))
        added = sum(1 for x in diff.splitlines() if x.startswith("+") and not x.startswith("+++"))
        anchor = "diff-body" if label == BODY else ("diff-records" if i == (1 if change.asl_diff else 0)
                                                    else f"diff-records-{i}")
        out.append({"id": anchor, "label": label if label != BODY else cx.t("changes.aspect.body"), "html": html,
                    "lines": cx.t("changes.diff_lines", removed=removed, added=added),
                    "cut": cx.t("changes.diff_cut", count=cut) if cut else ""})
    return out


def instruction_changes(cx: Ctx, mnemonic: str) -> dict[str, Any] | None:
    """The "Changes since" section of an instruction page; None on a single-release site (no section)."""
    d = cx.data.changes
    if d is None:
        return None
    change = d.change(mnemonic)
    aspects = []
    for a in change.aspects if change is not None else ():
        key, label = aspect_label(cx, a.aspect)
        lines = a.aspect not in (BODY, RECORDS)
        aspects.append({"key": key, "label": label, "removed": list(a.removed) if lines else [],
                        "added": list(a.added) if lines else [],
                        "diff": "" if lines else ("#diff-body" if a.aspect == BODY else "#diff-records")})
    not_compared = [aspect_label(cx, k)[1] for k in change.not_compared] if change is not None else []
    return {"previous": d.old, "aspects": aspects, "new": mnemonic in d.added,
            "diffs": _diffs(cx, change) if change is not None else [],
            "not_compared": cx.t("changes.not_compared_here", aspects=cx.t("prose.list_sep").join(not_compared))
            if not_compared else "",
            "href": cx.link(changes_uri(cx.plan.lang), "change-" + mnemonic)}


def _row(cx: Ctx, kind: str, where: Listed, aspects: list[str], href: str | None, title: str = "") -> dict[str, Any]:
    labels = [aspect_label(cx, a) for a in aspects]
    return {"mnemonic": where.mnemonic, "surface": where.surface, "surface_name": cx.t("surface." + where.surface),
            "classification": " / ".join(where.classification), "kind": kind,
            "kind_label": cx.t("changes.kind." + kind), "aspects": labels,
            "aspect_keys": " ".join(k for k, _ in labels), "href": href, "title": title,
            "text": where.mnemonic.lower()}


def changes_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    d = cx.data.changes
    assert d is not None, "planned only for a multi-release build"
    t, lang = cx.t, plan.lang
    ctx = cx.base()
    rows = []
    for mn in d.added:
        rows.append(_row(cx, "added", d.listed[mn], [], cx.unit_href(d.listed[mn].path)))
    for mn in d.removed:
        rows.append(_row(cx, "removed", d.listed[mn], [], cx.release_link(d.old, unit_uri(lang, d.listed[mn].path)),
                         t("changes.removed_in", previous=d.old)))
    for c in d.changed:
        assert c.listed is not None
        rows.append(_row(cx, "changed", c.listed, [a.aspect for a in c.aspects], cx.unit_href(c.listed.path, "changes")))
    rows.sort(key=lambda r: (r["mnemonic"], r["kind"]))
    surfaces = sorted({r["surface"] for r in rows} | {u.instruction.surface for u in cx.graph.spec.units
                                                     if u.instruction is not None})
    unchanged = {s: 0 for s in surfaces}
    for u in cx.graph.spec.units:
        ins = u.instruction
        if ins is not None and ins.mnemonic not in d.added and d.change(ins.mnemonic) is None:
            unchanged[ins.surface] += 1
    by_surface = [{"key": s, "name": t("surface." + s),
                   **{k: sum(1 for r in rows if r["surface"] == s and r["kind"] == k)
                      for k in ("added", "removed", "changed")}, "unchanged": unchanged[s]} for s in surfaces]
    by_aspect = [(k, label, sum(1 for c in d.changed if c.aspect(a) is not None))
                 for a, (k, label) in ((a, aspect_label(cx, a)) for a in ASPECT_KEYS)]
    not_compared = [t("changes.not_compared_item", aspect=aspect_label(cx, k)[1], count=n)
                    for k, n in sorted(d.not_compared.items())]
    ctx.update({
        "title": t("changes.title", previous=d.old), "crumbs": cx.crumbs(None), "previous": d.old, "rows": rows,
        "by_surface": by_surface, "by_aspect": [x for x in by_aspect if x[2]],
        "totals": {k: sum(x[k] for x in by_surface) for k in ("added", "removed", "changed", "unchanged")},
        "not_compared": t("changes.not_compared", aspects=t("prose.list_sep").join(not_compared))
        if not_compared else "",
        "filters": [("surface", t("label.surface"), [(s["key"], s["name"]) for s in by_surface]),
                    ("kind", t("changes.filter_change"), [(k, t("changes.kind." + k))
                                                          for k in ("added", "removed", "changed")]),
                    ("aspect", t("changes.filter_aspect"), [(k, label) for k, label, _ in by_aspect if _])],
    })
    return ctx


def plan_changes(p: Planning, lang: str) -> list[PagePlan]:
    """Only a multi-release site has it."""
    return [PagePlan(changes_uri(lang), KIND, lang, None, frozenset({ALL}), "")] if p.changes else []


KIND = PageKind("changes", "changes.html", changes_context, plan_changes, nav=tail(6))
