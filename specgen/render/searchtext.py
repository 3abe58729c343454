"""What a page's search entries are made of, as a digest: everything but the regions search never reads.

A site's search (material's, mkdocs' own) indexes a page's HTML section by section and skips every
element marked ``data-search-exclude``. Most of what changes on a page while a spec is being written is
in such elements: an ASL listing, a test's result, the conformance line, the coverage figures (they
are data, not prose). The renderer wraps each of them in :data:`OPEN` … :data:`CLOSE` (the templates
through the Jinja globals ``nosearch_open``/``nosearch_close``), so :func:`search_key` can tell, without
parsing the page, that two states of it give the same search entries. A server then templates the new
state without indexing it again (:mod:`specgen.site.servesearch`): on the corpus, indexing was more than
half of templating a page.

A region must be one element that carries ``data-search-exclude`` and holds no heading (a heading
starts a search section and a table-of-contents entry even inside an excluded element); a page with a
region that does not look so has no key, and is indexed as before.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from markupsafe import Markup

OPEN = "<!--sg-nosearch-->"
CLOSE = "<!--/sg-nosearch-->"
_REGION = re.compile(re.escape(OPEN) + r"(.*?)" + re.escape(CLOSE), re.S)
_EXCLUDED_START = re.compile(r"<[a-zA-Z][a-zA-Z0-9]*\s[^>]*?\bdata-search-exclude\b")
_HEADING = re.compile(r"<h[1-6][\s>]", re.I)


def unsearched(html: str | Markup) -> Markup:
    """``html`` (one element marked ``data-search-exclude``) as a region :func:`search_key` leaves out."""
    return Markup(OPEN) + Markup(html) + Markup(CLOSE)


def search_key(page: Any) -> str | None:
    """A digest of all a page's search entries depend on (title, kind, table of contents, and the HTML
    outside its unsearched regions); None when a region is not one excluded element without a heading.

    ``page`` is a :class:`specgen.render.core.Page`.
    """
    h = hashlib.sha256(f"{page.url}\0{page.title}\0{page.kind.name}\0{page.toc!r}\0".encode())
    content: str = page.content
    pos = 0
    for m in _REGION.finditer(content):
        start, end = m.span(1)
        if not _EXCLUDED_START.match(content, start) or _HEADING.search(content, start, end):
            return None
        h.update(content[pos:start].encode())
        h.update(b"\0")
        pos = end
    h.update(content[pos:].encode())
    return h.hexdigest()


def globals_for_templates() -> dict[str, Markup]:
    """What the page templates mark a region with (``{{ nosearch_open }}`` … ``{{ nosearch_close }}``)."""
    return {"nosearch_open": Markup(OPEN), "nosearch_close": Markup(CLOSE)}


__all__ = ["CLOSE", "OPEN", "globals_for_templates", "search_key", "unsearched"]
