"""A build forgets the validation shards once its suite has run (issue 40, peak memory of a corpus build).

The parallel suite generates the full generated ASL (with the validation shards, about 120 MB parsed on 0.58.3)
in the building process so that forked workers inherit it; only the workers run it. Kept in the workspace, it
stayed resident while mkdocs wrote every page: 1,136 MB at the peak of a cold 0.58.3 build, 1,016 MB once it is
forgotten (docs-internal/performance.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.asl.catalog_modules import generated_modules
from specgen.asl.conformance import conformance
from specgen.catalog_asl.sources import generation_key
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.workspace import current, fresh, use

REPO = Path(__file__).resolve().parents[1]


def test_a_parallel_suite_leaves_no_full_generated_set_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))  # nothing reused: the suite runs
    before = use(fresh())
    try:
        spec = load_spec(REPO / "spec")
        graph = SpecGraph.build(spec)
        table = current().table("asl.catalog_modules._MODULES")
        generated_modules(spec)
        assert generation_key(spec, False, True) in table  # what the suite's workers inherit is held here
        conf = conformance(graph, jobs=2)
        assert conf.rerun and all(o.status == "passed" for o in conf.outcomes.values())
        assert generation_key(spec, False, True) not in table
        assert generated_modules(spec)  # a later caller decodes it again
    finally:
        use(before)
