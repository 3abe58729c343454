"""Compare a run with what an example promises, and build inputs for contract examples.

An expected value written as a number is compared in the element type (the
low element-width bits of the carrier, which is all the architecture looks
at); one written as a raw word ``"0x…"`` is compared as the whole 64-bit
carrier; ``null`` is not compared. ``defined`` is compared cell by cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..executor.datatypes import encode, parse_raw, show_value, show_word
from ..executor.executor import RunResult, TileInput, TileState, register_name
from ..program.reader import Program
from ..vocabulary import DataType, Vocabulary
from .model import Expect, ExpectTile


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One differing element (or descriptor field) of one tile."""

    tile: str
    row: int
    col: int
    expected: str
    got: str
    what: str = "value"  # value | defined | descriptor | missing

    def describe(self) -> str:
        if self.what == "missing":
            return f"{self.tile}: {self.got}"
        if self.what == "descriptor":
            return f"{self.tile}.{self.expected}: got {self.got}"
        label = "defined" if self.what == "defined" else ""
        return f"{self.tile}[{self.row}][{self.col}]{' ' + label if label else ''}: expected {self.expected}, got {self.got}"


@dataclass(slots=True)
class Verdict:
    mismatches: list[Mismatch] = field(default_factory=list)
    fault_problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.fault_problem


def _cell_matches(cell: object, word: int, et: DataType | None) -> tuple[bool, str, str]:
    """(equal, expected spelling, got spelling) for one expected cell."""
    if isinstance(cell, str) and parse_raw(cell) is not None:
        want = parse_raw(cell) or 0
        return want == word, show_word(want), show_word(word)
    if et is None:
        return False, str(cell), show_word(word)
    want = encode(cell, et)
    got_text = show_value(word, et)
    return (want & et.mask) == (word & et.mask), show_value(want, et), got_text


def compare_tile(name: str, want: ExpectTile, got: TileState | None) -> list[Mismatch]:
    if got is None:
        return [Mismatch(name, 0, 0, "", "is not allocated after the run", "missing")]
    out: list[Mismatch] = []
    for key in ("data_type", "rows", "columns", "valid_rows", "valid_columns"):
        w = getattr(want, key)
        if w is not None and w != getattr(got, key):
            out.append(Mismatch(name, 0, 0, f"{key} (expected {w})", str(getattr(got, key)), "descriptor"))
    et = got.element
    for mat, kind in ((want.values, "value"), (want.defined, "defined")):
        if mat is None:
            continue
        if len(mat) > got.rows or (mat and len(mat[0]) > got.columns):
            out.append(Mismatch(name, 0, 0, "", f"expected {kind} matrix {len(mat)}x{len(mat[0]) if mat else 0} "
                                f"is larger than the {got.rows}x{got.columns} tile", "missing"))
            continue
        for r, row in enumerate(mat):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                if kind == "defined":
                    if bool(cell) != got.defined[r][c]:
                        out.append(Mismatch(name, r, c, str(bool(cell)).lower(),
                                            str(got.defined[r][c]).lower(), "defined"))
                    continue
                ok, exp_s, got_s = _cell_matches(cell, got.words[r][c], et)
                if not ok:
                    out.append(Mismatch(name, r, c, exp_s, f"{got_s} ({show_word(got.words[r][c])})"))
    return out


def verify(result: RunResult, expect: Expect) -> Verdict:
    v = Verdict()
    f = result.fault
    if expect.fault is not None:
        if f is None:
            v.fault_problem = f"expected {expect.fault}, but the program completed without a fault"
        elif f.name != expect.fault:
            v.fault_problem = f"expected {expect.fault}, got {f.describe()}"
        elif expect.fault_line is not None and f.statement.line != expect.fault_line:
            v.fault_problem = (f"expected {expect.fault} on program line {expect.fault_line}, "
                               f"got it on line {f.statement.line}")
        return v
    if f is not None:
        v.fault_problem = f"unexpected fault: {f.describe()}"
        return v
    for name, want in (expect.tiles or {}).items():
        v.mismatches.extend(compare_tile(name, want, result.tiles.get(name)))
    return v


# ---------------------------------------------------------------- contract examples
def synthesized_inputs(program: Program, vocabulary: Vocabulary) -> list[TileInput]:
    """Source Tiles that fit ``program``'s own Block headers, with small exact values.

    Contract examples name their sources but carry no data; these inputs let
    the build run them as written. Each source gets the Block's DataType,
    ``LB2`` (else ``LB0``) columns, ``LB1`` (else 1) valid rows, ``LB0`` valid
    columns, the binding's SizeCode capacity and PE mask.
    """
    out: dict[str, TileInput] = {}
    produced: set[int] = set()
    dims: dict[int, int] = {}
    dtype: int | None = None
    for st in program.statements:
        f = st.fields
        if st.mnemonic.startswith("BSTART"):
            dims, dtype = {}, f.get("data_type")  # type: ignore[assignment]
        elif st.mnemonic == "B.DIM" and f.get("lb") is not None and f.get("value") is not None:
            dims[int(f["lb"])] = int(f["value"]) % 0x10000  # type: ignore[arg-type]
        elif st.mnemonic == "B.IOT" and dims.get(0):
            et = vocabulary.datatype_of_code(dtype) if isinstance(dtype, int) else None
            if et is None:
                continue
            vc = dims[0]
            vr = dims.get(1, 1)
            cols = dims.get(2, vc)
            size = int(f.get("size_code") or 1)  # type: ignore[arg-type]
            capacity = 128 * 2 ** (max(1, min(size, 10)) - 1)
            rows = capacity * 8 // max(1, cols * et.bits)
            for k, key in enumerate(("source_left", "source_right")):
                idx = f.get(key)
                if not isinstance(idx, int) or idx in produced:
                    continue
                name = register_name(idx)
                if name in out:
                    continue
                words = tuple(tuple(encode(_sample(et, r * vc + c, k), et) for c in range(vc))
                              for r in range(vr))
                out[name] = TileInput(name, et.name, max(rows, 1), cols, vr, vc, words, capacity,
                                      int(f.get("pe_mask") or 1))  # type: ignore[arg-type]
        elif st.mnemonic == "BSTOP":
            pass
    return list(out.values())


def _sample(et: DataType, i: int, k: int) -> int | float:
    if et.kind == "signed":
        return (i % 7) + 1 - 3 * k
    if et.kind == "unsigned":
        return (i % 7) + 1 + k
    return ((i % 7) + 1) * (0.5 if k else 1.0)
