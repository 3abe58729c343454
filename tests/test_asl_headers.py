"""The header scan of generated ASL agrees with the parser, declaration for declaration."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.asl.headers import Header, headers_of, scan_headers
from specgen.asl.index import parse_cached
from specgen.catalog_asl.sources import generated_sources
from specgen.loader import load_spec



def _compare(root: Path) -> int:
    sources = generated_sources(load_spec(root))
    assert sources, f"{root}: no generated ASL to compare"
    for text, path in sources:
        scanned = scan_headers(text)
        assert scanned is not None, f"{path}: the scan declined a layout specgen itself writes"
        assert scanned == headers_of(parse_cached(text.encode("utf-8"), path)), path
    return len(sources)


def test_bundled(bundled_root: Path) -> None:
    assert _compare(bundled_root) >= 3


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["0.58.3", "0.58.0"])
def test_corpora(corpus_root: Path, release: str) -> None:
    assert _compare(corpus_root.parent / f"pto-spec-{release}") >= 3


def test_multi_line_headers_and_enumerations() -> None:
    text = ("pure func F(a: bits(N),\n    b: integer{1, 2}) => (boolean, integer)\nbegin\n  return (TRUE, 1);\nend;\n"
            "type E of enumeration {\n    E_A,\n    E_B\n};\n"
            "constant K : integer = 3;\nfunc G()\nbegin\nend;\n")
    assert scan_headers(text) == [Header("func", "F", 2, True), Header("enum", "E", members=("E_A", "E_B")),
                                  Header("global", "K"), Header("func", "G", 0, False)]


def test_an_unknown_top_level_form_declines() -> None:
    assert scan_headers("getter X[] => integer\nbegin\n  return 1;\nend;\n") is None
