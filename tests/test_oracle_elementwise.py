"""The elementwise tile-tile family, checked against an independent oracle, bit for bit.

Hypothesis draws random programs (operation, DataType, shape, PadValue, source
values with edge cases) of TADD … TREM, TMAX, TMIN, TAND, TOR, TXOR, TSHL and
TSHR. Each runs on the 0.58.3 corpus through specgen's whole path: the Block
program is parsed, assembled into words from the corpus encodings and executed
by the corpus' own ``ExecuteCommandInstruction`` (the ASL), and every element
of the destination's physical Tile (valid region and pad region, words and
definedness) is compared with the NumPy model in ``tests/oracle/elementwise.py``,
written from the ASL of the reference profile. Where model and ASL disagreed,
ASLRef settled it (``docs-internal/examples.md``, "Oracle").
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.elementwise import (FLOAT, INTEGER, OPS, Case, canonical_input, expected_tile, predicted_fault,
                                types_for, width)
from specgen.executor.executor import TileInput, executor_for
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.vocabulary import VOCABULARY

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("oracle-elementwise")]

EXAMPLES = 50
SPELLING = {"TDIV": "BSTART.SFU", "TREM": "BSTART.SFU"}  # the SFU engine's ops (their records' block lines)
PADS = ("Zero", "Max", "Min", "Null")
_STATE: dict[str, object] = {}


@pytest.fixture(scope="module")
def corpus_exec(corpus_root: Path) -> tuple[object, object]:
    graph = SpecGraph.build(load_spec(corpus_root))
    return executor_for(graph, "reference"), VOCABULARY(graph)


def _edges(dt: str) -> list[int]:
    bits = width(dt)
    top = 1 << (bits - 1)
    ones = (1 << bits) - 1
    words = [0, 1, ones, top, top - 1, 2]  # zero, one, all-ones (-1 / max), minimum / sign bit, maximum
    if dt in FLOAT:
        _, ebits, qnan = FLOAT[dt]
        fbits = bits - 1 - ebits
        inf = ((1 << ebits) - 1) << fbits
        words += [qnan, inf, inf | top, inf | 1, top]  # quiet NaN, +-inf, signalling NaN, -0
    return words


@st.composite
def cases(draw: st.DrawFn) -> Case:
    op = draw(st.sampled_from(OPS))
    padded = draw(st.integers(0, 2)) == 0
    types = types_for(op)
    # an explicit B.DATR commits only on FP64 (see predicted_fault): a padded float op mostly draws FP64
    dt = draw(st.sampled_from(("FP64",) * len(types) + types if padded and "FP64" in types else types))
    bits = width(dt)
    columns = draw(st.sampled_from([c for c in (1, 2, 4, 8) if 128 * 8 // (c * bits) >= 1]))
    rows = 128 * 8 // (columns * bits)
    valid_rows = draw(st.integers(1, min(rows, 3)))
    valid_columns = draw(st.integers(1, columns))
    pad = draw(st.sampled_from(PADS)) if padded else None
    element = st.one_of(st.sampled_from(_edges(dt)), st.integers(0, (1 << bits) - 1))
    if op in ("TSHL", "TSHR"):
        right_element = st.one_of(st.integers(0, 2 * bits), element)
    elif op in ("TDIV", "TREM") and dt in INTEGER:
        right_element = st.one_of(st.integers(1, 9), element)  # zero divisors happen, and fault
    else:
        right_element = element

    def matrix(el: st.SearchStrategy[int]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(canonical_input(draw(el), dt) for _ in range(valid_columns)) for _ in range(valid_rows))

    return Case(op, dt, columns, valid_rows, valid_columns, pad, matrix(element), matrix(right_element))


def program_text(case: Case) -> str:
    lines = [f"{SPELLING.get(case.op, 'BSTART.VEC')} {case.op}, {case.dt}"]
    if case.pad is not None:  # DataType code 0 (FP64): the only DataType field this family's B.DATR accepts
        lines.append(f"B.DATR {{0, FP64, {case.pad}, 0, 0, 0, 0}}")
    lines += [f"B.DIM LB0={case.valid_columns}", f"B.DIM LB1={case.valid_rows}", f"B.DIM LB2={case.columns}",
              "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>", "BSTOP"]
    return "\n".join(lines)


def run_case(corpus_exec: tuple[object, object], case: Case) -> tuple[str | None, np.ndarray, np.ndarray]:
    ex, vocabulary = corpus_exec
    program = parse_program(program_text(case), vocabulary)  # type: ignore[arg-type]
    tiles = [TileInput(reg, case.dt, case.rows, case.columns, case.valid_rows, case.valid_columns, words)
             for reg, words in (("T1", case.left), ("T2", case.right))]
    run = ex.run(program, tiles)  # type: ignore[attr-defined]
    if run.fault is not None:
        return run.fault.name, np.zeros(0), np.zeros(0)
    (out,) = run.outputs.values()
    return None, np.array(out.words, dtype=np.uint64), np.array(out.defined, dtype=bool)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(case=cases())
def test_elementwise_family_matches_the_oracle(corpus_exec: tuple[object, object], case: Case) -> None:
    t0 = time.perf_counter()
    fault, words, defined = run_case(corpus_exec, case)
    _STATE["runs"] = int(_STATE.get("runs", 0)) + 1  # type: ignore[call-overload]
    _STATE["seconds"] = float(_STATE.get("seconds", 0.0)) + time.perf_counter() - t0  # type: ignore[arg-type]
    want_fault = predicted_fault(case)
    assert fault == want_fault, f"{program_text(case)}\nfault: ASL {fault}, model {want_fault}"
    if fault is not None:
        return
    want_words, want_defined = expected_tile(case)
    assert defined.shape == want_defined.shape, (defined.shape, want_defined.shape)
    bad = [(r, c) for r in range(defined.shape[0]) for c in range(defined.shape[1])
           if defined[r, c] != want_defined[r, c] or (defined[r, c] and words[r, c] != want_words[r, c])]
    assert not bad, (f"{program_text(case)}\nleft={case.left} right={case.right}\n" + "\n".join(
        f"[{r}][{c}]: ASL {int(words[r, c]):#018x} defined={bool(defined[r, c])}, model "
        f"{int(want_words[r, c]):#018x} defined={bool(want_defined[r, c])}" for r, c in bad[:8]))


def test_oracle_covers_every_operation_and_pad() -> None:
    """The strategy reaches every operation, both number kinds and every PadValue (guards the sampler)."""
    seen: set[tuple[str, str]] = set()

    @settings(max_examples=800, deadline=None, derandomize=True, database=None)
    @given(case=cases())
    def collect(case: Case) -> None:
        seen.add(("op", case.op))
        seen.add(("kind", "float" if case.dt in FLOAT else "int"))
        seen.add(("pad", str(case.pad)))
        if case.pad is not None and predicted_fault(case) is None:
            seen.add(("padded-commit", case.pad))

    collect()
    assert {o for k, o in seen if k == "op"} == set(OPS)
    assert {o for k, o in seen if k == "kind"} == {"float", "int"}
    assert {o for k, o in seen if k == "pad"} >= {"None", *PADS}
    assert {o for k, o in seen if k == "padded-commit"} == set(PADS)  # every PadValue reaches a pad region
