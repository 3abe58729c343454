"""Each language's pages in that language's theme chrome, and the navigation the plugin supplies.

One mkdocs build writes ``en/…`` and ``zh/…``. material translates its chrome
(search box, "Table of contents", "Skip to content", footer) from
``theme.language`` every time it renders a page, so the plugin sets the
page's language (and the site title of that language) just before the page is
rendered and restores the site's own after (:class:`Chrome`). Search gets one
index per language (:mod:`specgen.site.searchindex`).

Navigation: when ``mkdocs.yml`` has no ``nav``, the plugin supplies one
(:func:`supplied_nav`). Under material (which prunes the navigation with
``navigation.prune`` to the current page's path) each language is a tree:
surface → class → instruction and unit, each directory opened by its index page,
then the test index, the ADRs, the traceability matrix and the release page.
Other themes render every nav link on every page (4,977 links per page made a
corpus build take 292 s), so they get a short list: the hand pages and each
language's home page.
"""

from __future__ import annotations

import html
import posixpath
from typing import Any, Iterable

from ..render import Page
from ..render.i18n import LANGUAGES

# material's own language code for each language directory (its ``partials/languages/<code>.html``)
THEME_LANGUAGE: dict[str, str] = {"en": "en", "zh": "zh"}
# the name a language is listed under in the navigation, in that language
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh": "中文"}


def language_of(code: Any) -> str | None:
    """A language directory for a theme or ``extra.alternate`` code (``zh-CN``, ``zh_Hans`` → ``zh``)."""
    text = str(code or "").strip().lower().replace("_", "-")
    if text in LANGUAGES:
        return text
    if text in ("zh-cn", "zh-hans", "zh-sg"):
        return "zh"
    if text.startswith("en-"):
        return "en"
    return None


CHUNK = 30  # a directory with more pages than this lists them in alphabetical runs of this many


def page_language(uri: str, langs: Iterable[str]) -> str | None:
    """The language directory a docs-relative URI lies in (None: a hand page or a source page)."""
    head = uri.split("/", 1)[0]
    return head if "/" in uri and head in set(langs) else None


class Chrome:
    """Swaps the theme language and site title per page and restores the site's own afterwards."""

    def __init__(self, config: Any, names: dict[str, str]) -> None:
        self.theme = config.theme
        self.language = self.theme["language"] if "language" in self.theme else None
        self.site_name = config.site_name
        self.names = names

    def enter(self, config: Any, lang: str | None) -> None:
        """Before a page is rendered: its language's chrome (a page outside the language trees keeps the site's)."""
        if lang is None:
            return
        if self.language is not None:  # material (and any theme with a ``language`` key)
            self.theme["language"] = THEME_LANGUAGE.get(lang, lang)
        config["site_name"] = self.names.get(lang, self.site_name)

    def leave(self, config: Any) -> None:
        if self.language is not None:
            self.theme["language"] = self.language
        config["site_name"] = self.site_name


def language_nav(nav: Any, page: Any) -> Any:
    """The nav a page of a language tree shows: its own language's section only (a Chinese page carried the
    English tree and the English hand pages in its nav); any other page keeps the whole nav."""
    top = page
    while getattr(top, "parent", None) is not None:
        top = top.parent
    if top is page or nav is None or top not in list(nav.items):
        return nav
    from mkdocs.structure.nav import Navigation

    return Navigation([top], nav.pages)


def is_material(config: Any) -> bool:
    return str(getattr(config.theme, "name", "") or "") == "material"


def prune(config: Any) -> None:
    """Turn on material's ``navigation.prune`` for the tree nav: without it material writes the whole
    tree into every page (a fresh ``mkdocs new`` corpus project: 1,079 nav links a page, 1.1 GB site)."""
    features = list(config.theme["features"] if "features" in config.theme else [])
    if "navigation.prune" not in features:
        config.theme["features"] = [*features, "navigation.prune"]


def hand_title(markdown: str) -> str | None:
    """A hand page's first ``# heading``: the nav names it even when a dirty build does not read the page."""
    for line in markdown.splitlines():
        if line.startswith("# "):
            return html.escape(line[2:].strip().rstrip("#").strip()) or None
    return None


def _titled(items: list[Any], titles: dict[str, str | None]) -> list[Any]:
    out: list[Any] = []
    for x in items:
        if isinstance(x, str):
            out.append({titles[x]: x} if titles.get(x) else x)
        elif isinstance(x, dict):
            out.append({k: _titled(v, titles) if isinstance(v, list) else v for k, v in x.items()})
    return out


def supplied_nav(config: Any, hand: dict[str, str | None], pages: list[Page], langs: list[str],
                 mode: str) -> list[Any] | None:
    """The nav when ``mkdocs.yml`` gives none: hand pages (mkdocs' own order, named by their first
    heading; ``hand`` maps each to it), the languages between."""
    from mkdocs.structure.nav import nest_paths  # mkdocs' default ordering of hand pages

    if mode == "none" or config.nav is not None:
        return None
    tree = mode == "tree" or (mode == "auto" and is_material(config))
    if tree and is_material(config):
        prune(config)
    by_lang: dict[str, list[Page]] = {lang: [] for lang in langs}
    for p in pages:
        lang = page_language(p.url, langs)
        if lang is not None:
            by_lang[lang].append(p)
    sections = [language_section(lang, by_lang[lang], tree) for lang in langs if by_lang[lang]]
    rest = _titled(list(nest_paths(sorted(hand))), hand)
    head = [x for x in rest if x == "index.md" or (isinstance(x, dict) and "index.md" in x.values())]
    return head + sections + [x for x in rest if x not in head]


def _title(p: Page) -> str:
    return html.escape(p.title)  # nav titles reach the page unescaped (material writes them as is)


def tail_pages(pages: list[Page]) -> list[Page]:
    """A language's own top-level pages (``<lang>/x.md``, ``<lang>/dir/index.md``) whose kind asks for a
    place after the tree (the instruction, test and ADR indexes, the matrix, the release page)."""
    return [p for p in pages if p.kind.nav.place == "tail" and p.url.count("/") <= 2]


def _tail_order(p: Page) -> tuple[int, str]:
    return (p.kind.nav.order, p.url)


def chunked(items: list[dict[str, str]]) -> list[Any]:
    """A long list of pages as runs of :data:`CHUNK` (``HL.LBI – HL.LHUI``), so a pruned page carries at
    most the runs' titles and its own run: the corpus' 184 AGU instructions cost every one of them
    73 KB of navigation when listed whole."""
    if len(items) <= CHUNK:
        return list(items)
    runs = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
    return [{f"{next(iter(r[0]))} – {next(iter(r[-1]))}": r} for r in runs]


def language_section(lang: str, pages: list[Page], tree: bool) -> dict[str, Any]:
    """One language: its home page, then (tree) directories of instructions and units, then the tail pages."""
    name = LANGUAGE_NAMES.get(lang, lang)
    home = next((p.url for p in pages if p.kind.nav.place == "home"), f"{lang}/index.md")
    if not tree:
        return {name: home}
    index_of: dict[str, Page] = {}
    leaves: dict[str, list[Page]] = {}
    for p in pages:
        d = posixpath.dirname(p.url)
        if p.kind.nav.place == "directory":
            index_of[d] = p
        elif p.kind.nav.place in ("tree", "section"):
            leaves.setdefault(d, []).append(p)
    dirs: set[str] = set()
    for d in leaves:
        while d and d != lang and d not in dirs:
            dirs.add(d)
            d = posixpath.dirname(d)
    # a tail page indexing a top directory opens its section there (the documents under their index)
    sections = {posixpath.dirname(p.url): p for p in tail_pages(pages) if p.url.endswith("/index.md")
                and posixpath.dirname(p.url) in dirs}

    def node(d: str) -> list[Any]:
        subdirs = sorted(x for x in dirs if posixpath.dirname(x) == d and x not in sections)
        items: list[Any] = []
        for sub in subdirs:
            idx = index_of.get(sub)
            title = _title(idx) if idx is not None else html.escape(posixpath.basename(sub))
            items.append({title: ([idx.url] if idx is not None else []) + node(sub)})
        return items + chunked([{_title(p): p.url} for p in sorted(leaves.get(d, []), key=lambda p: p.title)])

    tail = [{_title(p): [p.url, *node(posixpath.dirname(p.url))]} if posixpath.dirname(p.url) in sections
            else {_title(p): p.url} for p in sorted(tail_pages(pages), key=_tail_order)]
    return {name: [home, *node(lang), *tail]}
