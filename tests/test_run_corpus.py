"""Block programs run on the real corpus through its own command path (assembled words).

Each program is assembled from the corpus encodings and executed by its
``ExecuteCommandInstruction``; the destination words are compared, bit for
bit, with a small model of the reference profile written from the ASL
(``../shared/notes/tadd-family-semantics.md`` section 3: operands extended
from their width, ADD/SUB/MUL wrap in 64 bits and normalise, MAX/MIN return
the extended operand, logic and shifts zero-extend, DIV truncates toward zero and keeps
the 64-bit quotient: S32 INT_MIN / -1 is 0x80000000).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.executor.executor import TileInput, executor_for
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.vocabulary import vocabulary_of

pytestmark = pytest.mark.corpus

W64 = (1 << 64) - 1
LEFT = (7, -9, 2147483647, -2147483648)
RIGHT = (3, 2, 1, -1)
SHIFTS = (1, 33, 31, 4)  # 33 wraps modulo the width to 1


def _ext(v: int, bits: int, signed: bool) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def _norm(v: int, bits: int, signed: bool) -> int:
    return _ext(v, bits, signed) & W64


def model(op: str, a: int, b: int, bits: int = 32, signed: bool = True) -> int:
    """The destination word the reference profile gives for one element."""
    x, y = _ext(a, bits, signed), _ext(b, bits, signed)
    mask = (1 << bits) - 1
    if op in ("TADD", "TSUB", "TMUL"):
        return _norm({"TADD": x + y, "TSUB": x - y, "TMUL": x * y}[op], bits, signed)
    if op == "TDIV":
        q = abs(x) // abs(y)
        return (q if (x < 0) == (y < 0) else -q) & W64  # the 64-bit quotient is not re-normalised
    if op in ("TMAX", "TMIN"):
        pick = x if (x >= y if op == "TMAX" else x <= y) else y
        return pick & W64
    if op == "TAND":
        return (a & b) & mask
    amount = y & (bits - 1)
    if op == "TSHL":
        return (x << amount) & mask
    return (x >> amount) & mask  # TSHR: arithmetic on the extended (signed) value


@pytest.fixture(scope="module")
def corpus(corpus_root: Path) -> tuple[Path, object]:
    return corpus_root, vocabulary_of(load_spec(corpus_root))


def _tile(reg: str, values: tuple[int, ...]) -> TileInput:
    words = tuple(v & W64 for v in values)
    return TileInput(reg, "S32", 8, 4, 1, 4, (words,))


def _run(root: Path, vocabulary: object, text: str, left: tuple[int, ...], right: tuple[int, ...]):
    program = parse_program(text, vocabulary)  # type: ignore[arg-type]
    ex = executor_for(SpecGraph.build(load_spec(root)))
    return ex.run(program, [_tile("T1", left), _tile("T2", right)])


@pytest.mark.parametrize("op", ["TADD", "TSUB", "TMUL", "TDIV", "TSHL", "TSHR", "TMAX", "TMIN", "TAND"])
def test_elementwise_s32_bit_exact(corpus: tuple[Path, object], op: str) -> None:
    root, vocabulary = corpus
    spelling = "BSTART.SFU" if op == "TDIV" else "BSTART.VEC"
    right = SHIFTS if op in ("TSHL", "TSHR") else RIGHT
    result = _run(root, vocabulary, f"{spelling} {op}, S32; B.DIM LB0=4; "
                  "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP", LEFT, right)
    assert result.fault is None, result.fault.describe() if result.fault else ""
    assert [s.entry for s in result.steps] == ["ExecuteCommandInstruction"] * 4
    (dest,) = result.outputs.values()
    assert (dest.data_type, dest.valid_rows, dest.valid_columns) == ("S32", 1, 4)
    assert dest.words[0] == [model(op, a, b) for a, b in zip(LEFT, right)]
    assert dest.defined[0] == [True] * 4


def test_s32_tdiv_zero_divisor_is_tile_legality(corpus: tuple[Path, object]) -> None:
    root, vocabulary = corpus
    result = _run(root, vocabulary, "BSTART.SFU TDIV, S32; B.DIM LB0=4; "
                  "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP", LEFT, (3, 0, 1, 1))
    assert result.fault is not None
    assert result.fault.name == "Fault_TileLegality"
    assert result.fault.statement.mnemonic == "BSTOP"
    assert result.fault.asl_span is not None and result.fault.asl_span.line > 0
    assert result.outputs == {}
    assert result.tiles["T1"].words[0] == [v & W64 for v in LEFT]  # rejected before any effect


def test_run_cli_shows_words_and_meets_expectation(corpus: tuple[Path, object], tmp_path: Path) -> None:
    """The bundled spec's hand-written TADD example holds on the corpus too, through ``specgen run``."""
    from specgen.cli import main
    root, _ = corpus
    example = Path(__file__).parents[1] / "spec/examples/tile/elementwise-tile-tile/arithmetic/TADD/s32-wraps.json"
    out, err = io.StringIO(), io.StringIO()
    code = main(["run", "--root", str(root), str(example)], out=out, err=err)
    text = out.getvalue()
    assert code == 0, err.getvalue() + text
    assert "expectation met" in text
    assert "BSTART.VEC TADD, S32  [0x88019181]" in text
    doc_out = io.StringIO()
    assert main(["run", "--root", str(root), "--format", "json", str(example)], out=doc_out, err=err) == 0
    assert json.loads(doc_out.getvalue())["expectation"]["met"] is True


def test_hand_written_examples_check_on_a_corpus_copy(corpus_copy: Path) -> None:
    """Example files in the folder ``[specgen] example_root`` names run on the corpus; a wrong one is a finding."""
    from specgen.examples.runner import Runner
    from specgen.graph import SpecGraph
    toml = corpus_copy / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[specgen]\nexample_root = "checked-examples"\n',
                    encoding="utf-8")
    bundled = Path(__file__).parents[1] / "spec/examples/tile/elementwise-tile-tile/arithmetic/TADD/s32-wraps.json"
    folder = corpus_copy / "checked-examples/tile/elementwise-tile-tile/arithmetic/TADD"
    folder.mkdir(parents=True)
    good = json.loads(bundled.read_text(encoding="utf-8"))
    (folder / "s32-wraps.json").write_text(json.dumps(good), encoding="utf-8")
    wrong = dict(good, id="PTO-EX-TADD-S32-WRONG")
    wrong["expect"] = json.loads(json.dumps(good["expect"]))
    wrong["expect"]["tiles"]["T0"]["values"][0][0] = 4  # 1 + 2 is 3
    (folder / "s32-wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    suite = Runner(SpecGraph.build(load_spec(corpus_copy))).run()
    results = {r.id: r for r in suite.results["TADD"] if r.kind == "checked"}
    assert results["PTO-EX-TADD-S32-WRAPS"].verified is True
    assert results["PTO-EX-TADD-S32-WRONG"].verified is False
    bad = [f for f in suite.findings if f.rule == "example-mismatch"]
    assert len(bad) == 1 and bad[0].path.endswith("s32-wrong.json") and "expected 4, got 3" in bad[0].message
