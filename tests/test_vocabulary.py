"""The spec's vocabulary is read from the spec (field domains, ASL enumerations), for every tree we know."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.check import run_checks
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.vocabulary import VOCABULARY, Vocabulary, vocabulary_of

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

# What the PTO specs state: name, DataType code, element bits, kind.
DATATYPES = [
    ("FP64", 0, 64, "float"), ("FP32", 1, 32, "float"), ("TF32", 2, 32, "float"), ("HF32", 3, 32, "float"),
    ("FP16", 4, 16, "float"), ("BF16", 5, 16, "float"), ("HiF8", 6, 8, "float"), ("E4M3", 7, 8, "float"),
    ("E5M2", 8, 8, "float"), ("E3M2", 9, 8, "float"), ("E2M3", 10, 8, "float"), ("E2M1X2", 11, 4, "packed"),
    ("E1M2X2", 12, 4, "packed"), ("E8M0", 13, 8, "float"), ("HiF4X2", 14, 4, "packed"),
    ("S64", 16, 64, "signed"), ("S32", 17, 32, "signed"), ("S16", 18, 16, "signed"), ("S8", 19, 8, "signed"),
    ("S4X2", 20, 4, "packed"), ("U64", 24, 64, "unsigned"), ("U32", 25, 32, "unsigned"),
    ("U16", 26, 16, "unsigned"), ("U8", 27, 8, "unsigned"), ("U4X2", 28, 4, "packed"),
]
PADS = [("Zero", 0), ("Max", 1), ("Min", 2), ("Null", 3)]
CMODES = [("EQ", 0), ("NE", 1), ("LT", 2), ("GT", 3), ("LE", 4), ("GE", 5)]
CLASSES = ["elementwise-tile-tile", "tile-scalar-and-immediate", "reduce-and-expand", "memory-and-data-movement",
           "matrix-and-matrix-vector", "layout-and-rearrangement", "irregular-and-complex"]


def _tree(name: str) -> Path:
    root = CORPORA / name
    if not root.is_dir():
        pytest.skip(f"corpus not present at {root}")
    return root


def _table(v: Vocabulary) -> list[tuple[str, int | None, int, str]]:
    return [(t.name, t.code, t.bits, t.kind) for t in v.datatypes]


def test_bundled_vocabulary(bundled_vocabulary: Vocabulary) -> None:
    v = bundled_vocabulary
    assert _table(v) == DATATYPES
    assert v.dtype_none_code == 31
    assert [(p.name, p.code) for p in v.pad_values] == PADS
    assert [(c.name, c.code) for c in v.compare_modes] == CMODES
    assert v.tile_classes == ()  # the sample spec has no TileInstructionClass enumeration
    fp16 = v.datatype("TileDataType_fp16")
    assert fp16 is not None and (fp16.member, fp16.mask) == ("TileDataType_FP16", 0xFFFF)
    assert v.datatype_of_code(17) is v.datatype("S32") and v.datatype_of_code(15) is None
    assert v.datatype("FP99") is None


def test_corpus_0583_states_the_same_facts_in_its_own_words() -> None:
    v = vocabulary_of(load_spec(_tree("pto-spec-0.58.3")))
    assert _table(v) == DATATYPES
    assert v.dtype_none_code == 31  # constant DTYPE_NONE = '11111'
    assert [(p.name, p.code) for p in v.pad_values] == PADS  # from "Zero-or-ByteId0" …
    assert [(c.name, c.code) for c in v.compare_modes] == CMODES
    assert list(v.tile_class_names) == CLASSES
    assert v.tile_classes[0].member == "TileClass_ElementwiseTileTile"


def test_corpus_0580_without_field_domains_reads_the_asl() -> None:
    v = vocabulary_of(load_spec(_tree("pto-spec-0.58.0")))
    assert _table(v) == DATATYPES  # codes from its case arms, unsigned = not floating and not signed
    assert [(p.name, p.code) for p in v.pad_values] == PADS  # enumeration order
    assert v.compare_modes == () and v.dtype_none_code is None
    assert list(v.tile_class_names) == CLASSES


def test_a_tile_class_the_spec_does_not_state_is_reported(bundled_copy: Path) -> None:
    (bundled_copy / "asl/arch/classes.asl").write_text(
        "type TileInstructionClass of enumeration {\n    TileClass_ReduceAndExpand\n};\n", encoding="utf-8")
    graph = SpecGraph.build(load_spec(bundled_copy))
    assert VOCABULARY(graph).tile_class_names == ("reduce-and-expand",)
    findings, _ = run_checks(graph, only=["instruction-tile-class"])
    assert findings and all(f.rule == "instruction-tile-class" for f in findings)
    assert "'elementwise-tile-tile' is not one of reduce-and-expand" in findings[0].message
