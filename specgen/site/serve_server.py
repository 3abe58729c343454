"""The dev server's own robustness: a failed rebuild, a malformed URL, a terminating signal.

mkdocs' ``LiveReloadServer`` holds every request until a rebuild succeeds
("the server will appear stuck until build errors are resolved"), so one
broken spec header made the whole site unreachable; a URL with a NUL in it
(``/en/%00``) ended in a 500 and a traceback in the log; and SIGTERM killed
the process before ``serve`` could remove its temporary site. Here:

- :class:`RebuildStatus` wraps the builder: a rebuild that fails is logged
  once and remembered, and the server goes on serving the last good site
  (a failed build stops before mkdocs writes, so the folder still holds it)
  with the error shown in a banner at the top of every page and on the error
  page; the next good rebuild clears it.
- the server (the engine adapter's :class:`~specgen.site.mkdocs_engine.SpecgenServer`)
  answers a path with a NUL or another control character with ``400 Bad Request``
  before it reaches the file system, and shows the error page above.
- :func:`~specgen.site.servestop.stop_on_signals` turns SIGTERM and SIGHUP into the
  same unwinding as Ctrl-C, so the ``finally`` that removes the temporary folder
  runs, after the plugin's ``on_shutdown`` ended the background work's processes
  (:mod:`.servestop`); a second signal during that clean-up is ignored.

What the plugin installs in any server (``specgen serve`` or a plain ``mkdocs serve``) is
elsewhere: who may ask what (:mod:`.serveguard`: 421 for a foreign ``Host``, 405 for a method but
GET and HEAD) and watches that follow a tree replaced under the server (:mod:`.servewatch`).

:func:`serve` is ``specgen serve``: mkdocs' own serve loop with these around it. The fast
loop itself is the plugin's (:func:`specgen.site.serve.install`), the same under a plain
``mkdocs serve``.
"""

from __future__ import annotations

import html
import logging
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable

from ..diagnostics import printable
from ..workers import stop_children
from .bgpool import stop_pools
from .engine import adapter
from .inputs import ROOT_ENV, _Errors, check_inputs, load_mkdocs_config  # _Errors: what mkdocs logs
from .mkdocs_engine import SpecgenServer  # noqa: F401  (the server class, kept importable here)
from . import stored_site
from .serveguard import guard_server
from .servestop import stop_on_signals

log = logging.getLogger("mkdocs.plugins.specgen")


class RebuildStatus:
    """The last rebuild's error (None after a good one), shared by the builder and the server."""

    def __init__(self) -> None:
        self.error: str | None = None
        self.provisional = False  # the site shown is the one stored by the last serve (a restart)
        self._lock = threading.Lock()

    def guard(self, builder: Callable[..., None]) -> Callable[..., None]:
        """``builder`` for rebuilds: a failure is remembered and logged, never left to hold requests."""

        def guarded(*args: Any, **kwargs: Any) -> None:
            said = _Errors()  # mkdocs logs the cause and raises a bare "Aborted with a BuildError!"
            mk_log = logging.getLogger("mkdocs")
            mk_log.addHandler(said)
            try:
                builder(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - any build failure: keep serving the last good site
                message = printable("; ".join(said.messages[:5]) or str(e) or type(e).__name__)
                with self._lock:
                    self.error = message
                log.error("specgen: the rebuild failed; serving the last good site with the error shown: %s",
                          message)
                return
            finally:
                mk_log.removeHandler(said)
            with self._lock:
                self.error = None
        return guarded

    def banner(self) -> bytes:
        """The error as an HTML banner (empty when the last rebuild succeeded); while a restart shows the
        site as last built (:attr:`provisional`), a banner that says so."""
        with self._lock:
            error = self.error
        if error is None:
            if not self.provisional:
                return b""
            return (
                '<div role="status" id="specgen-provisional" style="position:sticky;top:0;z-index:1000;'
                'background:#0d47a1;color:#fff;padding:.6em 1em;font:14px/1.4 system-ui,sans-serif">'
                "<strong>specgen: this is the site as last built.</strong> It is being built again from the "
                "tree now; the page reloads when that is done.</div>"
            ).encode()
        return (
            '<div role="alert" id="specgen-rebuild-error" style="position:sticky;top:0;z-index:1000;'
            'background:#b71c1c;color:#fff;padding:.6em 1em;font:14px/1.4 system-ui,sans-serif;'
            'white-space:pre-wrap">'
            "<strong>specgen: the last rebuild failed; this is the last good site.</strong> "
            f"{html.escape(error)}</div>"
        ).encode()

    def error_page(self) -> bytes | None:
        """A whole page for the error (None when the last rebuild succeeded)."""
        banner = self.banner()
        if not banner:
            return None
        return b"<!doctype html><html><head><meta charset=\"utf-8\"><title>specgen: rebuild failed</title>" \
               b"</head><body>" + banner + b"</body></html>"


def serve(config_file: Path, dev_addr: str | None, root: Path | None = None) -> None:
    """``specgen serve``: mkdocs' server for ``config_file`` with the spec root ``root`` (the config's when None).

    A thin wrapper: the fast loop is the plugin's (:func:`specgen.site.serve.install`, called from its
    ``on_serve``, the same under plain ``mkdocs serve``). What this adds is the server's robustness (this
    module's :class:`SpecgenServer` and :class:`RebuildStatus`): a failed rebuild keeps the last good
    site with the error in a banner, a control character in a path is a 400, and SIGINT, SIGTERM and
    SIGHUP stop it cleanly (the temporary site removed, no worker process left). Runs until interrupted.
    """
    check_inputs(root, config_file)
    load_mkdocs_config(config_file, root, None, strict=False)  # a bad value is a usage error (exit 2)
    if root is not None:
        os.environ[ROOT_ENV] = str(Path(root).absolute())  # as named (examples beside a linked root)
    with stop_on_signals():  # SIGTERM and SIGHUP unwind like Ctrl-C: the temporary site is removed
        site_dir = tempfile.mkdtemp(prefix="specgen-serve-")
        keep: Path | None = None
        try:
            keep = _serve(config_file, dev_addr, site_dir)
        finally:
            stop_pools()  # the plugin's on_shutdown ended the background pool; nothing may outlive serve
            stop_children()
            if keep is None or not stored_site.store(Path(site_dir), keep):
                shutil.rmtree(site_dir, ignore_errors=True)


def _serve(config_file: Path, dev_addr: str | None, site_dir: str) -> Path | None:
    """mkdocs 1.6's ``serve`` loop with :class:`SpecgenServer` and the rebuild guard around the builder.

    A site stored by the last serve of the same config, root, address and specgen (:mod:`.stored_site`)
    is answered at once, under a banner, while the first build runs; then the fresh build is served and
    open pages reload. Returns where to store the site at the end (None: not stored)."""
    from urllib.parse import urlsplit

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    engine = adapter()

    def get_config() -> Any:
        return load_config(config_file=str(config_file), site_dir=site_dir, dev_addr=dev_addr)

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=False)
    host, port = config.dev_addr
    mount_path = urlsplit(config.site_url or "/").path
    config.site_url = serve_url = engine.serve_url(host, port, mount_path)

    def builder(cfg: Any = None) -> None:
        log.info("Building documentation...")
        if cfg is None:
            cfg = get_config()
            cfg.site_url = serve_url
        build(cfg, serve_url=serve_url)

    status = RebuildStatus()  # a failed rebuild: the last good site, with the error shown
    server = engine.live_server(builder, host, port, site_dir, mount_path, status)

    def error_handler(code: int) -> bytes | None:
        failed = status.error_page()
        if failed is not None:
            return failed
        if code in (404, 500):
            page = Path(site_dir) / f"{code}.html"
            if page.is_file():
                return page.read_bytes()
        return None

    server.error_handler = error_handler
    stored = stored_site.place(config_file, os.environ.get(ROOT_ENV, ""), serve_url)
    early = stored is not None and stored_site.complete(stored)

    def watch_inputs() -> None:
        server.watch(config.docs_dir)
        if config.config_file_path:
            server.watch(config.config_file_path)

    if early:  # a restart: the last site now, the fresh one when built (the Host and method filter first;
        watch_inputs()  # watched, so pages carry the reload script and the banner)
        guard_server(server)
        engine.serve_from(server, str(stored))
        status.provisional = True
        engine.start_serving(server)
        log.info("specgen: serving the site as last built on %s while it is built again", server.url)
    built = False
    try:
        builder(config)  # the first build: a failure ends the command (as mkdocs serve does)
        if early:
            engine.serve_from(server, site_dir)
            status.provisional = False
            engine.reload_browsers(server)
        else:
            watch_inputs()
        server = config.plugins.on_serve(server, config=config, builder=builder)  # the plugin's fast path
        engine.wrap_builder(server, status.guard)  # outermost: the fast path's failures are shown too
        for item in config.watch:
            server.watch(item)
        built = True
        try:
            engine.serve_started(server) if early else server.serve()
        except KeyboardInterrupt:
            log.info("Shutting down...")
        finally:
            server.shutdown()
    finally:
        if early and not built:
            server.shutdown()
        config.plugins.on_shutdown()
    return stored if built and status.error is None else None
