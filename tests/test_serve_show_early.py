"""A spec rebuild lets open pages reload as soon as its pages are written (issue 38's author loop).

What follows the pages (the search index, the kept page states) no open page shows, so the browsers'
long poll answers before it: :meth:`MkDocsEngine.show_build` shows the epoch of the build in progress
early, and the server's own notice at the end of the build then changes nothing (one reload, not two).
When a rebuild shown early gives way to a full build, the full build's end must reload them again.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

from mkdocs.livereload import LiveReloadServer

from specgen.site.mkdocs_engine import MkDocsEngine


def _poll(server: Any, epoch: int, out: list[int]) -> None:
    """What the page's own script does: long-poll the live-reload endpoint with the epoch it was served."""
    environ = {"PATH_INFO": f"/livereload/{epoch}/1", "REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO(),
               "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1"}
    body = server._serve_request(environ, lambda *a: None)
    out.append(int(b"".join(body)))


def _server(tmp_path: Path) -> Any:
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    server.poll_response_timeout = 5
    return server


def test_a_build_shown_early_answers_the_open_pages_at_once_and_its_end_adds_no_reload(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        before = server._visible_epoch
        server._wanted_epoch = before + 10  # what the server's build loop does as a rebuild starts
        answers: list[int] = []
        poll = threading.Thread(target=_poll, args=(server, before, answers))
        poll.start()
        MkDocsEngine().show_build(server)
        poll.join(3)
        assert answers == [before + 10]  # the page reloads now, to the rebuild's epoch
        # the server's own notice when the builder returns: the reloaded page (served with that epoch) waits on
        with server._epoch_cond:
            server._visible_epoch = server._wanted_epoch
            server._epoch_cond.notify_all()
        again: list[int] = []
        poll = threading.Thread(target=_poll, args=(server, before + 10, again))
        poll.start()
        poll.join(0.5)
        assert poll.is_alive() and again == []  # no second reload
        server._visible_epoch += 1  # let the waiting poll go
        with server._epoch_cond:
            server._epoch_cond.notify_all()
        poll.join(3)
    finally:
        server.server_close()


def test_a_build_shown_early_that_gives_way_to_a_full_build_reloads_the_pages_again(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        server._wanted_epoch = server._visible_epoch + 10
        engine = MkDocsEngine()
        engine.show_build(server)
        shown = server._visible_epoch
        engine.show_build(server, again=True)
        assert server._visible_epoch == shown  # nothing reloads while the full build runs
        assert server._wanted_epoch > shown  # its end (visible = wanted) reloads the pages once more
    finally:
        server.server_close()
