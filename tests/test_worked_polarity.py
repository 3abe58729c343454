"""A predicate's text is read with the sign of each call (issue 39, "inputs solved, not guessed").

``return … && !TileLayoutIsCube(_Tiles[[bias]].layout) && …`` needs the helper to return FALSE, so the layouts
its body compares are refused for the bias, not required of it. A development branch of the spec
(``codex/issue-65-cube-cell-layout``) reads every matrix source's descriptor that way: its BIAS and MX forms
got a CUBE bias and CUBE scales, which the model refuses, and ran on none of 7 instructions; they now run
(98 -> 106 of 109). The same branch's MX_ACC predicate reaches more than 400 calls inside its first conjunct,
so the accumulator's extents in its third were never read: the limit on followed calls is now ten times the
calls any tree reaches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.asl import interpreter_for
from specgen.loader import load_spec
from specgen.worked.operandchecks import SEEN_LIMIT, OperandChecks, _call_sign
from treecopy import copy_tree

REPO = Path(__file__).resolve().parents[1]


def _sign(body: str, call: str) -> int:
    at = body.index(call)
    return _call_sign(body, at, body.index(")", at) + 1)


@pytest.mark.parametrize(("body", "call", "sign"), [
    ("return Ok(x) && !IsCube(_Tiles[[bias]].layout) && y;", "IsCube", -1),  # needed FALSE
    ("return Ok(x) && IsCube(_Tiles[[bias]].layout);", "IsCube", 1),
    ("return a || !IsCube(_Tiles[[bias]].layout);", "IsCube", 1),  # an alternative: says nothing alone
    ("return !IsCube(_Tiles[[bias]].layout) || a;", "IsCube", 1),
    ("if IsCube(_Tiles[[bias]].layout) then return FALSE; end;", "IsCube", -1),
    ("if !IsCube(_Tiles[[bias]].layout) || z then return FALSE; end;", "IsCube", 1),
    ("if IsCube(_Tiles[[bias]].layout) && z then return FALSE; end;", "IsCube", 1),  # only with z: unknown
    ("if IsCube(_Tiles[[bias]].layout) then return TRUE; end;", "IsCube", 1),
    # after a branch on the same operand, the return covers only the other case
    ("if _Tiles[[right]].layout == TileLayout_CUBE_N8 then return x; end;\n"
     "return !IsCube(_Tiles[[right]].layout) && y;", "IsCube", 1),
])
def test_the_sign_of_a_call(body: str, call: str, sign: int) -> None:
    assert _sign(body, call) == sign


PROBE = """\
func ProbeIsCube(layout: TileLayout) => boolean
begin
    return layout == TileLayout_CUBE_M16 || layout == TileLayout_CUBE_N8;
end;

readonly func ProbeDescriptor(index: TileIndex) => boolean
begin
    return index >= 0 && !ProbeIsCube(_Tiles[[index]].layout);
end;

readonly func ProbeFanOut(t: TileIndex) => boolean
begin
    return {fan};
end;

readonly func ProbeAccumulator(accumulator: TileIndex, left: TileIndex, right: TileIndex) => boolean
begin
    return _Tiles[[accumulator]].valid_rows == _Tiles[[left]].valid_rows &&
           _Tiles[[accumulator]].valid_columns == _Tiles[[right]].valid_columns;
end;

readonly func TileOperandsLegal_PROBE(destination: TileIndex, accumulator: TileIndex, left: TileIndex,
                                      right: TileIndex, bias: TileIndex) => boolean
begin
    return ProbeFanOut(left) && _Tiles[[left]].layout == TileLayout_CUBE_M16 &&
           _Tiles[[left]].valid_columns == _Tiles[[right]].valid_rows &&
           ProbeDescriptor(bias) && ProbeAccumulator(accumulator, left, right) &&
           ProbeDescriptor(right) &&
           (_Tiles[[right]].layout == TileLayout_CUBE_N8 || _Tiles[[right]].layout == TileLayout_RowMajor);
end;
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> OperandChecks:
    """The bundled spec with one probe unit: a predicate whose first conjunct follows more calls than the old
    limit of 400 (each a leaf of its own), then refuses CUBE layouts for the bias through a negated helper."""
    root = copy_tree(REPO / "spec", tmp_path_factory.mktemp("probe") / "spec")
    fan = " && ".join(f"ProbeLeaf{i}(t)" for i in range(450))
    leaves = "".join(f"readonly func ProbeLeaf{i}(t: TileIndex) => boolean\nbegin\n    return t >= {i % 7};\nend;\n\n"
                     for i in range(450))
    (root / "asl" / "arch" / "profile" / "operand-probe.asl").write_text(
        leaves + PROBE.replace("{fan}", fan), encoding="utf-8")
    spec = load_spec(root)
    return OperandChecks(spec, interpreter_for(spec), "TileOperandsLegal_PROBE", ())


def test_a_negated_helper_refuses_the_layouts_it_compares(probe: OperandChecks) -> None:
    assert probe.layouts_of("bias") == []
    assert set(probe.excluded_layouts("bias")) == {"CUBE_M16", "CUBE_N8"}
    assert probe.layouts_of("left") == ["CUBE_M16"]  # required outright, in the predicate itself


def test_a_refusal_through_a_negated_helper_leaves_what_another_path_admits(probe: OperandChecks) -> None:
    """0.58.3 reads A and B on an ordinary path (``!TileLayoutIsCube``) and on a CUBE path: the refusal of the
    one must not empty the other (a release variant's TGEMV_MX found every layout refused)."""
    assert probe.layouts_of("right") == ["CUBE_N8", "RowMajor"]
    assert "CUBE_M16" in probe.excluded_layouts("right") and "CUBE_N8" not in probe.excluded_layouts("right")


def test_a_conjunct_after_many_calls_is_still_read(probe: OperandChecks) -> None:
    assert SEEN_LIMIT > 450
    assert probe.extent_of("accumulator", "valid_rows") == "M"
    assert probe.extent_of("accumulator", "valid_columns") == "N"
