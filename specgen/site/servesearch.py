"""What a spec rebuild hands the search plugin and mkdocs' page writer: page states templated before, the index.

A spec rebuild (:func:`specgen.site.serve.spec_rebuild`) re-templates only the pages an edit changed. Three
things keep that cheap: a page whose search key (:func:`specgen.render.searchtext.search_key`) is the one
of the state the index holds is templated without being indexed again (:func:`unchanged_search`,
:func:`indexing_all_but`: a result coming in, a listing edited); a page state mkdocs made before since the
last full build is written again from memory (:class:`Templated`, :func:`template_known`); and the search
index is written only when a rebuilt page's entries changed, merged in a full build's order so its bytes
are a full build's (:func:`update_search`). Split from :mod:`.serve`, which keeps the rebuild itself and
the server's state.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Protocol

from ..render import Page
from ..render.searchtext import search_key
from .inputs import forget_rebuilt_pages


class SearchOwner(Protocol):
    """What the index's update uses of the plugin (:class:`specgen.site.plugin.SpecgenPlugin`)."""

    def shape_search(self, config: Any) -> None: ...

    def split_search_index(self, config: Any) -> None: ...

    def search_definitions_unchanged(self) -> bool: ...


def unchanged_search(todo: list[Any], before: dict[str, tuple[Page, str]], pages: dict[str, Page]) -> set[str]:
    """The pages of ``todo`` whose search entries are the ones the index holds (the source URIs).

    A page's entries are a function of its :func:`~specgen.render.searchtext.search_key`; the index holds
    the entries of the state mkdocs last received (``before``). A test result coming in, a listing that
    changed: the page is templated again, but its entries stay, so it is not indexed again and keeps
    its place in the index.
    """
    same = set()
    for f in todo:
        last = before.get(f.src_uri)
        new = pages.get(f.src_uri)
        if last is None or new is None:
            continue
        key = search_key(new)
        if key is not None and key == search_key(last[0]):
            same.add(f.src_uri)
    return same


@contextmanager
def indexing_all_but(search: Any, quiet: set[str]) -> Iterator[None]:
    """While templating, the search plugin indexes every page but those of ``quiet`` (source URIs).

    The plugin's index object is the fresh one :func:`specgen.site.serve.spec_rebuild` made for this
    rebuild; its ``add_entry_from_context`` (material's and mkdocs' own search both index a page through
    it, from ``on_page_context``) is shadowed for the rebuild only.
    """
    index = getattr(search, "search_index", None) if search is not None else None
    own = getattr(index, "add_entry_from_context", None)
    if not quiet or own is None:
        yield
        return

    def add_entry_from_context(page: Any) -> None:
        if page.file.src_uri not in quiet:
            own(page)

    index.add_entry_from_context = add_entry_from_context
    try:
        yield
    finally:
        del index.add_entry_from_context


class Templated:
    """What mkdocs made of each page's recent states: its output file and its raw search entries, by page digest.

    A spec rebuild templates a page with the last full build's config, files, navigation and theme
    environment, so its output is a function of the page's title and HTML alone (:func:`specgen.site.serve.page_digest`)
    until the next full build, which starts a new one. An edit turns pages to "running" and the
    results turn them back, most of them to what they showed before; the same states come back at
    every edit of the same helper. A state seen before is written from here instead of going through
    mkdocs' page pipeline again (~20 ms a page on the corpus). The last :data:`STATES` states of a
    page are kept, within :data:`BUDGET` bytes in all.
    """

    STATES = 2
    BUDGET = 256 << 20

    def __init__(self) -> None:
        # url -> [(page digest, output, raw search entries or None when the state was templated unindexed)]
        self.pages: dict[str, list[tuple[str, bytes, list[dict[str, Any]] | None]]] = {}
        self.size = 0

    def get(self, url: str, digest: str) -> tuple[bytes, list[dict[str, Any]] | None] | None:
        for d, out, entries in self.pages.get(url, ()):
            if d == digest:
                return out, None if entries is None else [_copy_entry(e) for e in entries]
        return None

    def put(self, url: str, digest: str, output: bytes, entries: list[dict[str, Any]] | None) -> None:
        old = self.pages.pop(url, [])  # re-inserted below: the page last used is the last to go
        self.size -= sum(len(x[1]) for x in old)
        kept = None if entries is None else [_copy_entry(e) for e in entries]
        states = [x for x in old if x[0] != digest] + [(digest, output, kept)]
        states = states[-self.STATES:]
        self.size += sum(len(x[1]) for x in states)
        self.pages[url] = states
        while self.size > self.BUDGET and self.pages:  # the oldest pages first
            oldest = next(iter(self.pages))
            self.size -= sum(len(x[1]) for x in self.pages.pop(oldest))


def _copy_entry(e: dict[str, Any]) -> dict[str, Any]:
    """A search entry the index's shaping may change in place: copied with its lists."""
    return {k: list(v) if isinstance(v, list) else v for k, v in e.items()}


def search_entries(search: Any) -> list[dict[str, Any]] | None:
    """The list the search plugin collects this build's entries in (material's or mkdocs' own)."""
    index = getattr(search, "search_index", None) if search is not None else None
    for name in ("entries", "_entries"):
        found = getattr(index, name, None)
        if isinstance(found, list):
            return found
    return None


def template_known(templated: Templated, handed: dict[str, tuple[Page, str]], todo: list[Any], search: Any,
                   before: dict[str, tuple[Page, str]], pages: dict[str, Page], quiet: set[str]) -> list[Any]:
    """Write the pages of ``todo`` whose state mkdocs templated before (same title and HTML, same last full
    build) from :class:`Templated`, their search entries with them unless the index has them (``quiet``);
    the files still to template.

    A page whose title changed is templated (mkdocs' page object, which the navigation shows, takes the
    new title only then); so is one whose kept state was not indexed when the index needs its entries."""
    fresh = []
    entries = search_entries(search)
    for f in todo:
        hit = templated.get(f.src_uri, handed[f.src_uri][1])
        last = before.get(f.src_uri)
        indexed = f.src_uri in quiet or (hit is not None and hit[1] is not None and (entries is not None or not hit[1]))
        if hit is None or last is None or last[0].title != pages[f.src_uri].title or not indexed:
            fresh.append(f)
            continue
        output, found = hit
        path = Path(f.abs_dest_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(output)
        if entries is not None and found and f.src_uri not in quiet:
            entries.extend(found)
    return fresh


def _entries_of(entries: list[dict[str, Any]], urls: set[str]) -> list[str]:
    return sorted(repr(sorted(e.items())) for e in entries if str(e.get("location", "")).split("#", 1)[0] in urls)


def update_search(plugin: SearchOwner, config: Any, search: Any, urls: set[str], doc_files: Any) -> None:
    """Write the search index with the rebuilt pages' new entries, unless they are the entries it has.

    Most spec edits (an ASL body, a test result coming in) change no page's search entries: the index on
    disk (7 MB of JSON on the corpus, written and split per language) is then already a full build's, and
    writing it again would be most of the rebuild. The ASL definitions the split index adds are compared
    by the plugin (:meth:`~specgen.site.plugin.SpecgenPlugin.search_definitions_key`).
    """
    prev = search.search_index_prev
    kept = list(prev.entries) if prev is not None else None
    forget_rebuilt_pages(search, urls)
    plugin.shape_search(config)
    same = (kept is not None and _entries_of(kept, urls) == _entries_of(search.search_index.entries, urls)
            and plugin.search_definitions_unchanged())
    if same:
        prev.entries = kept  # the index as written, which a full build would write again
        search.search_index, search.search_index_prev = prev, None
        return
    in_page_order(search, doc_files)
    search.on_post_build(config=config)
    plugin.split_search_index(config)


def in_page_order(search: Any, doc_files: Any) -> None:
    """Merge the kept index (its rebuilt pages' entries pruned) with the rebuilt pages' new entries in the
    order a full build writes them (page by page, in mkdocs' order): the index is a full build's bytes."""
    prev = search.search_index_prev
    if prev is None:
        return
    order = {f.url: i for i, f in enumerate(doc_files)}
    merged = [*prev.entries, *search.search_index.entries]
    merged.sort(key=lambda e: order.get(str(e.get("location", "")).split("#", 1)[0], len(order)))
    search.search_index.entries = merged
    search.search_index_prev = None  # material would merge again (its own way) otherwise


__all__ = ["SearchOwner", "Templated", "in_page_order", "indexing_all_but", "search_entries", "template_known",
           "unchanged_search", "update_search"]
