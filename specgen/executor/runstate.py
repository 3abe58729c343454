"""What a run of a Block program takes and gives: input Tiles, the Tile and fault state read back, the steps.

Plain data, shared by the executor (:mod:`specgen.executor.executor`, which fills it from the
spec's ASL), the checked-example verifier, the worked examples and the CLI's printers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Sentence, Span
from ..program.reader import Program
from ..program.syntax import HANDS, Statement
from ..vocabulary import LAYOUT_PREFIX, LOCATION_PREFIX, DataType, Vocabulary, label
from .datatypes import show_value, show_word
from .faultsite import describe_chain
from .inputstate import MemoryState
from .words import PREDICATE_STORAGE

HAND_NAMES = {v: k for k, v in HANDS.items()}


def register_name(index: int) -> str:
    """``T0``…``N15`` for a TileIndex 0…63."""
    return f"{HAND_NAMES[index // 16]}{index % 16}"


def register_index(name: str) -> int | None:
    """The TileIndex of ``T1``/``u3``/``17``; None when ``name`` is not a register."""
    n = name.strip()
    if n.isdigit():
        v = int(n)
        return v if v < 64 else None
    if len(n) >= 2 and n[0].upper() in HANDS and n[1:].isdigit() and int(n[1:]) < 16:
        return HANDS[n[0].upper()] * 16 + int(n[1:])
    return None


class RunError(Exception):
    """The program or its input cannot be run (not an architectural fault): message says why."""

    def __init__(self, message: str, statement: Statement | None = None, span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.statement = statement
        self.span = span


@dataclass(frozen=True, slots=True)
class TileShape:
    """What every view of a Tile states about its register: the register, the element DataType, the
    physical and valid extents, the layout and the location. A Tile to install (:class:`TileInput`), one
    read back (:class:`TileState`) and one shown as a table (``examples.outcome.TileTable``) are each a
    shape with their elements; ``layout`` and ``location`` are keywords (``row-major`` and "" unless
    given) so a positional argument never lands in them. Both are any the tree's Tile model declares,
    by label or member name (``CUBE_M16``, ``matrix``); "" is the first location the model accepts."""

    register: str
    data_type: str
    rows: int
    columns: int
    valid_rows: int
    valid_columns: int
    layout: str = field(default="row-major", kw_only=True)
    location: str = field(default="", kw_only=True)


@dataclass(frozen=True, slots=True)
class TileInput(TileShape):
    """One Tile to install before the program runs; ``words`` covers the valid region or the whole tile."""

    words: tuple[tuple[int, ...], ...]
    capacity_bytes: int | None = None
    mask: int = 0b0001

    def capacity(self, et: DataType) -> int:
        return self.capacity_bytes or self.rows * self.columns * et.bits // 8


@dataclass(frozen=True, slots=True, kw_only=True)
class TileState(TileShape):
    """A Tile register as the ASL holds it after the run (every physical element)."""

    index: int
    capacity_bytes: int
    words: list[list[int]]
    defined: list[list[bool]]
    element: DataType | None = None  # None: the spec names no such type
    predicate: bool = False  # a predicate Tile: one bit an element (``words`` hold 0 or 1)

    def values(self) -> list[list[str]]:
        if self.predicate:
            return [[str(w) for w in row] for row in self.words]
        et = self.element
        return [[show_value(w, et) if et else show_word(w) for w in row] for row in self.words]

    def to_json(self) -> dict[str, object]:
        return {
            "register": self.register, "index": self.index, "data_type": self.data_type,
            "rows": self.rows, "columns": self.columns, "valid_rows": self.valid_rows,
            "valid_columns": self.valid_columns, "capacity_bytes": self.capacity_bytes,
            "layout": self.layout, "location": self.location, "values": self.values(), "predicate": self.predicate,
            "words": [[show_word(w) for w in row] for row in self.words], "defined": self.defined,
        }


@dataclass(frozen=True, slots=True)
class Fault:
    """An architectural fault: its kind, the statement that raised it, and where the ASL recorded it."""

    name: str
    statement: Statement
    asl_span: Span | None
    asl_function: str
    asl_stack: tuple[tuple[str, Span], ...] = ()
    word: str = ""  # the command word the spec rejected (``0x…``), empty for EXECUTE
    # the predicates whose FALSE the deciding return passed up, outermost first: (function, its return)
    asl_chain: tuple[tuple[str, Span], ...] = ()

    def describe(self) -> str:
        """One sentence (a :class:`Sentence`: pages say it in their language): the fault, the program line
        that raised it, its word, and the spec's ASL line that decided it with the chain it was reached from."""
        chain = describe_chain(self.asl_chain)
        where = f" at {self.asl_span} (in {self.asl_function}{chain})" if self.asl_span else ""
        word = f" [{self.word}]" if self.word else ""
        text = f"{self.name} raised by line {self.statement.line} '{self.statement.text}'{word}{where}"
        values = {"name": self.name, "line": self.statement.line, "statement": self.statement.text, "word": word}
        if not self.asl_span:
            return Sentence("example.fault_line", text, **values)
        return Sentence("example.fault_line_at", text, site=str(self.asl_span), function=self.asl_function,
                        chain=chain, **values)


@dataclass(slots=True)
class Step:
    statement: Statement
    entry: str
    args: tuple
    status: str
    destination: str | None = None
    more: tuple[str, ...] = ()  # further registers the same statement allocated (a second destination)
    gprs: tuple[int, ...] = ()  # general-purpose registers a scalar command wrote (absolute selectors)


@dataclass(slots=True)
class RunResult:
    program: Program
    profile: str
    steps: list[Step] = field(default_factory=list)
    fault: Fault | None = None
    inputs: dict[str, TileState] = field(default_factory=dict)
    outputs: dict[str, TileState] = field(default_factory=dict)  # destinations written by the run
    tiles: dict[str, TileState] = field(default_factory=dict)    # every allocated register after the run
    memory: list[MemoryState] = field(default_factory=list)      # the run's memory cells, before and after
    gprs: dict[str, int] = field(default_factory=dict)  # ``x3`` -> its Word after the run, for each GPR a
    # scalar command wrote (read with the spec's ReadGPR)


def tile_state(idx: int, tile: dict, words: list[list[int]], defined: list[list[bool]], vocabulary: Vocabulary,
               data_type: str | None = None) -> TileState:
    """A register's state from its ASL descriptor (``_Tiles[idx]``) and its element words."""
    dt = data_type or str(tile["data_type"]).removeprefix("TileDataType_")
    layout = label(str(tile["layout"]).removeprefix(LAYOUT_PREFIX))  # row-major, CUBE_M16: the model's own
    try:
        location = label(str(tile["location"]).removeprefix(LOCATION_PREFIX))
    except (KeyError, TypeError, IndexError):
        location = ""
    try:
        predicate = str(tile["storage_kind"]) == PREDICATE_STORAGE
    except (KeyError, TypeError, IndexError):
        predicate = False
    return TileState(register_name(idx), dt, int(tile["rows"]), int(tile["columns"]), int(tile["valid_rows"]),
                     int(tile["valid_columns"]), layout=layout, index=idx, capacity_bytes=int(tile["capacity_bytes"]),
                     words=words, defined=defined, element=vocabulary.datatype(dt), predicate=predicate, location=location)
