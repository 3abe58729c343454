"""A generated page's states as queries of the workspace: what mkdocs last received, and its search entries.

Every render hands its pages to the workspace as inputs (``page:<holder>:<uri>``, one revision for all
of them; a page the render cache reused is the same object, so it is no change). Two facts of a page
are queries of that input, memoised per revision with early cutoff (:mod:`specgen.workspace`):

* :data:`DIGEST`, what decides whether mkdocs must write the page again (its title, kind and HTML). A
  page *changed* since the last hand-over when its digest changed after that revision (:meth:`PageStates.hand`);
  a spec rebuild re-templates exactly those, and a state mkdocs templated before is written from
  :class:`specgen.site.servesearch.Templated` by this digest.
* :data:`ENTRIES`, the page's search entries. They read :data:`SEARCH_KEY`, the page's text outside its
  unsearched regions (:func:`specgen.render.searchtext.search_key`), and take the page itself unrecorded
  (:meth:`Workspace.peek`): a result coming in or a listing edited changes the page and its digest, the
  key comes out equal, and the entries are not made again. A page with no key reads the page itself.

This replaces three change checks of their own (the server's handed digests, the search entries' cache
and its keys). The render cache's page keys, which decide which pages are rendered at all, read the same
workspace: their parts are inputs (:class:`specgen.render.RenderCache`). A holder's inputs and memos go
with it (a release's plugin after its build), so a build of several releases holds one release's pages.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any

from ..render import Page
from ..render.searchtext import search_key
from ..workspace import Query, Workspace, current
from .searchentries import page_entries

_HOLDERS = itertools.count(1)


def _input(holder: str, uri: str) -> str:
    return f"page:{holder}:{uri}"


def _hold(owner: "PageStates") -> None:
    """A holder's pages and entries go with it (its plugin, a release's build done)."""
    holder = owner.holder
    owner.workspace.hold(owner, f"page:{holder}:",
                         lambda arg: type(arg) is tuple and len(arg) > 1 and arg[0] == holder)


def _digest(ws: Workspace, arg: tuple[str, str]) -> str:
    """What decides whether mkdocs must write a page again."""
    p: Page = ws.input(_input(*arg))
    return hashlib.sha256(f"{p.title}\0{p.kind.name}\0{p.content}".encode()).hexdigest()


def _search_key(ws: Workspace, arg: tuple[str, str]) -> str | None:
    return search_key(ws.input(_input(*arg)))


def _entries(ws: Workspace, arg: tuple[str, str, str]) -> list[dict[str, Any]]:
    holder, uri, url = arg
    key = SEARCH_KEY(ws, (holder, uri))
    page: Page = ws.input(_input(holder, uri)) if key is None else ws.peek(_input(holder, uri))
    return page_entries(page, url)


DIGEST: Query[str] = Query("site.page_digest", _digest)
SEARCH_KEY: Query[str | None] = Query("site.search_key", _search_key)
ENTRIES: Query[list[dict[str, Any]]] = Query("site.page_entries", _entries)


@dataclass(frozen=True)
class Handed:
    """A hand-over: the revision it happened in and each page's title then (a server's rebuild that gives
    way to a full build puts it back, so that build templates this edit's pages again)."""

    revision: int
    titles: dict[str, str]


class PageStates:
    """The pages one plugin hands to mkdocs, as workspace inputs (one holder per plugin: two plugins in a
    process, or two releases, never share a page's input)."""

    def __init__(self) -> None:
        self.workspace = current()
        self.holder = f"pages{next(_HOLDERS)}"
        _hold(self)
        self.handed = Handed(0, {})
        self.made = 0  # pages whose entries the last :meth:`entries` made (the others were kept)
        self.changed = 0  # pages whose entries differ from the last call's (new or gone pages too)
        self._urls: frozenset[str] = frozenset()  # the pages the last :meth:`entries` returned
        self._at = 0  # the revision of the last :meth:`entries`

    def hand(self, pages: list[Page], compare: bool = True) -> dict[str, bool]:
        """Make ``pages`` the holder's inputs; which of them changed since the last hand-over (``compare``
        False: a build that writes every page, all of them, no page digested)."""
        if self.workspace is not current():  # another workspace (a test's): its inputs start empty
            self.workspace, self.handed, self._urls, self._at = current(), Handed(0, {}), frozenset(), 0
            _hold(self)
        ws, h = self.workspace, self.holder
        with ws.lock:
            before = self.handed.revision
            gone = set(self.handed.titles) - {p.url for p in pages}
            ws.set_inputs({_input(h, p.url): p for p in pages}, prefix=f"page:{h}:")
            if gone:
                ws.forget(lambda arg: type(arg) is tuple and len(arg) > 1 and arg[0] == h and arg[1] in gone)
            changed = {p.url: not compare or ws.changed_at(DIGEST, (h, p.url)) > before for p in pages}
            self.handed = Handed(ws.revision, {p.url: p.title for p in pages})
        return changed

    def digest(self, uri: str) -> str:
        """The page's digest as last handed (the key mkdocs' output of it is kept under)."""
        return self.workspace.query(DIGEST, (self.holder, uri))

    def put_back(self, handed: Handed) -> None:
        """A rebuild gave way: the next hand-over compares with ``handed`` again."""
        self.handed = handed

    def entries(self, pages: list[tuple[Page, str]]) -> list[dict[str, Any]]:
        """The search entries of ``pages`` (each handed, with its site URL), in their order."""
        ws, h = self.workspace, self.holder
        out: list[dict[str, Any]] = []
        with ws.lock:
            start, changed = ws.computed[ENTRIES.name], 0
            for page, url in pages:
                arg = (h, page.url, url)
                out.extend(ws.query(ENTRIES, arg))
                changed += ws.changed_at(ENTRIES, arg) > self._at
            urls = frozenset(url for _, url in pages)
            self.made = ws.computed[ENTRIES.name] - start
            self.changed = changed + len(self._urls - urls)
            self._urls, self._at = urls, ws.revision
        return out


__all__ = ["DIGEST", "ENTRIES", "Handed", "PageStates", "SEARCH_KEY"]
