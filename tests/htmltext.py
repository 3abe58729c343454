"""Reading rendered pages in tests: visible text and one section (a module of its own, shared by the render tests)."""

from __future__ import annotations

import html
import re

TAGS = re.compile(r"<[^>]+>")


def text(fragment: str) -> str:
    """Visible text of an HTML fragment: tags dropped, entities decoded, whitespace kept as written."""
    return html.unescape(TAGS.sub("", fragment))


def words(fragment: str) -> str:
    """Visible text with every tag a word break and runs of whitespace collapsed: what a reader reads in one line."""
    return " ".join(html.unescape(TAGS.sub(" ", fragment)).split())


def section(page: str, ident: str) -> str:
    """The HTML from the ``<h2 id=ident>`` to the next ``<h2`` (raises ValueError when the page lacks it)."""
    start = page.index(f'<h2 id="{ident}"')
    nxt = page.find("<h2 ", start + 1)
    return page[start: nxt if nxt > 0 else len(page)]
