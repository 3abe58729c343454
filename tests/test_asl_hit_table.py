"""The coverage table (specgen/asl/hit_table.py): one flag per compiled statement, read as the set of the
positions run, and packed per test exactly as a set of positions is."""

from __future__ import annotations

import random
from array import array

from specgen.asl.hit_table import HitTable
from specgen.asl.runner import pack_hits, unpack_hits


def test_the_table_reads_as_the_set_of_positions_run() -> None:
    t = HitTable()
    a, b, c = ("u.asl", 3, 5), ("u.asl", 9, 0), ("v.asl", 1, 1)
    flags = t.flags
    assert t.slot(a) == 0 and t.slot(b) == 1 and t.slot(a) == 0 and not t
    flags[t.slot(b)] = 1  # what a compiled statement does
    t.add(c)
    assert t == {b, c} and {b, c} == t and len(t) == 2 and b in t and a not in t and ("w", 0, 0) not in t
    t.clear()
    assert t.flags is flags and not t and len(t) == 0  # cleared in place: compiled code keeps its list
    mark = t.marker([a, c])
    mark()
    assert t == {a, c}
    t.update([b])
    assert sorted(t) == [a, b, c] and frozenset(t) == {a, b, c}


def test_a_tables_pack_equals_the_pack_of_its_positions() -> None:
    rng = random.Random(7)
    t = HitTable()
    keys = [(f"asl/p{rng.randrange(30)}.asl", rng.randrange(1, 9000), rng.randrange(0, 120)) for _ in range(4000)]
    for k in keys:
        t.slot(k)
    for k in rng.sample(keys, 1500):
        t.add(k)
    units = frozenset(f"asl/p{i}.asl" for i in range(0, 30, 3))
    by_path: dict[str, list[int]] = {}  # the pack of the positions themselves, as the runner made it from a set
    for path, line, col in set(t):
        if path in units:
            by_path.setdefault(path, []).append(line << 24 | col)
    expected = {p: array("Q", sorted(v)).tobytes() for p, v in sorted(by_path.items())}
    packed = pack_hits(t, units)
    assert packed == expected and list(packed) == sorted(packed) and len(packed) == 10
    assert unpack_hits(packed) == {k for k in t if k[0] in units}
