"""The hand-written ASL parser builds exactly the tree the Lark grammar builds.

``specgen.asl.descent`` replaced Lark on the hot path for speed; the Lark
parse of ``asl1.lark`` stays as the reference. These tests compare both
parsers' trees node by node, positions and the names each declaration uses
included, on the bundled spec, the ASL generated from its catalogs, a sample
of the corpus, and hand-written edge cases; and they check that a syntax
error still carries Lark's message and position.
"""

from __future__ import annotations

from specgen.workspace import fresh

from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from specgen.asl import ASLError
from specgen.asl import catalog_modules
from specgen.asl.ast import Node
from specgen.asl.descent import Reject, parse_module
from specgen.asl.parser import parse_source, parse_source_lark
from specgen.loader import load_spec


def _diff(a: object, b: object, where: str) -> str | None:
    """Where two parse results first differ (kinds, positions, values, types), or None."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, Node):
        if (a.kind, a.line, a.col) != (b.kind, b.line, b.col):  # type: ignore[union-attr]
            return f"{where}: {a.kind}@{a.line}:{a.col} vs {b.kind}@{b.line}:{b.col}"  # type: ignore[union-attr]
        return _diff(a.args, b.args, f"{where}/{a.kind}")  # type: ignore[union-attr]
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):  # type: ignore[arg-type]
            return f"{where}: {len(a)} vs {len(b)} items"  # type: ignore[arg-type]
        for i, (x, y) in enumerate(zip(a, b)):  # type: ignore[call-overload]
            found = _diff(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    if is_dataclass(a):
        for f in fields(a):
            found = _diff(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"


def _assert_same(text: str, path: str) -> None:
    fast = parse_module(text, path)
    assert _diff(fast, parse_source_lark(text, path), path) is None


def _spec_texts(root: Path, step: int) -> list[tuple[str, str]]:
    """Every ``step``-th unit and AVS test of the tree, in path order (so every folder is sampled)."""
    spec = load_spec(root, cache=False)
    files = sorted([*spec.units, *spec.tests], key=lambda u: u.path)[::step]
    return [(u.text, u.path) for u in files]


def test_bundled_units_parse_identically(bundled_root: Path) -> None:
    texts = _spec_texts(bundled_root, 1)
    assert len(texts) > 50
    for text, path in texts:
        _assert_same(text, path)


def test_generated_asl_parses_identically(bundled_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str]] = []

    def record(sources: list[tuple[str, str]], jobs: int | None = None) -> list:
        seen.extend(sources)
        return [(parse_module(text, path), None) for text, path in sources]

    monkeypatch.setattr(catalog_modules, "parse_many", record)
    monkeypatch.setattr(catalog_modules, "_stored", lambda listing: None)  # a warm disk cache would skip parsing
    monkeypatch.setattr(catalog_modules, "parsed_entry", lambda key: None)
    fresh()  # parse again, not the modules this process kept
    catalog_modules.generated_modules(load_spec(bundled_root))
    assert len(seen) >= 4
    for text, path in seen:
        _assert_same(text, path)


def test_corpus_sample_parses_identically(corpus_root: Path) -> None:
    texts = _spec_texts(corpus_root, 29)  # ~1/29 of the units and tests: every folder, ~1 s of Lark
    assert len(texts) > 100
    for text, path in texts:
        _assert_same(text, path)


EDGE_CASES = [
    # keywords where only a name fits are names (Lark's contextual lexer does the same)
    "func f(of: integer) => integer\nbegin\n    let real = of;\n    return real.bits;\nend;\n",
    # tuples, discards, slices of every kind, records, parameterised calls
    "func g() => (integer, bits(4))\nbegin\n    var (a, -) = h();\n    (x.y, -) = (1, '1010');\n"
    "    - = h();\n    z[3:0, 7+:2, 1*:4] = x[[2]][1];\n    let r = R{a = 1, b = -c,};\n"
    "    Zeros{4}(); return (Zeros{4}, Ones{N}(n));\nend;\n",
    # operators: precedence, associativity, unary before ^, if-expressions, casts
    "constant K : integer {0..3, 8} = -a ^ 2 ^ b * c DIV d + e AND f == g && h --> i <-> j;\n"
    "let L = if a then b elsif c then d else e + f as integer;\nconfig C : real;\n"
    "var V : array [[4]] of (boolean, string) ;\n",
    # statements and patterns
    "noreturn pure func p()\nbegin\n    case x of\n        when 1, 2..3, - => pass;\n"
    "        when -1 => return;\n        otherwise => unreachable();\n    end;\n"
    "    for i = 0 to 3 looplimit 9 do assert i < 4; end;\n"
    "    while TRUE looplimit 2 do repeat x = x + 0x1_F; until ARBITRARY: boolean; end;\n"
    "    if a then elsif b then x = 1.5; else end;\n    // comment\n    /* block\n comment */\nend;\n",
    "type E of enumeration {A, B,};\ntype R of record {a : integer, b : bits(N),};\n"
    "type T of record {};\ntype S of bits(8);\nlet s = \"a\\\"b\";\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_parse_identically(text: str) -> None:
    _assert_same(text, "edge.asl")


@pytest.mark.parametrize("text", [
    "func f() => integer\nbegin\n    return 1 +;\nend;\n",
    "func f() => integer\nbegin\n    return 1 # 2;\nend;\n",
    "let x = a < b < c;\n",
    "func f()\nbegin\n    end = 1;\nend;\n",
    "type E of enumeration {};\n",
    "let x = (1);\nlet y = R{};\n",
])
def test_syntax_errors_keep_the_reference_message(text: str) -> None:
    with pytest.raises(Reject):
        parse_module(text, "bad.asl")
    with pytest.raises(ASLError) as fast:
        parse_source(text, "bad.asl")
    with pytest.raises(ASLError) as ref:
        parse_source_lark(text, "bad.asl")
    assert (fast.value.message, fast.value.span) == (ref.value.message, ref.value.span)
