"""Worked examples a server runs in the background: computed in its worker pool, recorded in the server.

A server's build leaves the worked examples without a valid entry *pending* (:func:`valid_only`);
its background pool (:mod:`specgen.site.bgworker`) computes them with :func:`run_pending` on the spec a
worker loaded itself (it shares nothing with the server's next rebuild), and the server records them with
:func:`adopt` against the revision they were computed on: an entry is shown only while what it read is
unchanged.
"""

from __future__ import annotations

from ..asl.revision import REVISION
from ..cache.layer import StoredResult
from ..graph import SpecGraph
from .entry import WorkedEntry, WorkedSuite
from .generator import VERSION, WORKED, Generator


def valid_only(graph: SpecGraph) -> WorkedSuite:
    """The worked examples valid for ``graph``'s revision; the others listed as pending (their pages say
    "running"). Kept on the graph as its suite (:data:`~specgen.worked.generator.WORKED`)."""
    suite = WORKED.peek(graph)
    if suite is not None:
        return suite
    gen = Generator(graph)
    entries: dict[str, WorkedEntry] = {}
    pending: list[str] = []
    for key, unit, _lines in gen.targets():
        mnemonic = unit.instruction.mnemonic  # type: ignore[union-attr]
        valid = gen.store.valid(key, gen.revision.inputs)
        if valid is None:
            pending.append(mnemonic)
        else:
            gen.store.reused += 1
            entries[mnemonic] = valid.value
    suite = WorkedSuite(entries, [], pending)
    WORKED.set(graph, suite)
    return suite


def run_pending(graph: SpecGraph, mnemonics: list[str]) -> list[tuple[str, StoredResult]]:
    """Compute the entries of ``mnemonics`` on ``graph`` without saving them: (layer key, entry with what it read).

    What the server's background pool does, in a worker, for a suite :func:`valid_only` left pending; the
    server records them with :func:`adopt` against the revision they were measured on.
    """
    gen = Generator(graph)
    only = frozenset(mnemonics)
    gen.run(only=only, save=False)
    # every entry asked for, computed here or found valid in this worker's store: a worker whose store
    # already held one (another cache than the server's) must hand it back, or the page stays "running"
    keys = {key for key, _unit, _lines in gen.targets(only)}
    return [(k, e) for k, e in gen.store.entries.items() if k in keys]


def adopt(graph: SpecGraph, results: list[tuple[str, StoredResult]]) -> None:
    """Record entries :func:`run_pending` computed on ``graph`` (shown only while what they read is unchanged)."""
    store = REVISION(graph).layer.store("worked", VERSION)
    for key, entry in results:
        store.adopt(key, entry)
    store.save()


__all__ = ["adopt", "run_pending", "valid_only"]
