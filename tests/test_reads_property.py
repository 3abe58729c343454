"""Incremental verdicts equal a fresh run: random single-definition edits, each checked (issue 38).

On a copy of the bundled spec (with the five stale-verdict probes of ``tests/test_complete_reads.py``)
and on a copy of the 0.58.3 corpus, a seeded sequence of single-definition edits of every kind
(``tests/readedits.py``: a function body, a constant, a ``config`` default, a global's initialiser, an
enumeration, a named bitvector, a record, a test, a catalog record, the configuration, and reverts) is
applied. After each, the stored results are brought up to date the way one of the commands does it,
chosen at random: ``specgen test --changed`` (a new process: the stores read from disk), the suite a
``specgen build`` runs (a new process), or the suite a server runs (the stores it holds, moved to the
new revision). Then every test's stored result valid for the tree as it is now (what a page shows,
what ``test --changed`` skips) must exist and equal a fresh run of that test: status, message,
location, stack and the statements it executed. A read the trail missed shows as a stale verdict.
"""

from __future__ import annotations

from specgen.workspace import fresh

import io
import random
import time
from pathlib import Path

import pytest

from readedits import KINDS, Editor, add_probes, set_budget
from specgen.asl.conformance import Measured, conformance, valid_result
from specgen.asl.conformance import tests_store as _store_of
from specgen.asl.index import build_index
from specgen.asl.revision import REVISION
from specgen.asl.runkey import DEFAULT_PROFILE
from specgen.asl.runner import discover, run_cases, select
from specgen.asl.runner import test_key as _key
from specgen.cli import main as cli
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.loader.tree import Spec
from treecopy import copy_tree

pytestmark = pytest.mark.slow

BUDGET = 3_000_000  # steps per test: the bundled suite's largest run takes far fewer; an edited loop stays short
Verdict = tuple[str, str, str, tuple[str, ...], str, dict[str, bytes]]


def _fresh(spec: Spec, selectors: list[str]) -> dict[str, Verdict]:
    """Every selected test run anew: no stored result is looked at."""
    report = run_cases(spec, select(discover(spec), selectors), jobs=1, coverage=True)
    return {_key(r.path, r.id): (r.status, r.message, r.location, tuple(r.stack), r.reason,
                                 report.hits[_key(r.path, r.id)]) for r in report.results}


def _stored(spec: Spec, selectors: list[str]) -> tuple[dict[str, Verdict | None], set[str]]:
    """Each selected test's stored result valid now (None: none is), read as a new process reads it; and
    every definition name any stored result read (where the next edit is mostly made)."""
    fresh()
    revision = REVISION(SpecGraph.build(spec))
    store = _store_of(revision)
    out: dict[str, Verdict | None] = {}
    for c in select(discover(spec), selectors):
        got = valid_result(store, revision, c, DEFAULT_PROFILE, spec.config.max_steps, spec.config.max_value_bits,
                           spec.config.max_memory_bytes,
                           coverage=True)
        m: Measured | None = got[0] if got is not None else None
        out[_key(c.path, c.id)] = (m.status, m.message, m.location, m.stack, m.reason, m.hits or {}) \
            if m is not None else None
    read = {k[4:] for e in store.entries.values() for k in e.reads if k.startswith("asl:")}
    return out, read


def _update(root: Path, how: str, selectors: list[str]) -> None:
    """Bring the stored results up to date as ``how`` does: ``test`` (--changed), ``build`` or ``serve``."""
    if how == "test":
        fresh()
        out, err = io.StringIO(), io.StringIO()
        rc = cli(["test", "--root", str(root), "--jobs", "1", "--changed", *selectors], out=out, err=err)
        assert rc in (0, 1), err.getvalue()[-800:]
        return
    if how == "build":
        fresh()
    conformance(SpecGraph.build(load_spec(root)), jobs=1)


def _differential(root: Path, seed: int, steps: int, selectors: list[str], hows: tuple[str, ...],
                  kinds: tuple[str, ...] = KINDS) -> tuple[list[str], int]:
    """``steps`` edits from ``seed``, each followed by the check; the edits made, and how many of them
    changed some test's fresh result (an edit nothing reads proves only that nothing reran)."""
    rng = random.Random(seed)
    editor = Editor(root, seed, BUDGET, kinds)
    _update(root, "test", selectors)  # the first results
    spec = load_spec(root)
    stored, read = _stored(spec, selectors)
    assert stored and all(v is not None for v in stored.values())
    before: dict[str, Verdict] = {}
    changing = 0
    for n in range(steps):
        editor.step(build_index(spec), read)
        how = rng.choice(hows)
        _update(root, how, selectors)
        spec = load_spec(root)
        stored, read = _stored(spec, selectors)
        fresh = _fresh(spec, selectors)
        missing = sorted(k for k, v in stored.items() if v is None)
        stale = sorted(k for k, v in stored.items() if v is not None and v != fresh.get(k))
        assert not missing and not stale and stored.keys() == fresh.keys(), (
            f"seed {seed}, step {n} ({how}) after {editor.log}: no valid result for {missing[:5]}; stale: "
            + "; ".join(f"{k}: stored {stored[k][:3]} fresh {fresh.get(k, ())[:3]}" for k in stale[:5]))
        changing += bool(before) and fresh != before
        before = fresh
    return editor.log, changing


def test_incremental_verdicts_equal_a_fresh_run_on_the_bundled_spec(bundled_root: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = copy_tree(bundled_root, tmp_path / "spec")
    add_probes(root)
    set_budget(root, BUDGET)
    t0 = time.perf_counter()
    log, changing = _differential(root, seed=38, steps=52, selectors=[], hows=("test", "build", "serve"))
    kinds = {entry.split()[0] for entry in log}
    assert len(log) == 52 and kinds == set(KINDS), sorted(kinds)  # every kind was edited
    assert changing >= 10, (changing, log)  # and many edits changed what the tests do
    print(f"bundled: {len(log)} edits ({changing} changed a result) in {time.perf_counter() - t0:.1f} s")


@pytest.mark.corpus
def test_incremental_verdicts_equal_a_fresh_run_on_a_corpus_subset(corpus_root: Path, tmp_path: Path) -> None:
    """A folder of the corpus' tests (the whole tree copied: its generated ASL is the real one); no catalog
    edit (regenerating the corpus' ASL takes longer than every other step). The session's cache directory:
    the index and generated ASL of the corpus' content are reused; the stores are the copy's own (by root)."""
    root = copy_tree(corpus_root, tmp_path / "corpus")
    set_budget(root, BUDGET)
    t0 = time.perf_counter()
    log, changing = _differential(root, seed=3803, steps=10, selectors=["arch/data-types/"], hows=("test",),
                                  kinds=tuple(k for k in KINDS if k != "catalog"))
    assert len(log) == 10 and changing >= 2, (changing, log)
    print(f"corpus: {len(log)} edits ({changing} changed a result) in {time.perf_counter() - t0:.1f} s")
