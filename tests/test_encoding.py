"""Encoding model on the real corpus: the TMUL reference, round trips, corpus findings."""

from __future__ import annotations

import io
import os
import random
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.check import run_checks
from specgen.check.rules import encoding_collision
from specgen.diagnostics import Finding
from specgen.encoding import Encoding, EncodingSet
from specgen.cli import main
from specgen.encoding.decode import decode, primary_matches, specializes
from specgen.encoding.from_spec import spec_encodings
from specgen.encoding.wavejson import wavejson, wavejson_text
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.models.catalog import CATALOG_STEMS

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"

REFERENCE_WAVEJSON = (
    '{"reg":[{"bits":20,"name":"20\'b00011001000110000001"},{"bits":5,"name":"Function"},'
    '{"bits":2,"name":"Mode"},{"bits":5,"name":"DataType"}],'
    '"config":{"bits":32,"fontsize":13,"hspace":900,"lanes":1,"offset":0}}'
)
REFERENCE_ITEMS = [
    ("DataType", "31:27", "variable"),
    ("Mode", "26:25", "variable"),
    ("Function", "24:20", "variable"),
    ("Constant", "19:0", "20'b00011001000110000001"),
]


@pytest.fixture(scope="module")
def corpus_root() -> Path:
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"corpus missing at {CORPUS} (required when CI is set)")
        pytest.skip(f"corpus not present at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="module")
def graph(corpus_root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(corpus_root))


@pytest.fixture(scope="module")
def es(graph: SpecGraph) -> EncodingSet:
    return spec_encodings(graph)


@pytest.fixture(scope="module")
def found(graph: SpecGraph) -> list[Finding]:
    """The corpus findings of every ``encoding-*`` rule, as ``specgen check`` runs them."""
    return [f for f in run_checks(graph)[0] if f.rule.startswith("encoding-")]


# ---------------------------------------------------------------- reference
def test_tmul_items_and_wavejson_equal_the_reference(es: EncodingSet) -> None:
    (tmul,) = es.by_mnemonic("TMUL")
    assert [i.as_tuple() for i in tmul.items()] == REFERENCE_ITEMS
    assert wavejson_text(tmul) == REFERENCE_WAVEJSON
    assert tmul.carrier.asm == "BSTART.TEPL Mode, Function, DataType"
    assert tmul.carrier.mnemonic == "BSTART.TEPL"
    assert tmul.width == 32
    assert tmul.source.path == "spec/catalog/tile-operations.json"
    assert tmul.source.line == 152
    assert {f.name: f.fixed_value for f in tmul.fields} == {"DataType": None, "Mode": 0, "Function": 2}


def test_tmul_u64_word_is_the_documented_one(es: EncodingSet) -> None:
    (tmul,) = es.by_mnemonic("TMUL")
    assert tmul.encode({"DataType": 24}) == 0xC0219181
    first = decode(es, 0xC0219181, 32)[0]
    assert first.encoding is tmul
    assert first.values["DataType"] == 24
    assert first.value_text("DataType") == "24 (U64)"


def test_every_tile_operation_has_a_carrier_layout(es: EncodingSet) -> None:
    tiles = [e for e in es if e.kind == "tile-operation"]
    names = {e.mnemonic for e in tiles}
    assert len(names) == 109
    # TMOV has four variant rows and TSTORE one, as alternatives of the same operation.
    assert sorted(e.variant or "" for e in es.by_mnemonic("TMOV")) == [
        "", "TMOV.L2S.INSERT", "TMOV.L2S.PUBLISH", "TMOV.S2L.BROADCAST", "TMOV.S2L.EXTRACT"]
    assert [e.variant for e in es.by_mnemonic("TSTORE")] == [None, "TSTORE.SPART"]
    for e in tiles:
        assert e.carrier.mnemonic.startswith("BSTART.")
        assert e.field("DataType") is not None


def test_all_widths_and_kinds_present(es: EncodingSet) -> None:
    assert es.widths() == [16, 32, 48, 64]
    kinds = {e.kind for e in es}
    assert kinds == {"tile-operation", "command-form", "scalar-form", "reservation"}
    assert sum(e.kind == "reservation" for e in es) == 40
    assert len({e.form_id for e in es}) == len(es)


def test_alias_resolves_to_owner(es: EncodingSet) -> None:
    assert [e.form_id for e in es.by_mnemonic("BSTART.VEC")] == [e.form_id for e in es.by_mnemonic("BSTART.TEPL")]


def test_scaled_immediate_renders_by_pieces(es: EncodingSet) -> None:
    fentry = es.by_form_id("fentry_32_a47584ec13b6")
    assert fentry is not None
    names = [s["name"] for s in wavejson(fentry)["reg"] if "name" in s]
    assert "uimm[9:3]" in names and "uimm[14:10]" in names
    uimm = fentry.field("uimm")
    assert uimm is not None
    assert uimm.extract(fentry.encode({"uimm": 8 * 1000, "SrcBegin": 2, "SrcEnd": 3})) == 8000


def test_wide_words_use_one_lane_per_32_bits(es: EncodingSet) -> None:
    by_width = {e.width: e for e in es}
    assert {w: wavejson(e)["config"]["lanes"] for w, e in by_width.items()} == {16: 1, 32: 1, 48: 2, 64: 2}
    for e in es:
        assert sum(s["bits"] for s in wavejson(e)["reg"]) == e.width


# ------------------------------------------------------------ round trips
Draw = Callable[[list[int]], int]


def _values(enc: Encoding, choose: Draw, between: Callable[[int, int], int]) -> dict[str, int]:
    values: dict[str, int] = {}
    for f in enc.free_fields:
        cons = enc.constraints_for(f.name)
        one_of = [c for c in cons if c.operator == "one-of"]
        if one_of:
            pool = [v for v in one_of[0].values if f.representable(v) and all(c.allows(v) for c in cons)]
            values[f.name] = choose(pool)
            continue
        while True:
            raw = between(0, (1 << f.value_width) - 1) & f.covered_value_mask
            v = f.from_raw(raw)
            if all(c.allows(v) for c in cons):
                values[f.name] = v
                break
    return values


def _assert_round_trip(es: EncodingSet, enc: Encoding, values: dict[str, int]) -> None:
    word = enc.encode(values)
    assert enc.matches(word), (enc.form_id, values, hex(word))
    matches = decode(es, word, enc.width)
    found = primary_matches(matches)
    assert len(found) == 1, (enc.form_id, hex(word), [m.encoding.form_id for m in found])
    if found[0].encoding is not enc:
        # A carrier command word decodes as the tile operation it carries; the carrier is listed behind it.
        assert specializes(found[0].encoding, enc), (enc.form_id, found[0].encoding.form_id)
        assert [m for m in matches if m.encoding is enc and m.carrier_of]
    decoded = next(m for m in matches if m.encoding is enc).values
    for name, v in values.items():
        assert decoded[name] == v, (enc.form_id, name, v, decoded[name])
    for f in enc.fields:
        if f.fixed_value is not None:
            assert decoded[f.name] == f.fixed_value


def test_every_form_round_trips_once(es: EncodingSet) -> None:
    for enc in es:
        rng = random.Random(zlib.crc32(enc.form_id.encode()))
        _assert_round_trip(es, enc, _values(enc, rng.choice, rng.randint))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_round_trip_property(es: EncodingSet, data: st.DataObject) -> None:
    encodings = list(es)
    enc = encodings[data.draw(st.integers(0, len(encodings) - 1), label="encoding index")]
    values = _values(enc, lambda pool: data.draw(st.sampled_from(pool)),
                     lambda lo, hi: data.draw(st.integers(lo, hi)))
    _assert_round_trip(es, enc, values)


# ---------------------------------------------------------- corpus findings
def test_corpus_findings_are_the_documented_quirks(found: list[Finding]) -> None:
    assert not [f for f in found if f.rule == "encoding-collision"]
    assert not [f for f in found if f.rule in ("encoding-overlap", "encoding-width", "encoding-record")]
    gaps = {(f.subject, f.severity.value) for f in found if f.rule == "encoding-gap"}
    assert ("b_iot_32_c11eb189dd83", "warning") in gaps
    assert ("b_iot_32_2c07e7177fad", "warning") in gaps
    assert {s for s, sev in gaps if sev == "warning"} == {"b_iot_32_c11eb189dd83", "b_iot_32_2c07e7177fad"}
    iot = next(f for f in found if f.subject == "b_iot_32_c11eb189dd83")
    assert (iot.path, iot.line) == ("spec/catalog/command-forms.json", 1245)
    assert "8:7" in iot.message


def test_fpatr_fields_inside_the_mask_are_tolerated(es: EncodingSet, found: list[Finding]) -> None:
    fpatr = es.by_form_id("b_fpatr_32_30c307e06d4a")
    assert fpatr is not None
    assert {f.name for f in fpatr.fields if f.mask & fpatr.fixed_mask} == {
        "Func", "ElementWiseEn", "Reserved", "Opc1", "Opcode", "W"}
    assert not [f for f in found if f.subject == fpatr.form_id]


def test_duplicated_selector_in_the_corpus_is_a_collision(corpus_root: Path) -> None:
    """Give TADD TMUL's Function: the two operations then decode the same carrier words."""
    import json

    from specgen.encoding import build_encodings

    cats = {s: json.loads((corpus_root / "spec/catalog" / f"{s}.json").read_text(encoding="utf-8"))
            for s in CATALOG_STEMS if (corpus_root / "spec/catalog" / f"{s}.json").exists()}
    ops = cats["tile-operations"]["operations"]
    tmul = next(o for o in ops if o["name"] == "TMUL")
    tadd = next(o for o in ops if o["name"] == "TADD")
    tadd["mode"], tadd["function"], tadd["selector"] = tmul["mode"], tmul["function"], tmul["selector"]
    found = encoding_collision.findings(build_encodings(cats))
    assert len(found) == 1
    assert "TADD" in found[0].message and "TMUL" in found[0].message and "0x" in found[0].message


# ---------------------------------------------------------------- commands
def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_render_command_formats(corpus_root: Path) -> None:
    rc, out, _ = _cli("render", "--root", str(corpus_root), "PTO-TILE-TMUL", "--format", "wavedrom")
    assert rc == 0 and out.strip() == REFERENCE_WAVEJSON
    rc, out, _ = _cli("render", "--root", str(corpus_root), "TMUL", "--format", "encoding")
    assert rc == 0 and "| Constant | 19:0 | 20'b00011001000110000001 |" in out
    rc, out, _ = _cli("render", "--root", str(corpus_root), "bstart_tepl_32_d022db6dacb3", "--format", "svg")
    assert rc == 0 and out.startswith("<svg")


def test_render_unknown_ident_exits_1(corpus_root: Path) -> None:
    rc, out, err = _cli("render", "--root", str(corpus_root), "NO.SUCH", "--format", "svg")
    assert rc == 1 and out == "" and "NO.SUCH" in err


def test_render_and_decode_without_encodings_exit_1(tmp_path: Path) -> None:
    (tmp_path / "asl").mkdir()  # a spec tree (its layout) without catalogs
    for argv in (["render", "TMUL"], ["decode", "0x1"]):
        rc, out, err = _cli(argv[0], "--root", str(tmp_path), *argv[1:])  # a root without catalogs
        assert (rc, out) == (1, "") and err.startswith(f"specgen {argv[0]}: error: no encodings found:"), argv
        # a root that is not there is a usage error, as in every command (README, exit codes)
        rc, out, err = _cli(argv[0], "--root", str(tmp_path / "absent"), *argv[1:])
        assert (rc, out) == (2, "") and "spec root" in err and "does not exist" in err, argv


def test_decode_command_names_tmul_u64(corpus_root: Path) -> None:
    rc, text, _ = _cli("decode", "--root", str(corpus_root), "0xC0219181")
    assert rc == 0
    assert "= TMUL" in text and "DataType = 24 (U64)" in text and "Function = 2" in text


def test_decode_command_no_match_exits_1(corpus_root: Path) -> None:
    rc, _, err = _cli("decode", "--root", str(corpus_root), "0xFFFFFFFF", "--width", "32")
    assert rc == 1 and "no instruction matches" in err


def test_decode_command_rejects_bad_words(corpus_root: Path) -> None:
    rc, _, err = _cli("decode", "--root", str(corpus_root), "12")
    assert rc == 1 and "hex" in err
    rc, _, err = _cli("decode", "--root", str(corpus_root), "0x1FFFF", "--width", "16")
    assert rc == 1 and "does not fit" in err


def test_the_stored_encoding_set_is_the_built_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second process reads the set the first stored (a warm ``specgen run`` does not build it again):
    what it reads is equal to a fresh build, field for field, and a build with another input is another entry."""
    from specgen.encoding import build as build_module
    from specgen.workspace import fresh, use
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))
    spec = load_spec(REPO / "spec")
    before = use(fresh())
    try:
        built = spec_encodings(SpecGraph.build(spec))
        stored = list((tmp_path / "cache" / "encodings").glob("*.entry"))
        assert len(stored) == 1
        fresh()  # another process: nothing remembered in memory
        calls: list[int] = []
        real = build_module.build_encodings
        monkeypatch.setattr("specgen.encoding.from_spec.build_encodings",
                            lambda *a, **k: calls.append(1) or real(*a, **k))
        read = spec_encodings(SpecGraph.build(load_spec(REPO / "spec")))
        assert calls == [], "the stored set was built again"
        assert read.encodings == built.encodings and read.aliases == built.aliases
        assert read.build_findings == built.build_findings and read.reviewed_overlaps == built.reviewed_overlaps
        assert read.by_form_id(built.encodings[0].form_id) == built.encodings[0]  # the indexes are rebuilt
    finally:
        use(before)
