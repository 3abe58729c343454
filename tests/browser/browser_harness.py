"""Browser-test harness: build a spec tree, serve it on 127.0.0.1, drive Debian's chromium.

Playwright cannot download its own browser here, so every launch uses
``/usr/bin/chromium`` (``make test`` installs it). Its absence fails the run
under CI (``CI`` set) and skips it elsewhere, with a message either way.

All browser tests carry ``xdist_group("browser")`` so that one xdist worker
owns the single chromium process and the single built site of the session.
"""

from __future__ import annotations

import fcntl
import functools
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BUNDLED = REPO / "spec"
CORPUS = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"  # the release the corpus browser tests build
OLD_CORPUS = CORPUS.parent / "pto-spec-0.58.0"  # the README's two-release site is both
CHROMIUM = Path("/usr/bin/chromium")
# Headless, no network chatter, no profile reuse (Playwright's launch() makes a
# fresh temporary --user-data-dir per browser and deletes it on close).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LANGS = ("en", "zh")
# Screenshots the browser tests save for people to look at; build/ is what CI keeps (and git ignores).
ARTIFACTS = REPO / "build" / "test-artifacts"
NARROW = 390  # px: the phone width every sample page must fit without scrolling sideways


def chromium_or_skip() -> Path:
    """Debian's chromium, or skip (fail under CI, where ``make test`` installs it)."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = (f"{CHROMIUM} is missing: install Debian's package with "
               "`apt-get install --no-install-recommends chromium` (make test does this)")
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def build_site(root: Path | tuple[Path, ...], out: Path) -> Path:
    """Run the real ``specgen build`` (one ``--root`` per release) so the tests see exactly what users get."""
    roots = root if isinstance(root, tuple) else (root,)
    # the two-release corpus build takes ~5 min alone on 2 cores, and was seen past 30 min on a machine shared
    # by six full test runs: the bound is for a hang, not for speed
    proc = subprocess.run(
        [sys.executable, "-m", "specgen", "build", *(a for r in roots for a in ("--root", str(r))), "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=3600, check=False,
    )
    if proc.returncode != 0:
        pytest.fail(f"specgen build --root {' --root '.join(map(str, roots))} failed ({proc.returncode}):\n"
                    f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}", pytrace=False)
    (out.parent / f"{out.name}.stdout").write_text(proc.stdout, encoding="utf-8")
    return out


def shared_build(root: Path | tuple[Path, ...], factory: pytest.TempPathFactory, name: str) -> Path:
    """Build ``root`` (or several releases) once per pytest run, even when several xdist workers ask for it.

    ``xdist_group`` should send every browser test to one worker, but nothing
    breaks (and nothing is built twice) if the scheduler splits them: the first
    worker builds under a file lock in the run's shared temp dir, the others wait
    and reuse the result.
    """
    shared = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    out, done = shared / f"site-{name}", shared / f"site-{name}.done"
    with open(shared / f"site-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                build_site(root, out)
                done.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


class _QuietHandler(SimpleHTTPRequestHandler):
    """Static files without a log line per request on stderr; optionally under a sub-path (``prefix``), with a
    missing file answered by the site root's ``404.html`` and status 404, the way GitHub Pages serves a site."""

    prefix = "/"
    not_found: str | None = None

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def translate_path(self, path: str) -> str:
        if self.prefix != "/":
            if not path.startswith(self.prefix):
                return str(Path(self.directory) / "__outside_the_prefix__")
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / self.not_found if self.not_found else None
        if code != 404 or page is None or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextmanager
def serve(directory: Path, prefix: str = "/", not_found: str | None = None) -> Iterator[str]:
    """Serve ``directory`` over HTTP on an ephemeral loopback port at ``prefix``; yields the base URL.

    ``not_found`` (a file of the site, ``404.html``) answers every missing address with status 404."""
    handler_class = type("Handler", (_QuietHandler,), {"prefix": prefix, "not_found": not_found})
    handler = functools.partial(handler_class, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass(frozen=True)
class Site:
    """A built site on disk and the URL it is served at."""

    dir: Path
    url: str

    def instruction(self, lang: str, mnemonic: str) -> str:
        """Site-relative URL of an instruction page, found on disk (not guessed)."""
        return self.find(lang, mnemonic, marker='id="encoding"')

    def find(self, lang: str, name: str, marker: str = "") -> str:
        """Site-relative URL of the page of ``lang`` whose directory or file is ``name``."""
        base = self.dir / lang
        hits = sorted(
            p for p in base.rglob("*.html")
            if (p.parent.name.lower() == name.lower() and p.name == "index.html")
            or p.stem.lower() == name.lower()
        )
        if marker:
            hits = [p for p in hits if marker in p.read_text(encoding="utf-8", errors="replace")]
        assert hits, f"no {lang} page named {name!r} under {base}"
        return self.rel_url(hits[0])

    def rel_url(self, path: Path) -> str:
        rel = path.relative_to(self.dir).as_posix()
        return rel[: -len("index.html")] if rel.endswith("index.html") else rel

    def abs(self, rel: str) -> str:
        return self.url + rel.lstrip("/")


def sample_pages(site: Site, lang: str = "en") -> dict[str, str]:
    """The pages the narrow-screen and axe tests visit, one per kind of page, found on disk."""
    d = site.dir / lang
    adrs = sorted(p for p in (d / "adr").glob("0*.html") if not p.name.startswith("0000"))
    tests = sorted((d / "tests").rglob("*.html"))
    tests = sorted((p for p in tests if p.name != "index.html"), key=lambda p: (p.stem != "TMUL", str(p)))
    matrix = sorted((d / "traceability").glob("*.html"))
    pages = {
        "tmul": site.instruction(lang, "TMUL"),
        "home": f"{lang}/index.html",
        "index": site.find(lang, "arithmetic"),
        "surface-index": f"{lang}/tile/index.html",
        "instruction-index": f"{lang}/instructions/index.html",
        "matrix": f"{lang}/traceability.html",
        "release": f"{lang}/release.html",
        "adr-index": f"{lang}/adr/index.html",
        "tests-index": f"{lang}/tests/index.html",
    }
    if adrs:
        pages["adr"] = site.rel_url(adrs[0])
    if matrix:
        pages["matrix-surface"] = site.rel_url(matrix[-1])
    if tests:
        pages["tests"] = site.rel_url(tests[0])
    docs = sorted(p for p in (d / "docs").rglob("*.html") if p.name != "index.html")
    if docs:
        pages["doc"] = site.rel_url(docs[0])
        pages["doc-index"] = f"{lang}/docs/index.html"
    for name, rel in pages.items():
        assert (site.dir / rel).is_file() or (site.dir / rel / "index.html").is_file(), f"{name}: no {rel}"
    return pages


def save_screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """Write ``ARTIFACTS/<name>.png`` and return its path (the test asserts on it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


SIDEWAYS_JS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const e of document.querySelectorAll('.md-content *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.right <= width + 1) { continue; }
    let clipped = false;
    for (let p = e.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' && p.getBoundingClientRect().right <= width + 1) { clipped = true; break; }
    }
    if (!clipped) { out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' right=' + Math.round(r.right)); }
  }
  return {scrollWidth: document.documentElement.scrollWidth, culprits: out.slice(0, 8)};
}"""


def sideways(page: Any) -> dict[str, Any]:
    """The document's scroll width and the first elements that stick out of the viewport unclipped."""
    return page.evaluate(SIDEWAYS_JS)


@dataclass
class Tab:
    """A page plus everything it reported: console errors, page errors, dialogs."""

    page: Any
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)


def open_tab(context: Any) -> Tab:
    """A new page whose console errors, uncaught errors and dialogs are recorded."""
    page = context.new_page()
    tab = Tab(page)
    page.on("console", lambda m: tab.console_errors.append(f"{m.text} @ {m.location}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: tab.page_errors.append(str(e)))

    def on_dialog(dialog: Any) -> None:
        tab.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("requestfailed", lambda r: tab.failed_requests.append(r.url))
    return tab


# The elements of a section: the element itself when it is a container
# (<section id=...>), else its heading plus every following sibling up to the
# next heading of the same or a higher level.
SECTION_JS = """
(id) => {
  const el = document.getElementById(id);
  if (!el) { return null; }
  const m = /^H([1-6])$/.exec(el.tagName);
  if (!m) { return [el]; }
  const level = Number(m[1]);
  const out = [el];
  for (let n = el.nextElementSibling; n; n = n.nextElementSibling) {
    const h = /^H([1-6])$/.exec(n.tagName);
    if (h && Number(h[1]) <= level) { break; }
    out.push(n);
  }
  return out;
}
"""


def section_body_text(page: Any, section_id: str) -> str | None:
    """Visible text of a section without its heading; None when the id is absent."""
    return page.evaluate(
        "(id) => { const els = (" + SECTION_JS + ")(id); if (!els) { return null; }"
        " return els.slice(/^H[1-6]$/.test(els[0].tagName) ? 1 : 0)"
        ".map(e => e.innerText || '').join(' ').trim(); }",
        section_id,
    )


def section_svgs(page: Any, section_id: str) -> list[dict[str, float]]:
    """Bounding boxes and label counts of the top-level inline <svg>s in a section."""
    return page.evaluate(
        "(id) => { const els = (" + SECTION_JS + ")(id) || []; const boxes = [];"
        " for (const e of els) {"
        "  const svgs = e.tagName.toLowerCase() === 'svg' ? [e]"
        "   : Array.from(e.querySelectorAll('svg')).filter(s => !s.parentElement.closest('svg'));"
        "  for (const s of svgs) { const r = s.getBoundingClientRect();"
        "   boxes.push({width: r.width, height: r.height, texts: s.querySelectorAll('text').length}); } }"
        " return boxes; }",
        section_id,
    )
