"""The dev server's probes against a real ``specgen serve``. Issue 24: a failed rebuild keeps the last good
site (error shown), bad URLs get a 4xx, SIGTERM and SIGINT remove the temporary site. Issue 37: only its own
``Host`` and only GET and HEAD are answered; a tree deleted and made again, or a symbolic link re-pointed, is
followed; a stop in the middle of background work ends every process and frees the port."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from served import (descendants, fetch, free_port, port_free, reap, request, serve_config, start_serve, stop,
                    wait_for, wait_for_workers, wait_gone)
from treecopy import copy_tree

from specgen.site.serveguard import HostRule, guarded
from specgen.site.serve_server import RebuildStatus, SpecgenServer


def _server(tmp_path: Path, status: RebuildStatus | None = None) -> SpecgenServer:
    root = tmp_path / "site"
    (root / "en").mkdir(parents=True, exist_ok=True)
    (root / "en" / "index.html").write_text("<html><body><p>page</p></body></html>")
    server = SpecgenServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(root))
    server.status = status
    return server


def _request(server: SpecgenServer, path: str) -> tuple[str, bytes]:
    seen: list[str] = []
    body = server.serve_request({"PATH_INFO": path}, lambda status, headers: seen.append(status))
    return seen[0], b"".join(body)


@pytest.mark.parametrize("path", ["/en/\x00", "/en/a\x00b.html", "/\x1b[31m", "/en/\x7f"])
def test_control_characters_in_a_path_are_a_400(tmp_path: Path, path: str) -> None:
    server = _server(tmp_path)
    try:
        status, body = _request(server, path)
    finally:
        server.server_close()
    assert status.startswith("400"), status
    assert b"400" in body


def test_missing_page_is_a_404_and_a_page_is_served(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        assert _request(server, "/en/nothing.html")[0].startswith("404")
        status, body = _request(server, "/en/index.html")
    finally:
        server.server_close()
    assert status.startswith("200") and b"page" in body


def test_a_failed_rebuild_is_remembered_and_shown_then_cleared(tmp_path: Path) -> None:
    status = RebuildStatus()
    calls = {"fail": True}

    def builder() -> None:
        if calls["fail"]:
            raise RuntimeError("specgen: asl/x.asl:1:1: file-nul: \x00 in the file\n::error::forged")
    guarded = status.guard(builder)
    guarded()  # raises nothing: the server must not be held
    assert status.error is not None and "\\x0a::error" in status.error  # one line, escaped
    banner = status.banner()
    assert b"last good site" in banner and b"file-nul" in banner and b"<script" not in banner
    server = _server(tmp_path, status)
    server._watched_paths = {"x": 1}  # pages get the live-reload script (and the banner) only when watching
    try:
        code, body = _request(server, "/en/index.html")
    finally:
        server.server_close()
    assert code.startswith("200") and b"specgen-rebuild-error" in body and b"<p>page</p>" in body
    calls["fail"] = False
    guarded()
    assert status.error is None and status.banner() == b""


@pytest.mark.slow
@pytest.mark.xdist_group("site-build")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_keeps_the_last_good_site_and_cleans_up_on_a_signal(tmp_path: Path, bundled_root: Path,
                                                                  sig: signal.Signals) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "SPECGEN_SERVE_POLL": "1"}
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "specgen", "serve", "--root", str(root),
                               "--dev-addr", f"127.0.0.1:{port}"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        code, body = wait_for(server, f"{base}/en/index.html", 600)
        assert code == 200, "serve never answered"
        assert [p.name for p in tmp.iterdir() if p.name.startswith("specgen-serve-")], "no temporary site"
        assert fetch(f"{base}/en/%00")[0] == 400
        assert fetch(f"{base}/en/no-such-page.html")[0] == 404
        if sig == signal.SIGTERM:  # break a unit: the rebuild fails, the last good site stays up with the error
            unit = next(iter(sorted((root / "asl").rglob("*.asl"))))
            unit.write_bytes(unit.read_bytes() + b"\x00\x00")
            code, body = wait_for(server, f"{base}/en/index.html", 600,
                                  until=lambda code, body: "specgen-rebuild-error" in body)
            assert code == 200 and "specgen-rebuild-error" in body and "file-nul" in body
            assert "PTO ISA specification" in body  # the last good site, not an empty page
    finally:
        log = stop(server, sig, 90)
    assert server.returncode == 0, log
    assert "Traceback" not in log, log[-5000:]
    assert not [p for p in tmp.iterdir() if p.name.startswith("specgen-serve-")], "the temporary site was left"


# ---------------------------------------------------------------- issue 37: who is answered


@pytest.mark.parametrize(("listen", "host", "allowed"), [
    ("127.0.0.1", "127.0.0.1:8000", True), ("127.0.0.1", "localhost:8000", True), ("127.0.0.1", "[::1]:8000", True),
    ("127.0.0.1", "LOCALHOST.", True), ("127.0.0.1", "evil.example:8000", False),
    ("127.0.0.1", "127.0.0.1.evil.example", False), ("127.0.0.1", "10.0.0.5:8000", False),
    ("docs.internal", "docs.internal:8000", True), ("docs.internal", "other.internal", False),
    ("0.0.0.0", "10.0.0.5:8000", True), ("0.0.0.0", "[fe80::1]:8000", True), ("0.0.0.0", "rebound.example", False),
])
def test_host_rule(listen: str, host: str, allowed: bool) -> None:
    assert HostRule(listen).allows(host) is allowed


def test_guard_without_a_host_and_for_head() -> None:
    """HTTP/1.1 needs a Host (400), HTTP/1.0 may omit it; HEAD keeps the GET's headers and sends no body."""
    seen: list[tuple[str, list[tuple[str, str]]]] = []

    def app(environ: dict, start_response: object) -> list[bytes]:
        start_response("200 OK", [("Content-Length", "4")])  # type: ignore[operator]
        return [b"page"]
    guard = guarded(app, HostRule("127.0.0.1"))

    def call(**environ: str) -> bytes:
        return b"".join(guard(environ, lambda status, headers: seen.append((status, headers))))
    assert call(SERVER_PROTOCOL="HTTP/1.1", REQUEST_METHOD="GET") .startswith(b"400") and seen[-1][0].startswith("400")
    assert call(SERVER_PROTOCOL="HTTP/1.0", REQUEST_METHOD="GET") == b"page"
    assert call(HTTP_HOST="localhost", REQUEST_METHOD="HEAD") == b"" and seen[-1] == ("200 OK", [("Content-Length", "4")])


def _serve(tmp_path: Path, root: Path, extra: str = "", **env: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = start_serve(serve_config(tmp_path, root, extra), port, **env)
    code, _ = wait_for(server, f"http://127.0.0.1:{port}/en/index.html", 600)
    if code != 200:
        pytest.fail("serve never answered: " + stop(server)[-3000:])
    return server, port


@pytest.mark.slow
def test_serve_answers_its_own_host_only_and_only_to_read(tmp_path: Path, bundled_root: Path) -> None:
    """DNS rebinding: a page whose name now resolves to 127.0.0.1 sends its own name as Host: 421. Any method
    but GET and HEAD: 405 (before: 200 for all of them)."""
    server, port = _serve(tmp_path, copy_tree(bundled_root, tmp_path / "spec"))
    try:
        for host in ("127.0.0.1", f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert request(port, "/en/index.html", host=host)[0] == 200, host
        for host in ("evil.example", f"evil.example:{port}", f"localhost.evil.example:{port}"):
            assert request(port, "/en/index.html", host=host)[0] == 421, host
            assert request(port, "/livereload/0/0", host=host)[0] == 421, host  # the reload poll too
        for method in ("POST", "PUT", "DELETE", "TRACE", "PROPFIND", "OPTIONS", "PATCH"):
            code, headers, _ = request(port, "/en/index.html", method)
            assert code == 405 and headers.get("allow") == "GET, HEAD", method
        code, headers, body = request(port, "/en/index.html", "HEAD")
        assert code == 200 and int(headers["content-length"]) > 0 and body == b""
        code, _, body = request(port, "/en/index.html")
        assert code == 200 and b"</html>" in body
    finally:
        log = stop(server, signal.SIGINT, 90)
    assert server.returncode == 0 and "Traceback" not in log, log[-5000:]


# ---------------------------------------------------------------- issue 37: a tree replaced under the server

def _tadd(root: Path) -> tuple[Path, str]:
    """TADD's unit and its page (under en/, as the unit lies under asl/)."""
    unit = next(root.rglob("TADD.asl"))
    return unit, "/en/" + unit.relative_to(root / "asl").with_suffix(".html").as_posix()


def _mark(unit: Path, marker: str) -> None:
    """The unit's contract clause says ``marker`` (in place of what an earlier mark said)."""
    text, n = re.subn(r"the sum (?:\w+ )?of each pair", f"the sum {marker} of each pair",
                      unit.read_text(encoding="utf-8"))
    assert n == 1
    unit.write_text(text, encoding="utf-8")


def _shows(server: subprocess.Popen, port: int, page: str, marker: str) -> bool:
    """Whether the page shows ``marker`` within 60 s (a bound, not a speed: the probe waited 150 s in vain)."""
    code, body = wait_for(server, f"http://127.0.0.1:{port}{page}", 60, until=lambda code, body: marker in body)
    return marker in body


@pytest.mark.slow
@pytest.mark.parametrize("poll", ["native", "polling"])
def test_serve_follows_a_tree_deleted_and_made_again(tmp_path: Path, bundled_root: Path, poll: str) -> None:
    """A ``git checkout`` of another branch can delete the tree and write it again: the server shows the
    tree gone (the error banner), then the next edit of the new tree within seconds."""
    root = copy_tree(bundled_root, tmp_path / "spec")
    keep = copy_tree(bundled_root, tmp_path / "kept")
    unit, page = _tadd(root)
    server, port = _serve(tmp_path, root, SPECGEN_SERVE_POLL="1" if poll == "polling" else "0")
    try:
        _mark(unit, "MARKFIRST")
        assert _shows(server, port, page, "MARKFIRST")
        shutil.rmtree(root)
        assert _shows(server, port, page, "specgen-rebuild-error")  # the tree is gone: said on the page
        shutil.copytree(keep, root)
        time.sleep(2)  # the edit comes after the tree is back, as a separate change
        _mark(unit, "MARKAGAIN")
        assert _shows(server, port, page, "MARKAGAIN")
        assert "specgen-rebuild-error" not in fetch(f"http://127.0.0.1:{port}{page}")[1]
    finally:
        log = stop(server, signal.SIGINT, 90)
    assert server.returncode == 0 and "Traceback" not in log, log[-5000:]


@pytest.mark.slow
def test_serve_follows_its_root_link_re_pointed_and_back(tmp_path: Path, bundled_root: Path) -> None:
    """The spec root is a symbolic link: re-pointed to another tree, the edits there show; pointed back,
    the edits of the first tree show again (before: unseen for over 4 minutes)."""
    first = copy_tree(bundled_root, tmp_path / "first")
    second = copy_tree(bundled_root, tmp_path / "second")
    link = tmp_path / "spec"
    link.symlink_to(first)
    server, port = _serve(tmp_path, link)
    unit, page = _tadd(first)

    def point(to: Path) -> None:  # atomically, as a deploy script or ``ln -sfn`` + ``mv -T`` does
        (tmp_path / "spec.new").symlink_to(to)
        os.replace(tmp_path / "spec.new", link)
        time.sleep(2)
    try:
        point(second)
        _mark(second / unit.relative_to(first), "MARKSECOND")
        assert _shows(server, port, page, "MARKSECOND")
        point(first)
        _mark(unit, "MARKFIRST")
        assert _shows(server, port, page, "MARKFIRST")
        _mark(unit, "MARKLATER")  # and keeps following it
        assert _shows(server, port, page, "MARKLATER")
    finally:
        log = stop(server, signal.SIGINT, 90)
    assert server.returncode == 0 and "Traceback" not in log, log[-5000:]


# ---------------------------------------------------------------- issue 37: a stop ends everything

def _slow(root: Path) -> None:
    """Make every call of ExecuteTileBinary long, so the background tests and worked examples run for minutes."""
    helper = root / "asl/tile/model/execution/elementwise.asl"
    text = helper.read_text(encoding="utf-8")
    begin = text.index("\nbegin\n", text.index("func ExecuteTileBinary(")) + 1
    helper.write_text(text[:begin] + "begin var slow_work : integer = 0; for slow_i = 0 to 40000000 do "
                      "slow_work = slow_work + 1; end;" + text[begin + len("begin"):], encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_serve_stops_clean_in_the_middle_of_background_work(tmp_path: Path, bundled_root: Path,
                                                            sig: signal.Signals) -> None:
    """Stopped while the AVS tests run in forked workers: every process it started ends within seconds and
    the port is free for the next serve (before: a worker kept running and kept the listening socket, and
    the server hung at exit waiting for it)."""
    root = copy_tree(bundled_root, tmp_path / "spec")
    _slow(root)
    server, port = _serve(tmp_path, root, "      jobs: 3\n")  # two background workers on any machine
    started: set[int] = set()
    try:
        started = wait_for_workers(server)
        assert started, "no background worker started"
        time.sleep(2)  # the workers are in the middle of a test
        started |= descendants(server.pid)
        assert not port_free(port)
        t0 = time.monotonic()
        server.send_signal(sig)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            pass
        stopped = time.monotonic() - t0
        left = wait_gone(started)
        held = not port_free(port)
    finally:
        log = reap(server, started)
    assert not left, f"left running: {left}"
    assert stopped < 20, f"the stop took {stopped:.1f} s"
    assert not held, "the port is still held"
    assert server.returncode == 0 and "Traceback" not in log, log[-5000:]


@pytest.mark.slow
def test_workers_die_with_a_killed_server(tmp_path: Path, bundled_root: Path) -> None:
    """Even a SIGKILL, which no handler sees, leaves no worker behind: they die with their parent."""
    root = copy_tree(bundled_root, tmp_path / "spec")
    _slow(root)
    server, port = _serve(tmp_path, root, "      jobs: 3\n")
    started: set[int] = set()
    try:
        started = wait_for_workers(server)
        assert started, "no background worker started"
        server.kill()
        server.wait(30)
        left = wait_gone(started)
        held = not port_free(port)
    finally:
        reap(server, started)
    assert not left, f"left running: {left}"
    assert not held, "the port is still held"


@pytest.mark.slow
def test_plain_mkdocs_serve_gets_the_same_guard_and_stop(tmp_path: Path, bundled_root: Path) -> None:
    """A user's ``mkdocs serve`` with the plugin line: the plugin's ``on_serve`` installs the Host and method
    filter and the SIGTERM handling, so a SIGTERM in the middle of background work ends mkdocs, its workers
    and its temporary site (before: the process died at once, its workers and temporary folder left)."""
    root = copy_tree(bundled_root, tmp_path / "spec")
    _slow(root)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    port = free_port()
    config = serve_config(tmp_path, root, "      jobs: 3\n")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-f", str(config), "-a", f"127.0.0.1:{port}"],
                              env={**os.environ, "TMPDIR": str(tmp)}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    started: set[int] = set()
    try:
        code, _ = wait_for(server, f"http://127.0.0.1:{port}/en/index.html", 600)
        assert code == 200, "mkdocs serve never answered"
        assert request(port, "/en/index.html", host="evil.example")[0] == 421
        assert request(port, "/en/index.html", "POST")[0] == 405
        started = wait_for_workers(server)
        assert started, "no background worker started"
        assert [p for p in tmp.iterdir() if p.name.startswith("mkdocs_")]
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            pass
        left = wait_gone(started)
        held = not port_free(port)
    finally:
        log = reap(server, started)
    assert not left, f"left running: {left}"
    assert not held, "the port is still held"
    assert server.returncode == 0 and "Traceback" not in log, log[-5000:]
    assert not [p for p in tmp.iterdir() if p.name.startswith("mkdocs_")], "the temporary site was left"


# ---------------------------------------------------------------- issue 38: a restart answers at once


def test_a_restart_serves_the_last_site_at_once_then_the_fresh_build(tmp_path: Path, bundled_root: Path) -> None:
    """A serve that ended after a good build leaves its site in the private cache; the next serve of the same
    config answers from it before its own first build (under a banner that says so), then serves the fresh
    build without the banner. A serve whose build failed stores nothing."""
    root = copy_tree(bundled_root, tmp_path / "spec")
    config = serve_config(tmp_path, root)
    cache = tmp_path / "cache"
    port = free_port()
    env = {"SPECGEN_CACHE_DIR": str(cache), "SPECGEN_SERVE_POLL": "1"}
    base = f"http://127.0.0.1:{port}/en/index.html"
    first = start_serve(config, port, **env)
    try:
        code, body = wait_for(first, base, 600)
        assert code == 200 and "specgen-provisional" not in body  # nothing stored yet: the build, then pages
    finally:
        log = stop(first)
    assert first.returncode == 0, log
    stored = [p for p in (cache / "serve").iterdir() if (p / ".specgen-stored-site").is_file()]
    assert len(stored) == 1 and (stored[0] / "en" / "index.html").is_file()
    again = start_serve(config, port, **env)
    try:
        deadline, code, body = time.monotonic() + 120, 0, ""
        while not code and time.monotonic() < deadline and again.poll() is None:  # the first answer, polled fast
            try:
                code, body = fetch(base, timeout=2)
            except OSError:
                time.sleep(0.05)
        assert code == 200 and "specgen-provisional" in body, body[:2000]  # the last site, before the build
        assert "livereload" in body  # it reloads when the fresh build is served
        code, body = wait_for(again, base, 600, until=lambda code, body: "specgen-provisional" not in body)
        assert code == 200 and "specgen-provisional" not in body and "sg-" in body
    finally:
        log = stop(again)
    assert again.returncode == 0, log
    assert "Traceback" not in log, log[-5000:]
    # a serve that ends while its last rebuild failed leaves the stored site as it was
    marker = stored[0] / ".specgen-stored-site"
    before = marker.stat().st_mtime_ns
    third = start_serve(config, port, **env)
    try:
        code, body = wait_for(third, base, 600, until=lambda code, body: code == 200 and "specgen-provisional" not in body)
        assert code == 200
        unit = next(iter(sorted((root / "asl").rglob("*.asl"))))
        unit.write_bytes(unit.read_bytes() + b"\x00\x00")
        code, body = wait_for(third, base, 600, until=lambda code, body: "specgen-rebuild-error" in body)
        assert "specgen-rebuild-error" in body
    finally:
        log = stop(third)
    assert third.returncode == 0, log
    assert marker.stat().st_mtime_ns == before  # not replaced by the site of a failed rebuild
