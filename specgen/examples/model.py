"""The checked-example file format (``examples/<surface>/<class…>/<MNEMONIC>/<slug>.json``).

An example is a promise on an instruction page, so it is data the build can
execute: a program, the Tiles it starts from, and what the spec's ASL must
produce (Tiles or a fault). The model is closed (unknown keys are errors) so a
typo cannot silently turn an expectation off. Documented in
docs-internal/examples.md and the bundled spec's README.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from ..executor.datatypes import ValueError_, encode
from ..executor.executor import TileInput, register_index
from ..files import MAX_JSON_DEPTH, json_too_deep
from ..vocabulary import DataType, Vocabulary, label

Number = Union[int, float]
Cell = Union[int, float, str]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _vocabulary(info: ValidationInfo) -> Vocabulary:
    """The spec's vocabulary, handed to validation by :func:`parse_example`."""
    vocabulary = (info.context or {}).get("vocabulary")
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError("validate examples with parse_example(text, vocabulary)")
    return vocabulary


def _element(v: str, vocabulary: Vocabulary) -> DataType:
    et = vocabulary.datatype(v)
    if et is None:
        raise ValueError(f"unknown data type {v!r} ({', '.join(vocabulary.datatype_names)})")
    return et


def _check_cells(values: list[list[Cell]], et: DataType) -> None:
    """Every cell must encode in the Tile's DataType; the first that does not names its place."""
    for r, row in enumerate(values):
        for c, cell in enumerate(row):
            try:
                encode(cell, et)
            except ValueError_ as e:
                raise ValueError(f"values[{r}][{c}]: {e}") from None


def _check_register(v: str) -> str:
    if register_index(v) is None:
        raise ValueError(f"{v!r} is not a tile register (T0..T15, U0..U15, M0..M15, N0..N15)")
    return v.upper() if not v.isdigit() else v


class TileData(_Closed):
    """An input Tile: its descriptor and the values of its elements from (0, 0), row by row."""

    data_type: str
    # physical shape: required, except for a layout whose storage the spec derives (CUBE_M16: give the valid region)
    rows: Annotated[int, Field(ge=1)] | None = None
    columns: Annotated[int, Field(ge=1)] | None = None
    valid_rows: Annotated[int, Field(ge=1)] | None = None
    valid_columns: Annotated[int, Field(ge=1)] | None = None
    capacity_bytes: Annotated[int, Field(ge=1)] | None = None
    mask: Annotated[str, Field(pattern=r"^0b[01]{4}$")] = "0b0001"
    layout: str = "row-major"  # any layout of the tree's Tile model: row-major, column-major, CUBE_M16, ZN, …
    location: str | None = None  # any location of the tree's Tile model (vector, matrix, …); default: the model's
    values: list[list[Cell]]

    @field_validator("data_type")
    @classmethod
    def _t(cls, v: str, info: ValidationInfo) -> str:
        return _element(v, _vocabulary(info)).name

    @field_validator("layout")
    @classmethod
    def _layout(cls, v: str, info: ValidationInfo) -> str:
        voc = _vocabulary(info)
        if voc.layouts and voc.layout(v) is None:
            raise ValueError(f"unknown layout {v!r} ({', '.join(label(x) for x in voc.layouts)})")
        if not voc.layouts and v not in ("row-major", "column-major"):
            raise ValueError(f"unknown layout {v!r} (row-major, column-major)")
        return v

    @field_validator("location")
    @classmethod
    def _location(cls, v: str | None, info: ValidationInfo) -> str | None:
        voc = _vocabulary(info)
        if v is not None and voc.location(v) is None:
            raise ValueError(f"unknown location {v!r} ({', '.join(label(x) for x in voc.locations) or 'none'})")
        return v

    @model_validator(mode="after")
    def _shape(self, info: ValidationInfo) -> "TileData":
        if (self.rows is None) != (self.columns is None):
            raise ValueError("give both rows and columns, or neither (a layout the spec sizes)")
        if self.rows is None and (self.valid_rows is None or self.valid_columns is None):
            raise ValueError("without rows and columns, give valid_rows and valid_columns: the spec sizes the "
                             "storage of its own layouts from them")
        vr = self.valid_rows or self.rows
        vc = self.valid_columns or self.columns
        assert vr is not None and vc is not None
        if self.rows is None or self.columns is None:
            nr, nc = len(self.values), len(self.values[0]) if self.values else 0
            if not self.values or (nr, nc) != (vr, vc) or any(len(r) != vc for r in self.values):
                raise ValueError(f"values must be the valid region ({vr}x{vc})")
            _check_cells(self.values, _element(self.data_type, _vocabulary(info)))
            return self
        if vr > self.rows or vc > self.columns:
            raise ValueError(f"valid region {vr}x{vc} exceeds the {self.rows}x{self.columns} tile")
        if not self.values:
            raise ValueError("values is empty; give at least the valid region")
        widths = {len(r) for r in self.values}
        if len(widths) != 1:
            raise ValueError("every row of values must have the same length")
        nr, nc = len(self.values), widths.pop()
        if (nr, nc) not in ((vr, vc), (self.rows, self.columns)):
            raise ValueError(f"values is {nr}x{nc}; give the valid region ({vr}x{vc}) or the whole "
                             f"tile ({self.rows}x{self.columns})")
        _check_cells(self.values, _element(self.data_type, _vocabulary(info)))
        return self

    def to_input(self, register: str, vocabulary: Vocabulary) -> TileInput:
        et = _element(self.data_type, vocabulary)
        words = tuple(tuple(encode(c, et) for c in row) for row in self.values)
        vr, vc = self.valid_rows or self.rows or 0, self.valid_columns or self.columns or 0
        return TileInput(register, et.name, self.rows or 0, self.columns or 0, vr, vc, words, self.capacity_bytes,
                         int(self.mask, 0), layout=self.layout, location=self.location or "")


class ExpectTile(_Closed):
    """What a Tile must hold after the run; ``null`` in ``values`` means "not compared"."""

    data_type: str | None = None
    rows: int | None = None
    columns: int | None = None
    valid_rows: int | None = None
    valid_columns: int | None = None
    values: list[list[Cell | None]] | None = None
    defined: list[list[bool]] | None = None

    @field_validator("data_type")
    @classmethod
    def _t(cls, v: str | None, info: ValidationInfo) -> str | None:
        return None if v is None else _element(v, _vocabulary(info)).name

    @model_validator(mode="after")
    def _something(self) -> "ExpectTile":
        if self.values is None and self.defined is None:
            raise ValueError("an expected tile needs values, defined, or both")
        for name in ("values", "defined"):
            m = getattr(self, name)
            if m is not None and len({len(r) for r in m}) > 1:
                raise ValueError(f"every row of {name} must have the same length")
        return self


class Expect(_Closed):
    """Exactly one of: the Tiles after the run, or the fault the program must raise."""

    tiles: dict[str, ExpectTile] | None = None
    fault: Annotated[str, Field(pattern=r"^Fault_[A-Za-z]+$")] | None = None
    fault_line: Annotated[int, Field(ge=1)] | None = None

    @field_validator("tiles")
    @classmethod
    def _regs(cls, v: dict[str, ExpectTile] | None) -> dict[str, ExpectTile] | None:
        if v is None:
            return v
        return {_check_register(k): t for k, t in v.items()}

    @model_validator(mode="after")
    def _one(self) -> "Expect":
        if (self.tiles is None) == (self.fault is None):
            raise ValueError("expect needs exactly one of 'tiles' and 'fault'")
        if self.fault_line is not None and self.fault is None:
            raise ValueError("fault_line goes with fault")
        return self


class ExampleFile(_Closed):
    """One checked example: program, input Tiles and the expected outcome."""

    id: Annotated[str, Field(pattern=r"^PTO-EX-[A-Z0-9]+(?:-[A-Z0-9]+)*$")]
    instruction: Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_.]*$")]
    summary: Annotated[str, Field(min_length=1)]
    profile: Literal["reference", "hardware-ieee"] | None = None
    program: str | list[str]
    tiles: dict[str, TileData] = Field(default_factory=dict)
    expect: Expect | None = None

    @field_validator("tiles")
    @classmethod
    def _regs(cls, v: dict[str, TileData]) -> dict[str, TileData]:
        return {_check_register(k): t for k, t in v.items()}

    @property
    def program_text(self) -> str:
        return self.program if isinstance(self.program, str) else "\n".join(self.program)

    def inputs(self, vocabulary: Vocabulary) -> list[TileInput]:
        return [t.to_input(reg, vocabulary) for reg, t in self.tiles.items()]


class ExampleFormatError(Exception):
    """The file is not valid JSON or not a valid example: ``line``/``col`` point at the cause."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def parse_example(text: str, vocabulary: Vocabulary, *, require_expect: bool = True) -> ExampleFile:
    """Validate ``text`` as an example file; raise :class:`ExampleFormatError` with a location.

    DataType names are checked against ``vocabulary`` (the spec's).
    """
    deep = json_too_deep(text)
    if deep >= 0:  # json.loads would recurse (RecursionError, or worse under a raised limit)
        line = text.count("\n", 0, deep) + 1
        raise ExampleFormatError(f"JSON nested more than {MAX_JSON_DEPTH} deep", line, deep - text.rfind("\n", 0, deep))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExampleFormatError(f"not valid JSON: {e.msg}", e.lineno, e.colno) from None
    except (ValueError, RecursionError) as e:  # a 5,000-digit integer and the like
        raise ExampleFormatError(f"not valid JSON: {e}", 1, 1) from None
    try:
        ex = ExampleFile.model_validate(data, context={"vocabulary": vocabulary})
    except ValidationError as e:
        err = e.errors()[0]
        loc = [str(p) for p in err["loc"]]
        where = ".".join(loc) or "(file)"
        line = _line_of_path(text, [p for p in err["loc"] if isinstance(p, str)])
        more = f" (and {len(e.errors()) - 1} more)" if len(e.errors()) > 1 else ""
        raise ExampleFormatError(f"{where}: {err['msg']}{more}", line, 1) from None
    if require_expect and ex.expect is None:
        raise ExampleFormatError("an example under examples/ needs 'expect' (tiles or fault)",
                                 1, 1)
    return ex


def _line_of_path(text: str, keys: list[str]) -> int:
    """Best-effort line of the deepest key of ``keys`` found in order in ``text``."""
    pos = 0
    for k in keys:
        m = re.compile(r'"' + re.escape(k) + r'"\s*:').search(text, pos)
        if m is None:
            break
        pos = m.start()
    return text.count("\n", 0, pos) + 1


def line_of_key(text: str, key: str) -> int:
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def program_position(text: str, ex: ExampleFile, line: int, col: int) -> tuple[int, int]:
    """File line/column of program line ``line``, column ``col`` (best effort through JSON quoting)."""
    m = re.search(r'"program"\s*:\s*(\[?)\s*"', text)
    if m is None:
        return 1, 1
    start = m.end()  # just after the opening quote of the (first) string
    if isinstance(ex.program, list):
        strings = list(re.finditer(r'"((?:[^"\\]|\\.)*)"', text[m.start(1):]))
        if 0 < line <= len(strings):
            pos = m.start(1) + strings[line - 1].start() + 1
            return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + col
        return text.count("\n", 0, start) + 1, 1
    file_line = text.count("\n", 0, start) + 1
    return file_line, start - (text.rfind("\n", 0, start) + 1) + col if line == 1 else 1
