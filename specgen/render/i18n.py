"""Message catalogs: every UI string and generated sentence comes from here.

Templates never branch on the language; they call ``t(key, **values)``. The
values are spec text, so they are substituted into the catalog string first
and the whole result is autoescaped by Jinja2 afterwards.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from ..workspace import memoised
from ..diagnostics import Sentence

JOIN = "@join"  # a Sentence whose ``parts`` are said one after the other (a list of clauses)

LOCALES = Path(__file__).resolve().parent.parent / "locales"

# URL directory -> catalog file stem and the HTML lang attribute.
LANGUAGES: dict[str, str] = {"en": "en", "zh": "zh-CN"}


class _Safe(string.Formatter):
    """``str.format`` that leaves unknown placeholders visible instead of raising."""

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "{" + key + "}")
        return super().get_value(key, args, kwargs)


_FMT = _Safe()


def catalog_files(locale: str) -> list[Path]:
    """``locales/<locale>.json`` and one file per area under ``locales/<locale>/``.

    Areas keep their own files so each part of the site owns its sentences; a
    key defined in two files of one locale is an error, never a silent override.
    """
    return [LOCALES / f"{locale}.json", *sorted((LOCALES / locale).glob("*.json"))]


@memoised()
def load_catalog(locale: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in catalog_files(locale):
        if not path.is_file():
            continue
        for k, v in json.loads(path.read_text(encoding="utf-8")).items():
            if k in merged:
                raise ValueError(f"{path}: message key {k!r} is defined twice in the {locale} catalogs")
            merged[str(k)] = str(v)
    return merged


def plural_form(locale: str, count: Any) -> str:
    """The CLDR plural category of ``count`` in ``locale``: Chinese has one form (``other``); English
    says ``one`` for exactly 1."""
    if locale.startswith("zh"):
        return "other"
    try:
        return "one" if int(count) == 1 and str(count).strip() in ("1", "1.0") else "other"
    except (TypeError, ValueError):
        return "other"


@dataclass(frozen=True)
class Messages:
    """The catalog of one language, with English as the fallback for missing keys.

    A message that counts has a form per plural category, ``key|one`` and ``key|other``; a call
    with ``count=`` picks the language's form (Chinese needs only ``key``), so no sentence reads
    "element(s)".
    """

    lang: str  # URL directory: "en" or "zh"

    @property
    def locale(self) -> str:
        return LANGUAGES[self.lang]

    def _lookup(self, locale: str, key: str, values: dict[str, Any]) -> str | None:
        catalog = load_catalog(locale)
        if "count" in values:
            form = catalog.get(f"{key}|{plural_form(locale, values['count'])}") or catalog.get(f"{key}|other")
            if form:
                return form
        return catalog.get(key)

    def say(self, value: Any) -> Markup:
        """A sentence specgen wrote (:class:`~specgen.diagnostics.Sentence`) in this language, as markup: its
        values escaped, a value that is a sentence said the same way, ``detail`` (quoted text: a parser's
        message, spec syntax) in ``<code>``. Any other text is shown as written."""
        if not isinstance(value, Sentence):
            return Markup(escape(str(value)))
        if value.key == JOIN:
            return Markup("").join(self.say(x) for x in value.params.get("parts", ()))  # type: ignore[attr-defined]
        text = self._lookup(self.locale, value.key, value.params) or self._lookup("en", value.key, value.params)
        if text is None:
            return Markup(escape(str(value)))
        args: dict[str, Any] = {}
        for k, v in value.params.items():
            if k == "detail":
                args[k] = Markup('<code lang="en">{}</code>').format(v)
            elif isinstance(v, Sentence):
                args[k] = self.say(v)
            else:
                args[k] = v
        return Markup(escape(text)).format(**args)

    def term(self, key: str) -> str | None:
        """A glossary word (``operation.MUL``) in this language, English when the language lacks it; None when
        no catalog has it, so a caller names the thing by the spec's identifier instead of printing the key."""
        return self._text(key, {})

    def _text(self, key: str, values: dict[str, Any]) -> str | None:
        """This language's text, else English's; an empty text is a text (Chinese joins sentences with none)."""
        text = self._lookup(self.locale, key, values)
        return text if text is not None else self._lookup("en", key, values)

    def __call__(self, key: str, **values: Any) -> str:
        text = self._text(key, values)
        if text is None:
            text = key
        if not values:
            return text
        return _FMT.vformat(text, (), {k: str(v) for k, v in values.items()})


def catalogs_digest() -> str:
    """Part of every page's cache key: a catalog edit re-renders everything."""
    import hashlib
    h = hashlib.sha256()
    for p in sorted(LOCALES.rglob("*.json")):
        h.update(str(p.relative_to(LOCALES)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


_HTML_LANG = re.compile(r"<html(\s[^>]*?)?\slang=\"[^\"]*\"", re.I)


def page_locale(uri: str) -> str | None:
    """The HTML ``lang`` of a docs-relative page URI: ``zh/…`` is ``zh-CN``; ``None`` outside a language tree."""
    head = uri.split("/", 1)[0]
    return LANGUAGES.get(head) if "/" in uri else None


def set_document_lang(document: str, locale: str) -> str:
    """The document says its own language: the theme writes one ``<html lang>`` for the whole site.

    Only the opening ``<html …>`` tag is touched (screen readers and axe read
    the language from there); a document without one gets nothing added.
    """
    m = _HTML_LANG.search(document, 0, 4096)
    if m is None:
        return document
    start = m.end() - len(m.group(0).rsplit(" lang=", 1)[1])
    return document[:start] + f'"{locale}"' + document[m.end():]
