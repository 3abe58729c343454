"""Input state a Block reads besides vector Tiles: matrix (CUBE) Tiles and global memory.

The spec's own AVS tests set this state with the ASL's functions, and so does
the executor: a matrix operand is configured with ``ConfigureCubeTileForMask``
(capacity from ``TileCubeRequiredBytes``, location ``TileLocation_Matrix``) and
filled with ``WriteTileElement``; global memory is written with ``Store`` and
read back with ``LoadUnsigned`` (``block-exec-bstart-mgather-gather-001``:
``Store(base + 3, 1, …)``, ``WritePEGPR``). Nothing here knows an instruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..asl import ASLError, Bits, Interpreter

WORD_MASK = (1 << 64) - 1
MATRIX_LOCATION = "TileLocation_Matrix"


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


def is_matrix_layout(layout: str) -> bool:
    """Whether a TileInput layout names one of the spec's CUBE layouts (``CUBE_M16``), not row/column-major."""
    return layout.upper().startswith("CUBE_")


def configure_matrix(it: Interpreter, idx: int, layout: str, valid_rows: int, valid_columns: int,
                     data_type: str, mask: int, capacity: int | None) -> int:
    """Configure a CUBE Tile as the AVS tests do; returns its capacity, raises ValueError when the model refuses."""
    member = f"TileLayout_{layout.upper()}"
    if capacity is None:
        capacity = int(it.call("TileCubeRequiredBytes", member, valid_rows, valid_columns, data_type))  # type: ignore[arg-type]
    ok = it.call("ConfigureCubeTileForMask", idx, capacity, valid_rows, valid_columns, data_type, member,
                 MATRIX_LOCATION, Bits(mask, 4))
    if ok is not True:
        raise ValueError(f"ConfigureCubeTileForMask refused {layout} {valid_rows}x{valid_columns} "
                         f"{data_type} in {capacity} bytes")
    return capacity


def write_memory(it: Interpreter, cells: Sequence[MemoryCell]) -> None:
    """Install the cells that carry a value with the spec's ``Store``."""
    for c in cells:
        if c.value is not None:
            it.call("Store", Bits(c.address & WORD_MASK, 64), c.size, Bits(c.value & WORD_MASK, 64))


def read_memory(it: Interpreter, cells: Sequence[MemoryCell]) -> list[MemoryState]:
    """Every cell after the run, read with the spec's ``LoadUnsigned`` (None where the read faults)."""
    out = []
    for c in cells:
        try:
            v = it.call("LoadUnsigned", Bits(c.address & WORD_MASK, 64), c.size)
            after: int | None = v.v if isinstance(v, Bits) else int(v)  # type: ignore[call-overload]
        except ASLError:
            after = None
        out.append(MemoryState(c.address, c.size, c.value, after))
    return out
