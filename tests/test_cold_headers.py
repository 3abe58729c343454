"""The static check generates the validation shards only when a unit could see them, and finds the same.

A cold ``specgen check`` generated 4 MB of validation sweeps (0.3-0.5 s of CPU) only to
learn that no unit of the spec names any of them. The shards are now left out unless
:func:`specgen.asl.static.shards_matter` says a unit's lookup could reach one; these tests
pin the two facts that makes exact (every shard name carries a shard prefix; each
declaration's ``refs`` hold every name the check looks up) and compare the findings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.asl.ast import FuncDecl, GlobalDecl
from specgen.asl.headers import scan_headers
from specgen.asl.index import SpecIndex, build_index
from specgen.asl.static import (_CALL_KINDS, _NAME_KINDS, _TYPE_KINDS, _walk, generated_headers, known_names,
                                shards_matter, static_findings)
from specgen.catalog_asl.sources import SHARD_PREFIXES, generated_sources
from specgen.loader import load_spec

RELEASES = ["0.58.3", "0.58.0"]


def _shard_headers(root: Path) -> dict[str, list]:
    spec = load_spec(root)
    decoders = {path for _, path in generated_sources(spec, shards=False)}
    return {path: scan_headers(text) for text, path in generated_sources(spec) if path not in decoders}


def _assert_prefixed(root: Path) -> int:
    shards = _shard_headers(root)
    for path, headers in shards.items():
        assert headers is not None, f"{path}: the scan declined a layout specgen writes"
        for h in headers:
            for name in (h.name, *h.members):
                assert name.startswith(SHARD_PREFIXES), f"{path} declares {name!r} without a shard prefix"
    return len(shards)


def _looked_up(decl: object) -> set[str]:
    """Every name the static check looks up in one declaration (see ``static._decl_findings``)."""
    if isinstance(decl, FuncDecl):
        roots: tuple = (tuple(p[1] for p in decl.params), decl.ret, decl.body)
    elif isinstance(decl, GlobalDecl):
        roots = (decl.ty, decl.init)
    else:
        roots = (decl.payload,)  # type: ignore[attr-defined]
    return {n.args[0] for n in _walk(roots) if n.kind in _NAME_KINDS + _TYPE_KINDS + _CALL_KINDS}


def _assert_refs_cover_lookups(index: SpecIndex) -> int:
    broken = {e[0] for e in index.parse_errors}
    checked = 0
    for fi, unit in enumerate(index.units):
        if unit.path in broken:
            continue
        for di, decl in enumerate(index.module(fi).decls):
            missing = _looked_up(decl) - index.refs[(fi, di)]
            assert not missing, f"{unit.path}: {getattr(decl, 'name', '?')} looks up {sorted(missing)} outside its refs"
            checked += 1
    return checked


def test_bundled_shards_carry_the_prefix_and_refs_cover_lookups(bundled_root: Path) -> None:
    assert _assert_prefixed(bundled_root) >= 1
    spec = load_spec(bundled_root)
    index = build_index(spec)
    assert _assert_refs_cover_lookups(index) > 100
    headers = generated_headers(spec, index)
    assert not shards_matter(index, headers)
    assert static_findings(index, known_names(index, headers)) == static_findings(
        index, known_names(index, generated_headers(spec)))


@pytest.mark.corpus
@pytest.mark.parametrize("release", RELEASES)
def test_corpus_shards_are_not_generated_and_change_nothing(corpus_root: Path, release: str) -> None:
    root = corpus_root.parent / f"pto-spec-{release}"
    assert _assert_prefixed(root) >= 8
    spec = load_spec(root)
    index = build_index(spec)
    assert _assert_refs_cover_lookups(index) > 2000
    lazy = generated_headers(spec, index)
    full = generated_headers(spec)
    assert len(lazy) < len(full) / 5  # the shards are most of the declarations, and were skipped
    assert not shards_matter(index, lazy)
    assert static_findings(index, known_names(index, lazy)) == static_findings(index, known_names(index, full))


def test_a_unit_that_names_a_shard_gets_the_shards(bundled_copy: Path) -> None:
    """A wrong arity against a shard's function and a misspelt shard name are found as before."""
    shards = _shard_headers(bundled_copy)
    target = next(h for hs in shards.values() for h in hs if h.kind == "func" and h.arity == 0 and "_" not in h.name)
    unit = bundled_copy / "asl" / "arch" / "faults" / "shard-user.asl"
    unit.write_text('// PTO-UNIT: {"id":"PTO-ARCH-FAULTS-SHARD-USER","surface":"arch",'
                    '"classification":["faults","shard-user"],"depends_on":[]}\n\n'
                    f"func UsesShard()\nbegin\n    {target.name}(1);\nend;\n\n"
                    f"func MisspellsShard()\nbegin\n    {target.name[:-1]}();\nend;\n", encoding="utf-8")
    spec = load_spec(bundled_copy)
    index = build_index(spec)
    decoders = [h for h in generated_headers(spec, index) if not h.name.startswith(SHARD_PREFIXES)]
    assert shards_matter(index, decoders)
    found = static_findings(index, known_names(index, generated_headers(spec, index)))
    messages = sorted(f.rule + ": " + f.message for f in found if f.path.endswith("shard-user.asl"))
    # a call the generated declaration does not fit is specgen's generator not knowing the tree (issue 39)
    assert messages[0] == (f"asl-unknown-name: unknown identifier '{target.name[:-1]}'; "
                           f"did you mean '{target.name}'?")
    assert len(messages) == 2 and messages[1].startswith(f"generated-asl: specgen's generated '{target.name}' takes 0 argument(s), "
                                                         "this tree calls it"), messages
    assert found == static_findings(index, known_names(index, generated_headers(spec)))
