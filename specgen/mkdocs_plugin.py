"""The ``specgen`` mkdocs plugin: a thin adapter around :func:`specgen.render.render_site`.

Pages are added in memory (``File.generated``); nothing generated is written
to ``docs_dir``. Mkdocs reads a one-line Markdown stub per page (its title) and
the plugin swaps in the rendered HTML in ``on_page_content``, so spec text
never passes through Markdown. Under ``mkdocs serve`` the plugin instance
persists (it defines ``on_startup``), the spec root is watched, and a change
re-renders only the pages whose inputs changed (:class:`RenderCache`).
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import html
import io
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc

from .render import (BrokenLinks, Page, RenderCache, RenderOptions, example_failures, failures_message,
                     render_site)
from .render.core import DEFAULT_TEMPLATES
from .render.i18n import LANGUAGES, page_locale, set_document_lang

log = logging.getLogger("mkdocs.plugins.specgen")
ASSETS = DEFAULT_TEMPLATES.parent / "assets"
ASSET_URIS = ("assets/specgen/specgen.css", "assets/specgen/specgen.js")


class PageFile(File):
    """A generated page that a dirty build (``specgen serve``) rewrites only when its HTML changed.

    mkdocs' dirty mode asks each file ``is_modified()``; in-memory files always
    say yes, which would re-template every page. The plugin knows better: it
    compares each page's rendered content with what it handed mkdocs last time.
    """

    changed: bool = True
    _modified: bool | None = None

    def is_modified(self) -> bool:
        if self._modified is None:  # mkdocs asks twice per page (read, then write)
            self._modified = self.changed or not os.path.isfile(self.abs_dest_path)
        return self._modified


@dataclass
class LastBuild:
    """The objects of the last finished serve build: what a spec-only rebuild templates pages with."""

    config: Any
    files: Files
    nav: Any
    env: Any


class SpecgenConfig(Config):
    root = c.Type(str, default="spec")
    lang = c.Type((str, list), default=["en", "zh"])
    source_url = c.Optional(c.Type(str))
    commit = c.Optional(c.Type(str))
    templates_dir = c.Optional(c.Type(str))


class SpecgenPlugin(BasePlugin[SpecgenConfig]):
    """Adds the generated spec pages to a mkdocs site."""

    def __init__(self) -> None:
        self.cache = RenderCache()
        self.pages: dict[str, Page] = {}
        self.root: Path | None = None
        self.stats: dict[str, Any] = {}
        self.progress: Any = None  # optional callable(stage: str) set by ``specgen build``
        self.jobs = 1  # render processes; ``specgen build --jobs`` sets it
        self.graph: Any = None  # the SpecGraph of the current build (``on_pre_build``)
        self.command = "build"
        self.dirty = False  # mkdocs' dirty mode: unchanged pages keep their HTML (``specgen serve``)
        self._handed: dict[str, tuple[Page, str]] = {}  # url -> the page mkdocs last received, its digest
        self._env: tuple[str, Any] | None = None  # (theme digest, jinja env) kept across serve rebuilds
        self._changed_urls: set[str] = set()  # site URLs of the pages a dirty build rewrites
        self._records: Any = None  # the serve process's RecordCache (unpickled records kept)
        self._nav: Any = None
        self._building: LastBuild | None = None
        self.last_build: LastBuild | None = None  # what a finished serve build left (specgen.serve reuses it)
        self._t0 = self._t_loaded = self._t_examples = 0.0

    # -- lifecycle -----------------------------------------------------------------
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so mkdocs keeps this instance (and its cache) across serve rebuilds."""
        self.command = command
        self.dirty = dirty

    def _resolve(self, value: str | None, config: Any) -> Path | None:
        if not value:
            return None
        p = Path(value)
        if not p.is_absolute():
            p = Path(config.config_file_path or ".").resolve().parent / p
        return p

    def on_config(self, config: Any) -> Any:
        # ``specgen serve --root`` passes the root here: mkdocs re-reads the config on every rebuild.
        self.root = self._resolve(os.environ.get("SPECGEN_SITE_ROOT") or self.config.root, config)
        try:  # material segments Chinese with jieba; its start-up chatter is not a build message
            import jieba
            jieba.setLogLevel(logging.WARNING)
        except ImportError:
            pass
        for uri in ASSET_URIS:
            key = "extra_css" if uri.endswith(".css") else "extra_javascript"
            if uri not in [str(x) for x in config[key]]:
                config[key].append(uri)
        return config

    def _options(self, config: Any) -> RenderOptions:
        langs = self.config.lang
        if isinstance(langs, str):
            langs = [x.strip() for x in langs.split(",") if x.strip()]
        return RenderOptions(langs=tuple(langs), source_url=self.config.source_url, commit=self.config.commit,
                             templates_dir=self._resolve(self.config.templates_dir, config),
                             directory_urls=bool(config.use_directory_urls), jobs=self.jobs)

    def _stage(self, name: str) -> None:
        if self.progress is not None:
            self.progress(name)

    def on_pre_build(self, *, config: Any) -> None:
        """Load the spec and gate on its examples before mkdocs cleans ``site_dir``.

        A documented example result that the spec's ASL contradicts stops the
        build here, so even a plain ``mkdocs build`` leaves the previous output
        in place (``specgen build`` also builds into a temporary directory).
        """
        from .graph import SpecGraph
        from .loader import RootError, load_spec

        assert self.root is not None
        self._t0 = time.perf_counter()
        self._stage("load")
        try:
            spec = load_spec(self.root, cache=self._record_cache())
        except RootError as e:
            raise PluginError(f"specgen: {e}") from e
        self.graph = SpecGraph.build(spec)
        if spec.errors:
            log.info("specgen: the spec has %d loader error(s); run 'specgen validate --root %s'",
                     len(spec.errors), self.root)
        self._t_loaded = time.perf_counter()
        self._stage("examples")
        failures = example_failures(self.graph)
        self._t_examples = time.perf_counter()
        if failures:
            raise PluginError("specgen: " + failures_message(failures))

    def _record_cache(self) -> Any:
        """Under serve, one record cache for the server's life, keeping unpickled records (None: default)."""
        from .cache import RecordCache, cache_enabled
        if self.command != "serve" or not cache_enabled() or self.root is None:
            return None
        kept = self._records
        if kept is not None and kept.root == self.root.resolve():
            kept.next_load()
            return kept
        self._records = RecordCache(self.root, keep_objects=True)
        return self._records if self._records.enabled else None

    def render_pages(self, config: Any) -> tuple[list[Page], dict[str, bool]]:
        """Render the loaded graph (reusing unchanged pages) and say which pages changed since mkdocs
        last received them (all of them outside dirty mode)."""
        graph = self.graph
        assert graph is not None, "on_pre_build loads the spec"
        t1 = time.perf_counter()
        self._stage("render")
        try:
            pages = render_site(graph, self._options(config), self.cache)
        except BrokenLinks as e:
            raise PluginError(f"specgen: broken links between generated pages: {e}") from e
        t2 = time.perf_counter()
        self.pages = {p.url: p for p in pages}
        handed: dict[str, tuple[Page, str]] = {}
        changed: dict[str, bool] = {}
        for p in pages:
            before = self._handed.get(p.url)
            # a page the render cache reused is the very object handed over last time: unchanged
            digest = before[1] if before is not None and before[0] is p else _page_digest(p)
            handed[p.url] = (p, digest)
            changed[p.url] = not self.dirty or before is None or before[1] != digest
        self._handed = handed
        kinds: dict[str, int] = {}
        for p in pages:
            kinds[p.kind] = kinds.get(p.kind, 0) + 1
        self.stats = {"pages": len(pages), "kinds": kinds, "rendered": self.cache.rendered,
                      "changed": sum(changed.values()), "reused": self.cache.reused,
                      "load_s": self._t_loaded - self._t0, "examples_s": self._t_examples - self._t_loaded,
                      "render_s": t2 - t1}
        if self.command != "serve":  # encoding every page to measure it costs a serve rebuild 0.1 s
            self.stats["largest"] = max(((len(p.content.encode()), p.url) for p in pages), default=(0, ""))
        log.info("specgen: %d pages (%d rendered, %d unchanged) in %.1f s",
                 len(pages), self.cache.rendered, self.cache.reused, t2 - self._t0)
        return pages, changed

    def on_files(self, files: Files, *, config: Any) -> Files:
        pages, changed = self.render_pages(config)
        self._changed_urls = set()
        for p in pages:
            existing = files.get_file_from_path(p.url)
            if existing is not None:
                log.warning("specgen: %s exists in docs_dir and is replaced by the generated page", p.url)
                files.remove(existing)
            f = PageFile.generated(config, p.url, content=p.markdown)
            f.changed = changed[p.url]
            if f.changed:
                self._changed_urls.add(f.url)
            files.append(f)
        for uri in ASSET_URIS:
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, content=(ASSETS / uri.rsplit("/", 1)[-1]).read_bytes()))
        self._stage("mkdocs")
        return files

    def on_nav(self, nav: Any, *, config: Any, files: Files) -> Any:
        self._nav = nav
        return nav

    def on_env(self, env: Any, *, config: Any, files: Files) -> Any:
        """Under serve, keep the theme's Jinja environment while the theme's files are unchanged.

        mkdocs makes a new environment per build, so every rebuild compiled the
        whole material theme again (most of a one-page rebuild). The environment
        holds no per-build state (its filters read the page and config from the
        render context), so it is reused while the digest of the theme's files and
        the theme settings match.
        """
        if self.command != "serve":
            return env
        key = _theme_digest(config)
        if self._env is None or self._env[0] != key:
            self._env = (key, env)
        self.last_build = None  # complete only once on_post_build has run
        self._building = LastBuild(config, files, self._nav, self._env[1])
        return self._env[1]

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Files) -> str:
        """The theme writes ``page.title`` into ``<title>`` and the nav unescaped: give it escaped text."""
        p = self.pages.get(page.file.src_uri)
        if p is not None:
            page.meta["title"] = html.escape(p.title)
            page.meta["description"] = html.escape(p.description)  # the theme writes it unescaped too
        return markdown

    def on_page_content(self, html_text: str, *, page: Any, config: Any, files: Files) -> str:
        p = self.pages.get(page.file.src_uri)
        if p is None:
            return html_text
        page.toc = get_toc(_toc_tokens(p.toc))
        if p.kind in ("source", "tests"):
            page.meta["search"] = {"exclude": True}  # listings are data, not prose: keep the index small
        return p.content

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        """A zh page must say ``lang="zh-CN"`` on ``<html>``; material writes the site language everywhere."""
        locale = page_locale(page.file.src_uri)
        if locale is None or locale == LANGUAGES.get(str(config.theme.get("language") or "en")):
            return output
        return set_document_lang(output, locale)

    def on_serve(self, server: Any, *, config: Any, builder: Any) -> Any:
        if self.root is not None:
            server.watch(str(self.root))
        td = self._resolve(self.config.templates_dir, config)
        if td is not None:
            server.watch(str(td))
        server.watch(str(DEFAULT_TEMPLATES.parent))
        return server

    def on_build_error(self, *, error: Exception) -> None:
        self.last_build = self._building = None

    @event_priority(50)  # before the search plugin writes its index
    def on_post_build(self, *, config: Any) -> None:
        for plugin in config.plugins.values():  # "search" is "material/search" under material
            if hasattr(plugin, "search_index_prev"):
                forget_rebuilt_pages(plugin, self._changed_urls if self.dirty else None)
        if "SOURCE_DATE_EPOCH" not in os.environ:
            neutralise_sitemap(Path(config.site_dir))
        self.last_build, self._building = self._building, None
        if self.command == "serve":
            settle_heap()


def _theme_digest(config: Any) -> str:
    """Theme settings plus the custom templates' names, sizes and times (the installed theme's own
    files do not change under a running server; walking its icon set would cost more than a rebuild)."""
    from .serve import stamp
    return stamp([config.theme.custom_dir],
                 hashlib.sha256(repr(sorted(dict(config.theme).items(), key=str)).encode()))


def _page_digest(p: Page) -> str:
    return hashlib.sha256(f"{p.title}\0{p.kind}\0{p.content}".encode()).hexdigest()


def settle_heap() -> None:
    """Collect once, then exempt everything alive from future collections (``gc.freeze``).

    A dev server holds the whole site (records, pages, caches: ~1 GB on the corpus), and
    every full collection walks all of it; during a one-page rebuild those walks cost more
    than the rebuild itself. After each full build the live heap is frozen, so collections
    during rebuilds only walk what was made since. Frozen objects are still freed by
    reference counting; the next full build unfreezes and collects before freezing again,
    so garbage cycles do not pile up.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def forget_rebuilt_pages(search: Any, urls: set[str] | None) -> None:
    """Drop the previous build's search entries of every page this dirty build rewrote.

    material's search keeps the last index under dirty builds and replaces the
    entries of the *first* rebuilt page only (it assumes one page changed); a
    spec edit rewrites several (the unit's page in each language, index rows),
    whose old entries would stay beside the new ones. Pruning them first makes
    the merged index equal to a full build's. ``None`` (a full build) forgets
    the kept index entirely: mkdocs reuses plugin instances within a process, and
    a full build after dirty ones must not merge with their index.
    """
    if search is None or getattr(search, "search_index_prev", None) is None:
        return
    if urls is None:
        search.search_index_prev = None
        return
    prev = search.search_index_prev
    prev.entries = [e for e in prev.entries if str(e.get("location", "")).split("#", 1)[0] not in urls]


def _toc_tokens(toc: tuple[tuple[int, str, str], ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for level, ident, text in toc:
        tok = {"level": level, "id": ident, "name": html.escape(text), "children": []}
        if level > 2 and out:
            out[-1]["children"].append(tok)
        else:
            out.append(tok)
    return out


def neutralise_sitemap(site: Path) -> None:
    """No build date in the output: drop ``<lastmod>`` and rewrite the gzip without mtime or file name."""
    xml = site / "sitemap.xml"
    if not xml.is_file():
        return
    text = re.sub(r"\s*<lastmod>[^<]*</lastmod>", "", xml.read_text(encoding="utf-8"))
    xml.write_text(text, encoding="utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", filename="", mtime=0) as gz:
        gz.write(text.encode("utf-8"))
    (site / "sitemap.xml.gz").write_bytes(buf.getvalue())
