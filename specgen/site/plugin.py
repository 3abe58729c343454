"""The ``specgen`` mkdocs plugin: mkdocs' events, each handed to the build steps or the server.

Pages are added in memory (``File.generated``); nothing generated is written
to ``docs_dir``. Mkdocs reads a one-line Markdown stub per page (its title) and
the plugin swaps in the rendered HTML in ``on_page_content``, so spec text
never passes through Markdown. Under ``mkdocs serve`` the plugin instance
persists (it defines ``on_startup``) and holds the server's
:class:`~specgen.site.serve.ServeState`; its ``on_serve`` installs the spec
rebuild (:func:`specgen.site.serve.install`), so a spec edit re-renders only the
pages whose inputs changed and the AVS tests it affected run in the background.
"""

from __future__ import annotations

import html
import logging
import os
import time
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc

from ..bundled import NoRoot, config_root
from ..cores import usable_cores
from ..graph import SpecGraph
from ..render import Page, ReleaseSite, RenderCache, RenderOptions
from ..render.core import DEFAULT_TEMPLATES
from ..render.i18n import LANGUAGES, set_document_lang
from . import build, guard
from . import notfound, searchindex
from .engine import adapter
from .inputs import ROOT_ENV, SiteInputError
from .language import Chrome, hand_title, language_nav, page_language, supplied_nav
from .options import SpecgenConfig, declared_languages
from .prepare import own_site
from .releases import RELEASE_ASSETS, Graphs, Release, order, parse_releases, release_name, release_site
from .liveresults import background_jobs
from .serve import ServeState, install, other_inputs_digest
from .pagestate import PageStates
from .sitesearch import SiteSearch
from .stats import BuildStats


def _quiet_jieba() -> None:
    """Material segments Chinese with jieba; its start-up chatter is not a build message."""
    try:
        import jieba
        jieba.setLogLevel(logging.WARNING)
    except ImportError:
        pass


def _add_assets(config: Any, uris: tuple[str, ...]) -> None:
    """Put stylesheets and scripts into the theme's ``extra_css`` / ``extra_javascript`` once."""
    for uri in uris:
        key = "extra_css" if uri.endswith(".css") else "extra_javascript"
        if uri not in [str(x) for x in config[key]]:
            config[key].append(uri)


class SpecgenPlugin(BasePlugin[SpecgenConfig]):
    """Adds the generated spec pages to a mkdocs site."""

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.root: Path | None = None
        self.stats = BuildStats()
        self.progress: Any = None  # optional callable(stage: str) set by ``specgen build``
        self.graph: SpecGraph | None = None  # the graph of the current build (``on_pre_build``)
        self.dirty = False  # mkdocs' dirty mode (``mkdocs serve --dirty``): unchanged pages keep their HTML
        self.serving: ServeState | None = None  # what a server keeps between builds (command ``serve``)
        self.site_urls: dict[str, str] = {}  # a generated page's source URI -> its URL in the site
        self._times = build.LoadTimes()
        self.graphs: Graphs | None = None  # a multi-release build's graphs, shared by its releases' builds
        self.releases: list[Release] = []  # oldest first; empty for a single-release site
        self.release_site: ReleaseSite | None = None  # a multi-release build: this release among the others
        self.langs: list[str] = ["en"]  # the languages rendered; the first is the site's main one
        self.chrome: Chrome | None = None
        self.states = PageStates()  # the pages handed to mkdocs, as workspace inputs (digests, search entries)
        self.search = SiteSearch(self.states)  # the generated pages' own search entries and the index written
        self.added_search: Any = None  # the search plugin this plugin added (kept across serve rebuilds)

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so mkdocs keeps this instance (and its caches) across serve rebuilds."""
        self.dirty = dirty
        if command != "serve":
            self.serving = None
        elif self.serving is None:
            self.serving = ServeState()

    def _resolve(self, value: str | None, config: Any) -> Path | None:
        if not value:
            return None
        p = Path(value)
        if not p.is_absolute():
            p = Path(config.config_file_path or ".").resolve().parent / p
        return p

    def _spec_root(self, config: Any) -> Path | None:
        """``specgen serve --root`` (passed here because mkdocs re-reads the config on every rebuild), else the
        explicit ``root:``, else ``$SPECGEN_ROOT``, else the nearest ``specification.toml`` from the config's
        folder upward (:func:`specgen.bundled.config_root`); a site of ``releases:`` needs none."""
        given = os.environ.get(ROOT_ENV)
        if given:
            return Path(given)
        if self.config.releases:
            return None
        try:
            return config_root(self.config.root, Path(config.config_file_path or "mkdocs.yml"))
        except NoRoot as e:
            raise PluginError(f"specgen: {e}") from e

    def on_config(self, config: Any) -> Any:
        self.root = self._spec_root(config)
        if self.serving is None:  # a server writes only its own temporary folder
            self._guard_site_dir(config)
        self._configure_releases(config)
        self._configure_languages(config)
        _quiet_jieba()
        _add_assets(config, build.ASSET_URIS)
        return config

    def _guard_site_dir(self, config: Any) -> None:
        """The output-safety rule for ``site_dir``, before mkdocs cleans it (a plain ``mkdocs build``)."""
        try:
            guard.check_plugin_site_dir(config, None if self.config.releases else self.root,
                                        self.config.replace_site_dir)
        except ValueError as e:  # the output-safety rule, or a malformed ``releases``
            raise PluginError(str(e)) from e

    def _configure_languages(self, config: Any) -> None:
        """The languages (given, or what mkdocs.yml declares), the main one first; search kept."""
        declared = declared_languages(config)
        langs = list(self.config.lang or declared)
        main = next((x for x in declared if x in langs), langs[0])
        self.langs = [main, *(x for x in langs if x != main)]
        self.chrome = Chrome(config, dict(self.config.site_name))
        if self.config.search:
            self.added_search = adapter().ensure_search(config, self.added_search) or self.added_search

    @property
    def jobs(self) -> int:
        """Worker processes for the AVS suite and rendering (``jobs: 0``: one per usable core)."""
        return max(1, int(self.config.jobs or usable_cores()))

    def _suite(self) -> build.SuitePlan:
        """Run the suite in this build, in the server's background, or not at all (``run_tests: false``)."""
        if not self.config.run_tests:
            return build.SuitePlan("skip", self.jobs)
        return build.SuitePlan("background" if self.serving is not None else "build", self.jobs)

    def _loaded(self, root: Path) -> tuple[SpecGraph, build.LoadTimes]:
        if self.graphs is None:
            self.graphs = Graphs(lambda r: build.load_graph(r, None, self._stage, self._suite()))
        loaded: tuple[SpecGraph, build.LoadTimes] = self.graphs.get(root)
        return loaded

    def _configure_releases(self, config: Any) -> None:
        """Pick this build's release, turn on material's version selector and the same-page switch."""
        self.releases = []
        if self.serving is not None:  # a server rebuild reloads what changed on disk
            self.graphs = None
        if not self.config.releases:
            return
        try:
            found = parse_releases(self.config.releases, Path(config.config_file_path or ".").resolve().parent)
            self.releases = order([Release(r, name or release_name(self._loaded(r)[0])) for r, name in found])
        except SiteInputError as e:
            raise PluginError(str(e)) from e
        want = self.config.release or self.releases[-1].name
        current = next((r for r in self.releases if r.name == want), None)
        if current is None:
            raise PluginError(f"specgen: release {want!r} is not one of {[r.name for r in self.releases]}")
        self.root = current.root
        extra = config["extra"]
        if "version" not in extra:
            extra["version"] = {"provider": "mike"}
        _add_assets(config, RELEASE_ASSETS)

    def _options(self, config: Any) -> RenderOptions:
        langs = sorted(self.langs, key=list(LANGUAGES).index)  # page order independent of the main language
        return RenderOptions(langs=tuple(langs), source_url=self.config.source_url, commit=self.config.commit,
                             templates_dir=self._resolve(self.config.templates_dir, config),
                             directory_urls=bool(config.use_directory_urls), jobs=self.jobs)

    def _stage(self, name: str) -> None:
        if self.progress is not None:
            self.progress(name)

    def on_pre_build(self, *, config: Any) -> None:
        """Load the spec and gate on its examples before mkdocs cleans ``site_dir``."""
        assert self.root is not None
        self.release_site = None
        if self.releases:
            self.graph, self._times = self._loaded(self.root)
            assert self.graphs is not None
            self.release_site = release_site(self.releases, self.root, self.graphs, self._options(config).langs,
                                             not self.config.source_url)
            return
        records = self.serving.before_build(self.root) if self.serving is not None else None
        self.graph, self._times = build.load_graph(self.root, records, self._stage, self._suite())

    def render_pages(self, config: Any, results_later: bool = False) -> tuple[list[Page], dict[str, bool]]:
        """Render the loaded graph (reusing unchanged pages) and say which pages changed since mkdocs
        last received them (all of them outside a server); ``results_later``: a spec rebuild's."""
        assert self.graph is not None, "on_pre_build loads the spec"
        cache = self.serving.render_cache if self.serving is not None else RenderCache()
        t1 = time.perf_counter()
        pages = build.render_pages(self.graph, self._options(config), cache, self._stage, self.release_site,
                                   self.config.page_budget, results_later)
        render_s = time.perf_counter() - t1
        self.pages = {p.url: p for p in pages}
        changed = self.states.hand(pages, compare=self.serving is not None)  # a build writes every page
        self.stats = build.page_stats(pages, cache, changed, self._times, render_s, measure=self.serving is None)
        return pages, changed

    def on_files(self, files: Files, *, config: Any) -> Files:
        if not own_site(self.root):
            build.drop_pages(files, self.config.specgen_pages)
        pages, changed = self.render_pages(config)
        self.site_urls = build.add_pages(files, config, pages, changed)
        hand = {f.src_uri: hand_title(f.content_string) for f in files.documentation_pages()
                if f.src_uri not in self.pages}
        config.nav = supplied_nav(config, hand, pages, self.langs, self.config.nav) or config.nav
        for uri in RELEASE_ASSETS if self.releases else ():
            if files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, content=(build.ASSETS / uri.rsplit("/", 1)[-1]).read_bytes()))
        self._stage("mkdocs")
        return files

    def on_nav(self, nav: Any, *, config: Any, files: Files) -> Any:
        if self.serving is not None:
            self.serving.nav = nav
        return nav

    def on_env(self, env: Any, *, config: Any, files: Files) -> Any:
        """Under serve, the theme's Jinja environment is kept while the theme is unchanged."""
        return self.serving.environment(config, files, env) if self.serving is not None else env

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Files) -> str:
        """The theme writes ``page.title`` into ``<title>`` and the nav unescaped: give it escaped text."""
        p = self.pages.get(page.file.src_uri)
        if p is not None:
            page.meta["title"] = html.escape(p.title)
            page.meta["description"] = html.escape(p.description)  # the theme writes it unescaped too
        return markdown

    def on_page_content(self, html_text: str, *, page: Any, config: Any, files: Files) -> str:
        """The page's own HTML and headings; the theme's search skips it (specgen writes its entries)."""
        p = self.pages.get(page.file.src_uri)
        if p is None:
            return html_text
        page.toc = get_toc(build.toc_tokens(p.toc))
        adapter().keep_out_of_theme_search(page)
        return p.content

    def on_page_context(self, context: Any, *, page: Any, config: Any, nav: Any) -> Any:
        """The page is rendered in its language's chrome (theme language, site title)."""
        lang = page_language(page.file.src_uri, self.langs)
        if self.chrome is not None:
            self.chrome.enter(config, lang)
        if lang is not None and "nav" in context:
            context["nav"] = language_nav(context["nav"], page)
        return context

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        """``<html lang>`` is the page's locale (``zh-CN``); the search index waits for the search box and is
        the page's language's."""
        if self.chrome is not None:
            self.chrome.leave(config)
        lang = page_language(page.file.src_uri, self.langs)
        if adapter().search_kind(config) == "material":  # the index is fetched when search is first used, in the page's language
            output = searchindex.lazy_index(output, lang if lang != self.langs[0] else None)
        return output if lang is None else set_document_lang(output, LANGUAGES[lang])

    def on_serve(self, server: Any, *, config: Any, builder: Any) -> Any:
        """Watch the spec and templates; rebuild spec edits incrementally (:func:`specgen.site.serve.install`)."""
        if self.root is not None:
            server.watch(str(self.root))
        td = self._resolve(self.config.templates_dir, config)
        if td is not None:
            server.watch(str(td))
        server.watch(str(DEFAULT_TEMPLATES.parent))
        return install(self, server)

    def on_shutdown(self) -> None:
        """The server stops: its background work and worker processes end with it (:meth:`ServeState.stop`)."""
        if self.serving is not None:
            self.serving.stop()

    def after_rebuild(self) -> None:
        """A server's build finished: the AVS tests it found pending run in the background."""
        times = self._times
        if self.serving is not None and self.graph is not None and times.conformance is not None:
            self.serving.live.schedule(self.graph, times.conformance, background_jobs(self.config.jobs),
                                       times.worked_pending)

    def on_build_error(self, *, error: Exception) -> None:
        if self.serving is not None:
            self.serving.failed()

    @event_priority(50)  # before the search plugin writes its index
    def _before_search(self, *, config: Any) -> None:
        if not self.dirty:
            adapter().forget_kept_index(config)
        build.write_sitemap(Path(config.site_dir), config.site_url)
        if self.serving is None:
            guard.mark_site(config.site_dir)

    @event_priority(-50)  # after the search plugin wrote its index
    def _after_search(self, *, config: Any) -> None:
        self.search.after_theme(Path(config.site_dir))
        self.write_search_index(config)
        rs = self.release_site
        notfound.place(Path(config.site_dir), self.langs, list(rs.names) if rs else [], rs.current if rs else "",
                       config.site_url)
        if self.serving is not None:
            self.serving.finished(other_inputs_digest(config, self))
            self.after_rebuild()

    on_post_build = CombinedEvent(_before_search, _after_search)

    def write_search_index(self, config: Any) -> bool:
        """The site's index: the theme's entries of the hand pages, this build's pages' own and the ASL
        definitions, one index per language under Material (:class:`~specgen.site.sitesearch.SiteSearch`);
        False when the index on disk is that already (a server's rebuild that changed no entry)."""
        graph, options = self.graph, self._options(config)
        pages = [(p, self.site_urls[u]) for u, p in self.pages.items() if u in self.site_urls]
        written = self.search.write(Path(config.site_dir), adapter().search_kind(config), pages, self.langs[0],
                                    self.langs, searchindex.separator_of(config),
                                    lambda: searchindex.definitions(graph, self.langs, options),
                                    searchindex.definitions_key(graph, self.langs, options)
                                    if graph is not None else "")
        if self.search.sizes:
            self.stats.search_index = dict(self.search.sizes)
        return written

    def search_entries_made(self) -> int:
        """Pages whose search entries the last index write made again (their search key changed)."""
        return self.states.made
