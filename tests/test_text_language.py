"""The language of a tree's prose, which pages in another language mark with ``lang``.

The real trees set ``[specification] language = "ASL1"``: the language the spec
is *written in* as a specification, not a natural language. specgen leaves that
key alone and reads the prose language from its own ``[specgen] text_language``.
"""

from __future__ import annotations

from pathlib import Path

from specgen.diagnostics import Finding
from specgen.loader.config import load_config

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO.parent / "shared" / "corpus"


def _load(text: str) -> tuple[str, list[Finding]]:
    findings: list[Finding] = []
    cfg = load_config(text, "specification.toml", findings)
    return cfg.text_language, findings


def test_the_spec_language_key_is_not_a_prose_language() -> None:
    for toml in [REPO / "spec" / "specification.toml", *sorted(CORPORA.glob("pto-spec-*/specification.toml"))]:
        lang, findings = _load(toml.read_text(encoding="utf-8"))
        assert (lang, findings) == ("en", []), (toml, findings)


def test_text_language_is_read_from_specgen_and_checked() -> None:
    assert _load('[specification]\nlanguage = "ASL1"\n[specgen]\ntext_language = "zh-CN"\n') == ("zh-CN", [])
    lang, findings = _load('[specgen]\n\ntext_language = "English please"\n')
    assert lang == "en" and [(f.rule, f.line) for f in findings] == [("config-invalid", 3)]
    assert "text_language" in findings[0].message
