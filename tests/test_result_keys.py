"""Issue 24's stale results: a stored verdict is shown only under the key of everything it depends on.

Before, stored test results were keyed by the ASL units alone: after
``[specgen] max_steps = 3000`` was added, ``specgen test`` gave 40 errors but
the site still showed 60 × "passed".
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from treecopy import copy_tree

from specgen.asl.runkey import run_key
from specgen.cli import main
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.asl.conformance import conformance


def _shown(root: Path) -> Counter[str] | None:
    """The statuses the site would show for this tree's tests from the results recorded in the layer (the
    tree's own budgets, profile ``reference``, this specgen), without running any: "running" is not run."""
    conf = conformance(SpecGraph.build(load_spec(root)), run=False)
    shown = Counter(o.status for o in conf.outcomes.values() if o.result is not None)
    return shown or None


def _test(root: Path, *extra: str) -> int:
    """``specgen test`` with coverage: the site shows results measured with it (unit pages show coverage)."""
    return main(["test", "--root", str(root), "--jobs", "1", "--coverage", *extra], io.StringIO(), io.StringIO())


def test_a_budget_change_makes_the_shown_results_not_run(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    assert _test(root) == 0
    assert _shown(root) == Counter({"passed": 60})
    with open(root / "specification.toml", "a", encoding="utf-8") as f:
        f.write("\n[specgen]\nmax_steps = 3000\n")
    assert not _shown(root), "results of another configuration must read 'not run'"
    assert _test(root) == 1
    shown = _shown(root)
    assert shown is not None and shown["error"] > 0 and shown["passed"] + shown["error"] == 60
    # a one-command override is stored under its own key: the site keeps the tree's configuration
    assert _test(root, "--max-steps", "200000000") == 0
    assert _shown(root) == shown


def test_the_key_covers_content_budgets_profile_and_code(tmp_path: Path, bundled_root: Path) -> None:
    root = copy_tree(bundled_root, tmp_path / "spec")
    spec = load_spec(root)
    base = run_key(spec)
    assert run_key(spec, "reference", spec.config.max_steps, spec.config.max_value_bits) == base
    assert run_key(spec, "hardware-ieee") != base
    assert run_key(spec, max_steps=123) != base
    assert run_key(spec, max_value_bits=1 << 10) != base
    assert run_key(spec, tests=True) != base
    with_tests = run_key(spec, tests=True)
    test = next(iter(sorted((root / "tests" / "asl").rglob("*.asl"))))
    test.write_text(test.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    edited = load_spec(root)
    assert run_key(edited) == base, "a verdict carries its own test's digest: other tests keep theirs"
    assert run_key(edited, tests=True) != with_tests, "coverage depends on what the tests ran"
    catalog = next(iter(sorted((root / "spec" / "catalog").glob("*.json"))))
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert run_key(load_spec(root)) != base, "a catalog edit changes the generated ASL"
