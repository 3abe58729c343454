"""The engine adapter for MkDocs 1.6 (and ProperDocs, which answers ``import mkdocs``): the one module that
touches their private names and the search plugins' state.

Everything else in ``specgen/site/`` uses MkDocs only through its documented plugin API (events, config,
``File``, ``Navigation``, ``LiveReloadServer.watch``) and reaches what is not documented through
:class:`MkDocsEngine`, which implements :class:`specgen.site.engine.SiteEngine`. What it reaches, and why:

- **a page templated again** with the last build's config, files, navigation and Jinja environment
  (``mkdocs.commands.build._populate_page``, ``_build_page``): a server's spec rebuild writes only the pages an
  edit changed;
- **the live-reload server** (``mkdocs.livereload``): the address it serves under (``_serve_url``), a rebuild
  asked for as a file change asks (``_rebuild_cond``, ``_want_rebuild``), its watches (``_watched_paths``,
  ``_watch_refs``) to move them to a native observer and to watch a replaced tree again, its builder
  (wrapped, not replaced), and two request hooks a subclass overrides (``_serve_request``: a path with a
  control character is refused; ``_inject_js_into_html``: a failed rebuild's banner);
- **the theme's search plugin**: which one runs (Material's keeps ``search_index_prev``), adding it when
  ``plugins:`` lists none, keeping generated pages out of it (Material's documented ``search.exclude``
  page metadata; MkDocs' own search indexes them anyway and specgen drops them when it writes the index)
  and forgetting the index Material keeps between dirty builds before a full build.

Pinned: ``mkdocs>=1.6,<2``; :func:`missing` lists what a running MkDocs lacks of this
(``tests/test_architecture.py`` keeps every other module off these names).
"""

from __future__ import annotations

import logging
import os
import weakref
from typing import Any, Callable, Iterable

from mkdocs.livereload import LiveReloadServer

_NATIVE: weakref.WeakSet[Any] = weakref.WeakSet()  # the observers this adapter put in place


class SpecgenServer(LiveReloadServer):
    """MkDocs' live-reload server that refuses a path with a control character and shows a failed rebuild.

    ``status`` (:class:`specgen.site.serve_server.RebuildStatus`) gives the banner (empty: none)."""

    status: Any = None

    def _serve_request(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes] | None:
        path = environ.get("PATH_INFO", "")
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path):  # a NUL reaches open() as a ValueError
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"400 Bad Request: the path holds a control character\n"]
        return super()._serve_request(environ, start_response)  # type: ignore[no-any-return]

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        content = super()._inject_js_into_html(content, epoch)
        banner = self.status.banner() if self.status is not None else b""
        if not banner:
            return content  # type: ignore[no-any-return]
        at = content.find(b"<body")
        at = content.find(b">", at) + 1 if at >= 0 else 0
        return content[:at] + banner + content[at:]  # type: ignore[no-any-return]


class MkDocsEngine:
    """:class:`specgen.site.engine.SiteEngine` for MkDocs 1.6 and ProperDocs 1.6."""

    name = "mkdocs"

    # ------------------------------------------------------------------ the theme's search
    def search_plugin(self, config: Any) -> Any:
        """The search plugin of this config (Material's or MkDocs' own), or None."""
        for plugin in config.plugins.values():
            module = type(plugin).__module__
            if hasattr(plugin, "search_index_prev") or module.endswith("contrib.search") or \
                    module.endswith("search.plugin"):
                return plugin
        return None

    def search_kind(self, config: Any) -> str | None:
        """``material`` (its client fetches the index itself, so it can be split per language), ``mkdocs``
        (MkDocs' own, or Material's under another theme: one index) or None (no search, or disabled)."""
        plugin = self.search_plugin(config)
        if plugin is None or not bool(getattr(plugin.config, "enabled", True)):
            return None
        material = hasattr(plugin, "search_index_prev") and str(getattr(config.theme, "name", "")) == "material"
        return "material" if material else "mkdocs"

    def ensure_search(self, config: Any, kept: Any = None) -> Any:
        """The theme's search plugin, added when ``plugins:`` lists none (MkDocs drops its default search
        then); None when one is listed. A plugin added during the config event runs that event later in the
        same pass. ``kept``: the instance a server added before, reused."""
        from mkdocs.plugins import get_plugins

        if self.search_plugin(config) is not None:
            return None
        name = "material/search" if str(getattr(config.theme, "name", "")) == "material" else "search"
        plugin = kept
        if plugin is None:
            plugin = get_plugins()[name].load()()
            errors, _ = plugin.load_config({})
            if errors:
                raise ValueError(f"search plugin {name}: {errors}")
        config.plugins[name] = plugin
        return plugin

    def keep_out_of_theme_search(self, page: Any) -> None:
        """The theme's indexer skips this page: specgen writes its entries itself (Material honours the
        page's ``search.exclude``; MkDocs' own search does not, its entries are dropped when written)."""
        page.meta["search"] = {"exclude": True}

    def forget_kept_index(self, config: Any) -> None:
        """A full build: the index Material keeps under dirty builds (in a plugin instance MkDocs reuses
        within a process) must not be merged into this one."""
        plugin = self.search_plugin(config)
        if plugin is not None and getattr(plugin, "search_index_prev", None) is not None:
            plugin.search_index_prev = None

    # ------------------------------------------------------------------ pages templated again
    def populate_page(self, page: Any, config: Any, files: Any) -> None:
        """Read the page's source and run its Markdown events (``page`` keeps the last build's objects)."""
        from mkdocs.commands.build import _populate_page
        _populate_page(page, config, files)

    def build_page(self, page: Any, config: Any, doc_files: Any, nav: Any, env: Any) -> None:
        """Template and write the page with the last build's navigation and Jinja environment."""
        from mkdocs.commands.build import _build_page
        _build_page(page, config, doc_files, nav, env)

    # ------------------------------------------------------------------ the live-reload server
    def live_server(self, builder: Callable[..., None], host: str, port: int, root: str, mount_path: str,
                    status: Any) -> Any:
        """A :class:`SpecgenServer` (``status``: what gives its banner)."""
        server = SpecgenServer(builder=builder, host=host, port=port, root=root, mount_path=mount_path)
        server.status = status
        return server

    def start_serving(self, server: Any) -> None:
        """Answer requests now, before the first build (a restart shows the site as last built): bind,
        listen and start the request thread; :meth:`serve_started` does the rest of ``serve()`` later."""
        server.server_bind()
        server.server_activate()
        server.serve_thread.start()

    def serve_from(self, server: Any, root: str) -> None:
        """Serve the files of ``root`` from now on (the stored site, then the one just built)."""
        server.root = os.path.abspath(root)

    def reload_browsers(self, server: Any) -> None:
        """Tell every open page to reload, as the server does after a rebuild."""
        from mkdocs.livereload import _timestamp
        with server._epoch_cond:
            server._visible_epoch = server._wanted_epoch = _timestamp()
            server._epoch_cond.notify_all()

    def show_build(self, server: Any, again: bool = False) -> None:
        """Let open pages reload now to the build in progress (its pages are written): the epoch the server
        would show once the builder returns, shown early; the server's own notice then changes nothing.
        ``again``: what was shown early is being replaced (a full build follows), so the server's notice at
        its end must reload the pages once more: a newer epoch for it."""
        from mkdocs.livereload import _timestamp
        with server._epoch_cond:
            if again:
                server._wanted_epoch = max(_timestamp(), server._visible_epoch + 1)
                return
            server._visible_epoch = max(server._visible_epoch, server._wanted_epoch)
            server._epoch_cond.notify_all()

    def serve_started(self, server: Any) -> None:
        """``serve()`` for a server :meth:`start_serving` started: its watches, then its rebuild loop (returns
        at shutdown)."""
        from mkdocs.livereload import _try_relativize_path
        if server._watched_paths:
            server.observer.start()
            paths = ", ".join(f"'{_try_relativize_path(p)}'" for p in server._watched_paths)
            logging.getLogger("mkdocs.livereload").info(f"Watching paths for changes: {paths}")
        logging.getLogger("mkdocs.livereload").info(f"Serving on {server.url}")
        server._build_loop()

    def serve_url(self, host: str, port: int, mount_path: str) -> str:
        from mkdocs.livereload import _serve_url
        return str(_serve_url(host, port, mount_path))

    def wrap_builder(self, server: Any, wrap: Callable[[Callable[..., None]], Callable[..., None]]) -> None:
        """The server's builder becomes ``wrap(builder)``."""
        server.builder = wrap(server.builder)

    def request_rebuild(self, server: Any) -> None:
        """Ask the server for a rebuild as a file change would."""
        with server._rebuild_cond:
            server._want_rebuild = True
            server._rebuild_cond.notify_all()

    def watched_paths(self, server: Any) -> dict[str, int]:
        """Each watched path and how many times it is watched."""
        return dict(server._watched_paths)

    def watches_by_path(self, server: Any) -> bool:
        """Whether the server keeps one observer watch per path (what :meth:`rewatch` needs)."""
        return hasattr(server, "_watch_refs")

    def watch_alive(self, server: Any, path: str) -> bool:
        """Whether ``path`` has a watch whose emitter still runs (watchdog stops it for good when the
        watched folder is deleted)."""
        observer = server.observer
        ref = server._watch_refs.get(path)
        if ref is None or not observer.is_alive():
            return ref is not None
        return any(e.watch == ref and e.is_alive() for e in list(observer.emitters))

    def rewatch(self, server: Any, path: str, handler: Any) -> bool:
        """Drop ``path``'s watch and, with a ``handler``, watch it again as it is now; whether it is watched."""
        old = server._watch_refs.get(path)
        if old is not None:
            try:
                server.observer.unschedule(old)
            except (KeyError, OSError):
                pass  # its emitter had stopped and was removed already
        if handler is None:
            return False
        try:
            server._watch_refs[path] = server.observer.schedule(handler, path, recursive=True)
        except OSError:
            return False  # gone again meanwhile: the next check tries again
        return True

    def replace_observer(self, server: Any, observer: Any) -> None:
        """Move every watch to ``observer`` (once per server; the server starts it when it serves)."""
        if server.observer in _NATIVE:
            return
        watched = self.watched_paths(server)
        for path, n in watched.items():
            for _ in range(n):
                server.unwatch(path)
        server.observer = observer
        _NATIVE.add(observer)
        for path, n in watched.items():
            for _ in range(n):
                server.watch(path)


def missing() -> list[str]:
    """What this adapter uses that the running MkDocs (or ProperDocs) does not have: empty on 1.6."""
    import mkdocs.commands.build as build
    import mkdocs.livereload as livereload

    gone = [f"mkdocs.commands.build.{n}" for n in ("_populate_page", "_build_page") if not hasattr(build, n)]
    gone += [f"mkdocs.livereload.{n}" for n in ("_serve_url",) if not hasattr(livereload, n)]
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=".")
    try:
        gone += [f"LiveReloadServer.{n}" for n in ("_rebuild_cond", "_want_rebuild", "_watched_paths", "_watch_refs",
                                                   "_serve_request", "_inject_js_into_html")
                 if not hasattr(server, n)]
    finally:
        server.server_close()
    return gone


__all__ = ["MkDocsEngine", "SpecgenServer", "missing"]
