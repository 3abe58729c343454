"""The command line as a package: the subcommand convention, the exit codes, and the cores it hands values to."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.cli import SUBCOMMANDS, main, subcommands
from specgen.cli.exitcodes import ExitCode

MANIFEST = "spec/release-manifest.json"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_exit_codes_are_the_documented_ones() -> None:
    assert {c.name: int(c) for c in ExitCode} == {"OK": 0, "FINDINGS": 1, "USAGE": 2, "INTERRUPTED": 130,
                                                   "BROKEN_PIPE": 141}
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "0 ok, 1 findings, 2 usage or unreadable root, 130 interrupted" in readme


def test_every_subcommand_module_follows_the_convention() -> None:
    mods = subcommands()
    assert list(mods) == list(SUBCOMMANDS)
    for name, mod in mods.items():
        assert mod.__doc__ and mod.NAME == name and mod.HELP, name
        assert callable(mod.add_arguments) and callable(mod.run), name


def test_help_lists_the_subcommands_in_registry_order_without_loading_the_models() -> None:
    code = ("import sys, contextlib, io\nfrom specgen.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as o:\n    rc = main(['--help'])\n"
            "print(rc, o.getvalue().split('{')[1].split('}')[0], 'pydantic' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.split() == ["0", ",".join(SUBCOMMANDS), "False"]


def test_usage_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    assert _cli("frob")[0] == ExitCode.USAGE
    rc, out, err = _cli("check", "--root", "sample", "--no-cache", "--only", "no-such-rule")
    assert (rc, out) == (ExitCode.USAGE, "") and err.startswith("specgen check: error: unknown rule id(s): no-such-rule")
    rc, _, err = _cli("check", "--no-cache", "--root", str(tmp_path / "absent"))
    assert rc == ExitCode.USAGE and err.startswith("specgen check: error: spec root ")


def test_manifest_write_repairs_a_hash_and_keeps_the_file_mode(bundled_copy: Path) -> None:
    path = bundled_copy / MANIFEST
    good = path.read_bytes()
    doc = json.loads(good)
    doc["canonical_inputs"][0]["sha256"] = "0" * 64
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.chmod(path, 0o644)
    rc, out, _ = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == ExitCode.FINDINGS and "manifest-hash-mismatch" in out
    rc, out, _ = _cli("manifest", "--write", "--root", str(bundled_copy))
    assert (rc, out) == (ExitCode.OK, f"wrote {MANIFEST}\n")
    assert path.read_bytes() == good
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
    rc, out, _ = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == ExitCode.OK and out.endswith("; 0 finding(s)\n")


def test_manifest_without_a_manifest_is_a_usage_error(bundled_copy: Path) -> None:
    (bundled_copy / MANIFEST).unlink()
    rc, _, err = _cli("manifest", "--check", "--root", str(bundled_copy))
    assert rc == ExitCode.USAGE and "no readable manifest at spec/release-manifest.json" in err


@pytest.mark.parametrize("argv", [["trace", "TMUL"], ["schema", "--out", "{tmp}"]])
def test_cores_print_nothing_themselves(argv: list[str], tmp_path: Path, bundled_root: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    rc, out, _ = _cli(*argv, *(["--root", str(bundled_root)] if argv[0] != "schema" else []))
    assert rc == ExitCode.OK and out
    assert capsys.readouterr() == ("", "")  # everything went to the streams main was given


def test_check_text_summary_carries_the_full_manifest_hash(bundled_root: Path) -> None:
    declared = json.loads((bundled_root / MANIFEST).read_text(encoding="utf-8"))["content_sha256"]
    for extra in (("--no-cache",), ()):
        rc, out, _ = _cli("check", "--root", str(bundled_root), "--no-examples", *extra)
        assert rc == ExitCode.OK and f"manifest content_sha256: {declared}\n" in out


def test_sarif_places_findings_from_the_git_top_level(bundled_copy: Path, tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    manifest = bundled_copy / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["content_sha256"] = "1" * 64
    manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    rc, out, _ = _cli("check", "--no-cache", "--no-examples", "--root", str(bundled_copy), "--format", "sarif")
    assert rc == ExitCode.FINDINGS
    (run,) = json.loads(out)["runs"]
    assert run["originalUriBaseIds"]["REPOROOT"]["uri"] == tmp_path.resolve().as_uri() + "/"
    assert run["originalUriBaseIds"]["SPECROOT"] == {"uriBaseId": "REPOROOT", "uri": "spec/"}
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {"uri": "spec/" + MANIFEST, "uriBaseId": "REPOROOT"} in locations
    rc, out, _ = _cli("check", "--no-cache", "--no-examples", "--root", str(bundled_copy), "--format", "sarif",
                      "--repo-root", str(bundled_copy))
    assert {"uri": MANIFEST, "uriBaseId": "REPOROOT"} in [
        r["locations"][0]["physicalLocation"]["artifactLocation"] for r in json.loads(out)["runs"][0]["results"]]
    rc, out, err = _cli("check", "--no-cache", "--root", str(bundled_copy), "--format", "sarif",
                        "--repo-root", str(bundled_copy / "asl"))
    assert (rc, out) == (ExitCode.USAGE, "") and "does not contain the spec root" in err


def test_every_subcommand_and_option_is_documented_with_an_example() -> None:
    import argparse

    from specgen.cli import build_parser

    parser = build_parser(subcommands())
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(sub.choices) == list(SUBCOMMANDS)
    for name, cmd in sub.choices.items():
        assert cmd.description and len(cmd.description) > 20, name
        assert cmd.epilog and f"specgen {name} " in cmd.epilog, name
        for action in cmd._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help.strip(), (name, action.dest)
        assert _cli(name, "--help")[0] == ExitCode.OK


def test_rules_lists_every_registered_rule_with_severity_and_help() -> None:
    from specgen.check import all_rules

    registered = {r.id: r for r in all_rules()}
    rc, out, _ = _cli("rules", "--format", "json")
    rows = json.loads(out)["rules"]
    assert rc == ExitCode.OK and [r["id"] for r in rows] == sorted(registered)
    for row in rows:
        rule = registered[row["id"]]
        assert (row["severity"], row["description"], row["help"]) == (rule.severity.value, rule.description, rule.help)
        assert row["severity"] in {"error", "warning", "note"} and row["description"]
    rc, out, _ = _cli("rules")
    assert rc == ExitCode.OK and out.endswith(f"{len(registered)} rules\n")
    assert "manifest-content-hash [error]\n" in out


def test_test_selector_may_be_a_file_path(bundled_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test named by its file path (absolute, from the spec root, or from the working directory) is the one run."""
    from specgen.cli import main
    rel = "tests/asl/arch/faults/architectural-faults/arch-state-architectural-faults-record-001.asl"
    monkeypatch.chdir(tmp_path)
    for selector in (str(bundled_root / rel), rel):
        out = io.StringIO()
        assert main(["test", "--root", str(bundled_root), "--jobs", "1", selector], out=out, err=io.StringIO()) == 0
        assert out.getvalue().startswith("1 passed, 0 failed"), out.getvalue()
    err = io.StringIO()
    assert main(["test", "--root", str(bundled_root), "/elsewhere/nothing.asl"], out=io.StringIO(), err=err) == 2
    assert "specgen test: error: no test matched" in err.getvalue(), err.getvalue()


def test_the_tree_is_found_as_git_finds_a_repository(tmp_path: Path, bundled_copy: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: ``--root``, else ``SPECGEN_ROOT``, else the nearest ``specification.toml`` from the working
    directory upward; the bundled sample only when named; none found is exit 2 and one line saying where."""
    from specgen.bundled import spec_root
    monkeypatch.delenv("SPECGEN_ROOT", raising=False)
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    for argv in (["check"], ["validate"], ["trace", "TMUL"], ["build", "--out", str(tmp_path / "site")],
                 ["export", "--out", str(tmp_path / "export")]):
        rc, out, err = _cli(*argv)
        assert (rc, out) == (ExitCode.USAGE, ""), (argv, err)
        assert err.count("\n") == 1 and "no spec tree" in err and f"no specification.toml in {empty} " in err, err
        assert "--root sample" in err
    assert not (tmp_path / "site").exists() and not (tmp_path / "export").exists()

    def checked(*argv: str) -> str:
        rc, out, err = _cli("check", "--no-cache", "--only", "ndf-duplicate-id", "--format", "json", *argv)
        assert rc == 0, err
        return json.loads(out)["root"]

    assert Path(checked("--root", "sample")) == spec_root()  # named: the keyword
    assert Path(checked("--root", str(bundled_copy))) == bundled_copy
    monkeypatch.chdir(bundled_copy / "asl" / "tile")  # found upward from a folder inside the tree
    assert Path(checked()) == bundled_copy
    monkeypatch.setenv("SPECGEN_ROOT", "sample")  # the environment before the working directory
    assert Path(checked()) == spec_root()
    monkeypatch.setenv("SPECGEN_ROOT", str(bundled_copy))
    monkeypatch.chdir(empty)
    assert Path(checked()) == bundled_copy
    assert Path(checked("--root", "sample")) == spec_root()  # --root before the environment
    (empty / "sample").mkdir()  # a folder named like the keyword is the folder (it is no spec tree: exit 2)
    rc, _, err = _cli("check", "--root", "sample")
    assert rc == ExitCode.USAGE and "not a spec tree" in err


def test_the_plugin_root_is_explicit_then_environment_then_found(tmp_path: Path, bundled_copy: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: the plugin's explicit ``root:`` wins over ``SPECGEN_ROOT``; without it the environment, then
    the nearest ``specification.toml`` from the config's folder upward, else a one-line error."""
    from specgen.bundled import NoRoot, config_root, spec_root
    from specgen.site.export import ExportError, read_settings
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setenv("SPECGEN_ROOT", str(other))
    cfg = bundled_copy / "site" / "mkdocs.yml"  # a config inside a tree
    cfg.parent.mkdir()
    cfg.write_text("site_name: x\nplugins:\n  - specgen:\n      root: ..\n", encoding="utf-8")
    assert config_root("..", cfg) == bundled_copy / "site" / ".."  # explicit, relative to the config
    assert read_settings(cfg).root == bundled_copy / "site" / ".."  # the export reads it the same way
    assert config_root("sample", cfg) == spec_root()
    assert config_root(None, cfg) == other  # no root: the environment
    monkeypatch.delenv("SPECGEN_ROOT")
    assert config_root(None, cfg) == bundled_copy  # then upward from the config's folder
    lone = tmp_path / "lone" / "mkdocs.yml"
    lone.parent.mkdir()
    lone.write_text("site_name: x\nplugins:\n  - specgen\n", encoding="utf-8")
    with pytest.raises(NoRoot, match=f"no specification.toml in {lone.parent} or any folder above it"):
        config_root(None, lone)
    with pytest.raises(ExportError, match="set root: in the plugin's config"):
        read_settings(lone)
