"""Serving: the spec-only rebuild the plugin installs in any ``mkdocs serve``, and all a server keeps between builds.

mkdocs' server rebuilds by running a whole build: it reloads the config,
lists the theme, makes a File and a Page for each of ~9,000 pages, renders the
sitemap and 404 page and writes every page. On the corpus that pass costs far
more than everything specgen does for a one-unit edit. So the plugin, in its
``on_serve`` event, wraps the server's builder (:func:`install`): a rebuild first
tries a *spec rebuild*: when nothing but the spec changed since the last full
build (same ``mkdocs.yml``, hand pages and templates) and the set of pages is the
same, it reloads the spec, renders what changed and hands exactly those pages to
mkdocs' own page functions, with the config, files, navigation and Jinja
environment of the last build, lets open pages reload, then writes the search index
if a page's entries changed. When the edit changed some page's own inputs, the pages
it only turned to "running" are owed to the rebuild it asks for at once
(``RenderCache.owed``): the edited page does not wait for hundreds of others.
Anything else (a new unit, an edited template or hand page, a failing example,
any error) runs the server's own full build, which reports errors as ``mkdocs
serve`` does. So a user's plain ``mkdocs serve`` with only the plugin line gets
the same loop as ``specgen serve``, which is that command plus the server's
robustness (:mod:`.serve_server`: the last good site with a banner after a failed
rebuild, clean SIGINT/SIGTERM): no dirty build, no warning about one.

Everything a running server remembers between builds lives in
:class:`ServeState`, which the plugin holds while the command is ``serve``:
the record cache with its unpickled records, the theme's Jinja environment,
what each page looked like when mkdocs last received it, the last finished
build, and the AVS tests running in the background
(:class:`~specgen.site.liveresults.LiveResults`). The server reaches the plugin
only through :class:`ServingPlugin`.

The page functions used are mkdocs 1.6 internals, reached through the engine
adapter (:mod:`.mkdocs_engine`); mkdocs is pinned below 2, and
``tests/test_site_incremental.py`` checks the spec rebuild's output byte for
byte against a full build.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from ..cache import RecordCache, cache_enabled
from ..workers import stop_children
from ..workspace import Workspace, current
from ..render import Page, RenderCache
from ..render.core import DEFAULT_TEMPLATES
from .engine import adapter
from .inputs import PageFile
from .liveresults import LiveResults
from .serveguard import guard_server
from .servestop import install_stop_signals
from .servewatch import Sentinel, request_rebuild
from .pagestate import PageStates
from .servesearch import Templated, template_known
from .stats import BuildStats

log = logging.getLogger("mkdocs.plugins.specgen")


class ServingPlugin(Protocol):
    """What the server uses of the specgen plugin (:class:`specgen.site.plugin.SpecgenPlugin`)."""

    config: Any
    serving: ServeState | None
    stats: BuildStats
    pages: dict[str, Page]
    states: PageStates

    def write_search_index(self, config: Any) -> bool: ...

    def search_entries_made(self) -> int: ...

    def on_pre_build(self, *, config: Any) -> None: ...

    def render_pages(self, config: Any, results_later: bool = False) -> tuple[list[Page], dict[str, bool]]: ...

    def after_rebuild(self) -> None: ...


def stamp(paths: list[str | None], h: Any = None) -> str:
    """Digest of the names, sizes and mtimes of the files at or under ``paths`` (None entries skipped).

    What a running server needs to notice an edit to a template, a hand page or the config;
    the spec itself is hashed by the loader.
    """
    h = h or hashlib.sha256()
    for p in paths:
        if not p:
            continue
        p = str(p)
        if os.path.isfile(p):
            st = os.stat(p)
            h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
            continue
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames.sort()
            for name in sorted(filenames):
                q = os.path.join(dirpath, name)
                try:
                    st = os.stat(q)
                except OSError:
                    continue
                h.update(f"{q}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return str(h.hexdigest())


def other_inputs_digest(config: Any, plugin: ServingPlugin) -> str:
    """Everything but the spec that a build reads: the config file, the hand pages, the templates."""
    return stamp([config.config_file_path, config.docs_dir, config.theme.custom_dir,
                  getattr(plugin.config, "templates_dir", None), str(DEFAULT_TEMPLATES.parent)])


def theme_digest(config: Any) -> str:
    """Theme settings plus the custom templates' names, sizes and times (the installed theme's own
    files do not change under a running server; walking its icon set would cost more than a rebuild)."""
    return stamp([config.theme.custom_dir],
                 hashlib.sha256(repr(sorted(dict(config.theme).items(), key=str)).encode()))


@dataclass
class LastBuild:
    """The objects of the last finished build: what a spec-only rebuild templates pages with."""

    config: Any
    files: Any
    nav: Any
    env: Any


class ServeState:
    """What a server keeps between builds; the plugin holds one while the command is ``serve``."""

    def __init__(self) -> None:
        # the one owner of incremental state (specgen.workspace): the result stores, the per-load indexes and
        # interpreters, the memoised tables; the server holds the workspace its first build worked in
        self.workspace: Workspace = current()
        self.workspace.long_lived = True  # it loads the tree again after every edit (specgen.files keeps reads)
        self.workspace.deferred = {}  # cache files are written once it settles (Workspace.write_later)
        self.records: RecordCache | None = None  # unpickled records kept for the server's life
        self.render_cache = RenderCache()  # pages whose inputs did not change are not rendered again
        self.env: tuple[str, Any] | None = None  # (theme digest, jinja env) kept across rebuilds
        self.nav: Any = None  # the navigation of the build in progress
        self.building: LastBuild | None = None
        self.last_build: LastBuild | None = None  # complete only once the build has finished
        self.inputs = ""  # the digest of the other inputs (config, hand pages, templates) at the last full build
        self.live = LiveResults()  # AVS tests whose results are pending, run in the background
        self.templated = Templated()  # what mkdocs made of a page's recent states (spec rebuilds since the last full build)
        self.reused_states = 0  # pages the last spec rebuild wrote from ``templated``
        self.unindexed = 0  # pages the last spec rebuild re-templated whose search entries were kept
        self.builds = 0  # builds started (a heap settle waiting for the server to be idle checks it)
        self.sentinel: Sentinel | None = None  # re-arms the watches of a tree replaced under the server
        self.restore_signals: Callable[[], None] | None = None  # gives back SIGTERM and SIGHUP (plain mkdocs serve)
        # open pages reload now to the rebuild in progress; with True: once more when it ends (on_serve sets it;
        # None without a live-reload server)
        self.show: Callable[[bool], None] | None = None

    def stop(self) -> None:
        """The server stops (the plugin's ``on_shutdown``): the background pool and its processes end
        within seconds (:mod:`.bgpool`), the watcher stops, the signals are given back, a deferred record
        pack is written."""
        if self.records is not None:
            self.records.flush()
        self.workspace.flush()
        if self.sentinel is not None:
            self.sentinel.stop()
        self.live.stop()
        stop_children()
        if self.restore_signals is not None:
            self.restore_signals()
            self.restore_signals = None

    def before_build(self, root: Path) -> RecordCache | None:
        """A build starts: record what the background run measured since the last one; the record cache."""
        self.builds += 1
        self.live.drain()
        return self.record_cache(root)

    def record_cache(self, root: Path) -> RecordCache | None:
        """One record cache for the server's life, keeping unpickled records (None: the loader's default)."""
        if not cache_enabled():
            return None
        kept = self.records
        if kept is not None and kept.root == root.resolve():
            kept.next_load()
            return kept
        if kept is not None:
            kept.flush()  # another root: the last one's deferred save first
        self.records = RecordCache(root, keep_objects=True, defer_save=True)
        return self.records if self.records.enabled else None

    def environment(self, config: Any, files: Any, env: Any) -> Any:
        """Keep the theme's Jinja environment while the theme's files are unchanged.

        mkdocs makes a new environment per build, so every rebuild compiled the
        whole material theme again (most of a one-page rebuild). The environment
        holds no per-build state (its filters read the page and config from the
        render context), so it is reused while the digest of the theme's files and
        the theme settings match.
        """
        key = theme_digest(config)
        if self.env is None or self.env[0] != key:
            self.env = (key, env)
        self.last_build = None  # complete only once the build has finished
        self.building = LastBuild(config, files, self.nav, self.env[1])
        return self.env[1]

    def failed(self) -> None:
        self.last_build = self.building = None

    def finished(self, inputs: str | None = None) -> None:
        """A build finished (``inputs``: a full build's digest of the other inputs)."""
        self.last_build, self.building = self.building, None
        if inputs is not None:
            self.inputs = inputs
            self.templated = Templated()  # made with another config, navigation and environment
        settle_heap()
        if inputs is not None:  # a full build writes its record pack and index packs as it always did
            if self.records is not None:
                self.records.flush()
            self.workspace.flush()

    def settle_when_idle(self, delay: float = 1.0) -> None:
        """Once no build has started for ``delay`` seconds, settle the heap (:func:`settle_heap`) in a timer thread.

        A spec rebuild leaves about a million new objects behind on the corpus, a third of them garbage
        cycles. Left to the collector, its full passes over them (0.4-0.9 s) fall in the middle of later
        rebuilds; settled while the author reads the page, a rebuild's passes walk only what it made.
        A background batch's results come with the rebuild its end asks for, which waits again after it."""
        build = self.builds

        def settle() -> None:  # the background work runs in other processes: it leaves nothing here to settle
            if self.builds == build:
                settle_heap()
                if self.records is not None:  # the record pack, written while the author reads (not in a rebuild)
                    self.records.flush()
                self.workspace.flush()  # and the index's packs

        timer = threading.Timer(delay, settle)
        timer.daemon = True
        timer.start()


def settle_heap() -> None:
    """Collect once, then exempt everything alive from future collections (``gc.freeze``).

    A dev server holds the whole site (records, pages, caches: ~1 GB on the corpus), and
    every full collection walks all of it; during a one-page rebuild those walks cost more
    than the rebuild itself. After each full build, and once the server is idle after a spec
    rebuild (:meth:`ServeState.settle_when_idle`), the live heap is frozen, so collections
    during rebuilds only walk what was made since. Frozen objects are still freed by
    reference counting; every settle unfreezes and collects before freezing again, so
    garbage cycles do not pile up.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


# seconds a spec rebuild pauses once its pages are shown: a reloading page's request needs the interpreter a
# few dozen times, and each time the rebuild's remaining work (the search index) held it for up to the switch
# interval (5 ms); nobody waits for that work
SHOW_GRACE = 0.05


def spec_rebuild(plugin: ServingPlugin, inputs_digest: str | None = None) -> bool:
    """Re-template only the pages a spec edit changed; False when a full build is needed instead.

    ``inputs_digest``: the other inputs' digest the last full build saw (default: the one the
    serve state recorded).
    """
    engine = adapter()
    state = plugin.serving
    last = state.last_build if state is not None else None
    if state is None or last is None:
        return False
    if inputs_digest is None:
        inputs_digest = state.inputs
    config, files, nav, env = last.config, last.files, last.nav, last.env
    if other_inputs_digest(config, plugin) != inputs_digest:
        return False
    t0 = time.perf_counter()
    state.last_build = None  # until this rebuild has finished
    states = plugin.states
    handed = states.handed  # a full build after a fallback must see this edit's changes again
    shown = False
    try:
        plugin.on_pre_build(config=config)  # loads the spec; a failing example raises
        pages, changed = plugin.render_pages(config, results_later=True)
        owed = state.render_cache.owed
        by_uri = {f.src_uri: f for f in files if isinstance(f, PageFile)}
        if set(by_uri) != {p.url for p in pages}:
            states.put_back(handed)
            state.failed()
            return False  # the navigation, sitemap and links need a full build
        todo = [by_uri[p.url] for p in pages if changed[p.url]]
        doc_files = files.documentation_pages()
        for p in pages:
            if changed[p.url]:
                by_uri[p.url].rewrite(p.markdown)
        fresh = template_known(state.templated, states, todo, handed, plugin.pages)
        for f in fresh:
            engine.populate_page(f.page, config, files)
        for f in fresh:
            engine.build_page(f.page, config, doc_files, nav, env)
        if state.show is not None:  # the pages are written: what follows, no open page shows (the index is read on use)
            state.show(False)
            shown = True
            time.sleep(SHOW_GRACE)  # the reloading pages' requests get the interpreter before the work below
        for f in fresh:
            output = Path(f.abs_dest_path)
            if output.is_file():
                state.templated.put(f.src_uri, states.digest(f.src_uri), output.read_bytes())
        if not owed:  # else the rebuild that renders them writes it, once
            plugin.write_search_index(config)  # only when a page's entries or an ASL definition changed
    except Exception as e:  # noqa: BLE001 - the full build reports it the way mkdocs does
        log.info("specgen: spec rebuild gave way to a full build (%s: %s)", type(e).__name__, e)
        if shown and state.show is not None:
            state.show(True)
        states.put_back(handed)
        state.failed()
        return False
    state.last_build = last
    state.reused_states = len(todo) - len(fresh)
    state.unindexed = 0 if owed else len(todo) - plugin.search_entries_made()  # owed: none indexed yet
    log.info("specgen: spec rebuild: %d page(s) re-templated (%d of them in a state templated before, "
             "%d with their search entries unchanged) in %.2f s%s",
             len(todo), len(todo) - len(fresh), state.unindexed, time.perf_counter() - t0,
             f"; {len(owed)} page(s) whose own inputs did not change follow at once" if owed else "")
    plugin.after_rebuild()
    if owed:
        state.live.trigger()  # the server rebuilds again now: those pages are all that rebuild has to do
    else:
        state.settle_when_idle()
    return True


def change_observer() -> Any:
    """A native (inotify) observer that reports changes only, or None where there is none.

    mkdocs' server polls: every 0.5 s it stats every watched file in Python (5,200 in the
    corpus root), which delays noticing an edit by up to half a second and competes with the
    rebuild for the interpreter. Native events arrive at once. Opening and reading are not
    changes: a rebuild reads the whole spec root, and those events must not queue another
    rebuild. ``SPECGEN_SERVE_POLL=1`` keeps mkdocs' polling (network file systems).
    """
    if os.environ.get("SPECGEN_SERVE_POLL", "") not in ("", "0"):
        return None
    try:
        from watchdog import events
        from watchdog.observers import Observer
    except ImportError:
        return None
    changes = [events.FileModifiedEvent, events.FileCreatedEvent, events.FileDeletedEvent,
               events.FileMovedEvent, events.FileClosedEvent, events.FileAttribEvent]

    class ChangeObserver(Observer):  # type: ignore[misc, valid-type]
        def schedule(self, event_handler: Any, path: str, *, recursive: bool = False,
                     event_filter: Any = None, follow_symlink: bool = False) -> Any:
            return super().schedule(event_handler, os.path.realpath(path), recursive=recursive,
                                    event_filter=event_filter or changes, follow_symlink=follow_symlink)

    return ChangeObserver() if "polling" not in Observer.__module__ else None


def install(plugin: ServingPlugin, server: Any) -> Any:
    """Make a running ``mkdocs serve`` use the spec rebuild and native change events (the plugin's ``on_serve``).

    The server's own builder stays the fallback for anything but a spec edit; its observer is replaced
    by a native one holding the same watches (:func:`change_observer`), unless polling was asked for.
    Issue 37's edges, the same under ``specgen serve`` and a plain ``mkdocs serve``: requests pass the
    Host and method filter (:mod:`.serveguard`), a watched tree replaced under the server is watched
    again (:mod:`.servewatch`), and SIGTERM and SIGHUP unwind like Ctrl-C (:mod:`.servestop`); the
    plugin's ``on_shutdown`` then ends the background work (:meth:`ServeState.stop`).
    """
    engine = adapter()

    def wrap(original: Callable[..., None]) -> Callable[..., None]:
        def builder(config: Any = None) -> None:
            state = plugin.serving
            if state is None:
                original(config) if config is not None else original()
                return
            state.builds += 1  # a heap settle waiting for the server to be idle stands down
            with state.live.paused():  # the background workers are stopped while a rebuild runs
                if config is None and spec_rebuild(plugin):
                    return
                log.info("Building documentation...")
                original(config) if config is not None else original()
        return builder

    engine.wrap_builder(server, wrap)
    native = change_observer()
    if native is not None:
        engine.replace_observer(server, native)
    guard_server(server)  # its author's browser only, GET and HEAD only (:mod:`.serveguard`)
    state = plugin.serving
    if state is not None:
        state.live.trigger = lambda: request_rebuild(server)
        state.show = lambda again: engine.show_build(server, again)
        if state.sentinel is None and engine.watches_by_path(server):
            state.sentinel = Sentinel(server)
            state.sentinel.start()
        if state.restore_signals is None:
            state.restore_signals = install_stop_signals()
    return server
