"""The CI building blocks a spec team copies: the pre-commit hook, the composite GitHub Action and the example
workflow (docs-internal/ci.md).

The hook runs for real through ``pre-commit try-repo`` (which installs this repository into a hook
environment, as a team's ``pre-commit`` would). The Action's shell steps run for real in a scratch git
repository with the spec in a subfolder, with GitHub's expression syntax evaluated by a small emulator that
refuses any expression it does not know (so the Action cannot grow one these tests do not understand); the
``uses:`` steps (setup-python, the SARIF upload) are GitHub's own and are only checked for their inputs.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from treecopy import copy_tree

from specgen.cli import build_parser, subcommands
import specgen

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
WORKFLOW = REPO / "docs-internal" / "ci" / "specgen-workflow.yml"
EDITED_UNIT = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def _git(repo: Path, *argv: str) -> None:
    subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def _spec_repo(where: Path, bundled: Path, inside: str = "") -> Path:
    """A git repository holding a copy of the bundled spec (at ``inside``, or at the top level)."""
    where.mkdir(parents=True)
    copy_tree(bundled, where / inside if inside else where / "_spec")
    if not inside:
        for p in (where / "_spec").iterdir():
            p.rename(where / p.name)
        (where / "_spec").rmdir()
    _git(where, "init", "-q", "-b", "main")
    _git(where, "add", "-A")
    _git(where, "commit", "-q", "-m", "spec")
    return where


def _edit_unit(root: Path) -> None:
    """A change the manifest does not know: the check then fails with manifest-hash-mismatch."""
    unit = root / EDITED_UNIT
    unit.write_text(unit.read_text(encoding="utf-8") + "// edited after the release\n", encoding="utf-8")


# ------------------------------------------------------------------ the pre-commit hook
def test_pre_commit_hook_through_try_repo(tmp_path: Path, bundled_root: Path) -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in hooks] == ["specgen-check"] and hooks[0]["pass_filenames"] is False
    repo = _spec_repo(tmp_path / "spec-repo", bundled_root)
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "SPECGEN_CACHE_DIR": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    argv = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "specgen-check", "--all-files", "--verbose"]
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=1500, check=False)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert re.search(r"specgen check\.+Passed", log), log
    assert "0 errors" in log and "content_sha256" in log, "the hook ran the check and printed its report"

    _edit_unit(repo)
    _git(repo, "add", "-A")
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=900, check=False)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 1, log
    assert re.search(r"specgen check\.+Failed", log) and "manifest-hash-mismatch" in log, log
    assert EDITED_UNIT in log


# what a team's pre-commit clones: the sources of this checkout as they are (uncommitted edits included)
HOOK_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "mkdocs.yml", ".pre-commit-hooks.yaml", "specgen", "spec",
                "site", "templates")


def _hook_repository(where: Path) -> str:
    """This checkout's sources committed into a repository of their own; the commit a config pins."""
    where.mkdir(parents=True)
    for name in HOOK_SOURCES:
        p = REPO / name
        if p.is_dir():
            shutil.copytree(p, where / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
        else:
            shutil.copy2(p, where / name)
    _git(where, "init", "-q", "-b", "main")
    _git(where, "add", "-A")
    _git(where, "commit", "-q", "-m", "specgen")
    return subprocess.run(["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.corpus
@pytest.mark.slow
def test_pre_commit_hook_on_a_real_release_with_a_baseline(tmp_path: Path, corpus_root: Path) -> None:
    """Issue 41: 0.58.3 as released fails the check (one true manifest-missing-file), so the hook failed from
    its first run. With a baseline written once and committed, the hook passes; one new defect fails it."""
    hook = tmp_path / "specgen-src"
    rev = _hook_repository(hook)
    repo = tmp_path / "pto-spec"
    copy_tree(corpus_root, repo)
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "SPECGEN_CACHE_DIR": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("VIRTUAL_ENV", None)
    specgen = [sys.executable, "-m", "specgen", "check", "--root", ".", "--min-severity", "warning"]
    first = subprocess.run(specgen, cwd=repo, env=env, capture_output=True, text=True, timeout=1800, check=False)
    assert first.returncode == 1 and "manifest-missing-file" in first.stdout, first.stdout + first.stderr
    made = subprocess.run([*specgen, "--write-baseline", "specgen-baseline.json"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=1800, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    config = {"repos": [{"repo": str(hook), "rev": rev, "hooks": [{"id": "specgen-check", "args": [
        "--root", ".", "--min-severity", "warning", "--baseline", "specgen-baseline.json"]}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "0.58.3 and its baseline")
    argv = [sys.executable, "-m", "pre_commit", "run", "specgen-check", "--all-files", "--verbose"]
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=1800, check=False)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0 and re.search(r"specgen check\.+Passed", log), log
    assert "39 known findings: 39 in the baseline" in log and "specgen check: load" not in log, log

    unit = repo / "asl" / "tile" / "elementwise-tile-tile" / "arithmetic" / "TMUL.asl"
    unit.write_text(unit.read_text(encoding="utf-8") + "// a new defect\n", encoding="utf-8")
    _git(repo, "add", "-A")
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=1800, check=False)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 1 and re.search(r"specgen check\.+Failed", log), log
    report = log.split("manifest content_sha256")[0]
    assert "manifest-hash-mismatch" in report and "TMUL.asl" in report
    assert "manifest-missing-file" not in report, "a known finding is counted, not listed"


# ------------------------------------------------------------------ the Action, emulated
_TERM = re.compile(r"^(?P<left>[a-z]+(?:\.[\w-]+)+)\s*(?P<op>==|!=)\s*(?:'(?P<right>[^']*)'|(?P<bool>true|false))$")
# the parts of the github context the Action reads; a run is a push unless a test says otherwise
PUSH = {"github.event_name": "push", "github.event.pull_request.head.repo.fork": "",
        "github.event.pull_request.base.sha": ""}
_SUB = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


class _Context:
    """The parts of GitHub's expression context the Action uses; anything else is an error."""

    def __init__(self, inputs: dict[str, str], workspace: Path, event: dict[str, str] | None = None) -> None:
        self.values: dict[str, str] = {"github.workspace": str(workspace), "github.action_path": str(REPO),
                                       **PUSH, **(event or {})}
        for name, spec in ACTION["inputs"].items():
            self.values[f"inputs.{name}"] = self.substitute(str(spec.get("default", "")))
        for name, value in inputs.items():
            assert f"inputs.{name}" in self.values, f"the Action has no input {name!r}"
            self.values[f"inputs.{name}"] = value

    def lookup(self, expr: str) -> str:
        if expr.startswith("steps."):
            return self.values.get(expr, "")
        assert expr in self.values, f"the emulator does not know ${{{{ {expr} }}}}"
        return self.values[expr]

    def substitute(self, text: str) -> str:
        return _SUB.sub(lambda m: self.lookup(m.group(1)), text)

    def condition(self, expr: str, failed: bool) -> bool:
        terms = [t.strip() for t in expr.split("&&")]
        result = True
        for term in terms:
            if term == "always()":
                continue
            m = _TERM.match(term)
            assert m is not None, f"the emulator does not know the condition {term!r}"
            equal = self.lookup(m["left"]) == (m["right"] if m["bool"] is None else m["bool"])
            result = result and (equal if m["op"] == "==" else not equal)
        return result and (not failed or "always()" in terms)


def runner_temp(workspace: Path) -> Path:
    """The runner's temporary folder (``$RUNNER_TEMP``), outside the workspace as on GitHub's runners."""
    temp = workspace.parent / "runner-temp"
    temp.mkdir(exist_ok=True)
    return temp


def run_action(inputs: dict[str, str], workspace: Path, event: dict[str, str] | None = None,
               ) -> tuple[dict[str, dict[str, str]], list[tuple[str, int, str]]]:
    """Run the Action's shell steps in ``workspace``: the steps' outputs and (name, exit status, log) per step
    (a ``uses:`` step that would run is listed with status -1 and its inputs as the log)."""
    ctx = _Context(inputs, workspace, event)
    bin_dir = str(Path(sys.executable).parent)
    outputs: dict[str, dict[str, str]] = {}
    ran: list[tuple[str, int, str]] = []
    failed = False
    for i, step in enumerate(ACTION["runs"]["steps"]):
        if "if" in step and not ctx.condition(step["if"], failed):
            continue
        if "uses" in step:
            given = {key: ctx.substitute(str(value)) for key, value in (step.get("with") or {}).items()
                     if "toJson" not in str(value)}  # every expression it passes is one the emulator knows
            ran.append((step["name"], -1, json.dumps(given)))
            continue
        if step["name"] == "Install specgen":  # this test's interpreter has specgen installed already
            ctx.substitute(json.dumps(step.get("env", {})))
            continue
        out_file = workspace.parent / f"github-output-{i}"
        out_file.write_text("")
        env = {**os.environ, **{k: ctx.substitute(str(v)) for k, v in (step.get("env") or {}).items()},
               "GITHUB_OUTPUT": str(out_file), "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
               "RUNNER_TEMP": str(runner_temp(workspace)), "GITHUB_STEP_SUMMARY": str(workspace.parent / "summary.md")}
        assert "${{" not in step["run"], f"{step['name']}: an input spliced into the script (use env:)"
        proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace, env=env, capture_output=True,
                              text=True, timeout=900, check=False)
        ran.append((step["name"], proc.returncode, proc.stdout + proc.stderr))
        step_out = dict(line.split("=", 1) for line in out_file.read_text().splitlines() if "=" in line)
        if "id" in step:
            outputs[step["id"]] = step_out
            for key, value in step_out.items():
                ctx.values[f"steps.{step['id']}.outputs.{key}"] = value
        failed = failed or proc.returncode != 0
    return outputs, ran


@pytest.fixture()
def spec_in_subfolder(tmp_path: Path, bundled_root: Path) -> Path:
    """A spec team's repository: the spec under ``spec/``, one unit edited after the release."""
    repo = _spec_repo(tmp_path / "team-repo", bundled_root, inside="spec")
    _edit_unit(repo / "spec")
    return repo


def test_action_annotates_the_repository_path_writes_sarif_and_fails(spec_in_subfolder: Path) -> None:
    repo = spec_in_subfolder
    outputs, ran = run_action({"root": "spec", "test-shard": "1/2"}, repo)
    logs = {name: (rc, log) for name, rc, log in ran}
    assert outputs["check"]["exit-code"] == "1"
    rc, log = logs["Check (annotations)"]
    assert rc == 0, log  # the step records the status; the Result step decides
    annotation = next(ln for ln in log.splitlines() if ln.startswith("::error "))
    assert f"file=spec/{EDITED_UNIT}," in annotation and "title=manifest-hash-mismatch" in annotation
    assert outputs["sarif"]["path"] == str(runner_temp(repo) / "specgen.sarif")
    sarif = json.loads((runner_temp(repo) / "specgen.sarif").read_text(encoding="utf-8"))
    run = sarif["runs"][0]
    assert run["originalUriBaseIds"]["SPECROOT"] == {"uriBaseId": "REPOROOT", "uri": "spec/"}
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"] for loc in r["locations"]}
    assert f"spec/{EDITED_UNIT}" in uris
    assert all(r["level"] in ("error", "warning") for r in run["results"]), "min-severity warning: no notes"
    report = json.loads((repo / "specgen-test.json").read_text(encoding="utf-8"))
    assert report["shard"]["index"] == 1 and report["shard"]["count"] == 2 and report["tests"]
    assert outputs["test"]["exit-code"] == "0"
    assert logs["Result"][0] == 1 and "specgen check: 1; specgen test: 0" in logs["Result"][1]


def test_action_passes_a_clean_tree(tmp_path: Path, bundled_root: Path) -> None:
    repo = _spec_repo(tmp_path / "clean", bundled_root)
    outputs, ran = run_action({"upload-sarif": "false"}, repo)
    assert outputs["check"]["exit-code"] == "0" and (runner_temp(repo) / "specgen.sarif").is_file()
    assert not (repo / "specgen.sarif").exists(), "no report inside the spec tree (root: .)"
    assert ran[-1][0] == "Result" and ran[-1][1] == 0


def _invocations(script: str, env: dict[str, str]) -> list[list[str]]:
    """The arguments of every ``specgen`` command of a step's script, with its arrays expanded to the flags they
    may hold and each ``"$VAR"`` replaced by the step's value for it (the input's default; ``x`` when empty)."""
    arrays = dict(re.findall(r"(\w+)=\((--[^)]*)\)", script))
    found = []
    for line in script.splitlines():
        line = line.strip()
        if not line.startswith("specgen "):
            continue
        line = line.split(" || ")[0].split(" > ")[0]
        for name, content in arrays.items():
            line = line.replace(f'"${{{name}[@]}}"', content)
        line = re.sub(r'"\$(\w+)"', lambda m: shlex.quote(env.get(m[1]) or "x"), line)
        assert "$" not in line, line
        found.append(shlex.split(line)[1:])
    return found


def test_every_specgen_command_of_the_action_is_one_the_cli_accepts(tmp_path: Path) -> None:
    """Each ``specgen`` invocation of each step, with every optional flag its arrays may add, parses with
    specgen's own argparse parser: the Action cannot pass a flag the CLI does not have."""
    ctx = _Context({}, tmp_path)
    parser = build_parser(subcommands())
    seen: set[str] = set()
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            continue
        env = {k: ctx.substitute(str(v)) for k, v in (step.get("env") or {}).items()}
        for argv in _invocations(step["run"], env):
            parser.parse_args(argv)  # a usage error raises SystemExit here
            seen |= {w for w in argv if w.startswith("--")}
    assert {"--baseline", "--changed-files", "--strict", "--repo-root", "--min-severity", "--shard"} <= seen, seen


def test_the_sarif_upload_is_v4_pinned_and_guarded() -> None:
    steps = {s["name"]: s for s in ACTION["runs"]["steps"]}
    upload = steps["Upload SARIF"]
    assert re.fullmatch(r"github/codeql-action/upload-sarif@[0-9a-f]{40}", upload["uses"]), upload["uses"]
    assert upload["continue-on-error"] is True and "head.repo.fork != true" in upload["if"]
    assert steps["SARIF upload failed"]["if"] == "steps.upload.outcome == 'failure'"
    assert set(upload["with"]) <= {"sarif_file", "category"}


def test_a_pull_request_from_a_fork_skips_the_upload_with_a_notice(spec_in_subfolder: Path) -> None:
    repo = spec_in_subfolder
    base = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    _git(repo, "commit", "-qam", "the pull request's change")
    event = {"github.event_name": "pull_request", "github.event.pull_request.head.repo.fork": "true",
             "github.event.pull_request.base.sha": base}
    outputs, ran = run_action({"root": "spec"}, repo, event)
    names = [name for name, _, _ in ran]
    assert "Upload SARIF" not in names and "SARIF upload skipped (pull request from a fork)" in names
    notice = next(log for name, _, log in ran if name.startswith("SARIF upload skipped"))
    assert notice.startswith("::notice title=specgen::SARIF log not uploaded")
    changed = Path(outputs["changed"]["path"]).read_text(encoding="utf-8").split()
    assert changed == [f"spec/{EDITED_UNIT}"]
    summary = (repo.parent / "summary.md").read_text(encoding="utf-8")
    assert f"| error | manifest-hash-mismatch | spec/{EDITED_UNIT}" in summary
    # the same pull request from a branch of the repository uploads, and a failed upload is only a notice
    outputs, ran = run_action({"root": "spec"}, repo, {**event, "github.event.pull_request.head.repo.fork": "false"})
    upload = next((rc, log) for name, rc, log in ran if name == "Upload SARIF")
    assert upload[0] == -1 and json.loads(upload[1])["sarif_file"] == outputs["sarif"]["path"]


def test_the_action_gates_on_new_findings_only_with_a_baseline(spec_in_subfolder: Path) -> None:
    repo = spec_in_subfolder
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(repo.parent / "cache")}
    subprocess.run([str(Path(sys.executable).parent / "specgen"), "check", "--root", "spec", "--write-baseline",
                    "specgen-baseline.json"], cwd=repo, env=env, capture_output=True, check=True)
    outputs, ran = run_action({"root": "spec", "baseline": "specgen-baseline.json"}, repo)
    assert outputs["check"]["exit-code"] == "0" and ran[-1] == ("Result", 0, ran[-1][2])
    sarif = json.loads(Path(outputs["sarif"]["path"]).read_text(encoding="utf-8"))
    assert {r["baselineState"] for r in sarif["runs"][0]["results"]} == {"unchanged"}


# ------------------------------------------------------------------ the example workflow
def _specgen_commands(doc: dict[str, Any]) -> list[str]:
    commands = []
    for job in doc["jobs"].values():
        for step in job["steps"]:
            for line in str(step.get("run", "")).splitlines():
                for part in re.split(r"\|\||&&", line):
                    part = part.split(">")[0].strip()
                    if part.startswith("specgen "):
                        commands.append(part)
    return commands


def test_example_workflow_uses_the_action_and_real_commands() -> None:
    doc = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    inputs = set(ACTION["inputs"])
    uses = [s for job in doc["jobs"].values() for s in job["steps"] if str(s.get("uses", "")).endswith("/specgen@v" + specgen.__version__)]
    assert len(uses) == 3
    for step in uses:
        assert set(step.get("with") or {}) <= inputs, set(step["with"]) - inputs
    matrix = doc["jobs"]["avs"]["strategy"]["matrix"]["shard"]
    shard = next(s for s in doc["jobs"]["avs"]["steps"] if "test-shard" in (s.get("with") or {}))["with"]["test-shard"]
    assert shard == "${{ matrix.shard }}/" + str(len(matrix)), "the matrix and the shard count agree"
    parser = build_parser(subcommands())
    commands = _specgen_commands(doc)
    assert any("--merge" in c and "junit" in c for c in commands)
    for command in commands:
        words = [w.replace("*", "1") for w in shlex.split(command)[1:]]
        parser.parse_args(words)  # a usage error raises here
    text = (REPO / "docs-internal" / "ci.md").read_text(encoding="utf-8")
    assert WORKFLOW.read_text(encoding="utf-8").strip() in text, "docs-internal/ci.md shows the workflow as tested"


def test_the_action_installs_from_its_own_checkout() -> None:
    install = next(s for s in ACTION["runs"]["steps"] if s["name"] == "Install specgen")
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}" and "pip install" in install["run"]
    assert shutil.which("bash")
