"""``specgen test --shard K/N`` and ``--merge``: a CI matrix runs the suite in N jobs and merges the reports.

The partition must be computed identically by jobs that share only the commit and the durations file,
cover the suite exactly once and balance it; the merge must refuse anything that is not one whole suite.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from specgen.asl.runner import TestResult as Result  # (not "Test…": pytest would collect it)
from specgen.asl.sharding import ShardError, ShardInfo, ShardReport, merge, parse_shard, partition, weights
from specgen.cli import main
from specgen.cli.exitcodes import ExitCode
from specgen.report import junit

REPO = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ the partition
@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text("abcdef/._", min_size=1, max_size=12), st.floats(0, 50, allow_nan=False),
                       max_size=60), st.integers(1, 9))
def test_partition_is_disjoint_covering_deterministic_and_balanced(weight: dict[str, float], n: int) -> None:
    keys = sorted(weight)
    shards = partition(keys, weight, n)
    assert len(shards) == n
    placed = [k for s in shards for k in s]
    assert sorted(placed) == keys and len(placed) == len(set(placed)), "disjoint and covering"
    assert partition(list(reversed(keys)), dict(reversed(list(weight.items()))), n) == \
        [sorted(s, key=list(reversed(keys)).index) for s in shards], "the order given does not move a test"
    loads = [sum(weight[k] for k in s) for s in shards]
    biggest = max(weight.values(), default=0.0)
    assert max(loads) - min(loads) <= biggest + 1e-9, "longest-first: shards differ by at most one test"


def test_shard_spec() -> None:
    assert parse_shard("2/4") == (2, 4) and parse_shard(" 1 / 1 ") == (1, 1)
    for bad in ("0/4", "5/4", "4", "a/b", "1/0", "-1/2"):
        with pytest.raises(ShardError, match="K/N|between 1 and N"):
            parse_shard(bad)


def test_recorded_durations_are_cpu_time_where_the_report_has_it() -> None:
    """Wall time on a shared runner is mostly the neighbours' load; the JSON report also records CPU time."""
    from specgen.asl.sharding import durations_of
    both = Result("a", "t/a", "passed", 6.5, cpu_seconds=1.25)
    wall_only = Result("b", "t/b", "passed", 2.0)  # read back from JUnit, which has no CPU time
    assert durations_of([both, wall_only]) == {"t/a": 1.25, "t/b": 2.0}


def test_weights_fall_back_to_the_median_then_to_the_text_length() -> None:
    items = [("a", 10), ("b", 20), ("c", 30)]
    assert weights(items, {"a": 1.0, "b": 3.0}) == {"a": 1.0, "b": 3.0, "c": 2.0}
    assert weights(items, {}) == {"a": 10.0, "b": 20.0, "c": 30.0}


def _result(path: str, status: str = "passed", seconds: float = 0.5) -> Result:
    return Result(path.rsplit("/", 1)[-1], path, status, seconds)


def _shard(i: int, n: int, paths: list[str], total: int = 4) -> ShardReport:
    return ShardReport(f"s{i}.json", [_result(p) for p in paths], 1.0 + i, 0.2, "reference", 2,
                       ShardInfo(i, n, total, "d"))


def test_merge_refuses_what_is_not_one_whole_suite() -> None:
    whole, infos = merge([_shard(1, 2, ["t/a", "t/b"]), _shard(2, 2, ["t/c", "t/d"])])
    assert [r.path for r in whole.results] == ["t/a", "t/b", "t/c", "t/d"] and whole.total_seconds == 3.0
    assert [i.index for i in infos] == [1, 2]
    with pytest.raises(ShardError, match="shard 2/2 missing"):
        merge([_shard(1, 2, ["t/a", "t/b"])])
    with pytest.raises(ShardError, match="t/b is in both"):
        merge([_shard(1, 2, ["t/a", "t/b"]), _shard(2, 2, ["t/b", "t/d"])])
    with pytest.raises(ShardError, match="given more than once"):
        merge([_shard(1, 2, ["t/a", "t/b"]), _shard(1, 2, ["t/c", "t/d"])])
    other = _shard(2, 2, ["t/c", "t/d"])
    other.shard = ShardInfo(2, 2, 4, "another suite")
    with pytest.raises(ShardError, match="another suite"):
        merge([_shard(1, 2, ["t/a", "t/b"]), other])
    with pytest.raises(ShardError, match="ran 3 tests, the suite has 4"):
        merge([_shard(1, 2, ["t/a", "t/b"]), _shard(2, 2, ["t/c"])])


# ------------------------------------------------------------------ the command line, on the bundled spec
def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> list[Path]:
    """Three shards of the bundled suite: 1 and 3 as JSON, 2 as JUnit (a merge reads either)."""
    d = tmp_path_factory.mktemp("shards")
    paths = []
    for k, fmt in ((1, "json"), (2, "junit"), (3, "json")):
        rc, out, err = _run("test", "--root", str(bundled_root), "--jobs", "1", "--shard", f"{k}/3", "--format", fmt)
        assert rc == ExitCode.OK, err
        p = d / f"shard-{k}.{'xml' if fmt == 'junit' else 'json'}"
        p.write_text(out, encoding="utf-8")
        paths.append(p)
    return paths


def _paths(report: Path) -> list[str]:
    if report.suffix == ".xml":
        return [c.classname for s in junit.read(report.read_text(encoding="utf-8")) for c in s.cases]
    return [t["path"] for t in json.loads(report.read_text(encoding="utf-8"))["tests"]]


def test_shards_cover_the_suite_once_and_merge(shards: list[Path], bundled_root: Path, tmp_path: Path) -> None:
    rc, out, _ = _run("test", "--root", str(bundled_root), "--jobs", "2", "--format", "json")
    everything = sorted(t["path"] for t in json.loads(out)["tests"])
    parts = [_paths(p) for p in shards]
    assert sorted(p for part in parts for p in part) == everything, "disjoint and covering"
    assert all(abs(len(part) - len(everything) / 3) <= len(everything) / 3 for part in parts) and all(parts)
    rc, out, err = _run("test", "--merge", *map(str, shards), "--format", "json")
    assert rc == ExitCode.OK, err
    merged = json.loads(out)
    assert sorted(t["path"] for t in merged["tests"]) == everything
    assert merged["summary"]["passed"] == len(everything) and len(merged["merged_shards"]) == 3
    rc, out, _ = _run("test", "--merge", *map(str, shards), "--format", "junit")
    assert rc == ExitCode.OK
    suites = junit.read(out)
    assert sum(len(s.cases) for s in suites) == len(everything) and out.count("<testsuite ") == 1
    rc, out, _ = _run("test", "--merge", *map(str, shards))
    assert rc == ExitCode.OK and out.startswith(f"merged 3 shards of {len(everything)} tests")
    rc, _, err = _run("test", "--merge", str(shards[0]), str(shards[2]))
    assert rc == ExitCode.USAGE and "specgen test: error: shard 2/3 missing" in err


def test_a_failing_test_in_a_shard_fails_the_merge(shards: list[Path], tmp_path: Path) -> None:
    doc = json.loads(shards[0].read_text(encoding="utf-8"))
    doc["tests"][0].update(status="failed", message="assert failed", location="tests/asl/x.asl:3:5",
                           reason="assert")
    bad = tmp_path / "shard-1.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    rc, out, _ = _run("test", "--merge", str(bad), *map(str, shards[1:]), "--format", "junit")
    assert rc == ExitCode.FINDINGS and 'failures="1"' in out and 'type="assert"' in out


def test_the_partition_is_the_same_in_every_job(bundled_root: Path, shards: list[Path], tmp_path: Path) -> None:
    """Each CI job is a fresh process; with the same durations file each computes the same shards."""
    rc, merged, _ = _run("test", "--merge", *map(str, shards), "--format", "json")
    durations = tmp_path / "durations.json"
    durations.write_text(merged, encoding="utf-8")
    code = ("import sys\nfrom specgen.cli.test import _shard_of\nfrom specgen.loader import load_spec\n"
            "from specgen.asl.sharding import durations_of\nfrom specgen.cli.testreport import read\n"
            f"spec = load_spec(__import__('pathlib').Path({str(bundled_root)!r}))\n"
            f"d = durations_of(read(__import__('pathlib').Path({str(durations)!r})).results)\n"
            "print([sorted(_shard_of(spec, [], k, 3, d)[0]) for k in (1, 2, 3)])")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1] and runs[0].startswith("[[")


def test_shard_options_are_checked(bundled_root: Path, tmp_path: Path) -> None:
    rc, _, err = _run("test", "--root", str(bundled_root), "--shard", "4/3")
    assert rc == ExitCode.USAGE and "specgen test: error: --shard '4/3'" in err
    rc, _, err = _run("test", "--root", str(bundled_root), "--durations", str(tmp_path / "x.json"))
    assert rc == ExitCode.USAGE and "give --shard K/N too" in err
    (tmp_path / "junk.json").write_text("[1, 2]")
    rc, _, err = _run("test", "--merge", str(tmp_path / "junk.json"))
    assert rc == ExitCode.USAGE and "not a JSON report of specgen test" in err


def test_corpus_shards_are_balanced_by_text_length(corpus_root: Path) -> None:
    """0.58.3's 3,352 tests in 4 shards without a durations file: each job weighs the tests by their ASL text,
    which every job reads from the same commit."""
    from specgen.cli.test import _shard_of
    from specgen.loader import load_spec
    spec = load_spec(corpus_root)
    parts = [_shard_of(spec, [], k, 4, {}) for k in (1, 2, 3, 4)]
    paths = [p for mine, _ in parts for p in mine]
    assert len(paths) == len(set(paths)) == parts[0][1].suite_tests == 3352
    sizes = {t.path: len(t.text) for t in spec.tests}
    loads = [sum(sizes[p] for p in mine) for mine, _ in parts]
    assert max(loads) - min(loads) <= max(sizes.values())
