"""The instruction page (issue 14): encodings an engineer can copy, field values, opcode maps, related
instructions, and a contract in sentences of one language.

Oracles are the spec's own records and the decoder (``specgen.encoding.decode``, what ``specgen decode``
runs), never the rendered HTML itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from specgen.encoding.decode import decode, primary_matches
from specgen.encoding.present import bit_pattern, mask_hex, match_hex, opcode_map
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.prose import datatype_sentence
from specgen.render import RenderOptions, render_site
from specgen.render.i18n import LOCALES
from specgen.render.instr_facts import domain_tables, related
from specgen.render.pages import encodings_for
from specgen.vocabulary import VOCABULARY
from htmltext import text as _text, section as _section

TMUL_SRC = "asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl"
TMUL_EN = "en/tile/elementwise-tile-tile/arithmetic/TMUL.md"
TMUL_ZH = "zh/tile/elementwise-tile-tile/arithmetic/TMUL.md"
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture(scope="module")
def graph(bundled_root: Path) -> SpecGraph:
    return SpecGraph.build(load_spec(bundled_root))


@pytest.fixture(scope="module")
def pages(graph: SpecGraph) -> dict[str, str]:
    return {p.url: p.content for p in render_site(graph, RenderOptions(), only=lambda p: p.uri in (TMUL_EN, TMUL_ZH))}


def _tmul(graph: SpecGraph):  # type: ignore[no-untyped-def]
    return encodings_for(graph).by_mnemonic("TMUL")[0]


def test_mask_and_match_are_what_decode_accepts(graph: SpecGraph, pages: dict[str, str]) -> None:
    es = encodings_for(graph)
    enc = _tmul(graph)
    mask, match = int(mask_hex(enc), 16), int(match_hex(enc), 16)
    assert match & ~mask == 0 and mask != 0
    enc_html = _section(pages[TMUL_EN], "encoding")
    assert mask_hex(enc) in enc_html and match_hex(enc) in enc_html
    free = enc.word_mask & ~mask
    for filler in (0, free, free & 0x5555_5555_5555_5555):
        word = match | filler
        if not enc.matches(word):  # a free field whose constraint rejects this filler
            continue
        assert "TMUL" in [m.encoding.mnemonic for m in primary_matches(decode(es, word, enc.width))]
    for bit in range(enc.width):
        if mask >> bit & 1:
            flipped = match ^ (1 << bit)
            assert "TMUL" not in [m.encoding.mnemonic for m in decode(es, flipped, enc.width)], bit


def test_bit_pattern_spells_mask_and_match(graph: SpecGraph) -> None:
    for enc in list(encodings_for(graph))[:400]:
        pattern = bit_pattern(enc)
        width, digits = pattern.split("'b")
        assert int(width) == enc.width
        bits = digits.replace("_", "")
        assert len(bits) == enc.width, pattern
        for i, ch in enumerate(bits):
            b = enc.width - 1 - i
            if enc.opcode_mask >> b & 1:
                assert ch == str(enc.opcode_match >> b & 1), (enc.form_id, b)
            else:
                assert ch == "?", (enc.form_id, b)
    assert bit_pattern(_tmul(graph)).startswith("32'b?????_00_00010_")


def test_opcode_map_lists_every_operation_of_the_carrier(graph: SpecGraph, pages: dict[str, str]) -> None:
    enc = _tmul(graph)
    om = opcode_map(encodings_for(graph), enc.carrier.form_id)
    assert om is not None
    expected = {(r.mode, r.function): r.name for u in graph.iter_instruction_units()
                for r in u.instruction.catalog_records if getattr(r, "command_mnemonic", None) == enc.carrier.mnemonic}
    got = {(c.mode, c.function): m for c in om.cells for m in c.mnemonics}
    assert got == expected
    assert len(om.cells) == len(om.modes) * (1 << om.function_bits)
    page = pages[TMUL_EN]
    assert 'class="sg-opcode-map"' in page and "<details class=\"sg-opcode-map\" id" in page  # collapsed
    assert re.search(r'<strong class="sg-self"><code>TMUL</code></strong>', page)


def test_datatype_codes_come_from_the_spec(graph: SpecGraph, pages: dict[str, str]) -> None:
    vocab = VOCABULARY(graph)
    ins = graph.units_by_path[TMUL_SRC].instruction
    tables = domain_tables(graph, [_tmul(graph)], list(ins.contract.legality))
    dtype = next(d for d in tables if d.field == "DataType")
    assert [(r.value, r.meaning) for r in dtype.rows] == [(t.code, t.name) for t in vocab.datatypes]
    sentence = datatype_sentence(list(ins.contract.legality), vocab)
    assert sentence is not None
    assert {r.meaning for r in dtype.rows if r.admitted} == set(sentence.names)
    fields = _section(pages[TMUL_EN], "fields")
    assert 'id="values-DataType"' in fields and 'href="#values-DataType"' in fields
    for t in vocab.datatypes:
        assert f"<code>{t.name}</code>" in fields


def test_datatype_codes_without_a_field_domain(corpus_root: Path) -> None:
    """0.58.0 declares no DataType domain: the codes come from its ASL (the vocabulary), not from a table of ours."""
    old = corpus_root.parent / "pto-spec-0.58.0"
    if not old.is_dir():
        pytest.skip(f"{old} not found")
    g = SpecGraph.build(load_spec(old))
    assert not g.spec.field_domains
    enc = encodings_for(g).by_mnemonic("TMUL")[0]
    tables = domain_tables(g, [enc], [])
    assert [(r.value, r.meaning) for r in tables[0].rows] == [(t.code, t.name) for t in VOCABULARY(g).datatypes]
    assert tables[0].domain_id is None


def test_related_instructions_come_from_the_records(graph: SpecGraph, pages: dict[str, str]) -> None:
    unit = graph.units_by_path[TMUL_SRC]
    rel = related(graph, unit)
    same_class = sorted(u.instruction.mnemonic for u in graph.iter_instruction_units()
                        if u.instruction.classification == unit.instruction.classification and u.path != TMUL_SRC)
    assert sorted(rel.same_class) == same_class and same_class
    named = {w for c in unit.clauses for w in re.findall(r"[A-Z][A-Z0-9_.]*", c.text)}
    assert set(rel.named) <= named and "TMUL" not in rel.named
    section = _section(pages[TMUL_EN], "related")
    for m in rel.same_class + rel.same_operation + rel.named:
        assert f"<code>{m}</code>" in section


def test_records_and_index_record_are_collapsed(pages: dict[str, str]) -> None:
    page = pages[TMUL_EN]
    records = _section(page, "records")
    assert records.count("<details class=\"sg-record\"") == 2 and "<details open" not in records
    assert re.search(r"<details class=\"sg-record sg-index-record\"", _section(page, "index-record"))


def test_chinese_prose_has_no_english_outside_identifiers(pages: dict[str, str]) -> None:
    zh = pages[TMUL_ZH]
    sem = _section(zh, "semantics")
    generated = re.findall(r'<div class="sg-prose">(.*?)</div>', sem, re.S) + re.findall(
        r'<p id="contract-[a-z]+">(.*?)</p>', sem, re.S)
    assert len(generated) >= 4
    for fragment in generated:
        words = _text(re.sub(r"<code>.*?</code>", "", fragment))
        assert not LATIN.search(words), words
    # quoted contract text is marked as English, never mixed into a Chinese sentence
    assert 'class="sg-spec-text sg-contract-preflight" lang="en"' in sem
    enc = _text(re.sub(r"<figure.*?</figure>", "", _section(zh, "encoding"), flags=re.S))
    assert "Constant" not in enc and "常量" in enc
    fields = _text(_section(zh, "fields"))
    assert "encoding-defined" not in fields and "由编码定义" in fields


def test_instr_catalogs_say_each_sentence_in_both_languages() -> None:
    en = json.loads((LOCALES / "en" / "instr.json").read_text(encoding="utf-8"))
    zh = json.loads((LOCALES / "zh-CN" / "instr.json").read_text(encoding="utf-8"))
    assert set(en) == set(zh)
    for key, text in zh.items():
        placeholders = set(re.findall(r"\{(\w+)\}", en[key]))
        assert placeholders == set(re.findall(r"\{(\w+)\}", text)), key
        prose = re.sub(r"\{\w+\}", "", text).replace("units[]", "")
        assert not LATIN.search(prose), f"{key}: {text}"


def test_the_first_paragraph_says_the_operation_the_record_passes_in_each_language(
        graph: SpecGraph, pages: dict[str, str]) -> None:
    # the oracle: TMUL's catalog record passes one enumeration member to its semantic handler
    ins = next(u.instruction for u in graph.iter_instruction_units() if u.instruction and u.instruction.mnemonic == "TMUL")
    rec = next(r for r in ins.catalog_records if hasattr(r, "family"))
    constants = [a.constant for a in rec.arguments if a.constant]
    assert constants == ["TileBinary_MUL"]
    for url, word in ((TMUL_EN, "multiplication"), (TMUL_ZH, "乘法")):
        first = re.search(r'<div class="sg-prose"[^>]*><p>(.*?)</p>', _section(pages[url], "semantics"), re.S)
        assert first, url
        text = _text(first.group(1))
        assert word in text and "TileBinary_MUL" in text and rec.semantic_handler in text, text
    zh = _text(re.search(r'<div class="sg-prose"[^>]*><p>(.*?)</p>', _section(pages[TMUL_ZH], "semantics"), re.S).group(1))
    assert "。 " not in zh, zh  # Chinese sentences are joined without a space (an empty catalog text is a text)


def test_a_member_the_glossary_lacks_is_named_by_its_identifier_only() -> None:
    from types import SimpleNamespace

    from specgen.render.i18n import Messages
    from specgen.render.instr_prose import operation_sentence
    rec = SimpleNamespace(arguments=[SimpleNamespace(constant="TileBinary_FROBNICATE"),
                                     SimpleNamespace(constant=None)], semantic_handler="ExecuteTileBinary")
    for lang in ("en", "zh"):
        said = _text(str(operation_sentence(Messages(lang), rec)))  # type: ignore[arg-type]
        assert "TileBinary_FROBNICATE" in said and "operation." not in said and "FROBNICATE" not in said.replace(
            "TileBinary_FROBNICATE", ""), said
    assert operation_sentence(Messages("en"), SimpleNamespace(arguments=[], semantic_handler="X")) is None  # type: ignore[arg-type]
