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
from typing import Any, Callable, Protocol

from markupsafe import Markup, escape
from markdown_it import MarkdownIt
from ..workspace import memoised
from .lexer import CONSTANTS, KEYWORDS, TYPES
from .searchtext import CLOSE, OPEN
from .markdown import resolve_inline  # the documents' link rule: an ADR's links and images alike


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


class RefLinks(Protocol):
    """Where a listing's identifiers link: the page's view of the spec's definition table.

    One resolver per page directory and language is shared by every listing rendered there, and it
    keeps the lines and listings it linked (``memo``): they die with the resolver and its graph, so a
    server that renders a new graph at every edit never keeps an earlier one alive through a cache.
    """

    memo: dict[Any, str]

    def ref(self, name: str) -> tuple[str, str] | None:
        """``(href, title)`` of the definition of ``name``, or None: not a name the spec defines."""


_BINDERS = frozenset({"func", "getter", "setter", "type", "constant", "config", "let", "var"})


def _piece(cls: str, tok: str, refs: RefLinks | None, prev_word: str) -> str:
    e = escape_text(tok)
    if refs is not None and not cls and (tok[0].isalpha() or tok[0] == "_"):
        # a declared name (after func/type/let …) is the definition itself, not a use, and a
        # name after "." is a record field
        hit = None if prev_word in _BINDERS or prev_word == "." else refs.ref(tok)
        if hit is not None:
            href, title = hit
            return f'<a class="sg-ref" href="{href}" title="{escape_attr(title)}">{e}</a>'
    return f'<span class="{cls}">{e}</span>' if cls else e


@memoised(maxsize=131072)
def _plain_line(line: str) -> str:
    return _render_line(line, None)


def _line_html(line: str, refs: RefLinks | None = None) -> str:
    if refs is None:
        return _plain_line(line)
    hit = refs.memo.get(line)
    if hit is None:
        hit = refs.memo[line] = _render_line(line, refs)
    return hit


def _render_line(line: str, refs: RefLinks | None) -> str:
    parts = []
    prev = ""
    for cls, tok in _spans(line):
        parts.append(_piece(cls, tok, refs, prev))
        if tok.strip():
            prev = tok
    return "".join(parts)


def _lines_html(text: str, refs: RefLinks | None) -> list[str]:
    if "/*" not in text:  # every token is inside one line: tokenize (and cache) line by line
        return [_line_html(line, refs) for line in text.split("\n")]
    lines: list[list[str]] = [[]]
    prev = ""
    for cls, tok in _spans(text):
        for i, part in enumerate(tok.split("\n")):
            if i:
                lines.append([])
            if part:
                lines[-1].append(_piece(cls, part, refs, prev))
        if tok.strip():
            prev = tok
    return ["".join(x) for x in lines]


def highlight_asl(text: str, *, first_line: int = 1, anchor: str | None = None,
                  refs: RefLinks | None = None) -> Markup:
    """Numbered, highlighted ASL: one ``<span class="ln" id="<anchor>-<n>">`` per source line.

    The markup is what mkdocs-material's code blocks are made of: ``<code>`` whose
    children are one element per line (material's JavaScript turns such a
    ``<code>`` into a grid of its ``span[id]`` children, so anything else, such as
    a number span beside loose tokens, falls apart into one token per row). Line
    numbers are a CSS counter in the gutter (``specgen-code.css``), not text, so
    copying a listing copies the ASL alone and ``#<anchor>-<n>`` highlights its
    line through ``:target`` with or without JavaScript. With ``refs`` every
    identifier the spec defines links to its definition (``a.sg-ref``, the
    signature in its title).

    A single-regex tokenizer (same token classes as :class:`ASLLexer`, so
    material's Pygments colours apply) instead of Pygments itself: the site
    highlights ~20 MB of ASL and Pygments' HTML formatter took most of the
    build time. Lines are cached (tests share much boilerplate) and so are
    whole listings (both languages show the same ones).
    """
    if refs is None:
        return _plain_listing(text, first_line, anchor)
    key = ("\0listing", text, first_line, anchor)
    hit = refs.memo.get(key)  # type: ignore[call-overload]
    if hit is None:
        hit = refs.memo[key] = _listing(text, first_line, anchor, refs)  # type: ignore[index]
    return Markup(hit)


@memoised(maxsize=4096)
def _plain_listing(text: str, first_line: int, anchor: str | None) -> Markup:
    return _listing(text, first_line, anchor, None)


def _listing(text: str, first_line: int, anchor: str | None, refs: RefLinks | None) -> Markup:
    style = f' style="counter-reset: sg-ln {first_line - 1}"' if first_line != 1 else ""
    out = [f'{OPEN}<div class="highlight sg-asl copy" data-search-exclude><pre><code{style}>']
    for i, body in enumerate(_lines_html(text.rstrip("\n"), refs)):
        n = first_line + i
        ident = f' id="{anchor}-{n}"' if anchor else ""
        out.append(f'<span class="ln"{ident}>{body}\n</span>')
    out.append(f"</code></pre></div>{CLOSE}")  # search never reads a listing (searchtext.py)
    return Markup("".join(out))


def highlight_diff(diff: str, max_lines: int) -> tuple[Markup, int]:
    """A unified diff, one element per line (``sg-diff-add|del|ctx|hunk``), the text after each line's
    mark coloured as ASL (JSON records read the same: strings, numbers, names). At most ``max_lines``
    lines are shown (a page stays within its budget); the second value is how many were left out."""
    lines = diff.split("\n")
    shown, cut = lines[:max_lines], max(0, len(lines) - max_lines)
    out = [f'{OPEN}<div class="highlight sg-diff" data-search-exclude><pre><code>']
    for line in shown:
        if line.startswith(("---", "+++")):
            out.append(f'<span class="sg-diff-file">{escape_text(line)}\n</span>')
        elif line.startswith("@@"):
            out.append(f'<span class="sg-diff-hunk">{escape_text(line)}\n</span>')
        else:
            kind = {"+": "add", "-": "del"}.get(line[:1], "ctx")
            out.append(f'<span class="sg-diff-{kind}"><span class="sg-diff-mark">{escape_text(line[:1] or " ")}'
                       f'</span>{_line_html(line[1:])}\n</span>')
    out.append(f"</code></pre></div>{CLOSE}")
    return Markup("".join(out)), cut


def escape_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(s: str) -> str:
    """Text for a double-quoted attribute (newlines kept: a title shows them as line breaks)."""
    return escape_text(s).replace('"', "&quot;").replace("\n", "&#10;")


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
            tok.children = resolve_inline(tok.children, resolve)


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
