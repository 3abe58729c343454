"""An architecture decision record: its front matter as a table and its body as Markdown.

Relative links in the body resolve to the pages of the files they name (a unit, an ADR, a document:
:mod:`specgen.render.filelinks`), or to the source when the site links sources elsewhere.
"""

from __future__ import annotations

import re
from typing import Any

from ..filelinks import FILES, files_digest, markdown_resolver
from ..html import markdown_body
from ..links import adr_uri
from ..pages import IDS, Ctx, PageKind, PagePlan, ids_digest
from ..plan import Planning


def adr_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    adr = cx.adr_by_path(plan.subject)
    assert adr is not None and adr.front is not None
    ctx = cx.base()
    lang = cx.plan.lang
    front = adr.raw if isinstance(adr.raw, dict) else adr.front.model_dump(mode="json")
    rows = front_rows(cx, front)
    f = adr.front
    ctx.update({
        "title": f"{f.id}: {f.title}", "adr": adr, "front": f, "front_rows": rows,
        "issue": f.implementation_issue if f.implementation_issue and f.implementation_issue.startswith("https://") else None,
        "crumbs": [(cx.t("nav.home"), cx.link(f"{lang}/index.md")), (cx.t("nav.adrs"), cx.link(f"{lang}/adr/index.md"))],
        "body": markdown_body(_without_header_list(adr.body, adr.raw), markdown_resolver(cx, adr.path)),
        "src_href": cx.src(adr.path, 1, adr.span.lines[1]),
    })
    return ctx


# front-matter keys whose values are IDs the site can link to, and how to resolve each
_ID_KEYS = {"affected_ndf": "requirement", "affected_units": "requirement", "resolves": "adr", "supersedes": "adr",
            "superseded_by": "adr"}
_ORDER = ("id", "title", "status", "created", "accepted", "rejected", "superseded", "authors", "approvers",
          "release_impact", "target_releases", "affected_units", "affected_ndf", "resolves", "supersedes",
          "superseded_by", "implementation_issue", "baseline", "legacy_ids")


def _without_header_list(body: str, raw: Any) -> str:
    """An older generation's body opens with its "- Key: value" headers, shown as front matter above:
    drop exactly those lines so the page does not repeat them."""
    headers = raw.get("headers") if isinstance(raw, dict) else None
    if not isinstance(headers, dict) or not headers:
        return body
    lines = body.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    start = i
    while i < len(lines):
        m = re.match(r"^[-*]\s+([^:]+):", lines[i])
        if m is None or m.group(1).strip().lower() not in headers:
            break
        i += 1
    return body if i == start else "\n".join(lines[:start] + lines[i:])


_MD_LINK = re.compile(r"\[([^\]]+)\]\((https://[^)\s]+)\)")


def _label(cx: Ctx, key: str) -> str:
    """The catalog's label for a known key; an unknown key (a newer or older generation) as written."""
    label = cx.t("adr.field." + key)
    return label if label != "adr.field." + key else key.replace("_", " ").strip().capitalize()


def _status_word(cx: Ctx, value: str) -> str | None:
    """The locale's word for a status value (``adr.status.accepted``; an older generation writes
    "Accepted"), None for a free-text status no catalog names."""
    return cx.t.term("adr.status." + value.strip().lower())


def front_rows(cx: Ctx, front: dict[str, Any]) -> list[dict[str, Any]]:
    """Every front-matter key once, with a human label; ID lists become their links (no second list)."""
    headers = front.get("headers")
    if isinstance(headers, dict):
        # an older generation (Markdown "- Key: value" headers): the keys and values as the file writes them
        front = {"id": front.get("id"), "title": front.get("title"), **headers}
    keys = [k for k in _ORDER if k in front] + [k for k in front if k not in _ORDER]
    rows = []
    for k in keys:
        v = front[k]
        link = _MD_LINK.fullmatch(v.strip()) if isinstance(v, str) else None
        if link is not None:
            rows.append({"key": k, "label": _label(cx, k), "kind": "link", "value": link.group(2),
                         "text": link.group(1), "items": []})
            continue
        row: dict[str, Any] = {"key": k, "label": _label(cx, k), "kind": "text", "value": "", "items": []}
        if v is None or v == [] or v == "":
            row["kind"] = "none"
        elif k in _ID_KEYS and isinstance(v, list):
            resolve = cx.adr_href if _ID_KEYS[k] == "adr" else cx.requirement_href
            row.update(kind="ids", items=[(str(x), resolve(str(x))) for x in v])
        elif isinstance(v, list):
            row.update(kind="list", items=[str(x) for x in v])
        elif isinstance(v, str) and v.startswith("https://"):
            row.update(kind="link", value=v, text=v)
        elif isinstance(v, str) and len(v) >= 32 and all(c in "0123456789abcdef" for c in v):
            row.update(kind="hash", value=v)
        elif k == "status" and isinstance(v, str) and _status_word(cx, v):
            # a status the locale knows, in the page's language (状态 已接受); any other value as written
            row.update(kind="status", value=v.strip(), text=_status_word(cx, v))
        elif k in ("status", "release_impact") or isinstance(v, bool):
            row.update(kind="code", value=str(v))
        else:
            row["value"] = str(v)
        rows.append(row)
    return rows


def plan_adrs(p: Planning, lang: str) -> list[PagePlan]:
    """An ADR page shows its own file and links resolved through IDs: not the whole tree."""
    return [PagePlan(adr_uri(lang, a.path), KIND, lang, a.path, frozenset({a.path, IDS, FILES} | p.common),
                     a.front.id if a.front else a.path) for a in p.graph.adrs]


KIND = PageKind("adr", "adr.html", adr_context, plan_adrs, digests=((IDS, ids_digest), (FILES, files_digest)))
