"""specgen's own search entries for its generated pages, made from the rendered HTML, no engine involved.

The theme's indexer never sees a generated page (the engine adapter keeps them out of it,
:meth:`specgen.site.engine.SiteEngine.keep_out_of_theme_search`); specgen writes their entries into the
index itself (:mod:`specgen.site.sitesearch`). So the entries do not depend on how an engine's search
plugin indexes, on what it keeps between builds, or on being able to shadow it: a server's spec rebuild
makes the entries of the pages whose search key changed (:func:`specgen.render.searchtext.search_key`)
and keeps every other page's (the entries are a workspace query, :mod:`specgen.site.pagestate`).

An entry per section, as Material for MkDocs' search makes them (its client reads this shape; the
sectioning rules below are its own, so a search behaves as it did when the theme indexed the pages):
a section starts at each heading with an ``id``; an element marked ``data-search-exclude``, a script, a
style or an object is skipped; ``p``, ``code``, ``pre``, ``li``, ``ol``, ``ul``, ``sub`` and ``sup``
keep their tags in the text (empty ones are dropped); whitespace outside ``pre`` collapses; a
heading's permalink is not its title; Chinese text is segmented with jieba when it is installed, each
word set off by zero-width spaces. ``tests/test_search_entries.py`` checks that every bundled page's
entries are the ones Material made. Each page kind's search shape (:class:`specgen.render.plan.Search`)
is then applied by :func:`specgen.site.searchindex.shape_entries`.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser
from typing import Any

from ..render import Page
from ..render.plan import Search
from .searchindex import page_does, page_labels, page_tags, shape_entries

_SKIP_TAGS = ("object", "script", "style")
_KEEP = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                   "source", "track", "wbr"})
_HEADINGS = frozenset(f"h{x}" for x in range(1, 7))
# the Han script (Unicode Scripts.txt): what Material hands jieba
_HAN = re.compile("[\u2e80-\u2e99\u2e9b-\u2ef3\u2f00-\u2fd5\u3005\u3007\u3021-\u3029\u3038-\u303b"
                  "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufa6d\ufa70-\ufad9\U00016fe2\U00016fe3\U00016ff0\U00016ff1"
                  "\U00020000-\U0002a6df\U0002a700-\U0002ee5d\U0002f800-\U0002fa1d\U00030000-\U000323af]+")


class _El:
    """An open element; equal to another (or to a tag name) by its tag, as the sectioning rules compare them."""

    __slots__ = ("tag", "attrs")

    def __init__(self, tag: str, attrs: dict[str, str | None] | None = None) -> None:
        self.tag = tag
        self.attrs = attrs or {}

    def __eq__(self, other: object) -> bool:
        return self.tag == (other.tag if isinstance(other, _El) else other)

    def __hash__(self) -> int:
        return hash(self.tag)


class _Section:
    __slots__ = ("el", "depth", "text", "title", "id")

    def __init__(self, el: _El, depth: float = 0) -> None:
        self.el = el
        self.depth = depth
        self.text: list[str] = []
        self.title: list[str] = []
        self.id: str | None = None


class _Sections(HTMLParser):
    """Divides a page's HTML into sections, each opened by a heading."""

    def __init__(self) -> None:
        super().__init__()
        self.skip: set[Any] = set(_SKIP_TAGS)
        self.context: list[_El] = []
        self.section: _Section | None = None
        self.data: list[_Section] = []

    def _current(self) -> _Section:
        if self.section is None:  # text before the first heading: the page's own section
            self.section = _Section(_El("hx"))
            self.data.append(self.section)
        return self.section

    def _target(self) -> list[str]:
        section = self._current()
        return section.title if section.el in self.context else section.text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        el = _El(tag, found)
        if tag in _VOID:
            return
        self.context.append(el)
        if tag in _HEADINGS and "id" in found:
            depth = len(self.context)
            if tag != "h1" and not self.data:
                self.section = _Section(_El("hx"), depth)
                self.data.append(self.section)
            self.section = _Section(el, depth)
            if self.data:
                self.section.id = found["id"]
            self.data.append(self.section)
        self._current()
        if "data-search-exclude" in found or found.get("class") == "linenodiv":
            self.skip.add(el)
            return
        if tag in _KEEP and not self.skip.intersection(self.context):
            self._target().append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if not self.context or self.context[-1] != tag:
            return
        section = self._current()
        if section.depth > len(self.context):  # leaving the element a nested heading sat in
            for earlier in reversed(self.data):
                if earlier.depth <= len(self.context):
                    section.depth = float("inf")
                    self.section = earlier
                    break
        el = self.context.pop()
        if el in self.skip:
            if el.tag not in _SKIP_TAGS:
                self.skip.remove(el)
            return
        if tag in _KEEP and not self.skip.intersection(self.context):
            data = self._target()
            index = data.index(f"<{tag}>")
            if all(x.isspace() for x in data[index + 1:]):
                del data[index:]  # an empty element leaves nothing
            else:
                data.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skip.intersection(self.context):
            return
        if "pre" not in self.context:
            data = " " if data.isspace() else data.replace("\n", " ")
        section = self._current()
        if section.el in self.context:
            if not any(el.tag == "a" and el.attrs.get("class") == "headerlink" for el in self.context):
                section.title.append(escape(data, quote=False))
        elif data.isspace():
            if not section.text or not section.text[-1].isspace() or "pre" in self.context:
                section.text.append(data)
        else:
            section.text.append(escape(data, quote=False))


def _segmenter() -> Any:
    try:
        import jieba
    except ImportError:
        return None
    return jieba


def _segment(text: str, jieba: Any) -> str:
    """Chinese words set off by zero-width spaces (the index's client splits on them)."""
    if jieba is None:
        return text
    return _HAN.sub(lambda m: "\u200b" + "\u200b".join(jieba.cut(m.group(0))) + "\u200b", text).strip("\u200b")


def section_entries(url: str, title: str, content: str) -> list[dict[str, Any]]:
    """One entry per searchable section of a page's HTML (``url``: the page's address in the site;
    ``title``: what a section without a heading of its own is called, as the page's HTML title)."""
    parser = _Sections()
    parser.feed(content)
    parser.close()
    jieba = _segmenter()
    out: list[dict[str, Any]] = []
    for section in parser.data:
        if "data-search-exclude" in section.el.attrs:
            continue
        heading = "".join(section.title) if section.title else title
        out.append({"location": f"{url}#{section.id}" if section.id else url,
                    "title": _segment(heading.strip(), jieba),
                    "text": _segment("".join(section.text).strip(), jieba)})
    return out


def page_entries(page: Page, url: str) -> list[dict[str, Any]]:
    """A generated page's entries as the site searches them: its sections, shaped by its kind
    (:class:`~specgen.render.plan.Search`: one entry, its IDs only, its sections, or none)."""
    shape = page.kind.search
    if shape is Search.EXCLUDED:
        return []
    raw = section_entries(url, escape(page.title), page.content)
    labels = {url: page_labels(page.content)} if shape is Search.ONE_ENTRY else {}
    does = {url: page_does(page.content)} if shape is Search.ONE_ENTRY else {}
    return shape_entries(raw, {url: shape}, {url: page_tags(page.title, page.content)}, labels, does)


__all__ = ["page_entries", "section_entries"]
