"""Issue 38: a test's recorded reads are every definition its run touched, and every command shares one result.

The stale-verdict probes: five tests on a copy of the bundled spec, each reading one kind of definition
straight from its ``main`` (a constant, a ``config`` default, a global ``var``'s initialiser, a named
bitvector type, an enumeration), pass; then each definition is edited so its test fails. Before issue 38
a test's reads were only the functions it ran, so the build reused "passed", ``test --changed`` said
nothing changed and ``--affected-by`` the edited file said no test read it. Here each of them sees it.

The shared store: ``specgen test`` then ``specgen build`` of the same tree runs no test, and ``build``
then ``test --changed`` runs none either (each a separate process, as a user runs them).
"""

from __future__ import annotations

from specgen.workspace import fresh

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from readedits import PROBES, PROBE_UNIT, add_probes, probe_id, probe_path
from readedits import edit_probe as edit
from specgen.cli import main as cli

UNIT = PROBE_UNIT


def _test(root: Path, *args: str) -> tuple[int, dict[str, str], str]:
    """``specgen test`` in this process (each store read from disk, as a new process would):
    exit code, each run test's status by id, the text printed."""
    fresh()
    out, err = io.StringIO(), io.StringIO()
    rc = cli(["test", "--root", str(root), "--jobs", "1", "--format", "json", *args], out=out, err=err)
    text = out.getvalue()
    if not text.startswith("{"):
        return rc, {}, text
    return rc, {t["id"]: t["status"] for t in json.loads(text)["tests"]}, text


@pytest.fixture()
def probed(bundled_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A probed copy whose every test passed and was recorded; the cache directory."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(cache))
    add_probes(bundled_copy)
    rc, statuses, _ = _test(bundled_copy)
    assert rc == 0 and len(statuses) >= 65 and set(statuses.values()) == {"passed"}
    return bundled_copy, cache


@pytest.mark.parametrize("kind", sorted(PROBES))
def test_an_edited_definition_is_seen_by_changed_affected_by_and_the_build(kind: str, probed: tuple[Path, Path],
                                                                          tmp_path: Path) -> None:
    root, cache = probed
    recorded = tmp_path / "recorded"
    shutil.copytree(cache, recorded)  # each question below is asked of the results recorded before the edit

    def restore() -> None:
        shutil.rmtree(cache)
        shutil.copytree(recorded, cache)

    edit(root, kind)
    probe = probe_id(kind)

    rc, statuses, _ = _test(root, "--changed")
    assert rc == 1 and statuses.get(probe) == "failed"
    assert not any(probe_id(k) in statuses for k in PROBES if k != kind)  # exactly the results that read it

    for what in (PROBES[kind][0], UNIT, str(root / UNIT)):
        restore()
        rc, statuses, text = _test(root, "--affected-by", what)
        assert statuses.get(probe) == "failed", (what, text[-300:])
        if what == PROBES[kind][0]:  # exactly the tests that read the definition
            assert not any(probe_id(k) in statuses for k in PROBES if k != kind)
        else:  # every test that read a definition the file holds
            assert all(probe_id(k) in statuses for k in PROBES)

    restore()  # what `specgen build` asks: the suite for this tree, stored results reused
    from specgen.asl.conformance import conformance
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    fresh()
    conf = conformance(SpecGraph.build(load_spec(root)), jobs=1)
    assert conf.outcomes[probe_path(kind)].status == "failed"
    assert conf.rerun == 1 and conf.reused == len(conf.outcomes) - 1, conf.summary()


def test_a_test_read_by_its_own_constant_is_recorded_through_it(bundled_copy: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's own declarations count: a constant of the test file initialised from a tree constant."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    add_probes(bundled_copy)
    path = bundled_copy / probe_path("constant")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "func main()", "constant Mine = PROBE_LIMIT + 1;\nfunc main()").replace(
        "assert PROBE_LIMIT == 7;", "assert Mine == 8;"), encoding="utf-8")
    rc, statuses, _ = _test(bundled_copy, "constant")
    assert rc == 0 and statuses == {probe_id("constant"): "passed"}
    edit(bundled_copy, "constant")
    rc, statuses, _ = _test(bundled_copy, "--changed")
    assert statuses.get(probe_id("constant")) == "failed"


def _status_on_page(site: Path, test_id: str) -> str:
    page = site / "en" / "tests" / "arch" / "data-types" / "integer.html"
    text = page.read_text(encoding="utf-8")
    m = re.search(rf'<h2 id="{re.escape(test_id)}">.*?data-status="([a-z-]+)"', text, re.S)
    assert m is not None, test_id
    return m.group(1)


def _specgen(cache: Path, *args: str) -> str:
    """One command in its own process, as a user runs it: its stdout."""
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-m", "specgen", *args], env=env, capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr[-1500:]
    return r.stdout


def test_one_store_test_then_build_runs_nothing_and_the_pages_follow_each_edit(bundled_copy: Path,
                                                                               tmp_path: Path) -> None:
    cache, site = tmp_path / "cache", tmp_path / "site"
    add_probes(bundled_copy)
    out = _specgen(cache, "test", "--root", str(bundled_copy), "--jobs", "1")
    assert re.search(r"\b65 passed, 0 failed", out), out[-500:]
    build = ("build", "--root", str(bundled_copy), "--out", str(site), "--jobs", "1")
    out = _specgen(cache, *build)
    assert "AVS tests: 65 passed (0 run, 65 reused)" in out, out  # the test run's results, not run again
    for kind in PROBES:
        assert _status_on_page(site, probe_id(kind)) == "passed"
        edit(bundled_copy, kind)
    out = _specgen(cache, *build)
    assert "(5 run, 60 reused" in out, out  # exactly the five probes read what changed
    for kind in PROBES:
        assert _status_on_page(site, probe_id(kind)) == "failed", kind
    out = _specgen(cache, "test", "--root", str(bundled_copy), "--jobs", "1", "--changed")
    assert "no test changed since its last recorded result" in out, out[-500:]  # the build's results, reused
