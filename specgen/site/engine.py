"""Which MkDocs-compatible engine runs the site: MkDocs 1.x, ProperDocs, or Zensical.

- **mkdocs** (the default): the plugin inside ``mkdocs build``/``mkdocs serve``.
- **properdocs**: ProperDocs, the maintained fork of MkDocs 1.x, runs the same plugin unchanged: it
  loads plugins and themes from the ``mkdocs.*`` entry points and, once :func:`activate` has imported
  its ``properdocs.replacement``, every ``import mkdocs…`` (ours, material's) gets the ProperDocs module.
  That has to happen before anything imports mkdocs, so a process that already did cannot switch
  (:class:`EngineError`; the command line then runs the build in a fresh interpreter). Like the
  ``properdocs`` command, the legacy ``mkdocs`` logger is made a child of ``properdocs``'s, so the
  plugin's warnings count in strict mode.
- **zensical**: no plugins at all; the site is exported as a plain project (:mod:`specgen.site.export`)
  and ``zensical build`` renders it (:mod:`specgen.site.zensical`).

What specgen needs of an engine beyond its documented plugin API is :class:`SiteEngine`; :func:`adapter`
gives the running one (:class:`specgen.site.mkdocs_engine.MkDocsEngine` for MkDocs and ProperDocs, the one
module allowed to touch their private names). How Zensical answers each part is in docs-internal/site.md,
"The engine adapter".
"""

from __future__ import annotations

import logging
import sys
from typing import Any, Callable, Protocol

ENGINES = ("mkdocs", "properdocs", "zensical")


class EngineError(RuntimeError):
    """The engine cannot run (it is not installed)."""


class ImportedFirst(EngineError):
    """mkdocs itself is already imported in this process: ProperDocs cannot take its place any more."""


def activate(engine: str) -> None:
    """Make ``engine`` the one ``import mkdocs`` reaches in this process (a no-op for mkdocs and zensical)."""
    if engine != "properdocs":
        return
    loaded = sys.modules.get("mkdocs")
    if loaded is not None and loaded.__name__ != "properdocs":
        raise ImportedFirst("mkdocs is already imported in this process; ProperDocs must be chosen before it")
    try:
        import properdocs.replacement  # noqa: F401  (redirects mkdocs.* imports to properdocs.*)
    except ImportError as e:
        raise EngineError(f"ProperDocs is not installed ({e}); pip install properdocs") from e
    legacy = logging.getLogger("mkdocs")
    legacy.parent = logging.getLogger("properdocs")
    legacy.propagate = True


def logger() -> logging.Logger:
    """The running engine's top logger (``mkdocs`` or ``properdocs``): where its warnings are counted."""
    import mkdocs
    return logging.getLogger(mkdocs.__name__)


class SiteEngine(Protocol):
    """What the plugin, the build and the server ask of the engine that runs them, beyond its plugin API.

    Three parts: the theme's search (which one runs, keeping specgen's pages out of it: specgen writes their
    entries itself, :mod:`specgen.site.sitesearch`), a page templated again with the last build's objects
    (a server's spec rebuild), and the live-reload server (its address, its watches, its builder, a rebuild
    asked for, the request hooks of :mod:`specgen.site.serve_server`)."""

    name: str

    def search_kind(self, config: Any) -> str | None: ...

    def ensure_search(self, config: Any, kept: Any = None) -> Any: ...

    def keep_out_of_theme_search(self, page: Any) -> None: ...

    def forget_kept_index(self, config: Any) -> None: ...

    def populate_page(self, page: Any, config: Any, files: Any) -> None: ...

    def build_page(self, page: Any, config: Any, doc_files: Any, nav: Any, env: Any) -> None: ...

    def live_server(self, builder: Callable[..., None], host: str, port: int, root: str, mount_path: str,
                    status: Any) -> Any: ...

    def serve_url(self, host: str, port: int, mount_path: str) -> str: ...

    def wrap_builder(self, server: Any, wrap: Callable[[Callable[..., None]], Callable[..., None]]) -> None: ...

    def request_rebuild(self, server: Any) -> None: ...

    def watched_paths(self, server: Any) -> dict[str, int]: ...

    def watches_by_path(self, server: Any) -> bool: ...

    def watch_alive(self, server: Any, path: str) -> bool: ...

    def rewatch(self, server: Any, path: str, handler: Any) -> bool: ...

    def replace_observer(self, server: Any, observer: Any) -> None: ...

    def start_serving(self, server: Any) -> None: ...

    def serve_from(self, server: Any, root: str) -> None: ...

    def reload_browsers(self, server: Any) -> None: ...

    def show_build(self, server: Any, again: bool = False) -> None: ...

    def serve_started(self, server: Any) -> None: ...


def adapter() -> SiteEngine:
    """The running plugin engine's adapter (it keeps no state, so each call makes one): MkDocs', which ProperDocs answers too (its modules take mkdocs'
    names once :func:`activate` ran; their private names are the same). Imports mkdocs."""
    from .mkdocs_engine import MkDocsEngine
    return MkDocsEngine()
