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
    i18n.load_catalog.cache_clear()
    try:
        with pytest.raises(ValueError, match="defined twice"):
            i18n.load_catalog("xx")
    finally:
        i18n.load_catalog.cache_clear()
