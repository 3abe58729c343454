"""Checked examples kept outside the spec tree: beside it (``<root>-examples``) or named by the config.

A spec team keeps its own checked examples next to a release it cannot edit; they run on that
release exactly as the bundled ones run on the bundled spec, and a wrong one fails the check
(and the build), naming the file by its path from the spec root.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
from pathlib import Path

import pytest

from specgen.check import run_checks
from specgen.cli import main
from specgen.diagnostics import Severity
from specgen.examples.results import example_results
from specgen.graph import SpecGraph
from specgen.loader import load_spec

RULES = ["example-mismatch", "example-fault"]
TMUL = "tile/elementwise-tile-tile/arithmetic/TMUL"
# bundled example files that hold on the bundled spec and on both corpora (docs-internal/examples.md)
PORTABLE = [f"{TMUL}/u64-wraps.json", "tile/elementwise-tile-tile/arithmetic/TADD/s32-wraps.json",
            "block/lifecycle/BSTOP/without-open-block.json"]


def _copy_examples(bundled_root: Path, dest: Path, only: list[str] | None = None) -> Path:
    src = bundled_root / "examples"
    if only is None:
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns("README.md"))
        return dest
    for rel in only:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, dest / rel)
    return dest


def _add_wrong(folder: Path) -> str:
    """A copy of the U64 TMUL example whose first product is wrong; its path inside ``folder``."""
    doc = json.loads((folder / TMUL / "u64-wraps.json").read_text())
    doc["id"] = "PTO-EX-TMUL-U64-WRONG"
    doc["expect"]["tiles"]["T0"]["values"][0][1] = 14
    rel = f"{TMUL}/u64-wrong.json"
    (folder / rel).write_text(json.dumps(doc, indent=2))
    return rel


def _check(root: Path) -> list[tuple[str, str, str]]:
    findings, _ = run_checks(SpecGraph.build(load_spec(root)), only=RULES)
    return [(f.rule, f.path, f.message) for f in findings if f.severity is Severity.ERROR]


def test_examples_beside_the_tree_run_and_a_wrong_one_fails(bundled_copy: Path, bundled_root: Path) -> None:
    shutil.rmtree(bundled_copy / "examples")
    beside = _copy_examples(bundled_root, bundled_copy.parent / f"{bundled_copy.name}-examples")
    spec = load_spec(bundled_copy)
    assert spec.config.example_root == f"../{bundled_copy.name}-examples"
    graph = SpecGraph.build(spec)
    checked = [r for rs in example_results(graph).values() for r in rs if r.kind == "checked"]
    assert len(checked) == len(list(beside.rglob("*.json"))) and all(r.verified for r in checked)
    assert all(r.path.startswith(f"../{bundled_copy.name}-examples/") for r in checked)
    assert _check(bundled_copy) == []

    rel = _add_wrong(beside)
    got = _check(bundled_copy)
    assert [(r, p) for r, p, _ in got] == [("example-mismatch", f"../{bundled_copy.name}-examples/{rel}")]
    assert "T0[0][1]: expected 14, got 15" in got[0][2]


def test_an_example_folder_named_by_the_config_and_the_cached_check_sees_its_files(
        bundled_copy: Path, bundled_root: Path, tmp_path: Path) -> None:
    shutil.rmtree(bundled_copy / "examples")
    folder = _copy_examples(bundled_root, tmp_path / "team" / "checked-examples", PORTABLE)
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text() + f'\n[specgen]\nexample_root = "{folder}"\n')
    assert main(["manifest", "--root", str(bundled_copy), "--write"], io.StringIO(), io.StringIO()) == 0

    def check() -> tuple[int, str]:
        out = io.StringIO()
        return main(["check", "--root", str(bundled_copy), "--only", RULES[0], "--only", RULES[1]],
                    out, io.StringIO()), out.getvalue()

    rc, out = check()
    assert rc == 0, out
    results = example_results(SpecGraph.build(load_spec(bundled_copy)))
    assert sorted(r.path for rs in results.values() for r in rs if r.kind == "checked") == \
        sorted(f"{folder}/{rel}" for rel in PORTABLE)
    # the stored result depends on the outside files too: a new wrong file is a miss that reports it
    rel = _add_wrong(folder)
    rc, out = check()
    assert rc == 1 and f"{folder}/{rel}" in out and "example-mismatch" in out


def test_a_config_folder_that_is_missing_is_one_finding(bundled_copy: Path, tmp_path: Path) -> None:
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text() + f'\n[specgen]\nexample_root = "{tmp_path / "nowhere"}"\n')
    spec = load_spec(bundled_copy)
    bad = [f for f in spec.findings if f.rule == "config-invalid"]
    assert len(bad) == 1 and "nowhere" in bad[0].message and bad[0].path == "specification.toml"


def test_a_wrong_example_beside_the_tree_fails_the_build(bundled_copy: Path, bundled_root: Path,
                                                         tmp_path: Path) -> None:
    from specgen.cli.build import run as cmd_build

    shutil.rmtree(bundled_copy / "examples")
    beside = _copy_examples(bundled_root, bundled_copy.parent / f"{bundled_copy.name}-examples", PORTABLE)

    def build() -> tuple[int, str]:
        o, e = io.StringIO(), io.StringIO()
        rc = cmd_build(argparse.Namespace(root=bundled_copy, out=tmp_path / "site", config=None, jobs=1), o, e)
        return rc, e.getvalue()

    rc, err = build()
    assert rc == 0, err
    page = (tmp_path / "site" / "en" / f"{TMUL}.html").read_text()
    assert "PTO-EX-TMUL-U64-WRAPS" in page
    rel = _add_wrong(beside)
    rc, err = build()
    assert rc == 1 and f"../{bundled_copy.name}-examples/{rel}" in err


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("release", ["0.58.3", "0.58.0"])
def test_bundled_examples_beside_a_corpus_release(release: str, corpus_root: Path, bundled_root: Path,
                                                  tmp_path: Path) -> None:
    """The corpus tree is read-only: a link to it gets an examples folder beside the link."""
    tree = corpus_root.parent / f"pto-spec-{release}"
    if not tree.is_dir():
        pytest.skip(f"{tree} not found")
    link = tmp_path / tree.name
    link.symlink_to(tree, target_is_directory=True)
    beside = _copy_examples(bundled_root, tmp_path / f"{tree.name}-examples", PORTABLE)
    rel = _add_wrong(beside)
    graph = SpecGraph.build(load_spec(link))
    checked = {r.path: r for rs in example_results(graph).values() for r in rs if r.kind == "checked"}
    shown = f"../{tree.name}-examples"
    assert sorted(checked) == sorted(f"{shown}/{p}" for p in [*PORTABLE, rel])
    assert all(checked[f"{shown}/{p}"].verified for p in PORTABLE)
    assert checked[f"{shown}/{TMUL}/u64-wraps.json"].lines[0].word == "0xC0219181"  # the corpus' own words
    findings, _ = run_checks(graph, only=RULES)
    assert [(f.rule, f.path) for f in findings if f.severity is Severity.ERROR] == [
        ("example-mismatch", f"{shown}/{rel}")]
