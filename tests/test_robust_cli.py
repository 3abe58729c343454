"""Issue 15's probes through every command that reads the damaged file, on a copy of the bundled spec.

Each probe damages one file the way the issue did (invalid UTF-8, NUL bytes, JSON nested 100,000
deep, a unit over the unit limit, editor files); every command that reads it must name it once at its
file and line, exit with the code the README's table gives, and never print a traceback. The same
probes were run by hand on a copy of corpus 0.58.3 (docs-internal/robustness.md, "Issue 15 probes").
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Callable

import pytest

from specgen.cli import main
from specgen.cli.exitcodes import ExitCode
from specgen.outputs import MARKER

TADD = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
CATALOG = "spec/catalog/command-forms.json"
EXAMPLE = "examples/tile/elementwise-tile-tile/arithmetic/TADD/s32-wraps.json"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _append(rel: str, data: bytes) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        with (root / rel).open("ab") as fh:
            fh.write(data)
    return damage


def _deep(rel: str, prefix: str = "", suffix: str = "") -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        d = 100_000
        (root / rel).write_text(prefix + "[" * d + "]" * d + suffix, encoding="ascii")
    return damage


def _big(root: Path) -> None:
    """TADD.asl grown past the 1 MiB unit limit with ordinary ASL (the issue's 30 MB unit, smaller)."""
    with (root / TADD).open("a", encoding="ascii") as fh:
        for n in range(40_000):
            fh.write(f"// filler {n}\nfunc Filler{n}() => integer\nbegin\n    return {n};\nend;\n")


# probe -> (damage, the one finding's (rule, path, line))
PROBES: dict[str, tuple[Callable[[Path], None], tuple[str, str, int]]] = {
    "invalid-utf8": (_append(TADD, b"// bad byte: \xff\n"), ("file-encoding", TADD, 51)),
    "nul-bytes": (_append(TADD, b"// nul: \x00\x00\n"), ("file-nul", TADD, 51)),
    "deep-catalog": (_deep(CATALOG), ("record-json", CATALOG, 1)),
    "deep-example": (_deep(EXAMPLE, '{"program": ', "}"), ("record-json", EXAMPLE, 1)),
    "unit-too-large": (_big, ("asl-unit-too-large", TADD, 1)),
}


def _damaged(bundled_copy: Path, probe: str) -> Path:
    lines_before = (bundled_copy / TADD).read_text(encoding="utf-8").count("\n")
    assert lines_before == 50, "the probes' line numbers assume TADD.asl has 50 lines"
    PROBES[probe][0](bundled_copy)
    return bundled_copy


def _findings(out: str) -> list[tuple[str, str, int]]:
    return [(f["rule"], f["path"], f["line"]) for f in json.loads(out)["findings"]]


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_validate_and_check_give_the_one_finding(bundled_copy: Path, probe: str) -> None:
    root = _damaged(bundled_copy, probe)
    want = PROBES[probe][1]
    rc, out, err = _cli("validate", "--root", str(root), "--format", "json")
    assert "Traceback" not in out + err
    assert rc == ExitCode.FINDINGS and _findings(out) == [want], _findings(out)
    rc, out, err = _cli("check", "--root", str(root), "--format", "json", "--no-cache")
    assert "Traceback" not in out + err
    found = _findings(out)
    # the damaged file changed after the release was recorded: the manifest says so too (a second,
    # separate fact at the same file); nothing else, however many records named the file
    assert rc == ExitCode.FINDINGS and want in found, found
    assert all(f == want or (f[0] == "manifest-hash-mismatch" and f[1] == want[1]) for f in found), found


@pytest.mark.parametrize("probe", ["invalid-utf8", "nul-bytes", "unit-too-large"])
def test_test_names_the_damaged_unit_and_fails(bundled_copy: Path, probe: str) -> None:
    root = _damaged(bundled_copy, probe)
    rule, path, line = PROBES[probe][1]
    rc, out, err = _cli("test", "--root", str(root), "--jobs", "1", "TADD")
    assert "Traceback" not in out + err
    assert rc == ExitCode.FINDINGS
    assert f"{path}:{line}:" in out and f": {rule}: " in out
    rc, out, err = _cli("test", "--root", str(root), "--jobs", "1", "--format", "json", "TADD")
    assert rc == ExitCode.FINDINGS and f": {rule}: " in err
    json.loads(out)  # stdout stays the JSON report


@pytest.mark.parametrize("probe", ["nul-bytes", "deep-catalog"])
def test_build_stops_naming_the_file_and_keeps_the_old_site(bundled_copy: Path, tmp_path: Path, probe: str) -> None:
    """A site is not built over a file that cannot be used as written (a catalog that does not
    parse would leave every encoding off the pages, silently)."""
    root = _damaged(bundled_copy, probe)
    rule, path, line = PROBES[probe][1]
    out_dir = tmp_path / "site"
    out_dir.mkdir()
    (out_dir / "index.html").write_text("previous site", encoding="utf-8")
    (out_dir / MARKER).write_text("", encoding="utf-8")  # a site specgen wrote (issue 24: others are refused)
    rc, out, err = _cli("build", "--root", str(root), "--out", str(out_dir), "--jobs", "1")
    assert "Traceback" not in out + err
    assert rc == ExitCode.FINDINGS and f"{path}:{line}:" in err and rule in err
    assert (out_dir / "index.html").read_text(encoding="utf-8") == "previous site"


def test_trace_diff_and_decode_name_the_damage(bundled_copy: Path, bundled_root: Path) -> None:
    root = _damaged(bundled_copy, "nul-bytes")
    rc, out, err = _cli("trace", "TADD", "--root", str(root))
    assert rc == ExitCode.OK and "file-nul" in err and "TADD" in out
    rc, out, err = _cli("diff", str(bundled_root), str(root))
    assert rc == ExitCode.OK and err.count("file-nul") == 1
    PROBES["deep-catalog"][0](root)
    rc, out, err = _cli("decode", "0x1", "--root", str(root))
    assert rc == ExitCode.FINDINGS and f"{CATALOG}:1:" in err and "nested more than" in err


def test_run_reads_its_file_through_the_reader_rules(tmp_path: Path) -> None:
    cases = {
        "nul.s": (b"BSTOP\x00\n", "file-nul"),
        "latin1.s": (b"BSTOP \xe9\n", "file-encoding"),
        "deep.json": (b'{"program": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested more than"),
    }
    for name, (data, what) in cases.items():
        (tmp_path / name).write_bytes(data)
        rc, out, err = _cli("run", str(tmp_path / name), "--root", "sample")
        assert "Traceback" not in out + err
        assert rc == ExitCode.USAGE and what in err and err.count("\n") == 1, (name, err)
    rc, out, err = _cli("run", str(tmp_path), "--root", "sample")  # a directory
    assert rc == ExitCode.USAGE and "Is a directory" in err


def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    rc, out, err = _cli("schema", "--out", str(blocker / "schemas"))
    assert (rc, out) == (ExitCode.USAGE, "") and "output-unwritable" in err and err.count("\n") == 1
    rc, out, err = _cli("check", "--root", "sample", "--output", str(blocker / "report.txt"))
    assert rc == ExitCode.USAGE and "output-unwritable" in err and "Traceback" not in err


def test_editor_files_are_ignored_with_a_note(bundled_copy: Path) -> None:
    unit_dir = bundled_copy / TADD.rsplit("/", 1)[0]
    (unit_dir / ".TADD.asl.swp").write_bytes(b"b0VIM 9.0\x00\xff")
    (unit_dir / "TADD.asl~").write_text("old copy", encoding="utf-8")
    rc, out, _ = _cli("check", "--root", str(bundled_copy), "--format", "json", "--no-cache")
    found = json.loads(out)["findings"]
    assert rc == ExitCode.OK, found
    assert sorted((f["rule"], f["severity"], f["path"].rsplit("/", 1)[-1]) for f in found) == [
        ("file-editor-backup", "note", ".TADD.asl.swp"), ("file-editor-backup", "note", "TADD.asl~")]
    assert all("manifest" not in f["message"] for f in found)


@pytest.mark.slow  # a whole bundled build (~30 s on the loaded 2-core machine); runs in CI
def test_a_page_over_the_page_budget_is_built_with_a_warning(bundled_copy: Path, tmp_path: Path) -> None:
    """A strict build (specgen build) turns the warning into a failure naming the page and the budget."""
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    rc, out, err = _cli("build", "--root", str(bundled_copy), "--out", str(tmp_path / "site"), "--jobs", "1")
    assert "Traceback" not in out + err
    assert rc == ExitCode.FINDINGS and "over the page budget of 20000 ([specgen] page_budget_bytes)" in err
    assert not (tmp_path / "site").exists()


@pytest.mark.slow  # a whole bundled build; runs in CI
def test_the_site_owners_page_budget_overrides_the_trees(bundled_copy: Path, tmp_path: Path) -> None:
    """A read-only release that sets a small budget still builds when the site owner gives a larger one."""
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    rc, out, err = _cli("build", "--root", str(bundled_copy), "--out", str(tmp_path / "site"), "--jobs", "1",
                        "--page-budget", "2 MiB")
    assert rc == ExitCode.OK, err[-2000:]
    assert "warnings: 0" in out


def test_the_page_budget_is_the_owners_then_the_trees_then_the_default(bundled_copy: Path) -> None:
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    from specgen.site.budget import byte_size, page_budget
    assert [byte_size(x) for x in (1500, "2 MiB", "512 KiB", "1.5 MB")] == [1500, 2 * 1024 ** 2, 512 * 1024, 1_500_000]
    for bad in ("two MiB", 0, -3, True, "5 parsecs"):
        with pytest.raises(ValueError):
            byte_size(bad)
    default = page_budget(SpecGraph.build(load_spec(bundled_copy)), None)
    assert default == (1024 * 1024, "the default; set page_budget / --page-budget")
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n[specgen]\npage_budget_bytes = 20000\n", encoding="utf-8")
    graph = SpecGraph.build(load_spec(bundled_copy))
    assert page_budget(graph, None) == (20000, "[specgen] page_budget_bytes")
    assert page_budget(graph, 3_000_000) == (3_000_000, "page_budget / --page-budget")
    rc, _, err = _cli("build", "--root", str(bundled_copy), "--page-budget", "lots")
    assert rc == ExitCode.USAGE and "--page-budget" in err and "Traceback" not in err


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_one_line_per_stage_off_a_terminal_and_one_rewritten_line_on_one(
        bundled_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from specgen.cli.progress import Progress

    monkeypatch.delenv("SPECGEN_PROGRESS", raising=False)
    rc, out, err = _cli("check", "--root", str(bundled_copy), "--format", "json", "--no-cache")
    assert rc == ExitCode.OK and json.loads(out)["findings"] is not None  # stdout is the report alone
    assert err == ""  # check, a hook's command, is quiet off a terminal (issue 41): the report alone
    monkeypatch.setenv("SPECGEN_PROGRESS", "1")
    rc, out, err = _cli("check", "--root", str(bundled_copy), "--format", "json", "--no-cache")
    assert [line.split(" (")[0] for line in err.splitlines()] == ["specgen check: load", "specgen check: rules"]
    monkeypatch.delenv("SPECGEN_PROGRESS")
    rc, out, err = _cli("test", "--root", str(bundled_copy), "--jobs", "1", "TAND")
    assert rc == ExitCode.OK and err.splitlines()[0].startswith("specgen test: load")
    assert len(err.splitlines()) == 2  # counts are not logged off a terminal
    tty = _Tty()
    p = Progress(tty, "test")
    p.stage("run")
    for i in range(1, 4):
        p.count(i, 3)
    p.finish()
    text = tty.getvalue()
    assert "\n" not in text and text.count("\r") >= 3 and "run 3/3" in text and text.endswith("\r")
    monkeypatch.setenv("SPECGEN_PROGRESS", "0")
    rc, out, err = _cli("check", "--root", str(bundled_copy), "--format", "json", "--no-cache")
    assert rc == ExitCode.OK and err == ""


ROOT_COMMANDS = [["validate"], ["check"], ["trace", "TADD"], ["manifest", "--check"], ["decode", "0x1"],
                 ["render", "TADD", "--format", "encoding"], ["asm", "BSTOP"], ["test"], ["build"], ["serve"]]


@pytest.mark.parametrize("argv", ROOT_COMMANDS, ids=lambda a: a[0])
def test_a_missing_root_is_exit_2_in_every_command(argv: list[str], tmp_path: Path) -> None:
    rc, out, err = _cli(*argv, "--root", str(tmp_path / "absent"))
    assert rc == ExitCode.USAGE and "Traceback" not in out + err
    assert "absent" in out + err


def test_run_and_diff_with_a_missing_root_exit_2(tmp_path: Path) -> None:
    prog = tmp_path / "p.s"
    prog.write_text("BSTOP\n", encoding="utf-8")
    assert _cli("run", str(prog), "--root", str(tmp_path / "absent"))[0] == ExitCode.USAGE
    assert _cli("diff", str(tmp_path / "absent"), str(tmp_path / "absent"))[0] == ExitCode.USAGE
