"""The garbage collector during one batch computation over a loaded spec.

Loading a corpus allocates millions of long-lived, acyclic objects (records,
parsed ASL); the collector's young-generation passes over them cost a cold
``check`` about a quarter of its CPU time (measured: 4.5 s with the collector,
3.0 s without, the same peak memory, since nothing the check allocates relies
on cycle collection to be freed). :func:`collector_paused` pauses the
collector for one such computation and restores it after, so a long-lived
process (``serve``, a test session) keeps its normal collection. A run of many
tests is the other case: what it keeps is compiled code, which
:class:`FrozenAsItGrows` moves out of the collector's way as it is made.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause cyclic garbage collection for the block, then restore the state it found."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        (gc.enable if was_enabled else gc.disable)()


# a run of spec code: a young generation of 50,000 objects rather than 700, a middle one collected every
# 100 young collections (what survives a young collection is the compiled functions, not garbage)
RUN_THRESHOLDS = (50_000, 100, 10)


class FrozenAsItGrows:
    """A run of many tests in one process with what outlives each test out of the collector's way.

    What survives a test is the interpreter's compiled functions (millions of closures over a suite), not
    garbage; the collector's full passes walked them again each time the heap grew by a quarter: 10.8 of
    a 47 s 0.58.3 suite on one core (21 passes). So every ``every`` tests (:meth:`tick`) the heap is
    collected in full and frozen: a collection walks only what the tests since made, and what is frozen
    was collected first, so no garbage is kept. The young generations use :data:`RUN_THRESHOLDS`. A test
    that ended in an error is followed by the same collect-and-freeze at once: it may leave a big value in
    a cycle through its error's traceback, and with the higher thresholds that value waited for a rare
    collection while the next tests piled on it (a memory probe ran out of memory in CI,
    performance.md item 20).

    ``owned``: the process is the run's own (a pool's worker), which may stay frozen and keep the
    thresholds when it ends. Otherwise a process that froze its heap itself (an entry point, a server,
    whose later garbage must stay collectable) or paused the collector keeps its state, and the heap is
    unfrozen and the thresholds restored at the end."""

    def __init__(self, every: int, owned: bool = False, worth_it: bool = True) -> None:
        self.every = every
        self.owned = owned
        self.worth_it = worth_it  # False: a run too short to repay the first collection (the caller's measure)
        self.active = False
        self._runs = 0
        self._thresholds: tuple[int, ...] = ()  # the caller's, read when the run starts

    def __enter__(self) -> "FrozenAsItGrows":
        self.active = self.worth_it and gc.isenabled() and (self.owned or gc.get_freeze_count() == 0)
        if self.active:
            self._thresholds = gc.get_threshold()
            gc.collect()
            gc.freeze()
            gc.set_threshold(*RUN_THRESHOLDS)
        return self

    def tick(self, failed: bool = False) -> None:
        """One test done (``failed``: it ended in an error)."""
        self._runs += 1
        if self.active and (failed or self._runs % self.every == 0):
            gc.collect()
            gc.freeze()

    def __exit__(self, *exc: object) -> None:
        if self.active and not self.owned:
            gc.set_threshold(*self._thresholds)
            gc.unfreeze()


__all__ = ["RUN_THRESHOLDS", "collector_paused", "FrozenAsItGrows"]
