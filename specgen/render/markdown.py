"""A document's Markdown as page HTML: headings with anchors, links resolved to the site's pages.

A document of the tree (:mod:`specgen.render.kinds.doc`) is Markdown written for the spec's
repository: its relative links name files there, and its raw HTML is the generator's comments or
a stray tag. It is rendered with markdown-it-py (CommonMark, tables, strikethrough) and raw HTML
never reaches the page: a comment is dropped, any other tag shows as the text it is. Every heading
gets the anchor GitHub gives it (what the spec's own ``file.md#section`` links name), unique on the
page; every link goes through ``resolve``, and one it maps to None keeps its text with no href; an
image the site does not publish (any but an ``https://`` one) is its alt text. Nothing on the page
points at a file the site does not have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

#: ids the page around the body already uses (base.html): a heading slug never takes them
RESERVED_IDS = frozenset({"page-title", "lang-switch"})
_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)


@dataclass(frozen=True)
class Heading:
    """One heading of the body: its level on the page (2-6), anchor and text (the page's contents)."""

    level: int
    anchor: str
    text: str


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen."""
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable("table")
    md.enable("strikethrough")
    return md


def render_markdown(text: str, resolve: Callable[[str], str | None]) -> tuple[Markup, list[Heading]]:
    """The body as HTML and its headings; an H1 in the body becomes an H2 (the page's title is the H1)."""
    md = _parser()
    env: dict[str, Any] = {}
    tokens = _inert_html(md.parse(text, env))
    for tok in tokens:
        if tok.children:
            tok.children = resolve_inline(tok.children, resolve)
    headings = _anchor_headings(tokens)  # after resolving: a heading's own pilcrow is not the document's link
    return Markup(md.renderer.render(tokens, md.options, env)), headings


def _is_comment(html: str) -> bool:
    s = html.strip()
    return s.startswith("<!--") and s.endswith("-->")


def _inert_html(tokens: list[Token]) -> list[Token]:
    """Raw HTML as data: comments dropped, any other block shown as code, any other inline tag as text."""
    out: list[Token] = []
    for tok in tokens:
        if tok.type == "html_block":
            if _is_comment(tok.content):
                continue
            tok.type, tok.tag, tok.block = "code_block", "code", True
        if tok.children:
            kept = []
            for ch in tok.children:
                if ch.type == "html_inline":
                    if _is_comment(ch.content):
                        continue
                    ch.type = "text"
                kept.append(ch)
            tok.children = kept
        out.append(tok)
    return out


def _anchor_headings(tokens: list[Token]) -> list[Heading]:
    used = set(RESERVED_IDS)
    headings: list[Heading] = []
    for i, tok in enumerate(tokens):
        if tok.type not in ("heading_open", "heading_close"):
            continue
        level = max(2, int(tok.tag[1:]))
        tok.tag = f"h{level}"
        if tok.type == "heading_close":
            continue
        inline = tokens[i + 1]
        words = "".join(ch.content for ch in inline.children or [] if ch.type in ("text", "code_inline"))
        base = github_slug(words) or "section"
        anchor, n = base, 0
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        tok.attrSet("id", anchor)
        inline.children = [*(inline.children or []), *_headerlink(anchor)]
        headings.append(Heading(level, anchor, words.strip()))
    return headings


def _headerlink(anchor: str) -> list[Token]:
    """The pilcrow every heading of the site ends with (what the page's contents are read from)."""
    opening = Token("link_open", "a", 1)
    for key, value in (("class", "headerlink"), ("href", "#" + anchor), ("aria-label", "\u00b6")):
        opening.attrSet(key, value)
    mark = Token("text", "", 0)
    mark.content = "\u00b6"
    return [opening, mark, Token("link_close", "a", -1)]


def resolve_inline(children: list[Token], resolve: Callable[[str], str | None]) -> list[Token]:
    """Each link's target through ``resolve`` (an unresolved link keeps its text); a repository image its alt."""
    kept: list[Token] = []
    dropped = 0
    for ch in children:
        if ch.type == "link_open":
            new = resolve(str(ch.attrGet("href") or ""))
            if new is None:
                dropped += 1
                continue
            ch.attrSet("href", new)
        elif ch.type == "link_close" and dropped:
            dropped -= 1
            continue
        elif ch.type == "image" and not str(ch.attrGet("src") or "").startswith("https://"):
            alt = Token("text", "", 0)  # a file of the repository: the site does not publish it
            alt.content = ch.content
            kept.append(alt)
            continue
        kept.append(ch)
    return kept
