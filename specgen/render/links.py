"""Where every generated page lives and how one page links to another.

Generated pages carry their links as raw HTML (spec text never goes through
Markdown), so mkdocs does not rewrite them: we compute relative URLs here,
for either ``use_directory_urls`` setting, and record every internal link so
the build can fail on a broken one.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
from ..workspace import memoised


def safe_segment(text: str) -> str:
    """A path segment that is the same on every file system (mnemonics keep their dots)."""
    s = _SAFE.sub("-", text).strip("-")
    return s or "_"


def unit_stem(path: str) -> str:
    """``asl/tile/x/TMUL.asl`` -> ``tile/x/TMUL``."""
    p = path.removeprefix("asl/").removesuffix(".asl")
    parts = [safe_segment(s) for s in p.split("/")]
    if parts and parts[-1] == "index":  # would collide with the directory index page
        parts[-1] = "index-unit"
    return "/".join(parts)


def unit_uri(lang: str, path: str) -> str:
    return f"{lang}/{unit_stem(path)}.md"


def tests_uri(lang: str, path: str) -> str:
    return f"{lang}/tests/{unit_stem(path)}.md"


def dir_index_uri(lang: str, dir_path: str) -> str:
    """Index of a directory of the ASL tree (``asl/tile/x`` -> ``en/tile/x/index.md``)."""
    rest = dir_path.removeprefix("asl").strip("/")
    parts = [safe_segment(s) for s in rest.split("/") if s]
    return "/".join([lang, *parts, "index.md"])


def adr_uri(lang: str, path: str) -> str:
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    return f"{lang}/adr/{safe_segment(stem)}.md"


def doc_uri(lang: str, path: str, root: str = "docs") -> str:
    """A prose document's page (``docs/governance/x.md`` -> ``en/docs/governance/x.md``; a stem ``index``
    becomes ``index-doc``, as a unit's does, so that no document takes the documents index's place)."""
    rest = path.removeprefix(root.rstrip("/") + "/").removesuffix(".md")
    parts = [safe_segment(s) for s in rest.split("/")]
    if parts and parts[-1] == "index":
        parts[-1] = "index-doc"
    return "/".join([lang, "docs", *parts]) + ".md"


def source_uri(path: str) -> str:
    """Language-neutral numbered source page of one ASL unit."""
    return "source/" + "/".join(safe_segment(s) for s in path.removesuffix(".asl").split("/")) + ".md"


def other_lang_uri(uri: str, lang: str, other: str) -> str:
    return other + uri[len(lang):] if uri.startswith(lang + "/") else uri


def dest_url(uri: str, directory_urls: bool) -> str:
    """The site-relative URL mkdocs gives the page generated at ``uri``."""
    base = uri.removesuffix(".md")
    if base == "index" or base.endswith("/index"):
        d = base[: -len("index")]
        return d if directory_urls else d + "index.html"
    return base + "/" if directory_urls else base + ".html"


def relative(from_uri: str, to_uri: str, directory_urls: bool, anchor: str = "") -> str:
    return _relative(from_uri, to_uri, directory_urls) + ("#" + anchor if anchor else "")


@memoised(maxsize=1 << 16)  # a matrix page makes ~10,000 links from one place
def _relative(from_uri: str, to_uri: str, directory_urls: bool) -> str:
    src = dest_url(from_uri, directory_urls)
    dst = dest_url(to_uri, directory_urls)
    src_dir = src if src.endswith("/") or src == "" else posixpath.dirname(src) + "/"
    src_dir = src_dir.rstrip("/") or "."
    if dst.endswith("/") or dst == "":
        rel = posixpath.relpath(dst.rstrip("/") or ".", src_dir)
        rel = "./" if rel == "." else rel + "/"
    else:
        rel = posixpath.relpath(dst, src_dir)
    return rel


@dataclass
class Linker:
    """Link helper bound to one page; remembers what the page links to."""

    page_uri: str
    directory_urls: bool
    targets: set[str] = field(default_factory=set)

    def __call__(self, to_uri: str, anchor: str = "") -> str:
        self.targets.add(to_uri)
        return relative(self.page_uri, to_uri, self.directory_urls, anchor)


def release_relative(from_uri: str, release: str, to_uri: str, directory_urls: bool, anchor: str = "") -> str:
    """A link from a page of this release to ``to_uri`` in the sibling release ``release`` of a
    multi-release site (``<site>/<release>/…``); it leaves this release's root, so the link check
    of this build does not see it (the multi-release tests check every such link on disk)."""
    src = dest_url(from_uri, directory_urls)
    src_dir = (src if src.endswith("/") or src == "" else posixpath.dirname(src) + "/").rstrip("/") or "."
    dst = posixpath.join("..", release, dest_url(to_uri, directory_urls))
    rel = posixpath.relpath(dst.rstrip("/"), src_dir) + ("/" if dst.endswith("/") else "")
    return rel + ("#" + anchor if anchor else "")


def nearest_uri(uri: str, uris: frozenset[str]) -> str | None:
    """``uri`` when ``uris`` has it, else the index of its nearest directory that does (a release
    without the page: the reader lands as close to it as the release allows), else None."""
    if uri in uris:
        return uri
    d = posixpath.dirname(uri)
    while d:
        candidate = f"{d}/index.md"
        if candidate in uris:
            return candidate
        d = posixpath.dirname(d)
    return None
