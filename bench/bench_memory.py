"""Measurement: the most memory and the deepest calls one AVS test of a real tree reaches (issue 37).

    .venv/bin/python bench/bench_memory.py [--root ../shared/corpus/pto-spec-0.58.3] [--window 16384] [SELECTOR…]

Runs the suite in this process (one job), measuring what each test holds (``specgen.asl.memory``: its
globals and frames) every ``--window`` steps, whenever the memory account asks and once more at its end
(its globals), and how deep its calls nest (the ASL stack is replaced by a list that remembers its
longest length). Prints the five tests that hold most and nest deepest, and the statuses (every test
must still pass: the measurement changes no verdict). It is what docs-internal/asl-interpreter.md's
"Memory budget" figures come from; nothing here asserts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
sys.path.insert(0, str(REPO))


class _Deepest(list):
    """The ASL call stack, remembering its longest length (slow: for measuring only)."""

    most = 0

    def append(self, item: object) -> None:  # type: ignore[override]
        super().append(item)
        if len(self) > _Deepest.most:
            _Deepest.most = len(self)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--window", type=int, default=1 << 14, help="steps between two measurements")
    ap.add_argument("selectors", nargs="*")
    args = ap.parse_args()

    from specgen.asl import budget
    from specgen.asl.memory import live
    from specgen.asl.runner import _make_interpreter, discover, run_one, select
    from specgen.loader import load_spec

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    budget.WINDOW = args.window
    ticks = iter(range(1 << 62))
    budget.peak_kib = lambda: next(ticks) << 40  # type: ignore[assignment]  # every window measures
    spec = load_spec(args.root)
    interp = _make_interpreter(spec, "reference")
    interp.stack = _Deepest()
    cases = select(discover(spec), list(args.selectors))
    held: list[tuple[int, str]] = []
    deep: list[tuple[int, str]] = []
    statuses: dict[str, int] = {}
    t0 = time.perf_counter()
    for c in cases:
        budget.ACTIVE.high = 0
        _Deepest.most = 0
        r = run_one(interp, c)
        budget.ACTIVE.high = max(budget.ACTIVE.high, live([interp.globals])[0])  # what its globals hold at the end
        statuses[r.status] = statuses.get(r.status, 0) + 1
        held.append((budget.ACTIVE.high, c.id))
        deep.append((_Deepest.most, c.id))
    held.sort(reverse=True)
    deep.sort(reverse=True)
    print(f"{len(cases)} tests in {time.perf_counter() - t0:.1f} s: {statuses}")
    print("most held (bytes):", ", ".join(f"{n:,} {i}" for n, i in held[:5]))
    print("deepest calls:", ", ".join(f"{n} {i}" for n, i in deep[:5]))


if __name__ == "__main__":
    main()
