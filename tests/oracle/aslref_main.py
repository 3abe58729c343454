"""Write a worked example (or any run) as an ASL ``main`` for ASLRef, the normative oracle.

Not run in CI (ASLRef needs ~25 s a program): ``python -m oracle.aslref_main ROOT MNEMONIC… --out DIR``
(from ``tests/``) writes one ``main`` per worked example of the named instructions, which
``/work/shared/aslref/run-avs ROOT DIR/*.asl`` runs. Each ``main`` installs the input Tiles with the
spec's ``ConfigureTileForMask``/``WriteTileElement``, drives ``ExecuteCommandInstruction`` with the
words specgen assembled, and asserts every element of the destination (word and definedness) that
specgen's run produced; PASS means ASLRef computes exactly what the page shows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def bits64(word: int) -> str:
    return "'" + format(word & ((1 << 64) - 1), "064b") + "'"


def main_text(result: object, mask: str = "0001", gprs: tuple = (), memory: tuple = (), agents: int = 4,
              memory_bits: int = 0) -> str:
    """The ASL ``main`` of one :class:`~specgen.examples.outcome.ExampleResult` (inputs, words, outputs).

    ``gprs`` (name, shown value ending in its ``0x…`` word) are written to every PE's file with ``WritePEGPR``;
    ``memory`` (address, before, after as shown) is written with ``Store`` before the run and asserted with
    ``LoadUnsigned`` after it (integers of ``memory_bits`` bits); a CUBE input is configured with
    ``ConfigureCubeTileForMask`` and the spec's ``TileCubeRequiredBytes``, as the AVS tests do."""
    lines = ["func main() => integer", "begin", "    ResetProfileState();"]
    for name, shown in gprs:
        word = int(shown.replace("(", " ").replace(")", " ").split()[-1], 16)
        lines += [f"    WritePEGPR({pe}, {int(name[1:])}, {bits64(word)});" for pe in range(agents)]
    size = memory_bits // 8
    for address, before, _after in memory:
        if before != "":
            lines.append(f"    Store({bits64(int(address, 16))}, {size}, {bits64(int(before) & ((1 << memory_bits) - 1))});")
    for t in result.inputs:  # type: ignore[attr-defined]
        idx = _index(t.register)
        if t.layout.startswith("CUBE_"):
            lines.append(f"    let ok{idx} = ConfigureCubeTileForMask({idx}, TileCubeRequiredBytes(TileLayout_{t.layout}, "
                         f"{t.valid_rows}, {t.valid_columns}, TileDataType_{t.data_type}), {t.valid_rows}, "
                         f"{t.valid_columns}, TileDataType_{t.data_type}, TileLayout_{t.layout}, "
                         f"TileLocation_Matrix, '{mask}');")
            lines.append(f"    assert ok{idx};")
            for r in range(t.valid_rows):
                for c in range(t.valid_columns):
                    lines.append(f"    WriteTileElement({idx}, {r}, {c}, {bits64(int(t.words[r][c], 16))});")
            continue
        cap = t.rows * t.columns * _bits(t) // 8
        lines.append(f"    ConfigureTileForMask({idx}, {cap}, {t.rows}, {t.columns}, {t.valid_rows}, "
                     f"{t.valid_columns}, TileDataType_{t.data_type}, TileLayout_RowMajor, "
                     f"TileLocation_Vector, '{mask}');")
        for r in range(t.valid_rows):
            for c in range(t.valid_columns):
                lines.append(f"    WriteTileElement({idx}, {r}, {c}, {bits64(int(t.words[r][c], 16))});")
    for k, ln in enumerate(result.lines):  # type: ignore[attr-defined]
        word = int(ln.word, 16)
        lines.append(f"    // {ln.text}")
        lines.append(f"    let status{k} = ExecuteCommandInstruction(Zeros{{32}} :: {_bits32(word)}, 32);")
        lines.append(f"    assert status{k} == CommandExecution_Executed;")
    for t in result.outputs:  # type: ignore[attr-defined]
        idx = _index(t.register)
        for r in range(t.rows):
            for c in range(t.columns):
                if t.defined[r][c]:
                    lines.append(f"    assert TileElementDefined({idx}, {r}, {c});")
                    lines.append(f"    assert ReadTileElement({idx}, {r}, {c}) == {bits64(int(t.words[r][c], 16))};")
                else:
                    lines.append(f"    assert !TileElementDefined({idx}, {r}, {c});")
    for k, (address, _before, after) in enumerate(memory):  # a load is not readonly: bind it, then assert
        if after != "":
            lines.append(f"    let memory{k} = LoadUnsigned({bits64(int(address, 16))}, {size});")
            lines.append(f"    assert memory{k} == {bits64(int(after) & ((1 << memory_bits) - 1))};")
    lines += ["    return 0;", "end;", ""]
    return "\n".join(lines)


def _bits32(word: int) -> str:
    return "'" + format(word & 0xFFFFFFFF, "032b") + "'"


def _index(register: str) -> int:
    return "TUMN".index(register[0]) * 16 + int(register[1:])


def _bits(t: object) -> int:
    name = t.data_type  # type: ignore[attr-defined]
    digits = "".join(ch for ch in name if ch.isdigit())
    return int(digits) if digits else 8


def cli(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("mnemonics", nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    from specgen.worked.generator import Generator
    suite = Generator(SpecGraph.build(load_spec(a.root))).run(only=frozenset(a.mnemonics))
    a.out.mkdir(parents=True, exist_ok=True)
    for mn in a.mnemonics:
        entry = suite.entries[mn]
        for n, w in enumerate(entry.examples, 1):
            path = a.out / f"worked-{mn.lower()}-{n}.asl"
            bits = _bits(type("T", (), {"data_type": w.data_type})())
            path.write_text(main_text(w.result, gprs=w.scalars, memory=w.memory, memory_bits=bits))
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
