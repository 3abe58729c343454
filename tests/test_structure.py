"""Issue 38, item 3: the spec's structure is a workspace input, and facts of it are queries kept across edits.

On a copy of the bundled spec, each kind of edit an author makes is applied and the tree loaded again in
the same workspace (as a server does). After every edit each structural fact (the page plan, the
encodings, the matrix, ID and file digests, the vocabulary and the instruction index, the check's gaps)
must equal the fact computed from scratch from the new graph; an edit of prose or of an ASL statement must keep the structure input (the same token, the same
objects); an edit of a record, an ``ndf:`` attribute line, a catalog or the set of tests must move it.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from specgen import structure
from specgen.encoding.from_spec import _spec_encodings, spec_encodings
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.filelinks import _files_digest, files_digest
from specgen.render.kinds import plan_site
from specgen.render.kinds.matrix import _matrix_digest, matrix_digest
from specgen.render.pages import _ids_digest, ids_digest
from specgen.render.plan_query import plan_pages
from specgen.check.facts import _RECORDED_OWNERS, _recorded_owners
from specgen.check.needs import GAPS, _gaps
from specgen.render.instr_facts import INDEX, _index
from specgen.trace import NDF_DIGESTS, _ndf_digests
from specgen.vocabulary import UNIT_ANSWERS, VOCABULARY, vocabulary_of
from specgen.workspace import current, fresh
from treecopy import copy_tree

FACTS: list[tuple[Callable[[SpecGraph], Any], Callable[[SpecGraph], Any]]] = [
    (spec_encodings, _spec_encodings), (matrix_digest, _matrix_digest), (ids_digest, _ids_digest),
    (files_digest, _files_digest), (VOCABULARY, lambda g: vocabulary_of(g.spec)), (INDEX, _index),
    (NDF_DIGESTS, _ndf_digests), (_RECORDED_OWNERS, _recorded_owners), (GAPS, _gaps)]


@pytest.fixture
def tree(tmp_path: Path, bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = copy_tree(bundled_root, tmp_path / "spec")
    fresh().long_lived = True
    yield root
    fresh()


def _load(root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(root))


def _token(root: Path) -> Any:
    return current().input(structure.input_name(str(root)))


def _facts(graph: SpecGraph) -> list[Any]:
    """Every structural fact of ``graph``, each checked against the fact computed from scratch."""
    out = []
    for fact, compute in FACTS:
        value = fact(graph)
        assert value == compute(graph), fact
        out.append(value)
    plans, _planned = plan_pages(graph, ("en", "zh"), True)
    assert plans == plan_site(graph, ("en", "zh"), local_sources=True)
    return out + [plans]


def _unit_with(root: Path, marker: str) -> Path:
    for path in sorted((root / "asl").rglob("*.asl")):
        if marker in path.read_text(encoding="utf-8"):
            return path
    raise AssertionError(f"no unit of the bundled spec has {marker!r}")


def _prose(root: Path) -> None:
    path = _unit_with(root, "// NDF-BEGIN:")
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, x in enumerate(lines) if x.startswith("// NDF-BEGIN:"))
    j = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("// ") and "ndf:" not in lines[j])
    lines[j] += " (edited prose)"
    path.write_text("\n".join(lines), encoding="utf-8")


def _statement(root: Path) -> None:
    path = _unit_with(root, "// PTO-INSTRUCTION:")
    text = path.read_text(encoding="utf-8")
    begin = text.index("\nbegin", text.index("func ")) + 1
    path.write_text(text[:begin] + "begin let structure_probe = 1;" + text[begin + len("begin"):], encoding="utf-8")


def _ndf_attribute(root: Path) -> None:
    path = _unit_with(root, "// ndf: kind=contract level=L1")
    path.write_text(path.read_text(encoding="utf-8").replace("// ndf: kind=contract level=L1", "// ndf: kind=executable level=L3", 1),
                    encoding="utf-8")


def _record(root: Path) -> None:
    path = _unit_with(root, "// PTO-INSTRUCTION:")
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, x in enumerate(lines) if x.startswith("// PTO-INSTRUCTION:"))
    record = json.loads(lines[i].removeprefix("// PTO-INSTRUCTION:"))
    record["classification"] = [*record["classification"][:-1], "structure-probe"]
    lines[i] = "// PTO-INSTRUCTION: " + json.dumps(record)
    path.write_text("\n".join(lines), encoding="utf-8")


def _catalog(root: Path) -> None:
    path = sorted((root / "spec" / "catalog").glob("*.json"))[0]
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["structure_probe"] = True
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def _test_removed(root: Path) -> None:
    sorted((root / "tests" / "asl").rglob("*.asl"))[0].unlink()


@pytest.mark.parametrize("edit,moves", [(_prose, False), (_statement, False), (_ndf_attribute, True),
                                        (_record, True), (_catalog, True), (_test_removed, True)])
def test_a_structural_fact_equals_one_computed_from_scratch(tree: Path, edit: Callable[[Path], None],
                                                            moves: bool) -> None:
    before = _facts(_load(tree))
    token = _token(tree)
    edit(tree)
    after = _facts(_load(tree))
    assert (_token(tree) != token) is moves
    if not moves:  # kept: the very objects of the last revision
        assert all(a is b for a, b in zip(after, before))


def _element_bits(root: Path) -> None:
    """An ASL edit the vocabulary reads (a DataType's width), which is no structure."""
    path = _unit_with(root, "func TileElementBits(")
    text = path.read_text(encoding="utf-8")
    body = text.index("func TileElementBits(")
    at = text.index("return 16;", body)
    path.write_text(text[:at] + "return 24;" + text[at + len("return 16;"):], encoding="utf-8")


def test_a_fact_of_one_unit_is_asked_again_of_that_unit_alone(tree: Path) -> None:
    graph = _load(tree)
    before = VOCABULARY(graph)
    index = INDEX(graph)
    token = _token(tree)
    ws = current()
    asked = ws.computed[UNIT_ANSWERS.query.name]
    _element_bits(tree)
    graph = _load(tree)
    after = VOCABULARY(graph)
    assert _token(tree) == token  # no structure moved...
    assert ws.computed[UNIT_ANSWERS.query.name] == asked + 1  # ...one unit was asked again...
    assert after != before and after == vocabulary_of(graph.spec)  # ...and the vocabulary follows it
    assert {t.name for t in after.datatypes if t.bits == 24} == {t.name for t in before.datatypes if t.bits == 16}
    assert INDEX(graph) is index  # the names and codes the index reads came out equal: cut off
    _statement(tree)
    graph = _load(tree)
    assert VOCABULARY(graph) is after  # a statement the vocabulary does not read: its answers are equal


def test_an_ndf_attribute_is_structure_the_matrix_reads(tree: Path) -> None:
    before = matrix_digest(_load(tree))
    _ndf_attribute(tree)
    assert matrix_digest(_load(tree)) != before  # one more executable clause to trace


def test_a_program_load_is_another_structure_of_the_same_root(tree: Path) -> None:
    full = _load(tree)
    program = SpecGraph.build(load_spec(tree, program=True))
    assert structure.root_of(full) != structure.root_of(program)
    assert files_digest(program) == _files_digest(program) and files_digest(full) == _files_digest(full)


def test_a_root_the_workspace_no_longer_keeps_leaves_no_facts(tmp_path: Path, bundled_root: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    ws = fresh()
    try:
        roots = [copy_tree(bundled_root, tmp_path / f"spec{i}") for i in range(structure.ROOTS_KEPT + 1)]
        for root in roots:
            ids_digest(_load(root))
        kept = {arg for (_q, arg) in ws._memos}
        assert str(roots[0]) not in kept and str(roots[-1]) in kept
        assert len(kept) == structure.ROOTS_KEPT
    finally:
        fresh()


def test_a_child_forked_while_a_query_runs_can_use_the_workspace() -> None:
    ws = fresh()
    held, release = threading.Event(), threading.Event()

    def query_running() -> None:  # another thread of the server computes a query (it holds the lock)
        with ws.lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=query_running)
    thread.start()
    try:
        assert held.wait(10)
        pid = os.fork()
        if pid == 0:  # the child: the thread that held the lock does not exist here
            signal.alarm(10)
            got = ws.per(threading, "probe", lambda: 1)
            os._exit(0 if got == 1 else 1)
        _pid, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    finally:
        release.set()
        thread.join()
        fresh()
