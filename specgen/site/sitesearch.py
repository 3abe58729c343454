"""The site's search index as specgen writes it: the theme's entries of the hand pages plus specgen's own.

The theme's search plugin indexes the hand-written pages and writes ``search/search_index.json``
(its ``on_post_build``); it never sees a generated page (:meth:`~specgen.site.engine.SiteEngine.keep_out_of_theme_search`).
After it wrote, :meth:`SiteSearch.after_theme` reads that file, and :meth:`SiteSearch.write` writes the index
the site loads: the theme's entries, then every generated page's own entries in page order
(:mod:`specgen.site.searchentries`), then (Material) the ASL definitions, one index per language in two parts
(:func:`specgen.site.searchindex.split_index`). Under MkDocs' own search, which indexes every page and
cannot be told to skip one, the generated pages' entries it made are replaced by specgen's (text without
markup: its client shows the text as it is) in its one index.

A server's spec rebuild templates no hand page and runs no theme search: it calls :meth:`SiteSearch.write`
with the theme's entries of the last full build, and nothing is written when no page's entries and no ASL
definition changed (most edits: an ASL body, a result coming in).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

from ..render import Page
from .pagestate import PageStates
from .searchindex import split_index

_TAG = re.compile(r"<[^>]+>")


def _page_of(entry: dict[str, Any]) -> str:
    return str(entry.get("location", "")).partition("#")[0]


class SiteSearch:
    """What a site's search index is made of between builds (the plugin holds one for its life)."""

    def __init__(self, states: PageStates) -> None:
        self.states = states  # the pages as handed: their entries are queries of the workspace
        self.theme: dict[str, Any] | None = None  # the theme's index of the last full build (hand pages)
        self.written: tuple[str | None, list[str], str] | None = None  # (kind, page URLs, definitions key)
        self.sizes: dict[str, int] = {}  # bytes of each language's first part (Material)
        # the ASL definitions' entries with their key: a prose edit changes a page's entries, not a definition
        self.definitions: tuple[str, dict[str, list[dict[str, Any]]]] | None = None

    def after_theme(self, site_dir: Path) -> None:
        """A full build: the index the theme's search just wrote (None when it wrote none)."""
        path = site_dir / "search" / "search_index.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        self.theme = data if isinstance(data, dict) else None
        self.written = None

    def write(self, site_dir: Path, kind: str | None, pages: list[tuple[Page, str]], main: str, langs: list[str],
              separator: str, definitions: Callable[[], dict[str, list[dict[str, Any]]]],
              definitions_key: str) -> bool:
        """Write the index (``pages``: each generated page with its site URL, in page order); False when it
        is the one on disk already (nothing written). ``definitions_key`` names what ``definitions()``
        returns (:func:`~specgen.site.searchindex.definitions_key`): the last entries are kept under it."""
        own = self.states.entries(pages)
        if kind is None or self.theme is None:
            return False
        state = (kind, [url for _, url in pages], definitions_key)
        if self.written == state and not self.states.changed:
            return False
        urls = {url for _, url in pages}
        theme_docs = [d for d in self.theme.get("docs", []) if _page_of(d) not in urls]
        if kind == "material":
            if self.definitions is None or self.definitions[0] != definitions_key:
                self.definitions = (definitions_key, definitions())
            self.sizes = split_index(site_dir, {**self.theme, "docs": theme_docs + own}, main, langs, separator,
                                     self.definitions[1])
        else:
            plain = [dict(e, title=_TAG.sub("", str(e.get("title", ""))), text=_TAG.sub("", str(e.get("text", ""))))
                     for e in own]
            data = {k: v for k, v in self.theme.items() if k != "index"}  # a prebuilt lunr index would be stale
            data["docs"] = theme_docs + plain
            target = site_dir / "search" / "search_index.json"
            target.write_text(json.dumps(data, sort_keys=True, separators=(",", ":"), default=str), encoding="utf-8")
            self.sizes = {}
        self.written = state
        return True


__all__ = ["SiteSearch"]
