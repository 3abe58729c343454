"""``specgen diff`` and the diff core: each aspect is reported when, and only when, the spec changed it.

The new release is a scratch copy of the bundled spec with one known edit per
aspect; the oracle is the edit itself, never the diff's own output.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.diff import BODY, RECORDS, spec_diff
from specgen.diff.report import PR_COMMENT_CHARS, format_text, markdown_report
from specgen.graph import SpecGraph
from specgen.loader import load_spec

TMUL = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_TEST = "tests/asl/tile/elementwise-tile-tile/arithmetic/TMUL/tile-state-tmul-alias-left-001.asl"


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not in {path} (fixture drifted)"
    path.write_text(text.replace(old, new), encoding="utf-8")


def avs_id_of(path: Path) -> str:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0].split(":", 1)[1])["id"]


@pytest.fixture()
def changed(bundled_copy: Path) -> Path:
    """The bundled spec with one edit per aspect of TMUL, B.DATR's Sat field renamed and one unit removed."""
    tmul = bundled_copy / TMUL
    edit(tmul, 'U32, U16, or U8."', 'U32, or U16."')  # the prose's DataType sentence
    edit(tmul, "product of each pair of valid source elements.", "product of each pair of source elements.")
    edit(tmul, "begin\n    return TileBinaryDataTypeSupported", "begin\n    // kept\n    return TileBinaryDataTypeSupported")
    edit(tmul, '"role":"left factor"', '"role":"left multiplicand"')
    edit(tmul, '"B.DIM LB2=Col (optional)",', "", count=2)  # block and contract.block_composition
    (bundled_copy / TMUL_TEST).unlink()
    edit(bundled_copy / "spec/catalog/command-forms.json", '"name": "Sat"', '"name": "Saturate"')
    return bundled_copy


def test_each_edited_aspect_is_reported_with_what_left_and_what_came(bundled_root: Path, changed: Path) -> None:
    old, new = SpecGraph.build(load_spec(bundled_root)), SpecGraph.build(load_spec(changed))
    d = spec_diff(old, new, "a", "b")
    c = d.change("TMUL")
    assert c is not None
    assert c.aspect("DataTypes (prose)").removed == ("U8",) and not c.aspect("DataTypes (prose)").added
    assert c.aspect("operands").removed == ("source0: left factor",)
    assert c.aspect("operands").added == ("source0: left multiplicand",)
    assert c.aspect("block composition").removed == ("B.DIM LB2=Col (optional)",)
    ndf = c.aspect("NDF clauses")
    assert [x.split()[0] for x in ndf.removed] == [x.split()[0] for x in ndf.added] == ["PTO-TMUL-CONTRACT-001"]
    assert c.aspect("tests").removed == (avs_id_of(bundled_root / TMUL_TEST),)
    assert c.aspect("DataTypes (ASL)") is None  # the predicate's body did not change what it admits
    assert c.aspect("encoding") is None
    assert "+    // kept" in c.asl_diff.splitlines() and c.asl_diff.startswith(f"--- {TMUL}")
    assert "    // kept" in c.aspect(BODY).added  # the diff's own lines, not a count
    assert "product of each pair of valid source elements. An integer product keeps" in c.aspect(BODY).removed[0]
    records = dict(c.record_diffs)
    assert '-        "role": "left factor"' in records["PTO-INSTRUCTION"].splitlines()
    assert c.aspect(RECORDS) is not None and not c.not_compared
    assert "-// product of each pair of valid source elements. An integer product keeps" in c.asl_diff.splitlines()
    datr = [m for m in old.instructions if m == "B.DATR"]
    assert datr, "the bundled spec has no B.DATR instruction (fixture drifted)"
    enc = d.change("B.DATR").aspect("encoding")
    assert any("field Sat [" in x for x in enc.removed) and any("field Saturate [" in x for x in enc.added)
    assert not d.added and not d.removed
    changed_names = {x.mnemonic for x in d.changed}
    assert changed_names == {"TMUL", "B.DATR"}, changed_names  # nothing else was touched


def test_added_and_removed_instructions(bundled_root: Path, bundled_copy: Path) -> None:
    (bundled_copy / TMUL).unlink()
    old, new = SpecGraph.build(load_spec(bundled_root)), SpecGraph.build(load_spec(bundled_copy))
    assert spec_diff(old, new).removed == ("TMUL",)
    back = spec_diff(new, old)
    assert back.added == ("TMUL",) and not back.removed and back.change("TMUL") is None


def test_a_tree_against_itself_has_no_change(bundled_root: Path) -> None:
    g = SpecGraph.build(load_spec(bundled_root))
    d = spec_diff(g, SpecGraph.build(load_spec(bundled_root)))
    assert (d.added, d.removed, d.changed) == ((), (), ())
    assert format_text(d).splitlines()[0].endswith("0 added, 0 removed, 0 changed")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_the_command_prints_the_same_changes_in_every_format(bundled_root: Path, changed: Path) -> None:
    rc, text, _ = run("diff", str(bundled_root), str(changed))
    assert rc == 0
    assert "~ TMUL" in text.splitlines() and "      - U8" in text.splitlines()
    rc, js, _ = run("diff", str(bundled_root), str(changed), "--format", "json")
    data = json.loads(js)
    assert rc == 0 and {c["mnemonic"] for c in data["changed"]} == {"TMUL", "B.DATR"}
    tmul = next(c for c in data["changed"] if c["mnemonic"] == "TMUL")
    assert tmul["aspects"]["DataTypes (prose)"] == {"removed": ["U8"], "added": []}
    rc, md, err = run("diff", str(bundled_root), str(changed), "--format", "markdown")
    assert rc == 0 and "<summary><code>TMUL</code>" in md and "```diff" in md
    assert md.startswith(f"# Changes from 0.1.0 ({bundled_root}) to 0.1.0 ({changed})")  # one release name twice
    assert [ln.split(":")[1].split("(")[0].strip() for ln in err.splitlines()] == [
        f"load {bundled_root}", f"load {changed}", "compare"], err  # progress on stderr, one line per stage
    old, new = SpecGraph.build(load_spec(bundled_root)), SpecGraph.build(load_spec(changed))
    assert md == markdown_report(spec_diff(old, new, f"0.1.0 ({bundled_root})", f"0.1.0 ({changed})"))


def test_an_aspect_one_release_does_not_state_is_not_a_change(bundled_root: Path, bundled_copy: Path) -> None:
    """An older record generation without a contract (0.58.0's): its operands and prose DataTypes are "not
    compared", never "removed: not stated"; what the record does state still is."""
    tmul = bundled_copy / TMUL
    text = tmul.read_text(encoding="utf-8")
    head = next(ln for ln in text.splitlines() if ln.startswith("// PTO-INSTRUCTION:"))
    record = json.loads(head.split(":", 1)[1])
    del record["contract"]
    tmul.write_text(text.replace(head, "// PTO-INSTRUCTION: " + json.dumps(record, separators=(",", ":"))),
                    encoding="utf-8")
    old, new = SpecGraph.build(load_spec(bundled_copy)), SpecGraph.build(load_spec(bundled_root))
    if new.instructions["TMUL"].instruction.contract.operands is None:  # pragma: no cover - fixture drift
        pytest.fail("the bundled TMUL states no operands")
    d = spec_diff(old, new)
    c = d.change("TMUL")
    assert c is not None and c.aspect("operands") is None and c.aspect("DataTypes (prose)") is None
    assert c.not_compared == ("operands", "DataTypes (prose)") and [a.aspect for a in c.aspects] == [RECORDS]
    assert d.not_compared == {"operands": 1, "DataTypes (prose)": 1}
    assert not any("not stated" in x or "no contract" in x for a in c.aspects for x in a.removed + a.added)
    assert "not compared (one release does not state it): operands for 1 instruction(s)" in format_text(d)


def test_the_markdown_summary_fits_a_pull_request_comment_on_the_corpora(corpus_root: Path, tmp_path: Path) -> None:
    old_root = corpus_root.parent / "pto-spec-0.58.0"
    details = tmp_path / "CHANGES.md"
    rc, md, err = run("diff", str(old_root), str(corpus_root), "--format", "markdown", "--details", str(details))
    assert rc == 0 and len(md) <= PR_COMMENT_CHARS, len(md)
    assert md.startswith("# Changes from 0.58.0 to 0.58.3\n") and str(corpus_root) not in md
    assert "| **all** | **4** | **21** | **630** |" in md and "`B.EQ`" in md and "<details>" in md
    assert "operands (630 instructions)" in md  # 0.58.0 has no contract records: not compared, said once
    full = details.read_text(encoding="utf-8")
    assert full.count("<details>") == 630 and len(full) > 1_000_000
    left = int(md.split("The details of ")[1].split(" more")[0])
    assert md.count("<details>") + left == 630
    # the closing line names the details file, never the folder it was written to (issue 42)
    assert "`CHANGES.md`" in md and str(tmp_path) not in md
    assert "compare" in err and "Traceback" not in err


def test_a_root_that_is_not_a_tree_is_a_usage_error(tmp_path: Path, bundled_root: Path) -> None:
    rc, out, err = run("diff", str(bundled_root), str(tmp_path / "absent"))
    assert rc == 2 and not out and "Traceback" not in err and err.count("\n") == 1
