"""What a spec rebuild writes from memory: page states mkdocs templated before.

A spec rebuild (:func:`specgen.site.serve.spec_rebuild`) re-templates only the pages an edit changed. A page
state mkdocs made before since the last full build is written again from memory (:class:`Templated`,
:func:`template_known`). The search index is not the theme's business for generated pages: specgen writes
their entries itself (:mod:`specgen.site.sitesearch`), made again only for a page whose search key changed.
Split from :mod:`.serve`, which keeps the rebuild itself and the server's state.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

from ..render import Page
from .pagestate import Handed, PageStates


class Templated:
    """What mkdocs made of each page's recent states: its output file, by page digest.

    A spec rebuild templates a page with the last full build's config, files, navigation and theme
    environment, so its output is a function of the page's title and HTML alone (its digest,
    :data:`specgen.site.pagestate.DIGEST`) until the next full build, which starts a new one. An edit turns
    pages to "running" and the results turn them back, most of them to what they showed before; the same
    states come back at every edit of the same helper. A state seen before is written from here instead of
    going through mkdocs' page pipeline again (~20 ms a page on the corpus). The last :data:`STATES` states
    of a page are kept, compressed (zlib level 1: an instruction page of 0.58.3, 130 KB with its navigation,
    is 26 KB, 0.6 ms to compress and 0.3 ms to expand), within :data:`BUDGET` bytes in all: a helper edit's
    ~620 pages in two states each take 30 MB where they took 160 MB, so a server's memory stays flat over
    an author's edits.
    """

    STATES = 2
    BUDGET = 64 << 20

    def __init__(self) -> None:
        self.pages: dict[str, list[tuple[str, bytes]]] = {}  # url -> [(page digest, compressed output)]
        self.size = 0

    def get(self, url: str, digest: str) -> bytes | None:
        for d, out in self.pages.get(url, ()):
            if d == digest:
                return zlib.decompress(out)
        return None

    def put(self, url: str, digest: str, output: bytes) -> None:
        old = self.pages.pop(url, [])  # re-inserted below: the page last used is the last to go
        self.size -= sum(len(x[1]) for x in old)
        states = [x for x in old if x[0] != digest] + [(digest, zlib.compress(output, 1))]
        states = states[-self.STATES:]
        self.size += sum(len(x[1]) for x in states)
        self.pages[url] = states
        while self.size > self.BUDGET and self.pages:  # the oldest pages first
            oldest = next(iter(self.pages))
            self.size -= sum(len(x[1]) for x in self.pages.pop(oldest))


def template_known(templated: Templated, states: PageStates, todo: list[Any], before: Handed,
                   pages: dict[str, Page]) -> list[Any]:
    """Write the pages of ``todo`` whose state mkdocs templated before (same title and HTML, same last full
    build) from :class:`Templated`; the files still to template.

    A page whose title changed since the hand-over ``before`` is templated (mkdocs' page object, which the
    navigation shows, takes the new title only then)."""
    fresh = []
    for f in todo:
        output = templated.get(f.src_uri, states.digest(f.src_uri))
        if output is None or before.titles.get(f.src_uri) != pages[f.src_uri].title:
            fresh.append(f)
            continue
        path = Path(f.abs_dest_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(output)
    return fresh


__all__ = ["Templated", "template_known"]
