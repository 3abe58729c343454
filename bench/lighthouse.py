"""Page-quality budgets: Lighthouse (npm ``lighthouse@12.2.3`` under ``bench/node_modules``) on three pages.

The built site is served by a local static server; Debian's chromium runs
headless. Pages: the TMUL instruction page, the English index and the
largest unit page. Budget: HTML ≤ 750 KB a page. Each line also gives the bytes of search index the page
loaded (lighthouse's network log; one index per language, ≤ 3 MB each). Prints "n/a" with the reason
when the site, node, chromium or lighthouse is missing (``cd bench && npm ci``).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
HTML_BUDGET = 750 * 1000
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def pick_pages(site: Path) -> list[tuple[str, Path]]:
    """(label, file) of the TMUL page (English and Chinese), an index page and the largest unit page."""
    out: list[tuple[str, Path]] = []
    for lang in ("en", "zh"):
        tmul = sorted(p for p in site.glob(f"{lang}/**/TMUL.html") if not {"tests", "source"} & set(p.parts))
        if tmul:
            out.append(("TMUL" if lang == "en" else "TMUL (zh)", tmul[0]))
    for idx in (site / "en" / "index.html", site / "index.html"):
        if idx.is_file():
            out.append(("index", idx))
            break
    pages = [p for p in site.glob("en/**/*.html") if "/tests/" not in p.as_posix() and "/source/" not in p.as_posix()]
    units = [p for p in pages if "model" in p.parts or "unit" in p.as_posix()]
    if units or pages:
        out.append(("largest unit page", max(units or pages, key=lambda p: p.stat().st_size)))
    return out


def _serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def audit(url: str, desktop: bool, chrome: str) -> dict[str, float] | str:
    cmd = [str(LIGHTHOUSE), url, "--output=json", "--quiet", "--only-categories=" + ",".join(CATEGORIES),
           "--chrome-flags=--headless --no-sandbox --disable-gpu", "--max-wait-for-load=120000"]
    if desktop:
        cmd.append("--preset=desktop")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "CHROME_PATH": chrome})
    if r.returncode != 0:
        return f"lighthouse failed: {(r.stderr or r.stdout).strip()[-200:]}"
    data = json.loads(r.stdout)
    scores: dict[str, float] = {c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES}
    scores["search_index_bytes"] = search_index_bytes(data)
    return scores


def search_index_bytes(data: dict[str, Any]) -> int:
    """Bytes of search index the page loaded (transfer size, as lighthouse's network log records it)."""
    items = (data.get("audits", {}).get("network-requests", {}).get("details", {}) or {}).get("items", [])
    return sum(int(i.get("transferSize") or i.get("resourceSize") or 0) for i in items
               if "search_index" in str(i.get("url", "")))


def report(site: Path, root: Path | None = None) -> None:
    print("page quality (lighthouse 12.2.3, headless chromium; HTML budget 750 KB)")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    missing = [what for what, ok in (("built site (specgen build)", (site / "index.html").is_file()),
                                     ("node", shutil.which("node")), ("chromium", chrome),
                                     ("bench/node_modules lighthouse (cd bench && npm ci)", LIGHTHOUSE.exists()))
               if not ok]
    if missing:
        print(f"  n/a (not available: {', '.join(missing)})")
        return
    server, port = _serve(site)
    try:
        for label, page in pick_pages(site):
            rel = page.relative_to(site).as_posix()
            size = page.stat().st_size
            verdict = "ok" if size <= HTML_BUDGET else "OVER BUDGET"
            url = f"http://127.0.0.1:{port}/{rel}"
            d = audit(url, True, chrome)
            m = audit(url, False, chrome)
            if isinstance(d, str) or isinstance(m, str):
                print(f"  {label:18s} {rel}: {d if isinstance(d, str) else m}")
                continue
            print(f"  {label:18s} html {size / 1000:.0f} KB ({verdict}); performance desktop {d['performance']} "
                  f"mobile {m['performance']}; accessibility {d['accessibility']}; best practices "
                  f"{d['best-practices']}; SEO {d['seo']}; search index loaded "
                  f"{d['search_index_bytes'] / 1e6:.2f} MB  [{rel}]", flush=True)
    finally:
        server.shutdown()


if __name__ == "__main__":
    import sys
    report(Path(sys.argv[1]))
