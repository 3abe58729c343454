"""A server's edits do not grow the private cache without bound.

Each revision of a tree's units stores its ASL index (0.9 MB on 0.58.3) and its static findings; a
``specgen serve`` session writes one of each per edit. The stores keep the newest few.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from specgen.asl.index import INDEX_KEEP, SUMMARY_FORMAT, build_index
from specgen.asl.static import STORED_KEEP, asl_findings
from specgen.loader import load_spec
from specgen.workspace import fresh

BUNDLED = Path(__file__).resolve().parents[1] / "spec"


def test_index_and_findings_keep_the_newest_few(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(cache))
    root = tmp_path / "spec"
    shutil.copytree(BUNDLED, root)
    unit = root / "asl" / "arch" / "data-types" / "integer.asl"
    text = unit.read_text(encoding="utf-8")
    for i in range(INDEX_KEEP + 3):
        unit.write_text(f"// revision {i}\n" + text, encoding="utf-8")
        fresh()
        spec = load_spec(root)
        build_index(spec)
        asl_findings(spec)
    fresh()
    indexes = list((cache / "asl").glob(f"index{SUMMARY_FORMAT}-*.entry"))
    statics = list((cache / "asl").glob("static-*.entry"))
    assert len(indexes) == INDEX_KEEP
    assert len(statics) == STORED_KEEP
    spec = load_spec(root)  # the newest is among those kept: read back, not rebuilt
    assert build_index(spec).defs
