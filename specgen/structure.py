"""The spec's structure as a workspace input, and the facts that are queries of it.

Most of what a site derives from a tree reads its *structure*: which files exist, every file but the
units in full (tests, ADRs, catalogs, evidence, documents, the configuration), and of each unit only
its record and region lines (``// PTO-…``, ``// NDF-…``, ``// DOC-…``, ``// ndf:``). The page plan,
the encodings, the traceability matrix are such facts. An author's common edit (an NDF sentence, a
comment, an ASL statement) changes a unit's text and nothing of that, so under a server each such
fact of the last revision is the fact of the next.

This module makes that a workspace input (:mod:`specgen.workspace`): :func:`enter` compares a newly
loaded graph with the last graph of the same root, and sets the input ``structure:<root>`` to a new
token only when the structure changed. A fact declared with ``Derived(compute, structural=True)``
(:class:`specgen.graph.Derived`) is a workspace :class:`~specgen.workspace.Query` of the root that
reads this input: computed from the current graph of the root, memoised across revisions, recomputed
when the token moves. A query that also reads a finer input (the page plan reads the symbol table's
outline, :mod:`specgen.render.plan_query`) records it the same way.

Each file's digest is an input too (``file:<root>…<path>``, set in the same revision). A structural fact
reads nothing else of a unit (no prose, no ASL statement, no line number of one) except through a fact of
that one unit (:class:`specgen.graph.UnitFact`: a query of the unit's file input). The vocabulary reads
the ASL's enumerations and ``case`` arms that way: an edit of one unit recomputes that unit's answers,
they come out equal (early cutoff), and the vocabulary is not computed again. A structural fact holds no
object of the graph it came from (it outlives that graph): a string, a plan, a set of encodings.
``tests/test_structure.py`` checks a structural fact after every kind of edit against the fact computed
from scratch.
"""

from __future__ import annotations

import hashlib
import itertools
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from .loader import Spec
from .workspace import Durability, Workspace, current


class Loaded(Protocol):
    """A loaded revision of a tree (a :class:`specgen.graph.SpecGraph`, which imports this module)."""

    spec: Spec

STRUCTURE_LINES = ("// PTO-", "// NDF-", "// DOC-", "// ndf:")
ROOTS_KEPT = 4  # the roots a workspace keeps a structure for (a server's one; a two-release build's two)
_TOKENS = itertools.count(1)


def unit_structure(text: str) -> str:
    """What a structural fact reads of one unit: its record and region lines."""
    lines = "\n".join(x for x in text.splitlines() if x.startswith(STRUCTURE_LINES))
    return hashlib.blake2b(lines.encode(), digest_size=16).hexdigest()


@dataclass
class _Root:
    """The last graph entered for one root and what its structure was compared with."""

    graph: "weakref.ref[Loaded]"  # weak: a root the workspace keeps does not keep its last load alive
    files: Mapping[str, str]  # path -> SHA-256 in that revision
    texts: Mapping[str, str]  # unit path -> its text then (only a changed unit's is ever read)
    token: int


def input_name(root: str) -> str:
    return f"structure:{root}"


def file_input(root: str, path: str) -> str:
    """The input that holds one file's SHA-256 in the root's current revision (what a fact of one file, a
    :class:`specgen.graph.UnitFact`, reads: an edit of that file recomputes it, and nothing else does)."""
    return f"file:{root}\x1f{path}"


def sha(ws: Workspace, root: str, path: str) -> str | None:
    """A file's SHA-256 in the root's current revision (None: absent), recorded as a dependency."""
    return ws.input(file_input(root, path))  # type: ignore[no-any-return]


def root_of(graph: Loaded) -> str:
    """What names the tree a graph is a revision of: its root, and whether it was loaded for a program only
    (such a load reads no tests, ADRs or documents: another structure of the same files)."""
    return str(graph.spec.root) + ("\0program" if getattr(graph.spec, "program_only", False) else "")


def enter(graph: Loaded, ws: Workspace | None = None) -> str:
    """Make ``graph`` the current revision of its root: the structure input moves only when the structure
    changed (see the module docstring). Returns the root, the argument of the structural queries."""
    ws = ws or current()
    root = root_of(graph)
    with ws.lock:
        roots: OrderedDict[str, _Root] = ws.table("structure.roots", OrderedDict)
        last = roots.get(root)
        if last is not None and last.graph() is graph:
            roots.move_to_end(root)
            return root
        files = dict(graph.spec.files)
        texts = {u.path: u.text for u in graph.spec.units}
        token = last.token if last is not None and _same(last, files, texts) else next(_TOKENS)
        roots[root] = _Root(weakref.ref(graph), files, texts, token)
        roots.move_to_end(root)
        inputs = {file_input(root, path): sha for path, sha in files.items()}
        inputs[input_name(root)] = token
        ws.set_inputs(inputs, Durability.LOW, prefix=file_input(root, ""))  # one revision for all
        while len(roots) > ROOTS_KEPT:
            gone, _ = roots.popitem(last=False)
            ws.forget(lambda arg, gone=gone: _root_arg(arg) == gone)
            ws.drop_inputs(file_input(gone, ""))
        return root


def _root_arg(arg: Any) -> Any:
    return arg[0] if isinstance(arg, tuple) and arg else arg


def _same(last: _Root, files: dict[str, str], texts: dict[str, str]) -> bool:
    if files.keys() != last.files.keys():
        return False
    for path, sha in files.items():
        if last.files[path] == sha:
            continue
        before = last.texts.get(path)
        now = texts.get(path)
        if before is None or now is None or unit_structure(before) != unit_structure(now):
            return False
    return True


def graph_of(ws: Workspace, root: str) -> Any:
    """The current graph of ``root``: what a structural query computes from. Not a dependency of the
    query: the query reads the structure input, and the graph is only the means to compute from it."""
    graph = ws.table("structure.roots", OrderedDict)[root].graph()
    if graph is None:  # a query is only computed right after its caller entered the graph it holds
        raise RuntimeError(f"no current graph of {root}")
    return graph


__all__ = ["STRUCTURE_LINES", "enter", "file_input", "graph_of", "input_name", "root_of", "sha", "unit_structure"]
