"""Issue 24's forged CI lines: spec text never starts a line of a text report.

A spec file named ``x⏎::error title=FORGED::all checks passed⏎y.asl`` made the
text output of ``check``, ``validate`` and ``test`` (and JUnit failure bodies)
print a line a GitHub runner reads as a workflow command (the runner trims
leading blanks before it looks for ``::``, so indenting does not help). Every
text report now shows control characters in spec text as ``\\xNN``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.cli import main
from specgen.diagnostics import printable

FORGED = "x\n::error title=FORGED::all checks passed\r::warning::also\u2028y\x1b[31m.asl"
_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


@pytest.fixture(scope="module")
def forged_root(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> Path:
    """A copy of the bundled spec with a failing copy of one AVS test under the forged name."""
    root = copy_tree(bundled_root, tmp_path_factory.mktemp("forged") / "spec")
    src = next(iter(sorted((root / "tests" / "asl").rglob("*.asl"))))
    (src.parent / FORGED).write_text(src.read_text(encoding="utf-8").replace("return 0;", "return 1;"),
                                     encoding="utf-8")
    return root


def _output(*argv: str, stdout_only: bool = False) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue() + ("" if stdout_only else err.getvalue())


@pytest.mark.parametrize("argv", [
    ("validate",), ("check", "--no-cache"), ("check", "--no-cache", "--format", "junit"),
    ("test", "--jobs", "1"), ("test", "--jobs", "1", "--format", "junit"), ("manifest", "--check"),
    ("trace", "PTO-AVS-ARCH-FAULTS-RECORD-001"),
], ids=lambda a: " ".join(a))
def test_no_spec_text_starts_a_line(forged_root: Path, argv: tuple[str, ...]) -> None:
    code, text = _output(argv[0], "--root", str(forged_root), *argv[1:])
    assert "Traceback" not in text
    for line in text.splitlines():  # what a runner sees: lines split at CR, LF and the rest, blanks trimmed
        assert not line.lstrip().startswith("::"), line
    assert not _RAW.search(text), "a raw control character reached the output"
    if argv[0] in ("check", "test"):
        assert "FORGED" in text, "the forged file must still be reported, escaped"
        assert code == 1


def test_github_format_keeps_one_command_per_finding(forged_root: Path) -> None:
    code, text = _output("check", "--root", str(forged_root), "--no-cache", "--format", "github", stdout_only=True)
    assert code == 1
    lines = text.splitlines()
    assert all(re.match(r"::(error|warning|notice) ", x) or x.startswith("::notice::") for x in lines), lines
    assert sum("FORGED" in x for x in lines) >= 1 and not _RAW.search(text)


def test_printable_escapes_every_line_break() -> None:
    for brk in ("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"):
        assert len(f"a{printable(brk)}::error::x".splitlines()) == 1, repr(brk)
    assert printable("TADD 中文\tok") == "TADD 中文\tok"
