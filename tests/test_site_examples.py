"""The build is the gate: a documented example result the spec's ASL contradicts is never published."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import logging
import re
from pathlib import Path

import pytest
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.exceptions import Abort, PluginError

from specgen.outputs import MARKER, MARKER_TEXT
from specgen.cli.build import run as cmd_build
from specgen.site.inputs import default_config, load_mkdocs_config

TMUL_EXAMPLES = Path("examples/tile/elementwise-tile-tile/arithmetic/TMUL")
TMUL_HTML = "tile/elementwise-tile-tile/arithmetic/TMUL.html"


def _build(root: Path, out: Path) -> tuple[int, str, str]:
    o, e = io.StringIO(), io.StringIO()
    return cmd_build(argparse.Namespace(root=root, out=out, config=None, jobs=1), o, e), o.getvalue(), e.getvalue()


def _tree(d: Path) -> dict[str, str]:
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob("*"))
            if p.is_file()}


def _break_one_expectation(root: Path) -> tuple[str, str, str]:
    """Change one expected element of a TMUL example file; (root-relative path, example id, element)."""
    path = sorted((root / TMUL_EXAMPLES).glob("*.json"))[0]
    data = json.loads(path.read_text())
    reg, spec = next(iter(data["expect"]["tiles"].items()))
    old = spec["values"][0][0]
    spec["values"][0][0] = (old + 1) if isinstance(old, int) else "0x0000000000000001"
    path.write_text(json.dumps(data, indent=2))
    return path.relative_to(root).as_posix(), data["id"], f"{reg}[0][0]"


def test_wrong_example_fails_the_build_and_keeps_the_previous_site(bundled_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    code, stdout, stderr = _build(bundled_copy, out)
    assert code == 0, stderr  # the unmodified spec builds
    page = (out / "en" / TMUL_HTML).read_text()
    assert page.count('data-status="verified"') >= len(list((bundled_copy / TMUL_EXAMPLES).glob("*.json")))
    assert re.search(r"examples \d+\.\d s", stdout)
    before = _tree(out)

    rel, ident, element = _break_one_expectation(bundled_copy)
    code, stdout, stderr = _build(bundled_copy, out)
    assert code == 1
    assert f"{rel}:" in stderr and ident in stderr and element in stderr and "differ" in stderr
    assert _tree(out) == before, "the previous site must stay as it was"


def test_plain_mkdocs_build_stops_before_cleaning(bundled_copy: Path, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    site_dir = tmp_path / "mk"
    site_dir.mkdir()
    (site_dir / "previous.html").write_text("previous build")
    (site_dir / MARKER).write_text(MARKER_TEXT)  # a site of specgen's own: the output-safety rule lets it be replaced
    rel, ident, element = _break_one_expectation(bundled_copy)
    cfg = load_mkdocs_config(default_config(), bundled_copy, site_dir, strict=True)
    cfg.plugins.on_startup(command="build", dirty=False)
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)) as err:
        mkdocs_build(cfg)
    message = str(err.value) + "\n".join(r.getMessage() for r in caplog.records)
    assert rel in message and ident in message and element in message
    assert sorted(p.name for p in site_dir.iterdir()) == sorted([MARKER, "previous.html"])
