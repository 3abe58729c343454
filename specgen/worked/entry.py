"""What the worked-example generator produces (:mod:`specgen.worked.generator`): plain data a page lays out.

Each instruction with a block composition gets a :class:`WorkedEntry`: its executed examples
(:class:`Worked`), the runs that faulted before the one shown (:class:`Attempt`), or the exact reason
it has none. These values are what the dependency-tracked layer keeps per instruction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .composition import Reason
from ..examples.outcome import ExampleResult
from ..cache import codec


@dataclass(slots=True)
class Attempt:
    """One run that did not give an example: what was tried and what happened (English, for the log and page)."""

    data_type: str
    pad: str
    edges: bool
    problem: str


@dataclass(slots=True)
class Worked:
    """One executed worked example and the facts a page states about it."""

    result: ExampleResult
    data_type: str
    pad: str  # "" when the Block has no B.DATR (the spec's default padding)
    edges: bool
    seed: int
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    prose_admits: bool  # False: the legality prose excludes this DataType (the ASL admits it)
    broadcast: str = ""  # "row" | "column": the shape given to the composition's broadcast operand
    scalars: tuple[tuple[str, str], ...] = ()  # GPRs set before the run (B.IOR's sources): name, value
    relation: str = "same"  # how the sources are shaped against the destination (operands.RELATIONS)
    producer: str = ""  # the instruction whose Block made the predicate source, run first in the program
    datr: str = ""  # the B.DATR command derived for a composition that requires fields other than PadValue
    memory: tuple[tuple[str, str, str], ...] = ()  # global memory the run reads or writes: address, before, after
    dims: tuple[tuple[str, int], ...] = ()  # a matrix Block's dimensions (M, N, K) as its B.DIM lines set them


@dataclass(slots=True)
class WorkedEntry:
    """An instruction with a block composition: its worked examples, or why there is none."""

    mnemonic: str
    path: str
    line: int
    examples: list[Worked] = field(default_factory=list)
    reason: Reason | None = None
    attempts: list[Attempt] = field(default_factory=list)  # runs that faulted before the one shown
    omitted: list[str] = field(default_factory=list)  # optional commands the example leaves out
    # B.IOR lines the composition lists but the ASL completes the Block without (scalars at their default)
    defaulted: list[str] = field(default_factory=list)


@dataclass(slots=True)
class WorkedSuite:
    entries: dict[str, WorkedEntry]
    rerun: list[str] = field(default_factory=list)  # the mnemonics this run computed (the rest reused)
    pending: list[str] = field(default_factory=list)  # without a valid entry, running in a server's background

    @property
    def total(self) -> int:
        return len(self.entries)

    @property
    def executed(self) -> int:
        return sum(1 for e in self.entries.values() if e.examples)

    @property
    def refused(self) -> int:
        """Instructions without an example because a line of the spec's ASL refused every assignment tried
        (its page names the line)."""
        return sum(1 for e in self.entries.values() if not e.examples and e.reason is not None
                   and e.reason.key == "refused")

    def summary(self) -> str:
        """The build summary line."""
        total = self.total + len(self.pending)
        if not total:  # a tree without instruction records (an older layout) has nothing to work: say so
            return "worked examples: none (no instruction of this tree has a block composition)"
        pct = 100.0 * self.executed / total if total else 100.0
        running = f", {len(self.pending)} running" if self.pending else ""
        refused = f"; {self.refused} refused at an ASL line their page names" if self.refused else ""
        return (f"worked examples: {self.executed}/{total} instructions with a block composition "
                f"({pct:.1f} %; {len(self.rerun)} run, {self.total - len(self.rerun)} reused{running}){refused}")


__all__ = ["Attempt", "Worked", "WorkedEntry", "WorkedSuite"]


# what the dependency-tracked layer may hold of this module (specgen.cache.codec)
codec.register(Attempt, Worked, WorkedEntry)
