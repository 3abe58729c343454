"""Statement coverage: which statements and functions of the spec the AVS tests execute."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.asl import Interpreter, parse_source
from specgen.asl.conformance import CONFORMANCE, conformance
from specgen.asl.coverage import measure, to_lcov
from specgen.cli import main
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render import RenderOptions, render_site

BRANCHY = """
func Sign(x: integer) => integer
begin
    if x < 0 then
        return -1;
    elsif x == 0 then
        return 0;
    end;
    return 1;
end;

func Unused() => integer
begin
    return 7;
end;
"""


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_only_the_statements_that_ran_are_recorded() -> None:
    it = Interpreter(modules=[parse_source(BRANCHY, "b.asl")])
    hits = it.measure_coverage()
    assert it.call("Sign", 5) == 1
    # the if, the elsif condition's arm is not entered, the final return; the function itself
    assert hits == {("b.asl", 4, 5), ("b.asl", 9, 5), ("b.asl", 2, 0)}
    it.call("Sign", -3)
    assert ("b.asl", 5, 9) in hits and ("b.asl", 7, 9) not in hits


def test_without_coverage_no_recording_is_compiled_in() -> None:
    it = Interpreter(modules=[parse_source(BRANCHY, "b.asl")])
    assert it.call("Sign", 0) == 0
    assert it.coverage is None
    fn = it._function("Sign", 1, None)
    assert fn.impl.__name__ == "run"  # not the recording wrapper
    with pytest.raises(RuntimeError):
        it.measure_coverage()  # too late: functions are compiled


SELECT = ("TADD", "reset-clears", "B.IOT")
UNIT = "asl/tile/model/definedness/elements.asl"


def test_coverage_json_lcov_and_table_agree_and_jobs_merge(bundled_root: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    rc, out, _ = _cli("test", "--root", str(bundled_root), "--jobs", "1", "--coverage-json",
                      str(tmp_path / "one.json"), "--lcov", str(tmp_path / "one.info"), *SELECT)
    assert rc == 0
    one = json.loads((tmp_path / "one.json").read_text())
    total = one["total"]
    assert 0 < total["executed"] < total["statements"]
    assert "TOTAL" in out and f"{total['statements']}" in out.split("TOTAL")[1]
    tadd = next(u for u in one["units"] if u["path"].endswith("arithmetic/TADD.asl"))
    assert tadd["functions_executed"] >= 1
    lcov = (tmp_path / "one.info").read_text()
    assert lcov.count("end_of_record") == len(one["units"])
    assert "SF:asl/tile/elementwise-tile-tile/arithmetic/TADD.asl" in lcov  # relative to the spec root
    hit_lines = sum(1 for line in lcov.splitlines() if line.startswith("DA:") and line.endswith(",1"))
    assert hit_lines == sum(sum(u["lines"].values()) for u in one["units"])
    # two workers record the same statements as one
    rc, _, _ = _cli("test", "--root", str(bundled_root), "--jobs", "2", "--coverage-json",
                    str(tmp_path / "two.json"), *SELECT)
    assert rc == 0
    assert json.loads((tmp_path / "two.json").read_text()) == one


def test_unit_pages_show_the_builds_coverage_or_say_why_there_is_none(bundled_root: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The build measures coverage with the suite (each test's own, unioned): the unit page shows exactly what
    ``specgen test --coverage`` of every test reports; without a suite run, or skipped, the page says so."""
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))

    def page(suite: str | None) -> str:
        graph = SpecGraph.build(load_spec(bundled_root))
        if suite is not None:
            CONFORMANCE.set(graph, conformance(graph, jobs=1, skip=suite == "skip"))
        pages = render_site(graph, RenderOptions(langs=("en",)), only=lambda p: p.subject == UNIT)
        return pages[0].content

    assert "Coverage not measured: this page was rendered without running the AVS suite" in page(None)
    assert "Coverage not measured: the AVS suite was skipped for this build" in page("skip")
    html = page("build")
    assert "Coverage not measured" not in html
    rc, _, _ = _cli("test", "--root", str(bundled_root), "--jobs", "1", "--coverage-json", str(tmp_path / "all.json"))
    assert rc == 0
    unit = next(u for u in json.loads((tmp_path / "all.json").read_text())["units"] if u["path"] == UNIT)
    unreached = [n for n, hit in unit["lines"].items() if not hit]
    assert unreached and unit["executed"] > 0
    assert f"The AVS tests execute {unit['executed']} of the {unit['statements']} statements of this file" in html
    assert html.count('class="ln sg-unreached"') == len(unreached)
    assert all(f'href="#L-{n}"' in html for n in unreached)
    spec = load_spec(bundled_root)
    cov = measure(spec, set())  # nothing run: LCOV lists every statement line as not hit
    das = [line for line in to_lcov(cov).splitlines() if line.startswith("DA:")]
    assert len(das) == sum(len(u.line_hits()) for u in cov.units) and all(d.endswith(",0") for d in das)


def test_a_pending_test_makes_measuring_only_the_units_its_last_run_executed(bundled_root: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: a unit's coverage is a function of the results of exactly the tests that executed it. An edit
    of a helper makes the tests that read it pending: the units their last runs executed (and the results in do
    not already execute completely) say "running"; every other unit keeps its figure, so its page is not
    rendered again; once the pending tests are in, every unit has a figure again."""
    from treecopy import copy_tree

    from specgen.render.conformance import coverage_view
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = copy_tree(bundled_root, tmp_path / "spec")
    done = conformance(SpecGraph.build(load_spec(root)), jobs=1)
    assert done.state == "complete" and done.measuring == frozenset()
    before = done.coverage
    helper = root / "asl/tile/model/execution/elementwise.asl"
    text = helper.read_text(encoding="utf-8")
    begin = text.index("\nbegin\n", text.index("func ExecuteTileBinary(")) + 1  # same line: nothing else moves
    helper.write_text(text[:begin] + "begin let edited_marker = 1;" + text[begin + len("begin"):], encoding="utf-8")
    graph = SpecGraph.build(load_spec(root))
    pending = conformance(graph, run=False)
    assert pending.state == "running" and pending.pending and pending.measuring is not None
    measuring, untouched = pending.measuring, set(before) - pending.measuring
    assert measuring and untouched, "some units wait for the pending tests, the others do not"
    assert helper.relative_to(root).as_posix() in measuring
    assert all(pending.coverage[p] == before[p] for p in untouched)
    now = pending.coverage  # from the results still valid: a unit they execute completely cannot change
    assert not [p for p in measuring if now[p]["executed"] == now[p]["statements"]
                and now[p]["functions_executed"] == now[p]["functions"]]
    CONFORMANCE.set(graph, pending)
    assert {p for p in before if coverage_view(graph, p)[1] == "running"} == set(measuring)
    after = conformance(graph, jobs=1)
    assert after.state == "complete" and after.measuring == frozenset() and after.rerun == len(pending.pending)


def test_a_not_derivable_result_is_counted_on_the_pages(bundled_root: Path) -> None:
    """A test the tree cannot derive (issue 26: ``not-derivable``, not a failure) is a status the pages count
    and name like the others (the unit's line of results, the suite's summary)."""
    from types import SimpleNamespace

    from specgen.asl.conformance import Conformance, TestOutcome
    from specgen.render.conformance import summary
    from specgen.render.i18n import Messages
    graph = SpecGraph.build(load_spec(bundled_root))
    tests = sorted(graph.spec.tests, key=lambda t: t.path)[:3]
    outcomes = {t.path: TestOutcome("passed") for t in graph.spec.tests}
    outcomes[tests[0].path] = TestOutcome("not-derivable")
    conf = Conformance("complete", outcomes, "reference", 1000, 1000)
    CONFORMANCE.set(graph, conf)
    line = summary(SimpleNamespace(graph=graph, t=Messages("en")), tests)
    assert line == {"status": "not-derivable", "text": "2 passed, 1 not derivable"}
    assert "1 not-derivable" in conf.summary()
