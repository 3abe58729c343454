"""HTML fragments built outside templates: highlighted ASL, pretty JSON, ADR bodies.

Each function escapes its input itself (Pygments escapes every token;
markdown-it-py runs with raw HTML disabled) and returns :class:`Markup`, so
templates can place the result without ``|safe`` on anything that came from
the spec unescaped.
"""

from __future__ import annotations

import json
import posixpath
import re
from functools import lru_cache
from typing import Any, Callable

from markupsafe import Markup, escape
from markdown_it import MarkdownIt
from .lexer import CONSTANTS, KEYWORDS, TYPES


_TOKEN = re.compile(r"""
 (?P<cp>//[ \t]*(?:PTO-[A-Z0-9-]+:|NDF-(?:BEGIN|END):|DOC-(?:BEGIN|END):|ndf:)[^\n]*)
|(?P<c1>//[^\n]*)
|(?P<cm>/\*.*?(?:\*/|\Z))
|(?P<s2>"(?:\\.|[^"\\\n])*")
|(?P<mb>'[01xX ]*')
|(?P<mh>0x[0-9a-fA-F_]+)
|(?P<mf>[0-9][0-9_]*\.[0-9]+)
|(?P<mi>[0-9][0-9_]*)
|(?P<w>[A-Za-z_][A-Za-z0-9_]*)
|(?P<o>==|!=|<=|>=|=>|-->|<->|&&|\|\||\+\+|::|<<|>>|[-+*/^<>=!])
|(?P<p>[()\[\]{},;:.])
""", re.S | re.X)
_KEYWORDS = frozenset(KEYWORDS)
_TYPES = frozenset(TYPES)
_CONSTANTS = frozenset(CONSTANTS)
_DECL = frozenset({"func", "getter", "setter"})


def _spans(text: str) -> list[tuple[str, str]]:
    """(css class, text) pieces covering ``text`` exactly, classes as Pygments names them."""
    out: list[tuple[str, str]] = []
    pos = 0
    prev_word = ""
    for m in _TOKEN.finditer(text):
        if m.start() > pos:
            out.append(("", text[pos:m.start()]))
        kind = m.lastgroup or ""
        tok = m.group()
        if kind == "w":
            if prev_word in _DECL:
                kind = "nf"
            elif tok in _KEYWORDS:
                kind = "k"
            elif tok in _TYPES:
                kind = "kt"
            elif tok in _CONSTANTS:
                kind = "kc"
            else:
                kind = ""  # plain names stay unwrapped: half the markup, same look
            prev_word = tok
        elif kind == "cm":
            kind = "c"
        elif kind in ("o", "p"):
            kind = ""
        out.append((kind, tok))
        pos = m.end()
    if pos < len(text):
        out.append(("", text[pos:]))
    return out


@lru_cache(maxsize=65536)
def _line_html(line: str) -> str:
    parts = []
    for cls, tok in _spans(line):
        e = escape_text(tok)
        parts.append(f'<span class="{cls}">{e}</span>' if cls else e)
    return "".join(parts)


def _lines_html(text: str) -> list[str]:
    if "/*" not in text:  # every token is inside one line: tokenize (and cache) line by line
        return [_line_html(line) for line in text.split("\n")]
    lines: list[list[str]] = [[]]
    for cls, tok in _spans(text):
        for i, part in enumerate(tok.split("\n")):
            if i:
                lines.append([])
            if part:
                e = escape_text(part)
                lines[-1].append(f'<span class="{cls}">{e}</span>' if cls else e)
    return ["".join(x) for x in lines]


@lru_cache(maxsize=4096)
def highlight_asl(text: str, *, first_line: int = 1, anchor: str | None = None) -> Markup:
    """Numbered, highlighted ASL; with ``anchor`` every line number is an anchor ``<anchor>-<n>``.

    A single-regex tokenizer (same token classes as :class:`ASLLexer`, so
    material's Pygments colours apply) instead of Pygments itself: the site
    highlights ~20 MB of ASL and Pygments' HTML formatter took most of the
    build time. Lines are cached (tests share much boilerplate) and so are
    whole listings (both languages show the same ones).
    """
    out = ['<div class="highlight sg-asl" data-search-exclude><pre><code>']
    for i, body in enumerate(_lines_html(text.rstrip("\n"))):
        n = first_line + i
        if anchor:
            # a span, not <a id>: material hides anchors with ids inside code blocks
            out.append(f'<span class="ln" id="{anchor}-{n}">{n}</span>')
        else:
            out.append(f'<span class="ln">{n}</span>')
        out.append(body)
        out.append("\n")
    out.append("</code></pre></div>")
    return Markup("".join(out))


def escape_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def json_pretty(value: Any) -> str:
    """Records as formatted JSON: keys sorted, two-space indent, non-ASCII kept."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


def markdown_body(text: str, resolve: Callable[[str], str | None]) -> Markup:
    """An ADR body rendered with markdown-it-py, HTML disabled.

    ``resolve`` maps a link target to our own URL (or ``None`` to drop the link
    but keep its text): relative links in ADRs point into the spec repository,
    not at our pages.
    """
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.enable("strikethrough")
    env: dict[str, Any] = {}
    tokens = md.parse(text, env)
    _rewrite_links(tokens, resolve)
    return Markup(md.renderer.render(tokens, md.options, env))


def _rewrite_links(tokens: list[Any], resolve: Callable[[str], str | None]) -> None:
    for tok in tokens:
        if tok.children:
            children = tok.children
            drop_depth = 0
            kept = []
            for ch in children:
                if ch.type == "link_open":
                    href = str(ch.attrGet("href") or "")
                    new = resolve(href)
                    if new is None:
                        drop_depth += 1
                        continue
                    ch.attrSet("href", new)
                elif ch.type == "link_close" and drop_depth:
                    drop_depth -= 1
                    continue
                kept.append(ch)
            tok.children = kept


def resolve_relative(base_path: str, href: str) -> str | None:
    """Root-relative path of a relative link written in the file at ``base_path``."""
    if not href or "://" in href or href.startswith(("#", "mailto:", "/")):
        return None
    target = href.split("#", 1)[0]
    if not target:
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base_path), target))
    return None if joined.startswith("..") else joined


def text(value: Any) -> Markup:
    return escape(value)
