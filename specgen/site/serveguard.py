"""Who a dev server answers: its author's browser only, and only to read.

mkdocs' ``LiveReloadServer`` answered any ``Host`` header and every method with the page. A page on
another site can make the author's browser resolve its own name to 127.0.0.1 (DNS rebinding) and then
read the served site as its own origin; and POST, PUT, DELETE, TRACE or PROPFIND got a 200 as if
they meant something. This filter sits in front of the server's WSGI application (both under
``specgen serve`` and a plain ``mkdocs serve``: the plugin's ``on_serve`` installs it):

- a ``Host`` that is not the server's own name is ``421 Misdirected Request``. Its own names are
  ``localhost``, ``127.0.0.1``, ``[::1]`` and the ``--dev-addr`` host; a server listening on every
  address (``0.0.0.0``, ``::``) also answers any IP address literal and the machine's host name
  (an address literal cannot be rebound; a name other than the machine's can). The port is not
  compared: rebinding changes the name, never the port. An HTTP/1.1 request without ``Host`` is a 400
  (HTTP/1.1 requires one); HTTP/1.0 clients may omit it.
- a method other than GET and HEAD is ``405 Method Not Allowed`` with ``Allow: GET, HEAD``; a HEAD
  gets the GET's status and headers without the body (wsgiref would have sent the body).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any, Callable, Iterable

App = Callable[[dict[str, Any], Any], Iterable[bytes]]

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
ANY_ADDRESS = ("", "0.0.0.0", "::")
METHODS = ("GET", "HEAD")


def host_name(header: str) -> str:
    """The name in a ``Host`` header: no port, no brackets, lower case, no final dot."""
    h = header.strip().lower()
    if h.startswith("["):
        h = h[1:h.find("]")] if "]" in h else h[1:]
    elif h.count(":") == 1:
        h = h.split(":", 1)[0]
    return h[:-1] if h.endswith(".") else h


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostRule:
    """The names a server listening on ``host`` answers to."""

    def __init__(self, host: str) -> None:
        host = host_name(host) if host.startswith("[") else host.strip().lower()
        self.any_address = host in ANY_ADDRESS
        names = {*LOCAL_NAMES, host} - {""}
        if self.any_address:
            names.add(socket.gethostname().lower())
        self.names = frozenset(names)

    def allows(self, header: str) -> bool:
        name = host_name(header)
        return name in self.names or (self.any_address and _is_address(name))


def _refuse(start_response: Any, status: str, text: str, extra: tuple[tuple[str, str], ...] = ()) -> list[bytes]:
    body = f"{status}: {text}\n".encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
                            *extra])
    return [body]


class Guarded:
    """A WSGI application behind the Host and method rules of this module."""

    def __init__(self, app: App, rule: HostRule) -> None:
        self.app = app
        self.rule = rule

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST")
        if host is None:
            if environ.get("SERVER_PROTOCOL", "HTTP/1.0") != "HTTP/1.0":
                return _refuse(start_response, "400 Bad Request", "no Host header")
        elif not self.rule.allows(host):
            return _refuse(start_response, "421 Misdirected Request",
                           "this development server answers only to its own address")
        method = environ.get("REQUEST_METHOD", "GET").upper()
        if method not in METHODS:
            return _refuse(start_response, "405 Method Not Allowed", "only GET and HEAD",
                           (("Allow", ", ".join(METHODS)),))
        result = self.app(environ, start_response)
        if method == "HEAD":
            close = getattr(result, "close", None)
            if close is not None:
                close()
            return []
        return result


def guarded(app: App, rule: HostRule) -> App:
    """``app`` behind the Host and method rules of this module."""
    return Guarded(app, rule)


def guard_server(server: Any) -> None:
    """Put the filter in front of a ``LiveReloadServer`` (or any wsgiref server) not yet guarded."""
    app = server.get_app()
    if isinstance(app, Guarded):
        return
    server.set_app(guarded(app, HostRule(str(server.server_address[0]))))


__all__ = ["Guarded", "HostRule", "guard_server", "guarded", "host_name"]
