"""Spec text cannot break out of any element of the built site, including ``<title>`` and the nav."""

from __future__ import annotations

import re
from pathlib import Path

from specgen.cli import main
from treecopy import copy_tree

HOSTILE = Path(__file__).resolve().parent / "bad-inputs" / "hostile"
BREAKOUT = "</title><script>alert(2)</script>"


def test_hostile_adr_title_stays_text(tmp_path: Path) -> None:
    root = copy_tree(HOSTILE, tmp_path / "spec")
    adr = next((root / "docs/status/decisions").glob("0001-*.md"))
    text = adr.read_text()
    text = re.sub(r'"title": "[^"]*"', '"title": "T ' + BREAKOUT.replace('"', '\\"') + '"', text, count=1)
    text = re.sub(r"^# .*$", "# ADR 0001: T " + BREAKOUT, text, count=1, flags=re.M)
    adr.write_text(text)
    out = tmp_path / "site"
    assert main(["build", "--root", str(root), "--out", str(out)]) == 0
    pages = list(out.rglob("*.html"))
    assert pages
    raw = [p for p in pages if "<script>alert" in p.read_text(encoding="utf-8")]
    assert raw == []
    page = (out / "en/adr" / adr.name.replace(".md", ".html")).read_text(encoding="utf-8")
    assert "<title>ADR-0001: T &lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page
