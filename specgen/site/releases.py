"""A site of several releases, the way ``mike`` lays one out for mkdocs-material's version selector.

Each release is an ordinary, complete build in its own directory (``<out>/<name>/``),
so its links and its search index stay within it; ``<out>/versions.json`` lists the
releases newest first (the newest carries the ``latest`` alias and is where
``<out>/index.html`` sends a reader). Material shows its selector when
``extra.version.provider`` is ``mike``; ``specgen-releases.js`` makes a switch land on
the same page of the other release when it has one (material would need an absolute
``site_url`` in every sitemap for that). Each release after the first gets the diff
against the one before it (:func:`specgen.diff.spec_diff`), computed once per pair.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..diff import SpecDiff, release_name, spec_diff  # noqa: F401  (release_name: the site names releases with it)
from ..graph import SpecGraph
from ..render import ReleaseSite, plan_site
from .inputs import SiteInputError

RELEASE_ASSETS = ("assets/specgen/specgen-releases.css", "assets/specgen/specgen-releases.js")
LATEST = "latest"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


@dataclass(frozen=True)
class Release:
    """One release of a multi-release site: its spec root and the path segment it is published under."""

    root: Path
    name: str


def version_key(name: str) -> tuple[int, ...]:
    """Numeric parts of a release name, so 0.58.10 sorts after 0.58.9; names without numbers sort first."""
    return tuple(int(x) for x in re.findall(r"\d+", name))


def parse_releases(value: Any, base: Path) -> list[tuple[Path, str | None]]:
    """The plugin's ``releases:`` (a list of ``{root: ..., name: ...}`` or of roots) as (root, name or None)."""
    if not isinstance(value, list):
        raise SiteInputError("specgen: 'releases' must be a list of {root: ..., name: ...}")
    out: list[tuple[Path, str | None]] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            item = {"root": item}
        if not isinstance(item, dict) or not isinstance(item.get("root"), str) or \
                not isinstance(item.get("name", ""), str) or set(item) - {"root", "name"}:
            raise SiteInputError(f"specgen: releases[{i}] must be {{root: <path>, name: <text>}}, got {item!r}")
        root = Path(item["root"])
        out.append((root if root.is_absolute() else (base / root).resolve(), item.get("name") or None))
    return out


def order(named: list[Release]) -> list[Release]:
    """Oldest first by version number (the given order breaks ties); one name, one release."""
    seen: set[str] = set()
    for r in named:
        if not _NAME.match(r.name):
            raise SiteInputError(f"release name {r.name!r} of {r.root} cannot be a path segment "
                                 "(letters, digits, '.', '_', '+', '-')")
        if r.name in seen or r.name == LATEST:
            raise SiteInputError(f"two releases are named {r.name!r}: give each a distinct name")
        seen.add(r.name)
    return sorted(named, key=lambda r: version_key(r.name))


def versions_json(releases: list[Release]) -> str:
    """mike's ``versions.json``: newest first, the newest aliased ``latest``."""
    newest = releases[-1].name
    rows = [{"version": r.name, "title": r.name, "aliases": [LATEST] if r.name == newest else []}
            for r in reversed(releases)]
    return json.dumps(rows, indent=2) + "\n"


def write_root(out: Path, releases: list[Release]) -> None:
    """``versions.json``, an ``index.html`` that sends a reader to the newest release, and the newest
    release's ``404.html`` (:mod:`specgen.site.notfound`: it serves every release and language)."""
    (out / "versions.json").write_text(versions_json(releases), encoding="utf-8")
    target = html.escape(releases[-1].name + "/index.html", quote=True)
    icon = html.escape(releases[-1].name + "/assets/images/favicon.png", quote=True)  # no 404 for /favicon.ico
    (out / "index.html").write_text(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Redirecting</title>\n"
        f"<meta http-equiv=\"refresh\" content=\"0; url={target}\">\n"
        f"<link rel=\"canonical\" href=\"{target}\"><link rel=\"icon\" href=\"{icon}\"></head>\n"
        f"<body><a href=\"{target}\">{html.escape(releases[-1].name)}</a></body></html>\n", encoding="utf-8")
    newest_404 = out / releases[-1].name / "404.html"
    if newest_404.is_file():  # the site root's: it finds the release and language in the address asked for
        shutil.copyfile(newest_404, out / "404.html")


class Graphs:
    """The graphs of one multi-release build, each loaded once: a release's build also needs the one before it."""

    def __init__(self, load: Callable[[Path], Any]) -> None:
        self._load = load
        self._loaded: dict[Path, Any] = {}
        self._diffs: dict[tuple[Path, Path], SpecDiff] = {}

    def get(self, root: Path) -> Any:
        """What ``load`` returned for ``root`` (a graph, or a graph with its load times)."""
        key = root.resolve()
        if key not in self._loaded:
            self._loaded[key] = self._load(key)
        return self._loaded[key]

    def diff(self, old: Release, new: Release, graph_of: Callable[[Any], SpecGraph]) -> SpecDiff:
        key = (old.root.resolve(), new.root.resolve())
        if key not in self._diffs:
            self._diffs[key] = spec_diff(graph_of(self.get(old.root)), graph_of(self.get(new.root)),
                                         old.name, new.name)
        return self._diffs[key]


def previous(releases: list[Release], name: str) -> Release | None:
    """The release before ``name`` (None for the oldest)."""
    names = [r.name for r in releases]
    i = names.index(name)
    return releases[i - 1] if i > 0 else None


def release_site(releases: list[Release], current: Path, graphs: Graphs, langs: tuple[str, ...],
                 local_sources: bool) -> ReleaseSite:
    """The release ``current`` among ``releases`` (oldest first): its changes since the one before it
    and the pages of the newest (what an older page's banner links to)."""
    roots = [r.root for r in releases]
    i = roots.index(current)
    graph_of: Callable[[Any], SpecGraph] = lambda loaded: loaded[0]  # noqa: E731 - Graphs holds (graph, times)
    changes = graphs.diff(releases[i - 1], releases[i], graph_of) if i > 0 else None
    newest = releases[-1]
    uris: frozenset[str] = frozenset()
    if newest.root != current:
        uris = frozenset(p.uri for p in plan_site(graph_of(graphs.get(newest.root)), langs, local_sources,
                                                  changes=len(releases) > 1))
    return ReleaseSite(tuple(r.name for r in releases), releases[i].name, uris, changes)

