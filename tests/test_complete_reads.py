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

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.cache import layer
from specgen.cli import main as cli

UNIT = "asl/arch/data-types/integer.asl"
TESTS = "tests/asl/arch/data-types/integer"

# appended to UNIT (the end of the file: no other declaration moves); each read by one probe only
DEFINITIONS = """
constant PROBE_LIMIT = 7;
config PROBE_DEPTH : integer = 3;
var ProbeCounter : integer = 5;
type ProbeNibble of bits(4);
type ProbeColour of enumeration {
    ProbeColour_Red,
    ProbeColour_Green
};
"""

# kind -> (the definition's name, the probe's main body, the edit of UNIT that makes it fail)
PROBES: dict[str, tuple[str, str, tuple[str, str]]] = {
    "constant": ("PROBE_LIMIT", "assert PROBE_LIMIT == 7;",
                 ("constant PROBE_LIMIT = 7;", "constant PROBE_LIMIT = 8;")),
    "config": ("PROBE_DEPTH", "assert PROBE_DEPTH + 1 == 4;",
               ("config PROBE_DEPTH : integer = 3;", "config PROBE_DEPTH : integer = 4;")),
    "global": ("ProbeCounter", "ProbeCounter = ProbeCounter + 1;\n    assert ProbeCounter == 6;",
               ("var ProbeCounter : integer = 5;", "var ProbeCounter : integer = 9;")),
    "bitvector": ("ProbeNibble", "var n : ProbeNibble;\n    assert Len(n) == 4;",
                  ("type ProbeNibble of bits(4);", "type ProbeNibble of bits(5);")),
    "enumeration": ("ProbeColour", "var c : ProbeColour;\n    assert c == ProbeColour_Red;",
                    ("    ProbeColour_Red,\n    ProbeColour_Green", "    ProbeColour_Green,\n    ProbeColour_Red")),
}


def _probe_id(kind: str) -> str:
    return f"PTO-AVS-ARCH-INTEGER-PROBE-{kind.upper()}-001"


def _probe_path(kind: str) -> str:
    return f"{TESTS}/arch-exec-integer-probe-{kind}-001.asl"


def add_probes(root: Path) -> None:
    """The five definitions and the five tests reading them, in a copy of the bundled spec."""
    unit = root / UNIT
    unit.write_text(unit.read_text(encoding="utf-8") + DEFINITIONS, encoding="utf-8")
    for kind, (name, body, _edit) in PROBES.items():
        header = {"id": _probe_id(kind), "source": UNIT, "requirements": [], "kind": "execution",
                  "summary": f"the probe reads {name}", "pass_condition": f"{name} is as declared",
                  "related_sources": []}
        (root / _probe_path(kind)).write_text(
            f"// PTO-TEST: {json.dumps(header, separators=(',', ':'))}\nfunc main() => integer\nbegin\n"
            f"    {body}\n    return 0;\nend;\n", encoding="utf-8")


def edit(root: Path, kind: str) -> None:
    old, new = PROBES[kind][2]
    unit = root / UNIT
    text = unit.read_text(encoding="utf-8")
    assert text.count(old) == 1
    unit.write_text(text.replace(old, new), encoding="utf-8")


def _test(root: Path, *args: str) -> tuple[int, dict[str, str], str]:
    """``specgen test`` in this process (each store read from disk, as a new process would):
    exit code, each run test's status by id, the text printed."""
    layer._LAYERS.clear()
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
    probe = _probe_id(kind)

    rc, statuses, _ = _test(root, "--changed")
    assert rc == 1 and statuses.get(probe) == "failed"
    assert not any(_probe_id(k) in statuses for k in PROBES if k != kind)  # exactly the results that read it

    for what in (PROBES[kind][0], UNIT, str(root / UNIT)):
        restore()
        rc, statuses, text = _test(root, "--affected-by", what)
        assert statuses.get(probe) == "failed", (what, text[-300:])
        assert not any(_probe_id(k) in statuses for k in PROBES if k != kind) or what != PROBES[kind][0]

    restore()  # what `specgen build` asks: the suite for this tree, stored results reused
    from specgen.asl.conformance import conformance
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    layer._LAYERS.clear()
    conf = conformance(SpecGraph.build(load_spec(root)), jobs=1)
    assert conf.outcomes[_probe_path(kind)].status == "failed"
    assert conf.rerun == 1 and conf.reused == len(conf.outcomes) - 1, conf.summary()


def test_a_test_read_by_its_own_constant_is_recorded_through_it(bundled_copy: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's own declarations count: a constant of the test file initialised from a tree constant."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    add_probes(bundled_copy)
    path = bundled_copy / _probe_path("constant")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "func main()", "constant Mine = PROBE_LIMIT + 1;\nfunc main()").replace(
        "assert PROBE_LIMIT == 7;", "assert Mine == 8;"), encoding="utf-8")
    rc, statuses, _ = _test(bundled_copy, "constant")
    assert rc == 0 and statuses == {_probe_id("constant"): "passed"}
    edit(bundled_copy, "constant")
    rc, statuses, _ = _test(bundled_copy, "--changed")
    assert statuses.get(_probe_id("constant")) == "failed"


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
        assert _status_on_page(site, _probe_id(kind)) == "passed"
        edit(bundled_copy, kind)
    out = _specgen(cache, *build)
    assert "(5 run, 60 reused" in out, out  # exactly the five probes read what changed
    for kind in PROBES:
        assert _status_on_page(site, _probe_id(kind)) == "failed", kind
    out = _specgen(cache, "test", "--root", str(bundled_copy), "--jobs", "1", "--changed")
    assert "no test changed since its last recorded result" in out, out[-500:]  # the build's results, reused
