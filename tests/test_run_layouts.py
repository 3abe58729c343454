"""`specgen run` inputs in every layout and location the tree's Tile model declares (issue 26, item 2).

A TMATMUL that should succeed (S8, 2 x 3 by 3 x 2, A in ``CUBE_M16`` and B in ``CUBE_N8``, as 0.58.3's
``TileOperandsLegal_TMATMUL`` requires) could not be written while a run file took only row- and
column-major Tiles. It runs now, and its S32 products are the ones computed here; a layout the model does
not declare is one error naming the ones it does.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.cli import main

pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("oracle-elementwise")]  # shares the corpus executor

A = [[1, 2, 3], [4, 5, -6]]
B = [[7, 8], [9, 10], [11, -12]]


def _run(root: Path, doc: dict, tmp_path: Path) -> tuple[int, str, str]:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = main(["run", "--root", str(root), "--format", "json", str(path)], out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def _program(fpatr_fields: int = 9) -> list[str]:
    return ["BSTART.TMATMUL S8", "B.FPATR " + ", ".join(["0"] * fpatr_fields), "B.DIM LB0=2", "B.DIM LB1=2",
            "B.DIM LB2=3", "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>", "BSTOP"]


def test_a_cube_tmatmul_runs_from_a_run_file(corpus_root: Path, tmp_path: Path) -> None:
    product = [[sum(A[m][k] * B[k][n] for k in range(3)) for n in range(2)] for m in range(2)]
    doc = {"program": _program(),
           "tiles": {"T1": {"data_type": "S8", "layout": "CUBE_M16", "valid_rows": 2, "valid_columns": 3, "values": A},
                     "T2": {"data_type": "S8", "layout": "cube-n8", "location": "matrix", "valid_rows": 3,
                            "valid_columns": 2, "values": B}},
           "expect": {"tiles": {"T0": {"data_type": "S32", "values": product}}}}
    rc, out, err = _run(corpus_root, doc, tmp_path)
    assert rc == 0, (out, err)
    result = json.loads(out)
    t0 = result["outputs"]["T0"]
    assert t0["layout"] == "CUBE_M16" and t0["location"] == "matrix"
    assert [[int(v) for v in row[:2]] for row in t0["values"][:2]] == product == [[58, -8], [7, 154]]


def test_a_layout_the_model_does_not_declare_is_one_error(corpus_root: Path, tmp_path: Path) -> None:
    doc = {"program": _program(),
           "tiles": {"T1": {"data_type": "S8", "layout": "CUBE_Q99", "valid_rows": 2, "valid_columns": 3, "values": A}}}
    rc, out, err = _run(corpus_root, doc, tmp_path)
    assert rc == 2 and "unknown layout 'CUBE_Q99'" in err and "CUBE_M16" in err, (rc, out, err)
