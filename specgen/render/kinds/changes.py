"""The changes page of a multi-release site: every instruction the release adds, removes and changes.

Only a site built from several releases has it (:func:`specgen.render.pages.plan_site`
plans it when the build hands over a :class:`~specgen.diff.SpecDiff`); the same
per-instruction view is the "Changes since" section of each instruction page, so
the two can never disagree.
"""

from __future__ import annotations

from typing import Any

from ...diff import InstructionChange
from ..links import unit_uri
from ..pages import Ctx, PageKind, PagePlan
from ..plan import ALL, Planning, tail

ASPECT_KEYS = {"encoding": "encoding", "operands": "operands", "block composition": "block",
               "DataTypes (ASL)": "datatypes_asl", "DataTypes (prose)": "datatypes_prose",
               "NDF clauses": "clauses", "tests": "tests", "ASL body": "body"}


def change_view(cx: Ctx, change: InstructionChange | None, body: bool = True) -> dict[str, Any]:
    """One instruction's change as the templates lay it out (``aspects`` empty: unchanged).

    ``body``: the ASL body as its unified diff (the instruction page) or as line counts (the changes
    page, which would otherwise repeat every diff of the release in one page of megabytes).
    """
    d = cx.data.changes
    assert d is not None
    aspects = []
    for a in change.aspects if change is not None else ():
        aspects.append({"key": ASPECT_KEYS.get(a.aspect, "other"),
                        "label": cx.t("changes.aspect." + ASPECT_KEYS.get(a.aspect, "other")),
                        "removed": [] if a.aspect == "ASL body" and body else list(a.removed),
                        "added": [] if a.aspect == "ASL body" and body else list(a.added),
                        "diff": change.asl_diff if a.aspect == "ASL body" and body and change else ""})
    return {"previous": d.old, "aspects": aspects, "href": cx.link(f"{cx.plan.lang}/changes.md"), "new": False}


def instruction_changes(cx: Ctx, mnemonic: str) -> dict[str, Any] | None:
    """The "Changes since" section of an instruction page; None on a single-release site (no section)."""
    d = cx.data.changes
    if d is None:
        return None
    view = change_view(cx, d.change(mnemonic))
    return dict(view, new=mnemonic in d.added)


def changes_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    d = cx.data.changes
    assert d is not None, "planned only for a multi-release build"
    g = cx.graph
    ctx = cx.base()

    def href(mn: str) -> str | None:
        u = g.instructions.get(mn)
        return cx.link(unit_uri(plan.lang, u.path)) if u is not None else None
    ctx.update({
        "title": cx.t("changes.title", previous=d.old), "crumbs": cx.crumbs(None), "previous": d.old,
        "added": [(mn, href(mn)) for mn in d.added], "removed": list(d.removed),
        "changed": [dict(change_view(cx, c, body=False), mnemonic=c.mnemonic, href=href(c.mnemonic))
                    for c in d.changed],
    })
    return ctx


def plan_changes(p: Planning, lang: str) -> list[PagePlan]:
    """Only a multi-release site has it."""
    return [PagePlan(f"{lang}/changes.md", KIND, lang, None, frozenset({ALL}), "")] if p.changes else []


KIND = PageKind("changes", "changes.html", changes_context, plan_changes, nav=tail(6))
