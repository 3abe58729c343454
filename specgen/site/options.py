"""The plugin's configuration keys: each with a default, each bad value a configuration error.

mkdocs validates a plugin's config before any event runs and reports a
``ValidationError`` as ``Config value 'plugins': Plugin 'specgen' option
'lang': …`` with a non-zero exit, never a traceback. Every key is documented
with its default and an example in ``site/plugin.md`` and the README.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config, ValidationError

from ..render.i18n import LANGUAGES
from .budget import byte_size
from .language import LANGUAGE_NAMES, THEME_LANGUAGE, language_of  # noqa: F401  (the site's language facts, one place)


class _Option(c.BaseConfigOption[Any]):
    """A config option with a default (mkdocs' base class takes none)."""

    def __init__(self, default: Any = None) -> None:
        super().__init__()
        self.default = default


class Languages(_Option):
    """``lang``: a list (or comma-separated text) of language directories specgen renders."""

    def run_validation(self, value: object) -> list[str] | None:
        if value is None:
            return None
        items: list[Any] = [x.strip() for x in value.split(",")] if isinstance(value, str) else value \
            if isinstance(value, list) else [value]
        langs: list[str] = []
        for item in items:
            if not isinstance(item, str) or item not in LANGUAGES:
                raise ValidationError(f"unknown language {item!r}: specgen renders {', '.join(sorted(LANGUAGES))} "
                                      "(e.g. lang: [en, zh])")
            if item in langs:
                raise ValidationError(f"language {item!r} is listed twice")
            langs.append(item)
        if not langs:
            raise ValidationError("no language given: list at least one of " + ", ".join(sorted(LANGUAGES)))
        return langs


class SiteNames(_Option):
    """``site_name``: the site's title per language (``{zh: PTO ISA 规范}``); others keep mkdocs' ``site_name``."""

    def run_validation(self, value: object) -> dict[str, str]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValidationError(f"expected a mapping of language to title (e.g. {{zh: 规范}}), got {value!r}")
        for k, v in value.items():
            if k not in LANGUAGES:
                raise ValidationError(f"unknown language {k!r} (known: {', '.join(sorted(LANGUAGES))})")
            if not isinstance(v, str) or not v.strip():
                raise ValidationError(f"the title of {k!r} must be non-empty text, got {v!r}")
        return {str(k): str(v) for k, v in value.items()}


class Navigation(_Option):
    """``nav``: ``auto`` (a tree under material, a short list elsewhere), ``tree``, ``short`` or ``none``."""

    CHOICES = ("auto", "tree", "short", "none")

    def run_validation(self, value: object) -> str:
        if value is None:
            return "auto"
        if value is True:
            return "auto"
        if value is False:
            return "none"
        if value not in self.CHOICES:
            raise ValidationError(f"expected one of {', '.join(self.CHOICES)}, got {value!r}")
        return str(value)


class ByteSize(_Option):
    """``page_budget``: the largest generated page body the site owner accepts (``None``: the tree's or 1 MiB)."""

    def run_validation(self, value: object) -> int | None:
        if value is None:
            return None
        try:
            return byte_size(value)
        except ValueError as e:
            raise ValidationError(str(e)) from None


class SpecgenConfig(Config):
    """The keys of ``plugins: [specgen: {...}]``; the user page ``site/plugin.md`` lists them all."""

    root = c.Optional(c.Type(str))  # None: $SPECGEN_ROOT, else the nearest specification.toml (bundled.config_root)
    lang = Languages(default=None)  # None: what mkdocs.yml declares (theme language, extra.alternate), else en
    site_name = SiteNames(default={})
    nav = Navigation(default="auto")
    search = c.Type(bool, default=True)  # add the theme's search plugin when ``plugins:`` lists none
    source_url = c.Optional(c.Type(str))
    commit = c.Optional(c.Type(str))
    templates_dir = c.Optional(c.Type(str))
    releases = c.Type(list, default=[])  # [{root, name}]: one site, a directory per release (``specgen build``)
    release = c.Optional(c.Type(str))  # which of ``releases`` this build renders (default: the newest)
    run_tests = c.Type(bool, default=True)  # run the AVS suite as part of the build (false: the pages say skipped)
    jobs = c.Type(int, default=0)  # worker processes for the AVS suite and rendering (0: the CPU count)
    page_budget = ByteSize(default=None)  # bytes per generated page body; overrides the tree's page_budget_bytes
    # hand pages about specgen itself: in the site of specgen's bundled sample only, never in the site of
    # another spec tree built with the same config (``specgen build --root OTHER``)
    specgen_pages = c.Type(list, default=[])
    replace_site_dir = c.Type(bool, default=False)  # replace a non-empty site_dir specgen did not write


def declared_languages(config: Any) -> list[str]:
    """The languages a user's ``mkdocs.yml`` declares: the theme's, then ``extra.alternate``; else English."""
    found: list[str] = []
    theme = config.theme
    for code in [theme["language"] if "language" in theme else None, theme["locale"] if "locale" in theme else None,
                 *[a.get("lang") for a in (config.extra.get("alternate") or []) if isinstance(a, dict)]]:
        lang = language_of(code)
        if lang is not None and lang not in found:
            found.append(lang)
    return found or ["en"]
