"""Issue 24's serve probes: a failed rebuild keeps the last good site (error shown), bad URLs get a 4xx,
SIGTERM and SIGINT remove the temporary site."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from served import fetch, free_port, stop, wait_for
from treecopy import copy_tree

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
