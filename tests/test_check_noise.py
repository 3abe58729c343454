"""Issue 28, "noise": on 0.58.3 the check's one error was buried under 145 notes, 143 of them example-sketch
notes all at ``:1:1``. The notes now point at their example, ``--min-severity`` filters every format, and the
text report summarises notes by rule."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.cli.exitcodes import ExitCode

pytestmark = [pytest.mark.corpus]


def _check(root: Path, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    rc = main(["check", "--root", str(root), *argv], out, io.StringIO())
    return rc, out.getvalue()


@pytest.fixture(scope="module")
def findings(corpus_root: Path) -> list[dict]:
    rc, out = _check(corpus_root, "--format", "json")
    assert rc == ExitCode.FINDINGS
    return json.loads(out)["findings"]


def test_example_sketch_notes_point_at_their_example(findings: list[dict], corpus_root: Path) -> None:
    sketches = [f for f in findings if f["rule"] == "example-sketch"]
    assert len(sketches) > 100
    texts: dict[str, list[str]] = {}
    for f in sketches:
        lines = texts.setdefault(f["path"], (corpus_root / f["path"]).read_text(encoding="utf-8").splitlines())
        at = lines[f["line"] - 1][f["col"] - 1:]
        assert f["col"] > 1 and at.startswith('"BSTART'), (f["path"], f["line"], f["col"], at[:40])
        n = int(f["subject"].rsplit("-", 1)[1])  # PTO-…#example-N
        assert f["message"].split(" example ")[1].startswith(f"{n} ")


def test_min_severity_filters_every_format_but_not_the_exit_status(corpus_root: Path, findings: list[dict]) -> None:
    errors = sum(f["severity"] == "error" for f in findings)
    notes = sum(f["severity"] == "note" for f in findings)
    assert errors == 1 and notes > 100
    rc, out = _check(corpus_root, "--format", "json", "--min-severity", "warning")
    assert rc == ExitCode.FINDINGS and all(f["severity"] != "note" for f in json.loads(out)["findings"])
    rc, out = _check(corpus_root, "--format", "sarif", "--min-severity", "warning")
    assert rc == ExitCode.FINDINGS and {r["level"] for r in json.loads(out)["runs"][0]["results"]} == {"error", "warning"}
    rc, out = _check(corpus_root, "--format", "github", "--min-severity", "error")
    assert rc == ExitCode.FINDINGS
    assert [ln.split(" ", 1)[0] for ln in out.splitlines()] == ["::error", "::notice::specgen"]
    rc, out = _check(corpus_root, "--format", "junit", "--min-severity", "error")
    suite = ET.fromstring(out).find("testsuite")
    assert suite is not None and suite.get("failures") == "1" and "[note]" not in out and "[warning]" not in out
    rc, out = _check(corpus_root, "--min-severity", "error", "--strict")
    assert rc == ExitCode.FINDINGS and " warning " in out, "--strict: a warning fails the check, so it is shown"
    rc, out = _check(corpus_root, "--min-severity", "error")
    assert "below --min-severity not shown" in out.splitlines()[-1]


def test_the_text_report_of_the_corpus_puts_the_error_first(corpus_root: Path) -> None:
    rc, out = _check(corpus_root)
    lines = out.splitlines()
    assert rc == ExitCode.FINDINGS
    assert not [ln for ln in lines if "  note  " in ln], "a note listed on its own"
    head = lines.index("notes by rule (check --verbose lists each):")
    assert lines[head + 1].split()[0] == "example-sketch" and "manifest-missing-file" in out
    assert len(lines) < 120, f"{len(lines)} lines"
    rc, verbose = _check(corpus_root, "--verbose")
    assert len(verbose.splitlines()) > len(lines) + 100
