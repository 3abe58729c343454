"""The release page: version, manifest, evidence artifacts with their recorded hashes, counts."""

from __future__ import annotations

from typing import Any

from ..chain import evidence_id, evidence_paths, recorded_hash
from ..html import json_pretty
from ..pages import Ctx, PageKind, PagePlan


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
        "counts": sorted(spec.counts().items()),
        "catalog_counts": json_pretty(man.catalog_counts) if man else None,
        "changes": (cx.t("nav.changes", previous=cx.data.changes.old), cx.link(f"{plan.lang}/changes.md"))
        if cx.data.changes is not None else None,
        "manifest_src": cx.src(spec.manifest_path, 1, 1) if spec.manifest_path in spec.files and cx.source_url else None,
    })
    return ctx


KIND = PageKind("release", "release.html", release_context)
