"""Input state a Block reads besides row-major Tiles: Tiles of every layout and location, and global memory.

The spec's own AVS tests set this state with the ASL's functions, and so does
the executor. A Tile in a layout whose storage the spec derives (0.58.3's CUBE
layouts: ``TileCubeRequiredBytes`` sizes them) is configured with
``ConfigureCubeTileForMask`` in the location the input names, else the first of
the model's locations the function accepts; any other layout and location go
through ``ConfigureTileForMask`` with the physical shape the input gives. Which
layouts and locations exist is the tree's ``TileLayout``/``TileLocation``
(the vocabulary). Global memory is written with ``Store`` and read back with
``LoadUnsigned`` (``block-exec-bstart-mgather-gather-001``: ``Store(base + 3, 1,
…)``, ``WritePEGPR``). Nothing here knows an instruction or a layout's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import speccontract as contract
from ..asl import ASLError, Bits, Interpreter
from ..asl.errors import ASLAssertionError

WORD_MASK = (1 << 64) - 1
LAYOUT_PREFIX, LOCATION_PREFIX = "TileLayout_", "TileLocation_"


@dataclass(frozen=True, slots=True)
class MemoryCell:
    """One global-memory element: written before the run (``value``; None: only read back) and read after it."""

    address: int
    size: int  # bytes: 1, 2, 4 or 8
    value: int | None = None


@dataclass(frozen=True, slots=True)
class MemoryState:
    """A memory element before and after the run (None: not written before / not readable after)."""

    address: int
    size: int
    before: int | None
    after: int | None


def spec_sized(it: Interpreter, layout: str, valid_rows: int, valid_columns: int, data_type: str) -> int:
    """The capacity the spec derives for a Tile of ``layout`` (a member name) and this valid region, 0 when it
    derives none (row-major and the like: the input gives the physical shape) or has no such function."""
    if not (it.has_function(contract.CUBE_BYTES.name) and it.has_function(contract.CONFIGURE_CUBE_TILE.name)):
        return 0
    try:
        return int(it.call(contract.CUBE_BYTES.name, LAYOUT_PREFIX + layout, valid_rows, valid_columns,  # type: ignore[arg-type]
                           data_type))
    except ASLError:
        return 0


def configure_spec_sized(it: Interpreter, idx: int, layout: str, valid_rows: int, valid_columns: int,
                         data_type: str, mask: int, capacity: int, locations: Sequence[str]) -> int:
    """Configure a Tile whose storage the spec derives as the AVS tests do (``ConfigureCubeTileForMask``), in the
    first of ``locations`` (member names) the model accepts; returns its capacity, raises ValueError when it
    accepts none."""
    for location in locations:
        try:
            ok = it.call(contract.CONFIGURE_CUBE_TILE.name, idx, capacity, valid_rows, valid_columns, data_type,
                         LAYOUT_PREFIX + layout, LOCATION_PREFIX + location, Bits(mask, 4))
        except ASLAssertionError:  # a tree whose configure is a procedure refuses by an assertion
            continue
        # a boolean configure says whether it accepted (0.58.3); a procedure returns nothing (a development
        # branch: ``func ConfigureCubeTileForMask(…)`` with ``assert``s), so returning at all is accepting
        if ok is True or ok is None:
            return capacity
    raise ValueError(f"{contract.CONFIGURE_CUBE_TILE} refused {layout} {valid_rows}x{valid_columns} {data_type} "
                     f"in {capacity} bytes in {', '.join(locations) or 'every location'}")


def write_memory(it: Interpreter, cells: Sequence[MemoryCell]) -> None:
    """Install the cells that carry a value with the spec's ``Store``."""
    for c in cells:
        if c.value is not None:
            it.call(contract.STORE.name, Bits(c.address & WORD_MASK, 64), c.size, Bits(c.value & WORD_MASK, 64))


def read_memory(it: Interpreter, cells: Sequence[MemoryCell]) -> list[MemoryState]:
    """Every cell after the run, read with the spec's ``LoadUnsigned`` (None where the read faults)."""
    out = []
    for c in cells:
        try:
            v = it.call(contract.LOAD_UNSIGNED.name, Bits(c.address & WORD_MASK, 64), c.size)
            after: int | None = v.v if isinstance(v, Bits) else int(v)  # type: ignore[call-overload]
        except ASLError:
            after = None
        out.append(MemoryState(c.address, c.size, c.value, after))
    return out
