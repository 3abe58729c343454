"""The budgets of one run of spec code: it ends, and its values stay small, whatever the spec's ASL says.

**Steps.** A *step* is one function call or one loop iteration (``for``,
``while``, ``repeat``). Only those can make a run unbounded: straight-line
code between them is bounded by the size of the program, so counting each
statement would cost time on every statement and buy nothing. The count lives
in a one-item list the compiled closures share (``budget[0] -= 1``), refilled
by :meth:`~specgen.asl.interp.Interpreter.reset`, i.e. once per test, example
run or legality evaluation.

The default is sized from the real suite: the AVS test of pto-spec-0.58.3
that takes most steps takes 5.3 million (the whole suite 53 million; see
``docs-internal/asl-interpreter.md``), so 120 million is ~23x headroom; an
endless loop spends it in about a minute. A tree sets its own with
``[specgen] max_steps`` in ``specification.toml``; ``specgen test`` and
``specgen run`` take ``--max-steps N``.

**Values.** Steps do not see the size of a value: ``1 << 10000000000`` is
one expression and 1.25 GB. So every operation that can make a value larger
than :data:`FREE_BITS` (a shift, a power, a product, a concatenation,
``Replicate``, ``Zeros``/``Ones``/``ZeroExtend``/``SignExtend``, a
``bits(N)`` base value, a slice of an integer, an array's elements, any
arithmetic on a big value) first calls :func:`produce` with the size of what
it is about to make: a bitvector's width, an integer's bit length (a real's
larger part), an array's element count, a string's bits. Over the run's limit
(``[specgen] max_value_bits``, ``--max-value-bits``) it raises
:class:`ValueBudgetExceeded` before anything is allocated; the statement
running turns it into one ``budget`` error at its ASL line.

**Work on big values costs steps.** A step is about half a microsecond of
interpretation; touching a value over :data:`FREE_BITS` costs about that per
KiB, so such an operation (making the value, and also reading it: a
comparison, a slice, a hash) costs one step per KiB (:func:`touch`), and a
product or quotient of big integers one step per 128 products of their 64-bit
words. A loop over big values thus ends by the step budget in about the time a
plain endless loop does. The real trees' values pay almost nothing: their
widest bitvector is 524,288 bits (64 steps a touch) and their integers are
small (docs-internal/robustness.md, "Bounded values").
"""

from __future__ import annotations

from ..loader.config import DEFAULT_MAX_STEPS, DEFAULT_MAX_VALUE_BITS

__all__ = ["ACTIVE", "BudgetExceeded", "DEFAULT_MAX_STEPS", "DEFAULT_MAX_VALUE_BITS", "FREE_BITS",
           "StepBudgetExceeded", "ValueBudgetExceeded", "heavy", "produce", "touch"]

#: values up to this many bits (8 KiB) cost nothing beyond the step that uses them
FREE_BITS = 1 << 16
_KIB_SHIFT = 13  # a larger value costs one step per KiB (8,192 bits) it holds
_WORDS_SHIFT = 7  # a product or quotient: one step per 128 products of 64-bit words


class BudgetExceeded(Exception):
    """A run spent one of its budgets.

    Deliberately not an ASLError: the statement that was running catches it
    like any Python failure and turns it into an ASLError (kind ``budget``)
    located at itself, with the ASL stack.
    """


class StepBudgetExceeded(BudgetExceeded):
    """Raised by a compiled closure when the run's steps are spent."""

    def __init__(self, max_steps: int) -> None:
        super().__init__(f"step budget of {max_steps} exceeded")
        self.max_steps = max_steps


class ValueBudgetExceeded(BudgetExceeded):
    """Raised before a value larger than the run's limit is made."""

    def __init__(self, what: str, size: int, limit: int) -> None:
        if what.startswith("an array"):
            text = f"value budget: {what} is over the limit of {limit:,} elements"
        else:
            text = f"value budget: {what} would be {size:,} bits, over the limit of {limit:,} bits"
        super().__init__(text + " ([specgen] max_value_bits, --max-value-bits)")
        self.size = size
        self.limit = limit


class _Active:
    """The budgets of the run in progress (an interpreter's :meth:`call` installs its own)."""

    __slots__ = ("value_bits", "steps", "max_steps", "charged")

    def __init__(self) -> None:
        self.value_bits = DEFAULT_MAX_VALUE_BITS
        self.steps: list[int] = [DEFAULT_MAX_STEPS]
        self.max_steps = DEFAULT_MAX_STEPS
        self.charged: list[int] = [0]  # of the steps spent, those charged for big values (memo.py tells them apart)


ACTIVE = _Active()


def produce(size: int, what: str, work: int = 0) -> None:
    """Charge a value of ``size`` bits (or elements) about to be made, plus ``work`` steps for making it
    (a product's or quotient's superlinear cost); raise when it is over a budget."""
    a = ACTIVE
    if size > a.value_bits:
        raise ValueBudgetExceeded(what, size, a.value_bits)
    cost = work + (size >> _KIB_SHIFT if size > FREE_BITS else 0)
    if cost:
        a.charged[0] += cost
        steps = a.steps
        steps[0] -= cost
        if steps[0] < 0:
            raise StepBudgetExceeded(a.max_steps)


def touch(size: int) -> None:
    """Charge reading a value of ``size`` bits (a comparison, a slice, a hash): one step per KiB over FREE_BITS."""
    if size > FREE_BITS:
        a = ACTIVE
        a.charged[0] += size >> _KIB_SHIFT
        steps = a.steps
        steps[0] -= size >> _KIB_SHIFT
        if steps[0] < 0:
            raise StepBudgetExceeded(a.max_steps)


def heavy(a_bits: int, b_bits: int) -> int:
    """The steps a product or quotient of integers of these bit lengths costs (schoolbook words times words)."""
    return ((a_bits >> 6) * (b_bits >> 6)) >> _WORDS_SHIFT
