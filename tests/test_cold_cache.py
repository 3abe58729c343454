"""What a cold load writes to the record cache: only records that pay for their encoding.

An AVS test's header and a catalog's pydantic model decode in about the time they take to
compute, so encoding them on a cold run (0.1 s of the corpus's cold check) bought nothing;
they stay out of the pack and a long-lived process (``specgen serve``) still keeps them.
"""

from __future__ import annotations

from pathlib import Path

from specgen.cache import RecordCache, codec
from specgen.loader import load_spec

from test_cache import dump
from treecopy import copy_tree


def _pack_keys(cache: RecordCache) -> set[str]:
    blob = cache.path.read_bytes()
    payload = blob.split(b"\n", 3)[3]  # magic, version, digest, payload
    return set(codec.decode(payload))


def test_tests_and_models_stay_out_of_the_pack_and_a_warm_load_writes_nothing(tmp_path: Path,
                                                                            bundled_root: Path) -> None:
    tree = copy_tree(bundled_root, tmp_path / "spec")
    first = RecordCache(tree, tmp_path / "c")
    cold = load_spec(tree, cache=first)
    kinds = {k.split("\0")[0] for k in _pack_keys(first)}
    assert {"unit", "json", "adr"} <= kinds and not kinds & {"test", "model"}, kinds
    assert cold.tests and any(a.model is not None for a in cold.artifacts.values())
    stamp = first.path.stat().st_mtime_ns

    second = RecordCache(tree, tmp_path / "c")
    warm = load_spec(tree, cache=second)
    assert second.misses == 0 and second.hits == first.misses
    assert second.save() is False and first.path.stat().st_mtime_ns == stamp  # nothing new to write
    assert dump(warm) == dump(cold) == dump(load_spec(tree, cache=False))


def test_a_long_lived_cache_keeps_the_unpersisted_records(tmp_path: Path, bundled_root: Path) -> None:
    tree = copy_tree(bundled_root, tmp_path / "spec")
    kept = RecordCache(tree, tmp_path / "c", keep_objects=True)
    first = load_spec(tree, cache=kept)
    kept.next_load()
    second = load_spec(tree, cache=kept)
    assert kept.misses == 0
    assert all(a is b for a, b in zip(first.tests, second.tests))  # the same objects, not rescanned
    models = [(rel, art.model) for rel, art in first.artifacts.items() if art.model is not None]
    assert models and all(second.artifacts[rel].model is m for rel, m in models)
    assert dump(second) == dump(load_spec(tree, cache=False))
