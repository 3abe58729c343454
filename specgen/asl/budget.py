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

**Memory.** Each value is bounded, but a run can hold many: 100,000 integers of
2 MiB in an array, or one per frame of a deep recursion. The run's *memory
account* (bytes, :func:`hold`) is charged before anything big is made: every
value over :data:`FREE_BITS` (through :func:`produce`), every array made or
copied of more than 1,024 elements. When the account passes the run's limit
(``[specgen] max_memory_bytes``, ``--max-memory``) the run's live state is
measured (:mod:`specgen.asl.memory`: the globals and every frame of the run,
each object once); over the limit is :class:`MemoryBudgetExceeded`, else the
account restarts from what is live. Values under the free size are not charged
one by one (that would cost on every operation): the step budget is counted in
windows of :data:`WINDOW` steps, and at the end of each window the process'
peak resident size is read (one system call); grown by a quarter of the limit
since the last measurement, the live state is measured too. Calls nest at most
:data:`MAX_DEPTH` deep (:class:`DepthBudgetExceeded`), far below Python's own
recursion limit.
"""

from __future__ import annotations

from typing import Callable

from ..loader.config import DEFAULT_MAX_MEMORY_BYTES, DEFAULT_MAX_STEPS, DEFAULT_MAX_VALUE_BITS

try:
    import resource
except ImportError:  # not on Windows: the per-window check then rests on the account alone
    resource = None  # type: ignore[assignment]

__all__ = ["ACTIVE", "BudgetExceeded", "DEFAULT_MAX_MEMORY_BYTES", "DEFAULT_MAX_STEPS", "DEFAULT_MAX_VALUE_BITS",
           "DepthBudgetExceeded", "FREE_BITS", "MAX_DEPTH", "MemoryBudgetExceeded", "StepBudgetExceeded",
           "ValueBudgetExceeded", "WINDOW", "heavy", "hold", "peak_kib", "produce", "refill", "split", "steps_left",
           "touch"]

#: values up to this many bits (8 KiB) cost nothing beyond the step that uses them
FREE_BITS = 1 << 16
_KIB_SHIFT = 13  # a larger value costs one step per KiB (8,192 bits) it holds
_WORDS_SHIFT = 7  # a product or quotient: one step per 128 products of 64-bit words
#: steps counted between two looks at the process' peak resident size (see "Memory" above)
WINDOW = 1 << 16
#: the deepest ASL calls may nest: the real trees reach 22 (docs-internal/asl-interpreter.md); Python's own
#: limit (20,000 frames in ``specgen test``, about six a call) would stop a plain recursion near 3,300
MAX_DEPTH = 2000


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


class MemoryBudgetExceeded(BudgetExceeded):
    """Raised before the run would hold more than its memory limit."""

    def __init__(self, what: str, held: int, limit: int) -> None:
        super().__init__(f"memory budget: the run would hold {held:,} bytes ({what}), over the limit of "
                         f"{limit:,} bytes ([specgen] max_memory_bytes, --max-memory)")
        self.held = held
        self.limit = limit


class DepthBudgetExceeded(BudgetExceeded):
    """Raised by a call that would nest deeper than :data:`MAX_DEPTH`."""

    def __init__(self, depth: int) -> None:
        super().__init__(f"call depth budget: {depth:,} nested calls, over the limit of {MAX_DEPTH:,}")
        self.depth = depth


class _Active:
    """The budgets of the run in progress (an interpreter's :meth:`call` installs its own)."""

    __slots__ = ("value_bits", "steps", "max_steps", "charged", "memory", "account", "measure", "mark", "high")

    def __init__(self) -> None:
        self.value_bits = DEFAULT_MAX_VALUE_BITS
        self.steps: list[int] = [DEFAULT_MAX_STEPS, 0]  # [left in this window, left after it]: see refill
        self.max_steps = DEFAULT_MAX_STEPS
        self.charged: list[int] = [0]  # of the steps spent, those charged for big values (memo.py tells them apart)
        self.memory = DEFAULT_MAX_MEMORY_BYTES
        self.account = 0  # bytes: live at the last measurement plus everything charged since (hold)
        # the run's live bytes and the work of counting them (specgen.asl.memory.live), once installed
        self.measure: Callable[[], tuple[int, int]] | None = None
        self.mark = 0  # the peak resident size (KiB) at the last measurement
        self.high = 0  # the most bytes a measurement found live (bench/ reads it)


ACTIVE = _Active()


def produce(size: int, what: str, work: int = 0, held: int = -1) -> None:
    """Charge a value of ``size`` bits (or elements) about to be made, plus ``work`` steps for making it
    (a product's or quotient's superlinear cost), and the bytes it will hold (``held``; by default its
    size in bytes once over FREE_BITS); raise when it is over a budget."""
    a = ACTIVE
    if size > a.value_bits:
        raise ValueBudgetExceeded(what, size, a.value_bits)
    if held < 0:
        held = size >> 3 if size > FREE_BITS else 0
    if held:
        a.account += held
        if a.account > a.memory:
            _settle(a, what, held)
    cost = work + (size >> _KIB_SHIFT if size > FREE_BITS else 0)
    if cost:
        a.charged[0] += cost
        steps = a.steps
        steps[0] -= cost
        if steps[0] < 0:
            refill(steps, a.max_steps)


def hold(nbytes: int, what: str) -> None:
    """Charge ``nbytes`` about to be allocated (an array's references, a copy of one) to the memory account."""
    a = ACTIVE
    a.account += nbytes
    if a.account > a.memory:
        _settle(a, what, nbytes)


def _settle(a: _Active, what: str, about: int) -> None:
    """The account passed the limit: measure what is live; over the limit with ``about`` more is the finding.

    The measurement's work is charged in steps (one per 128 objects and references read), so a run that
    keeps its live state near the limit and measures again and again still ends by the step budget.
    """
    if a.measure is None:
        return
    live, work = a.measure()
    a.high = max(a.high, live)
    if live + about > a.memory:
        raise MemoryBudgetExceeded(what, live + about, a.memory)
    a.account = live + about
    a.mark = peak_kib()
    cost = work >> 7
    a.charged[0] += cost
    a.steps[0] -= cost


def peak_kib() -> int:
    """The process' peak resident size so far (KiB on Linux), 0 where it cannot be read."""
    if resource is None:
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux (bytes on macOS: a later look)


def steps_left(steps: list[int]) -> int:
    """Steps a run has left: this window's and the ones after it."""
    return steps[0] + steps[1]


def split(total: int) -> list[int]:
    """A step budget as ``[window, rest]`` (see :func:`refill`)."""
    first = min(total, WINDOW)
    return [first, total - first]


def refill(steps: list[int], max_steps: int) -> None:
    """The window ran out: open the next one and look at memory, or raise when no steps are left.

    The closures count down ``steps[0]`` only; every :data:`WINDOW` steps they land here, so the memory
    look costs nothing on the hot path.
    """
    while steps[0] < 0:
        rest = steps[1]
        if rest <= 0:
            raise StepBudgetExceeded(max_steps)
        take = min(rest, WINDOW)
        steps[1] = rest - take
        steps[0] += take
    a = ACTIVE
    if a.measure is not None and a.steps is steps:
        peak = peak_kib()
        if peak - a.mark > a.memory >> 12:  # grown by a quarter of the limit (KiB against bytes / 4)
            a.mark = peak
            live, _visited = a.measure()  # not charged: when this happens is the allocator's business
            a.high = max(a.high, live)
            if live > a.memory:
                raise MemoryBudgetExceeded("what the run holds", live, a.memory)


def touch(size: int) -> None:
    """Charge reading a value of ``size`` bits (a comparison, a slice, a hash): one step per KiB over FREE_BITS."""
    if size > FREE_BITS:
        a = ACTIVE
        a.charged[0] += size >> _KIB_SHIFT
        steps = a.steps
        steps[0] -= size >> _KIB_SHIFT
        if steps[0] < 0:
            refill(steps, a.max_steps)


def heavy(a_bits: int, b_bits: int) -> int:
    """The steps a product or quotient of integers of these bit lengths costs (schoolbook words times words)."""
    return ((a_bits >> 6) * (b_bits >> 6)) >> _WORDS_SHIFT
