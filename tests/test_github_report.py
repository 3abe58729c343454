"""``--format github`` under GitHub's annotation caps (issue 41, item 3): at most 10 annotations of each type
per step, ranked (errors first, then the files the pull request changed), a last line saying how many were
not annotated, and every error and warning in the job summary."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.cli import main
from specgen.diagnostics import Finding, KnownFinding, Severity, finding_key
from specgen.report import CheckSummary
from specgen.report.github import PER_TYPE, render, step_summary

UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"


def many() -> list[Finding]:
    out = [Finding("w-rule", Severity.WARNING, f"asl/w{i:02}.asl", 3, f"warning {i}") for i in range(30)]
    out += [Finding("e-rule", Severity.ERROR, f"asl/e{i:02}.asl", 1, f"error {i} | with a pipe") for i in range(12)]
    out += [Finding("n-rule", Severity.NOTE, f"docs/n{i:02}.md", 0, f"note {i}") for i in range(15)]
    return out


def commands(text: str) -> list[tuple[str, str]]:
    return [(m[1], m[2]) for m in re.finditer(r"^::(error|warning|notice) ([^:]*)::", text, re.M)]


def test_annotations_stay_within_the_caps_errors_and_changed_files_first() -> None:
    summary = CheckSummary("0.1.0", "spec", repo_root="/repo", spec_in_repo="spec",
                           changed_files=frozenset({"spec/asl/w27.asl", "spec/asl/e11.asl"}))
    text = render(many(), summary)
    found = commands(text)
    kinds = [k for k, _ in found]
    assert kinds.count("error") == PER_TYPE and kinds.count("warning") == PER_TYPE
    assert kinds.count("notice") == PER_TYPE - 1  # nine notes; the tenth notice is the summary line
    assert kinds.index("warning") > max(i for i, k in enumerate(kinds) if k == "error"), "errors first"
    assert found[0][1].startswith("file=spec/asl/e11.asl"), "a changed file's error leads"
    warnings = [props for kind, props in found if kind == "warning"]
    assert warnings[0].startswith("file=spec/asl/w27.asl") and "w20.asl" not in text
    last = text.splitlines()[-1]
    assert last.startswith("::notice::specgen check: ") and "28 findings not annotated" in last  # 2 errors, 20 warnings, 6 notes, last


def test_known_findings_are_not_annotated_but_listed_in_the_summary() -> None:
    known = Finding("e-rule", Severity.ERROR, "asl/old.asl", 4, "known for a while")
    new = Finding("e-rule", Severity.ERROR, "asl/new.asl", 4, "new today")
    summary = CheckSummary("0.1.0", "spec", known={finding_key(known): KnownFinding("baseline", "", "b.json")},
                           baseline="b.json")
    text = render([known, new], summary)
    assert "asl/new.asl" in text and "file=asl/old.asl" not in text and "1 known finding" in text
    md = step_summary([known, new], summary)
    rows = [line for line in md.splitlines() if line.startswith("| error ")]
    assert [r.split(" | ")[2] for r in rows] == ["asl/new.asl:4", "asl/old.asl:4"]
    assert rows[0].endswith("| new |") and rows[1].endswith("| in the baseline |")


def test_the_step_summary_lists_every_error_and_warning_and_counts_notes() -> None:
    md = step_summary(many(), CheckSummary("0.1.0", "spec", repo_root="/repo", spec_in_repo="spec"),
                      "https://github.com/o/r/blob/abc")
    rows = [line for line in md.splitlines() if line.startswith(("| error ", "| warning "))]
    assert len(rows) == 42
    assert "[spec/asl/e00.asl:1](https://github.com/o/r/blob/abc/spec/asl/e00.asl#L1)" in rows[0]
    assert all(row.count(" | ") == 4 for row in rows), "a pipe in a message is escaped"
    assert "| 12 | 30 | 15 | 0 |" in md and "15 notes counted, not listed" in md


def test_check_writes_the_job_summary(tmp_path: Path, bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    (root / UNIT).write_text((root / UNIT).read_text(encoding="utf-8") + "// edited\n", encoding="utf-8")
    target = tmp_path / "step-summary.md"
    target.write_text("earlier step\n", encoding="utf-8")
    changed = tmp_path / "changed.txt"
    changed.write_text(f"./{UNIT}\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    out, err = io.StringIO(), io.StringIO()
    rc = main(["check", "--root", str(root), "--no-cache", "--format", "github", "--repo-root", str(root),
               "--changed-files", str(changed)], out, err)
    assert rc == 1
    md = target.read_text(encoding="utf-8")
    assert md.startswith("earlier step\n## specgen check of"), "appended, as GitHub asks"
    assert f"| error | manifest-hash-mismatch | {UNIT} |" in md
    rc = main(["check", "--root", str(root), "--format", "github", "--changed-files", str(tmp_path / "no")],
              io.StringIO(), err)
    assert rc == 2 and "changed-files-unreadable" in err.getvalue()
