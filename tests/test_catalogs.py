"""The message catalogs: every language says every sentence, and no key is defined twice."""

from __future__ import annotations

import json

import pytest

from specgen.render.i18n import LANGUAGES, LOCALES, catalog_files, load_catalog


def test_every_locale_has_every_key() -> None:
    """Plural forms (``key|one``, ``key|other``) are the language's own: they count as their key."""
    keys = {loc: {k.split("|")[0] for k in load_catalog(loc)} for loc in LANGUAGES.values()}
    english = keys["en"]
    for loc, have in keys.items():
        assert have == english, f"{loc}: missing {sorted(english - have)[:10]}, extra {sorted(have - english)[:10]}"


def test_a_counted_message_has_each_form_of_its_language() -> None:
    from specgen.render.i18n import Messages
    en = load_catalog("en")
    for key in en:
        if "|" in key:
            base = key.split("|")[0]
            assert f"{base}|one" in en and f"{base}|other" in en, base
    t, zh = Messages("en"), Messages("zh")
    assert t("changes.not_compared_item", aspect="Operands", count=1) == "Operands (1 instruction)"
    assert t("changes.not_compared_item", aspect="Operands", count=630) == "Operands (630 instructions)"
    assert zh("changes.not_compared_item", aspect="操作数", count=1) == "操作数（1 条指令）"


def test_area_files_mirror_each_other() -> None:
    for loc in LANGUAGES.values():
        names = {p.name for p in catalog_files(loc) if p.parent != LOCALES}
        assert names == {p.name for p in catalog_files("en") if p.parent != LOCALES}, loc


def test_a_key_defined_twice_is_an_error(tmp_path, monkeypatch) -> None:
    import specgen.render.i18n as i18n
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx.json").write_text(json.dumps({"a": "1"}))
    (tmp_path / "xx" / "area.json").write_text(json.dumps({"a": "2"}))
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.load_catalog.clear()
    try:
        with pytest.raises(ValueError, match="defined twice"):
            i18n.load_catalog("xx")
    finally:
        i18n.load_catalog.clear()


def test_the_diagram_words_in_english_are_the_encoders_own() -> None:
    """``specgen render --format svg`` (no catalogs) and an English page say the same title and description."""
    from specgen.encoding.svg import ENGLISH
    from specgen.render.i18n import Messages
    t = Messages("en")
    assert {k: t("svg." + k) for k in ENGLISH} == ENGLISH
    assert all(not t("svg." + k, **{}).startswith("svg.") for k in ENGLISH)


def _said(sentence: object, lang: str = "en") -> str:
    import html as _html
    import re as _re

    from specgen.render.i18n import Messages
    return _html.unescape(_re.sub(r"<[^>]+>", "", str(Messages(lang).say(sentence))))


def test_a_sentence_the_engine_writes_says_its_own_english_text(bundled_root) -> None:
    """Every Sentence kind the example engine writes reads, said by the English catalog, exactly as the engine's
    English text (logs and findings show that), and in Chinese has no English word outside its values."""
    import re as _re

    from specgen.diagnostics import Sentence, Span
    from specgen.executor.faultsite import describe_chain
    from specgen.program.reader import parse_program
    from specgen.executor.runstate import Fault
    from specgen.program.syntax import Statement
    from specgen.loader import load_spec
    from specgen.vocabulary import vocabulary_of

    vocab = vocabulary_of(load_spec(bundled_root))
    sketch = parse_program("BSTART.VEC TMUL, FP32\nB.DIM zero, ValidRows, ->LB0\nB.DIM zero, N, ->LB1\nBSTOP", vocab)
    st = Statement("BSTOP", "BSTOP", 7, 1)
    chain = describe_chain((("OperandsLegal", Span("asl/a/p.asl", 3)), ("DataTypeLegal", Span("asl/a/q.asl", 9))))
    samples = [sketch.sketch_reason, chain,
               Fault("Fault_TileLegality", st, Span("asl/tile/model/x.asl", 26), "ExecuteTile", (), "0x0001",
                     (("OperandsLegal", Span("asl/a/p.asl", 3)),)).describe(),
               Fault("Fault_TileLegality", st, None, "").describe(),
               Sentence("example.legality_mismatch", "DataType U64 is excluded by the legality prose (S32, U32) but "
                        "admitted by the ASL (InstructionContractDataTypeLegal_TMUL); one of them is wrong",
                        data_type="U64", names="S32, U32", function="InstructionContractDataTypeLegal_TMUL")]
    for s in samples:
        assert isinstance(s, Sentence), s
        assert _said(s) == str(s), (s.key, _said(s))
        rest = _said(s, "zh")
        for v in s.params.values():
            if not isinstance(v, (Sentence, list)):
                rest = rest.replace(str(v), "")
        for part in s.params.get("parts", []):
            for v in part.params.values():
                rest = rest.replace(str(v), "")
        assert not _re.search(r"\b(?:by|line|raised|sketch|symbolic|operands?|excluded|admitted|from|in|at)\b", rest), rest
