"""The release page: version, manifest, evidence artifacts with their recorded hashes, counts."""

from __future__ import annotations

from typing import Any

from ..chain import evidence_id, evidence_paths, recorded_hash
from ..html import json_pretty
from ..pages import Ctx, PageKind, PagePlan, human_label
from ..plan import ALL, Planning, tail


def release_context(cx: Ctx, plan: PagePlan) -> dict[str, Any]:
    ctx = cx.base()
    g = cx.graph
    spec = g.spec
    arts = []
    for p in evidence_paths(g):
        sha, present = recorded_hash(g, p)
        arts.append({"id": evidence_id(p), "path": p, "sha256": sha, "present": present})
    man = spec.manifest
    ctx.update({
        "title": cx.t("nav.release"), "crumbs": cx.crumbs(None), "artifacts": arts,
        "counts": [(human_label(cx.t, "count.", k), k, v) for k, v in spec.counts().items()],
        "catalog_counts": catalog_rows(cx, man.catalog_counts) if man and isinstance(man.catalog_counts, dict) else [],
        "catalog_json": json_pretty(man.catalog_counts) if man and man.catalog_counts else None,
        "changes": (cx.t("nav.changes", previous=cx.data.changes.old), cx.link(f"{plan.lang}/changes.md"))
        if cx.data.changes is not None else None,
        "manifest_src": cx.src(spec.manifest_path, 1, 1) if spec.manifest_path in spec.files and cx.source_url else None,
    })
    return ctx


def catalog_rows(cx: Ctx, counts: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, key, value) per manifest catalog count; a breakdown reads "BBD 5 · CMD 69"."""
    out = []
    for k, v in counts.items():
        if isinstance(v, dict):
            value = " · ".join(f"{sub} {n}" for sub, n in v.items())
        elif isinstance(v, list):
            value = cx.t("prose.list_sep").join(str(x) for x in v)
        else:
            value = str(v)
        out.append((human_label(cx.t, "release.catalog.", k), k, value))
    return out


def plan_release(p: Planning, lang: str) -> list[PagePlan]:
    return [PagePlan(f"{lang}/release.md", KIND, lang, None, frozenset({ALL}), "")]


KIND = PageKind("release", "release.html", release_context, plan_release, nav=tail(5))
