"""The step budget: every run of spec code ends, whatever the spec's ASL says.

A *step* is one function call or one loop iteration (``for``, ``while``,
``repeat``). Only those can make a run unbounded: straight-line code between
them is bounded by the size of the program, so counting each statement would
cost time on every statement and buy nothing. The count lives in a one-item
list the compiled closures share (``budget[0] -= 1``), refilled by
:meth:`~specgen.asl.interp.Interpreter.reset`, i.e. once per test, example
run or legality evaluation.

The default is sized from the real suite: the AVS test of pto-spec-0.58.3
that takes most steps takes 5.3 million (the whole suite 53 million; see
``docs-internal/asl-interpreter.md``), so 120 million is ~23x headroom; an
endless loop spends it in about a minute. A tree sets its own with
``[specgen] max_steps`` in ``specification.toml``; ``specgen test`` and
``specgen run`` take ``--max-steps N``.
"""

from __future__ import annotations

from ..loader.config import DEFAULT_MAX_STEPS

__all__ = ["DEFAULT_MAX_STEPS", "StepBudgetExceeded"]


class StepBudgetExceeded(Exception):
    """Raised by a compiled closure when the run's budget is spent.

    Deliberately not an ASLError: the statement that was running catches it
    like any Python failure and turns it into an ASLError (kind ``budget``)
    located at itself, with the ASL stack.
    """

    def __init__(self, max_steps: int) -> None:
        super().__init__(f"step budget of {max_steps} exceeded")
        self.max_steps = max_steps
