"""The words an instruction page declares for the site's search ranking (issue 42), on the corpus releases.

The site script ranks an instruction that matched every word of a query by the share of its declared words'
weight the query covers (``cover`` in specgen/site/searchindex.py's RANK); this is the same computation over
:func:`declared_words` of every instruction, so what a reader types puts the meant instruction first."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.render.i18n import Messages
from specgen.render.instr_prose import declared_words

pytestmark = pytest.mark.corpus


def _shares(root: Path, lang: str, terms: list[str]) -> list[tuple[float, str]]:
    graph = SpecGraph.build(load_spec(root))
    t = Messages(lang)
    out = []
    for mn, unit in graph.instructions.items():
        ins = unit.instruction
        words = dict(declared_words(t, ins, ins.catalog_records))
        total = sum(words.values())
        hit = sum(n for w, n in words.items() if any(w.lower().startswith(q) for q in terms))
        if total and all(any(w.lower().startswith(q) for w in words) for q in terms):
            out.append((hit / total, mn))
    return sorted(out, reverse=True)


@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_matrix_multiply_ranks_tmatmul_first(corpus_root: Path, release: str) -> None:
    root = corpus_root.parent / release
    for lang, terms in (("en", ["matrix", "multiply"]), ("zh", ["矩阵", "乘法"])):
        ranked = _shares(root, lang, terms)
        assert ranked[0][1] == "TMATMUL" and ranked[0][0] > ranked[1][0], (lang, ranked[:4])


def test_compare_puts_tcmp_in_the_first_four(corpus_root: Path) -> None:
    ranked = _shares(corpus_root, "zh", ["比较"])
    share = dict((mn, s) for s, mn in ranked)["TCMP"]
    assert sum(1 for s, _ in ranked if s > share) < 4, ranked[:6]
