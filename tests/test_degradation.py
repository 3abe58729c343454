"""Nothing degrades silently: a rule that cannot run says so once, and a command that could not prove
what it was asked to fails (issue 18, item 2)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.check import RULES, all_rules, run_checks
from specgen.check.base import Rule
from specgen.check.needs import NOT_RUN
from specgen.cli import main
from specgen.cli.exitcodes import ExitCode
from specgen.diagnostics import Finding, Severity
from specgen.graph import SpecGraph
from specgen.loader import load_spec

MANIFEST = "spec/release-manifest.json"
VIEW = "spec/evidence/release-traceability-readiness.json"
CORPUS_0580 = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "pto-spec-0.58.0"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def _edit_json(root: Path, rel: str, change: object) -> None:
    path = root / rel
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


# the traceability rules: those that read neither the encodings nor the spec's ASL
TRACEABILITY = [r for r in RULES if not r.startswith(("asl-", "encoding-", "example-"))
                and r not in ("instruction-tile-class", "legality-prose-mismatch")]


def _findings(root: Path, **kw: object) -> list[Finding]:
    """The traceability rules only (not the interpreter's): cheap, and where the facts are read."""
    return run_checks(SpecGraph.build(load_spec(root)), rules=all_rules(TRACEABILITY), **kw)[0]  # type: ignore[arg-type]


def test_unreadable_manifest_is_one_finding_and_fails_both_commands(bundled_copy: Path) -> None:
    _edit_json(bundled_copy, MANIFEST, lambda d: d.pop("hash_contract"))
    about = [f for f in _findings(bundled_copy) if f.path == MANIFEST]
    assert [(f.rule, f.severity) for f in about] == [(NOT_RUN, Severity.ERROR)]
    assert "hash_contract" in about[0].message and "manifest-content-hash" in about[0].message
    rc, out, _ = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == 1 and "0 of 0" not in out and "not verified" in out
    assert [line for line in out.splitlines() if ": rule-not-run: " in line] == [out.splitlines()[0]]
    rc, out, _ = _cli("check", "--no-cache", "--no-examples", "--root", str(bundled_copy))
    assert rc == 1 and "not checked: manifest-content-hash" in out


def test_manifest_that_is_not_json_fails_the_manifest_check(bundled_copy: Path) -> None:
    (bundled_copy / MANIFEST).write_text("{ not json", encoding="utf-8")
    rc, out, _ = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == 1 and out.count(": rule-not-run: ") == 1 and "not verified" in out


def test_view_missing_a_key_stops_its_rules_with_one_finding(bundled_copy: Path) -> None:
    _edit_json(bundled_copy, VIEW, lambda d: d.pop("tests"))
    findings = _findings(bundled_copy, only=["evidence-stale", "instruction-missing-artifact", NOT_RUN])
    assert [(f.rule, f.path) for f in findings] == [(NOT_RUN, VIEW)]
    assert findings[0].severity is Severity.ERROR
    assert findings[0].related == ("evidence-stale", "instruction-missing-artifact")
    everything = _findings(bundled_copy, disable=["manifest-hash-mismatch"])  # the edit changed its hash
    assert [f.rule for f in everything if f.path == VIEW] == [NOT_RUN]  # the schema error is folded in


def test_generation_without_release_selection_is_a_note_not_an_error(bundled_copy: Path) -> None:
    _edit_json(bundled_copy, MANIFEST, lambda d: d.pop("release_selection"))
    findings = _findings(bundled_copy, only=["ndf-hash", "manifest-content-hash"])
    assert [(f.rule, f.severity, f.related) for f in findings] == [(NOT_RUN, Severity.NOTE, ("ndf-hash",))]
    rc, out, _ = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == 0 and "44 of 44 manifest entries verified" in out and "ndf-hash" in out


def test_registry_skips_a_rule_whose_fact_is_missing(bundled_copy: Path) -> None:
    calls: list[str] = []

    def probe(graph: SpecGraph) -> list[Finding]:
        calls.append("ran")
        return []

    rule = Rule("probe", Severity.ERROR, "d", "h", probe, requires=("release_selection",))
    graph = SpecGraph.build(load_spec(bundled_copy))
    assert run_checks(graph, rules=[rule])[1] == [rule] and calls == ["ran"]
    _edit_json(bundled_copy, MANIFEST, lambda d: d.pop("release_selection"))
    findings, ran = run_checks(SpecGraph.build(load_spec(bundled_copy)), rules=[rule])
    assert ran == [] and calls == ["ran"] and [f.rule for f in findings] == [NOT_RUN]
    with pytest.raises(KeyError):
        run_checks(graph, rules=[Rule("bad", Severity.ERROR, "d", "h", probe, requires=("no-such-fact",))])


def test_closed_pipe_ends_quietly(bundled_root: Path) -> None:
    class Closed(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    assert main(["trace", "TMUL", "--root", str(bundled_root)], Closed(), io.StringIO()) == ExitCode.BROKEN_PIPE
    proc = subprocess.Popen([sys.executable, "-m", "specgen", "trace", "TMUL", "--root", str(bundled_root)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == ExitCode.BROKEN_PIPE and b"Traceback" not in err and b"BrokenPipe" not in err


@pytest.mark.corpus
def test_release_0580_checks_clean() -> None:
    if not CORPUS_0580.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the corpus must be at {CORPUS_0580} under CI")
        pytest.skip(f"corpus not found at {CORPUS_0580}")
    rc, out, _ = _cli("manifest", "--check", "--root", str(CORPUS_0580))
    assert rc == 0 and "1592 of 1592 manifest entries verified" in out
    rc, out, _ = _cli("check", "--no-cache", "--format", "json", "--root", str(CORPUS_0580))
    report = json.loads(out)
    assert rc == 0 and report["summary"]["errors"] == 0, [f for f in report["findings"] if f["severity"] == "error"][:5]
    ran = {r["id"] for r in report["tool"]["rules"]}
    assert "manifest-content-hash" in ran  # 355e9604…3873 was recomputed, not skipped
    not_run = {r for f in report["findings"] if f["rule"] == NOT_RUN for r in f["related"]}
    # checked example files need no contract object: example-mismatch and example-fault run (on no file here)
    assert not_run == {"ndf-hash", "instruction-untested", "adr-dangling-affected", "legality-prose-mismatch",
                       "example-sketch", "example-legality"}
    assert all(f["severity"] == "note" for f in report["findings"] if f["rule"] == NOT_RUN)


def test_build_summary_names_what_the_site_cannot_show(bundled_copy: Path) -> None:
    from specgen.site.build import not_rendered
    assert not_rendered(SpecGraph.build(load_spec(bundled_copy))) == []
    _edit_json(bundled_copy, VIEW, lambda d: d.pop("tests"))
    for adr in (bundled_copy / "docs/status/decisions").glob("*.md"):
        adr.unlink()
    lines = not_rendered(SpecGraph.build(load_spec(bundled_copy)))
    assert len(lines) == 2 and VIEW in lines[0] and "tests" in lines[0] and "ADR index is empty" in lines[1]


def test_page_of_a_tree_whose_view_cannot_be_read_says_so(bundled_copy: Path) -> None:
    """Not "the evidence has no row for TMUL": the evidence itself was not read, and the page says that."""
    from specgen.render import RenderOptions, render_site

    tmul = "en/tile/elementwise-tile-tile/arithmetic/TMUL.md"
    _edit_json(bundled_copy, VIEW, lambda d: d.pop("tests"))
    page = render_site(SpecGraph.build(load_spec(bundled_copy)), RenderOptions(),
                       only=lambda p: p.uri == tmul)[0].content
    assert "could not be read" in page and "has no row" not in page
