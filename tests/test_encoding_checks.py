"""Encoding rules and the SVG renderer on small hand-made catalogs (no corpus needed)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from specgen.check.rules import encoding_collision, encoding_gap, encoding_overlap, encoding_width
from specgen.diagnostics import Finding, Severity, sorted_unique
from specgen.encoding import EncodingSet, build_encodings
from specgen.encoding.decode import common_word
from specgen.encoding.svg import svg
from specgen.encoding.wavejson import wavejson


def field(name: str, lsb: int, width: int, value_lsb: int = 0, signedness: str = "encoding-defined") -> dict[str, Any]:
    return {"name": name, "pieces": [{"instruction_lsb": lsb, "value_lsb": value_lsb, "width": width}],
            "signedness": signedness, "width": width + value_lsb}


def form(form_id: str, mnemonic: str, mask: int, match: int, fields: list[dict[str, Any]],
         constraints: list[dict[str, Any]] | None = None, width: int = 32) -> dict[str, Any]:
    return {"form_id": form_id, "mnemonic": mnemonic, "asm": f"{mnemonic} operands", "length_bits": width,
            "encoding_kind": "L32", "encoding": [{"index": 0, "mask": f"0x{mask:08x}", "match": f"0x{match:08x}",
                                                  "width_bits": width}],
            "fields": fields, "constraints": constraints or [], "status": "accepted"}


def build(forms: list[dict[str, Any]], reviewed: list[dict[str, str]] | None = None) -> EncodingSet:
    cat = {"forms": forms, "reviewed_encoding_overlaps": reviewed or []}
    text = json.dumps(cat, indent=2)
    return build_encodings({"command-forms": cat}, catalog_texts={"command-forms": text})


def check_encodings(es: EncodingSet) -> list[Finding]:
    """What ``specgen check`` reports for a spec whose encoding set is ``es`` (builder findings included)."""
    rules = (encoding_overlap, encoding_gap, encoding_width, encoding_collision)
    return sorted_unique([*es.build_findings, *(f for r in rules for f in r.findings(es))])


def rules_of(es: EncodingSet) -> set[tuple[str, str, Severity]]:
    return {(f.rule, f.subject, f.severity) for f in check_encodings(es)}


def test_clean_form_has_no_findings() -> None:
    es = build([form("a_32_1", "A", 0x0000FFFF, 0x00001234, [field("X", 16, 16)])])
    assert check_encodings(es) == []


def test_overlapping_fields_are_reported() -> None:
    es = build([form("a_32_1", "A", 0x0000FFFF, 0x1234, [field("X", 16, 10), field("Y", 24, 8)])])
    found = encoding_overlap.findings(es)
    assert len(found) == 1
    f = found[0]
    assert (f.rule, f.severity, f.subject) == ("encoding-overlap", Severity.ERROR, "a_32_1")
    assert "X" in f.message and "Y" in f.message and "25:24" in f.message
    assert (f.path, f.line) == ("spec/catalog/command-forms.json", 4)


def test_field_over_fixed_bits_needs_a_matching_pin() -> None:
    pinned_ok = form("ok_32_1", "OK", 0x0000FFFF, 0x00000023, [field("X", 16, 16), field("W", 0, 1)],
                     [{"field": "W", "operator": "one-of", "values": [1]}])
    pinned_bad = form("bad_32_1", "BAD", 0x0000FFFF, 0x00000023, [field("X", 16, 16), field("W", 0, 1)],
                      [{"field": "W", "operator": "one-of", "values": [0]}])
    unpinned = form("un_32_1", "UN", 0x0000FFFF, 0x00000024, [field("X", 16, 16), field("W", 0, 1)])
    es = build([pinned_ok, pinned_bad, unpinned])
    subjects = {f.subject for f in encoding_overlap.findings(es)}
    assert subjects == {"bad_32_1", "un_32_1"}


def test_gap_is_a_warning_for_forms_and_a_note_for_reservations() -> None:
    es = build([form("g_32_1", "G", 0x0000FE7F, 0x13, [field("X", 16, 16)])])
    (f,) = encoding_gap.findings(es)
    assert f.severity is Severity.WARNING and "8:7" in f.message
    rsv = {"reservations": [{"mnemonic": "X.*", "length_bits": 32, "owner": "x", "status": "reserved-in-pto",
                             "encoding": [{"index": 0, "mask": "0x7f", "match": "0x7f", "width_bits": 32}],
                             "fields": []}]}
    es2 = build_encodings({"extension-encoding-reservations": rsv})
    (n,) = encoding_gap.findings(es2)
    assert n.severity is Severity.NOTE and n.path == "spec/catalog/extension-encoding-reservations.json"


def test_width_errors_are_reported() -> None:
    beyond = form("w_32_1", "W", 0x0000FFFF, 0, [field("X", 16, 20)])  # bits 35:16 in a 32-bit word
    wrong_sum = form("w_32_2", "W2", 0xFFFFFFFF, 0, [])
    wrong_sum["length_bits"] = 48
    narrow = form("w_32_3", "W3", 0x0000FFFF, 0, [field("X", 16, 16)])
    narrow["fields"][0]["width"] = 8  # pieces carry 16 value bits
    es = build([beyond, wrong_sum, narrow])
    found = encoding_width.findings(es)
    assert {f.subject for f in found} == {"w_32_1", "w_32_2", "w_32_3"}
    assert all(f.rule == "encoding-width" and f.severity is Severity.ERROR for f in found)


def test_scaled_immediate_is_not_a_width_error() -> None:
    es = build([form("s_32_1", "S", 0x0000FFFF, 0, [field("imm", 16, 16, value_lsb=3)])])
    assert encoding_width.findings(es) == []
    (enc,) = es.by_mnemonic("S")
    imm = enc.field("imm")
    assert imm is not None and imm.extract(enc.encode({"imm": 8 * 77})) == 8 * 77
    assert not imm.representable(7)


def test_collision_found_with_an_example_word() -> None:
    a = form("a_32_1", "A", 0x0000007F, 0x13, [field("X", 7, 25)])
    b = form("b_32_1", "B", 0x0000707F, 0x1013, [field("Y", 15, 17), field("Z", 7, 5)])
    es = build([a, b])
    (f,) = encoding_collision.findings(es)
    assert f.severity is Severity.ERROR and "A form a_32_1" in f.message and "B form b_32_1" in f.message
    word = int(re.search(r"0x([0-9A-F]+)", f.message).group(1), 16)  # type: ignore[union-attr]
    (ea,), (eb,) = es.by_mnemonic("A"), es.by_mnemonic("B")
    assert ea.matches(word) and eb.matches(word)


def test_constraints_separate_forms() -> None:
    a = form("a_32_1", "A", 0x7F, 0x13, [field("X", 7, 5), field("R", 12, 20)],
             [{"field": "X", "operator": "not-equal", "value": 10}])
    b = form("b_32_1", "B", 0xF8F, 0x513, [field("R", 12, 20)])  # fixes X (bits 11:7) to 10
    es = build([a, b])
    assert encoding_collision.findings(es) == []
    (ea,), (eb,) = es.by_mnemonic("A"), es.by_mnemonic("B")
    assert common_word(ea, eb) is None


def test_identical_forms_are_one_finding_and_groups_compare_once() -> None:
    """k forms that accept the same words are one cause; a pair of such groups is one collision."""
    same = [form(f"s_32_{k}", f"S{k}", 0x0000007F, 0x13, [field("X", 7, 25)]) for k in range(4)]
    es = build(same)
    (f,) = encoding_collision.findings(es)
    assert f.subject == "s_32_0" and "3 other form(s) accept exactly the same 32-bit words" in f.message
    assert all(f"S{k} form s_32_{k}" in f.message for k in (1, 2, 3))
    other = [form(f"t_32_{k}", f"T{k}", 0x0000707F, 0x1013, [field("Y", 15, 17), field("Z", 7, 5)])
             for k in range(2)]
    found = encoding_collision.findings(build(same + other))
    assert len(found) == 3  # the S group, the T group, and S against T once
    (cross,) = [x for x in found if "both decode" in x.message]
    assert "7 more pair(s)" in cross.message  # 4 x 2 pairs, one shown


def test_declared_identical_pairs_are_not_reported() -> None:
    a = form("a_32_1", "A", 0x7F, 0x13, [field("X", 7, 25)])
    b = form("b_32_1", "B", 0x7F, 0x13, [field("X", 7, 25)])
    es = build([a, b], reviewed=[{"broad_form_id": "a_32_1", "narrow_form_id": "b_32_1", "reason": "alias"}])
    assert encoding_collision.findings(es) == []


def test_reviewed_overlap_is_not_reported() -> None:
    a = form("a_32_1", "A", 0x7F, 0x13, [field("X", 7, 25)])
    b = form("b_32_1", "B", 0x707F, 0x1013, [field("Y", 15, 17), field("Z", 7, 5)])
    es = build([a, b], reviewed=[{"broad_form_id": "a_32_1", "narrow_form_id": "b_32_1", "reason": "x"}])
    assert encoding_collision.findings(es) == []


def test_malformed_records_become_findings_not_exceptions() -> None:
    bad = {"form_id": "m_32_1", "mnemonic": "M", "length_bits": 32, "encoding": [{"mask": "zz"}], "fields": []}
    es = build_encodings({"command-forms": {"forms": [bad, "not an object"]},
                          "tile-operations": {"operations": [{"name": "TX", "command_mnemonic": "NOPE",
                                                              "function": 1, "family": "CUBE"}]}})
    found = check_encodings(es)
    assert {f.rule for f in found} == {"encoding-record"}
    assert len(found) == 3  # the unreadable form, the non-object entry, the missing carrier
    assert all(f.line >= 1 and f.col >= 1 for f in found)


def tepl_catalogs(name: str = "TX") -> dict[str, Any]:
    carrier = form("bstart_tepl_32_x", "BSTART.TEPL", 0x000FFFFF, 0x00019181,
                   [field("DataType", 27, 5), field("Mode", 25, 2), field("Function", 20, 5)],
                   [{"field": "DataType", "operator": "one-of", "values": [0, 1, 24]}])
    carrier["asm"] = "BSTART.TEPL Mode, Function, DataType"
    op = {"name": name, "family": "TEPL", "command_mnemonic": "BSTART.TEPL", "mode": 1, "function": 3,
          "selector": "0x023", "engine": "VEC"}
    return {"command-forms": {"forms": [carrier]}, "tile-operations": {"operations": [op]}}


def test_tile_operation_specialises_its_carrier() -> None:
    es = build_encodings(tepl_catalogs())
    (tx,) = es.by_mnemonic("TX")
    assert tx.opcode_match == (1 << 25) | (3 << 20) | 0x19181
    assert encoding_collision.findings(es) == []


def test_svg_is_deterministic_accessible_and_escaped() -> None:
    hostile = "<script>alert(1)</script>&x"
    es = build([form("e_32_1", "E<&>", 0x0000FFFF, 0x1234, [field(hostile, 16, 16)])])
    (enc,) = es.by_mnemonic("E<&>")
    one, two = svg(enc), svg(enc)
    assert one == two
    assert "<script" not in one
    root = ET.fromstring(one)  # well-formed XML despite the hostile name
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img" and root.get("viewBox")
    title, desc = root.find(f"{ns}title"), root.find(f"{ns}desc")
    assert title is not None and desc is not None
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert "E<&>" in (title.text or "")
    texts = ["".join(t.itertext()) for t in root.iter(f"{ns}text")]
    assert hostile in texts
    assert root.find(f"{ns}script") is None
    rect = root.find(f"{ns}rect")
    assert rect is not None and rect.get("fill") == "#ffffff"


def test_svg_shows_constant_bits_and_edge_numbers() -> None:
    es = build_encodings(tepl_catalogs())
    (tx,) = es.by_mnemonic("TX")
    root = ET.fromstring(svg(tx))
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for label in ("DataType", "Mode", "Function", "31", "27", "26", "25", "24", "20", "19", "0"):
        assert label in texts, label
    assert texts.count("1") + texts.count("0") >= 20  # one digit per constant bit
    assert "= 1" in texts and "= 3" in texts  # the operation's Mode and Function


def test_split_field_segments_are_suffixed() -> None:
    f = {"name": "imm", "signedness": "signed", "width": 12,
         "pieces": [{"instruction_lsb": 25, "value_lsb": 5, "width": 7},
                    {"instruction_lsb": 7, "value_lsb": 0, "width": 5}]}
    es = build([form("sp_32_1", "SP", 0x01FFF07F, 0x23, [f])])
    (enc,) = es.by_mnemonic("SP")
    names = [r.get("name") for r in wavejson(enc)["reg"]]
    assert names == ["7'b0100011", "imm[4:0]", "13'b0000000000000", "imm[11:5]"]
    imm = enc.field("imm")
    assert imm is not None and imm.extract(enc.encode({"imm": -2000})) == -2000


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.sampled_from(["0xff", "0x1", "zz", "one-of", "not-equal"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["mask", "match", "width_bits", "index", "fields", "pieces", "name", "instruction_lsb",
                         "width", "value_lsb", "length_bits", "form_id", "mnemonic", "constraints", "operator",
                         "values", "value", "field", "encoding", "function", "mode", "command_mnemonic"]),
        inner, max_size=5),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(["length_bits", "encoding", "fields", "constraints", "mnemonic"]), junk=_json,
       other=_json)
def test_hostile_catalog_data_never_raises(key: str, junk: Any, other: Any) -> None:
    good = form("a_32_1", "A", 0xFF, 0x1, [field("X", 8, 8)])
    good[key] = junk
    es = build_encodings({"command-forms": {"forms": [good, other]}, "tile-operations": {"operations": [other]},
                          "extension-encoding-reservations": {"reservations": [other]}}, contracts={"A": other})
    for f in check_encodings(es):
        assert f.line >= 1 and f.rule.startswith("encoding-")
    for enc in es:
        assert svg(enc).startswith("<svg")
