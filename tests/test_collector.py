"""The collector of a run of tests in one process (``memory.FrozenAsItGrows``): what survives is frozen,
no garbage is, and a caller's collector is left as it was found."""

from __future__ import annotations

import gc
import weakref

import pytest

from specgen.memory import RUN_THRESHOLDS, FrozenAsItGrows


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it
        self.payload = bytearray(1 << 20)


@pytest.fixture
def unfrozen():
    """A heap with nothing frozen and the collector on (an earlier test of the worker may have frozen it)."""
    gc.unfreeze()
    was = gc.isenabled(), gc.get_threshold()
    gc.enable()
    yield
    gc.unfreeze()
    gc.set_threshold(*was[1])
    (gc.enable if was[0] else gc.disable)()


def test_a_run_freezes_what_lives_and_restores_the_caller(unfrozen) -> None:
    before = gc.get_threshold()
    with FrozenAsItGrows(every=2) as heap:
        assert heap.active and gc.get_freeze_count() > 0 and gc.get_threshold() == RUN_THRESHOLDS
        kept = [[] for _ in range(1000)]  # containers: objects the collector tracks
        frozen = gc.get_freeze_count()
        heap.tick()
        assert gc.get_freeze_count() == frozen  # one test: not yet
        heap.tick()
        assert gc.get_freeze_count() >= frozen + 1000  # every second test: what lives now is frozen too
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    del kept


def test_no_garbage_is_frozen_and_a_failed_test_is_collected_at_once(unfrozen) -> None:
    with FrozenAsItGrows(every=1000) as heap:
        node = _Node()
        gone = weakref.ref(node)
        del node  # garbage in a cycle, as a failed test's traceback leaves a big value
        heap.tick(failed=True)
        assert gone() is None  # collected before anything was frozen
        node = _Node()
        alive = weakref.ref(node)
        heap.tick(failed=True)
        del node
        gc.collect()
        assert alive() is not None  # frozen while it lived: only unfreezing makes it collectable
    gc.collect()
    assert alive() is None


def test_a_process_that_froze_itself_or_paused_the_collector_keeps_its_state(unfrozen) -> None:
    gc.freeze()
    frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
    with FrozenAsItGrows(every=1) as heap:
        heap.tick(failed=True)
        assert not heap.active and gc.get_freeze_count() == frozen and gc.get_threshold() == thresholds
    gc.unfreeze()
    gc.disable()
    with FrozenAsItGrows(every=1) as heap:
        assert not heap.active and gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_a_worker_of_its_own_stays_frozen(unfrozen) -> None:
    gc.freeze()  # the parent froze the heap before it forked
    with FrozenAsItGrows(every=1, owned=True) as heap:
        assert heap.active and gc.get_threshold() == RUN_THRESHOLDS
    assert gc.get_freeze_count() > 0 and gc.get_threshold() == RUN_THRESHOLDS


def test_a_short_run_keeps_the_callers_collector(unfrozen) -> None:
    """Too few tests to repay the first collection of a loaded heap (``runner._FREEZE_FROM``)."""
    thresholds = gc.get_threshold()
    with FrozenAsItGrows(every=1, worth_it=False) as heap:
        heap.tick(failed=True)
        assert not heap.active and gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
