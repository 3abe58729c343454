"""The command line's habits (issue 28): suggestions for typos, ``--root`` before the subcommand, a folder that
is not a spec tree, one error format, colour on a terminal, shell completion."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest

from specgen.cli import SUBCOMMANDS, main
from specgen.cli.exitcodes import ExitCode

REPO = Path(__file__).resolve().parent.parent
ERROR = re.compile(r"^specgen(?: (?P<cmd>[a-z]+))?: (?:\x1b\[[0-9;]*m)?error:(?:\x1b\[0m)? \S")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _cli(*argv: str, tty: bool = False) -> tuple[int, str, str]:
    out, err = (_Tty(), _Tty()) if tty else (io.StringIO(), io.StringIO())
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_did_you_mean_for_subcommands_options_and_choices() -> None:
    rc, _, err = _cli("chek")
    assert rc == ExitCode.USAGE and err.startswith("specgen: error: unknown command 'chek'; did you mean 'check'?")
    rc, _, err = _cli("check", "--fromat", "json")
    assert rc == ExitCode.USAGE and "specgen check: error: unrecognized arguments: --fromat (did you mean --format?)" in err
    rc, _, err = _cli("test", "--shrad", "1/2")
    assert rc == ExitCode.USAGE and "(did you mean --shard?)" in err
    rc, _, err = _cli("check", "--format", "sarfi")
    assert rc == ExitCode.USAGE and "unknown choice 'sarfi'; did you mean 'sarif'?" in err
    rc, _, err = _cli("zzzz")
    assert rc == ExitCode.USAGE and "did you mean" not in err and "choose from validate, check" in err


def test_root_before_the_subcommand(bundled_root: Path) -> None:
    after = _cli("check", "--root", str(bundled_root), "--format", "json")
    before = _cli("--root", str(bundled_root), "check", "--format", "json")
    assert after[0] == before[0] == ExitCode.OK and after[1] == before[1]
    rc, out, _ = _cli("--root", str(bundled_root), "trace", "TMUL")
    assert rc == ExitCode.OK and out.startswith("instruction PTO-")
    rc, _, err = _cli("--root", str(bundled_root), "rules")
    assert rc == ExitCode.USAGE and "specgen rules: error: --root does not apply to 'rules'" in err
    rc, _, err = _cli("--root", str(bundled_root), "check", "--root", str(REPO))
    assert rc == ExitCode.USAGE and "--root given before and after the command with different values" in err


@pytest.mark.parametrize("argv", [["check"], ["validate"], ["test"], ["build"], ["decode", "0x1"], ["trace", "X"]],
                         ids=lambda a: a[0])
def test_a_folder_that_is_not_a_spec_tree_exits_2(argv: list[str], tmp_path: Path) -> None:
    rc, out, err = _cli(*argv, "--root", str(tmp_path))
    assert rc == ExitCode.USAGE and out == ""
    assert err == (f"specgen {argv[0]}: error: {tmp_path}: not a spec tree: no specification.toml (nor asl/, "
                   "tests/asl/, spec/catalog/ or examples/); name the folder that holds the release's specification.toml\n")


def test_the_folder_above_the_releases_names_them(corpus_root: Path) -> None:
    rc, _, err = _cli("--root", str(corpus_root.parent), "check")
    assert rc == ExitCode.USAGE and "not a spec tree: no specification.toml" in err
    assert f"the spec trees in it: {', '.join(sorted(p.name for p in corpus_root.parent.iterdir() if p.is_dir()))}" in err
    rc, _, err = _cli("check", "--root", str(REPO))  # a checkout: its sample is one level down
    assert rc == ExitCode.USAGE and "the spec trees in it: spec;" in err


def test_every_error_reads_specgen_cmd_error(bundled_root: Path, tmp_path: Path) -> None:
    cases = [
        ("check", "--root", str(tmp_path / "absent")),
        ("check", "--only", "no-such-rule", "--no-cache"),
        ("trace", "NO-SUCH-ID"),
        ("decode", "0xZZ"),
        ("decode", "0x12345678"),
        ("render", "NOPE", "--format", "encoding"),
        ("test", "no-such-test-anywhere"),
        ("test", "--profile", "nope"),
        ("build", "--config", str(tmp_path / "absent.yml")),
        ("export", "--config", str(tmp_path / "absent.yml")),
        ("manifest", "--check", "--root", str(tmp_path)),
        ("completion", "tcsh"),
        ("bogus",),
    ]
    for argv in cases:
        rc, _, err = _cli(*argv)
        assert rc in (ExitCode.USAGE, ExitCode.FINDINGS), (argv, rc, err)
        errors = [ln for ln in err.splitlines() if ERROR.match(ln)]
        assert errors, f"{argv}: no 'specgen CMD: error:' line in {err!r}"
        cmd = ERROR.match(errors[0])["cmd"]  # type: ignore[index]
        assert cmd == (argv[0] if argv[0] in SUBCOMMANDS else None), (argv, errors)
        assert "Traceback" not in err


def test_colour_on_a_terminal_unless_no_color(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    broken = ["decode", "--root", str(bundled_root), "0x12345678"]
    assert "\x1b[" in _cli(*broken, tty=True)[2]
    assert "\x1b[" not in _cli(*broken)[2], "not a terminal"
    assert "\x1b[" not in _cli(*broken, "--color", "never", tty=True)[2]
    assert "\x1b[" in _cli("--color", "always", *broken)[2]
    rc, out, _ = _cli("check", "--root", str(bundled_root), "--color", "always")
    assert rc == ExitCode.OK and "\x1b[" not in out, "a clean bundled check has nothing to colour"
    rc, out, _ = _cli("test", "--root", str(bundled_root), "--jobs", "1", "TAND", tty=True)
    assert "\x1b[32m" in out
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in _cli(*broken, tty=True)[2]
    assert "\x1b[" in _cli(*broken, "--color", "always", tty=True)[2], "--color always beats NO_COLOR"


def _complete(script: str, *words: str) -> list[str]:
    """What bash offers for ``words`` (the last one being completed) after sourcing ``script``."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (f"{script}\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); _specgen; "
               'printf "%s\\n" "${COMPREPLY[@]}"')
    proc = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True, cwd=REPO)
    return sorted(x for x in proc.stdout.splitlines() if x)


def test_bash_completion_from_the_parser() -> None:
    rc, script, _ = _cli("completion", "bash")
    assert rc == ExitCode.OK
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)
    assert _complete(script, "specgen", "ch") == ["check"]
    assert _complete(script, "specgen", "") == sorted([*SUBCOMMANDS, "--root", "--color", "--version", "--help"])
    assert _complete(script, "specgen", "check", "--fo") == ["--format"]
    assert _complete(script, "specgen", "check", "--format", "") == ["github", "json", "junit", "sarif", "text"]
    assert _complete(script, "specgen", "check", "--min-severity", "") == ["error", "note", "warning"]
    assert _complete(script, "specgen", "build", "--engine", "") == ["mkdocs", "properdocs", "zensical"]
    assert _complete(script, "specgen", "test", "--sh") == ["--shard"]
    assert _complete(script, "specgen", "completion", "") == ["bash", "fish", "zsh"]
    assert "mkdocs.yml" in _complete(script, "specgen", "build", "--config", "mk")


def test_zsh_and_fish_scripts_cover_every_subcommand() -> None:
    zsh = _cli("completion", "zsh")[1]
    assert "bashcompinit" in zsh and "complete -o filenames -F _specgen specgen" in zsh
    fish = _cli("completion", "fish")[1]
    for name in SUBCOMMANDS:
        assert f"__fish_use_subcommand -a {name} " in fish, name
    assert "__fish_seen_subcommand_from check' -l format -x -a 'text json junit sarif github'" in fish
    assert all(ln.startswith(("complete -c specgen", "#")) for ln in fish.splitlines())


@pytest.mark.parametrize("command", ["test", "build", "export"])
@pytest.mark.parametrize("jobs", ["-1", "two"])
def test_jobs_is_a_whole_number_not_below_0(command: str, jobs: str) -> None:
    """``--jobs -1`` ran one process without a word."""
    rc, _, err = _cli(command, "--root", "sample", "--jobs", jobs)
    assert rc == ExitCode.USAGE
    assert err.startswith(f"specgen {command}: error: argument --jobs: "), err
    assert ("is negative (0 runs one process per usable core)" if jobs == "-1" else "is not a whole number") in err


def test_jobs_0_and_the_default_are_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the plugin's ``jobs: 0``: a runner pinned to two of the host's CPUs runs two, not the host's count."""
    from specgen.cli import build_parser, subcommands
    from specgen import cores

    monkeypatch.setattr(cores.os, "sched_getaffinity", lambda pid: {3, 5}, raising=False)
    parser = build_parser(subcommands())
    for command in ("test", "build", "export"):
        assert parser.parse_args([command, "--jobs", "0"]).jobs == 2
        assert parser.parse_args([command]).jobs == 2
        assert parser.parse_args([command, "--jobs", "3"]).jobs == 3
