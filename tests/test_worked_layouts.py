"""A matrix Block's layouts are chosen with its shape, not read as "the first layout named" (issue 39): every
combination of the layouts the predicate admits for A and B is a run the ASL verifies, in the text's order after
the first-named pair. On a development branch (``codex/issue-65-cube-cell-layout``) the first named, CUBE_M32,
holds only M 65-128 and B must be CUBE_N8: TMATMUL ran there only once A in CUBE_M16 with B in CUBE_N8 was tried
(with the B.FPATR that branch's model requires and a float type before a second integer one); 94 -> 98 of 109."""

from __future__ import annotations

from specgen.worked.composition import Template
from specgen.worked.matrixplan import MAX_LAYOUT_VARIANTS, layout_variants


def _tpl(choices: dict[str, tuple[str, ...]]) -> Template:
    return Template(lines=[], matrix=[("A", "CUBE_M32", "M", "K"), ("B", "CUBE_M32", "K", "N"), ("C", "", "M", "N")],
                    layout_choices=choices)


def test_every_other_combination_of_the_admitted_layouts_is_tried_in_order() -> None:
    got = layout_variants(_tpl({"A": ("CUBE_M16", "CUBE_N8"), "B": ("CUBE_M16", "CUBE_N8")}))
    assert got[0] == (("A", "CUBE_M32"), ("B", "CUBE_M16"))  # the first-named A with B's next
    assert (("A", "CUBE_M16"), ("B", "CUBE_N8")) in got
    assert (("A", "CUBE_M32"), ("B", "CUBE_M32")) not in got  # the first plan already ran it
    assert len(got) == min(8, MAX_LAYOUT_VARIANTS) and len(set(got)) == len(got)


def test_a_source_with_one_admitted_layout_keeps_it() -> None:
    got = layout_variants(_tpl({"A": ("CUBE_M16",)}))
    assert got == [(("A", "CUBE_M16"),)]
    assert layout_variants(_tpl({})) == []
