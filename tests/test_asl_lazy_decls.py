"""The generated ASL's declarations, each module loaded when a name of it is first asked for.

A program run resolves names against every generated module but parses only those it reaches
(:mod:`specgen.asl.lazy_decls`). These tests hold the table to what the eager dict of all modules
answers, and show what is (and is not) loaded, parsed or generated.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import specgen.asl.catalog_modules as catalog_modules
from specgen.asl import interpreter_for
from specgen.asl.catalog_modules import generated_declarations, generated_modules
from specgen.asl.lazy_decls import LazyDecls, declare_into
from specgen.asl.parser import parse_source
from specgen.loader import load_spec
from specgen.workspace import fresh

BUNDLED = Path(__file__).resolve().parents[1] / "spec"


@pytest.fixture()
def spec(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(tmp_path / "cache"))  # cold: nothing parsed or listed yet
    fresh()
    yield load_spec(BUNDLED)
    fresh()


def _eager(modules) -> dict:
    names: dict = {}
    for m in modules:
        declare_into(names, m)
    return names


def test_answers_as_the_dict_of_every_module(spec):
    table = generated_declarations(spec, shards=False)
    assert table.loaded() == []  # describing the modules parsed none of them
    eager = _eager(generated_modules(spec, shards=False))
    fresh()
    table = generated_declarations(spec, shards=False)
    for name, decls in eager.items():
        assert table.get(name) == decls, name
        assert name in table
    assert table.get("NoSuchGeneratedName") is None and "NoSuchGeneratedName" not in table
    assert sorted(table) == sorted(eager)


def test_a_name_loads_only_the_modules_that_declare_it(spec):
    modules = generated_modules(spec, shards=False)
    fresh()
    table = generated_declarations(spec, shards=False)
    assert len(modules) > 1
    name = modules[-1].decls[0].name  # whatever the last module declares first
    assert table.get(name)
    loaded = table.loaded()
    assert loaded == [i for i, m in enumerate(modules) if name in _eager([m])]
    assert len(loaded) < len(modules)


def test_order_and_overloads_follow_module_order():
    a = parse_source("func F() => integer\nbegin return 1; end;\ntype E of enumeration { E_A, E_B };\n", "a.asl")
    b = parse_source("func F(x : integer) => integer\nbegin return x; end;\nfunc E_A2() => integer\nbegin return 2; end;\n",
                     "b.asl")
    asked: list[list[int]] = []

    def load(idx):
        asked.append(list(idx))
        return [[a, b][i] for i in idx]

    table = LazyDecls([["F", "E", "E_A", "E_B"], ["F", "E_A2"]], load)
    assert table.get("E_A2") == _eager([b])["E_A2"] and asked == [[1]]
    assert table.get("F") == _eager([a, b])["F"] and asked == [[1], [0]]  # module 0 first in the answer
    assert table.get("E_B") == _eager([a])["E_B"] and asked == [[1], [0]]  # nothing loaded twice


def test_a_module_that_does_not_parse_declares_nothing():
    table = LazyDecls([["Broken"], ["Fine"]], lambda idx: [None if i == 0 else
                                                           parse_source("func Fine() => integer\nbegin return 1; end;\n",
                                                                        "f.asl") for i in idx])
    assert table.get("Broken") is None and "Broken" not in table
    assert table.get("Fine") and list(table) == ["Fine"]


def test_a_warm_table_never_generates_text(spec, monkeypatch):
    generated_declarations(spec, shards=False).load_all()  # cold: listed, parsed and stored
    fresh()

    def refuse(*_a, **_k):
        raise AssertionError("the text was generated again")

    monkeypatch.setattr(catalog_modules, "generated_sources", refuse)
    table = generated_declarations(spec, shards=False)
    assert table.load_all()  # every module from the module cache, by the listing's keys


def test_a_missing_module_entry_is_generated_and_parsed_again(spec):
    keys = generated_declarations(spec, shards=False)
    keys.load_all()
    fresh()
    listing_keys = [k for k, _names in catalog_modules._stored(catalog_modules._listing(
        catalog_modules.generation_key(spec, False, False)))]
    for k in listing_keys:
        path = catalog_modules.module_path(k)
        assert path is not None and path.exists()
        path.unlink()
    table = generated_declarations(spec, shards=False)
    assert [m.decls for m in table.load_all()] == [m.decls for m in keys.load_all()]


def test_an_interpreter_runs_through_the_table_loading_what_it_reaches(spec):
    it = interpreter_for(spec)
    table = generated_declarations(spec, shards=True)
    assert it._gen is table and table.loaded() == []
    every = generated_modules(spec)
    fresh()
    it = interpreter_for(spec)
    table = it._gen
    assert isinstance(table, LazyDecls)
    name = next(d.name for d in every[0].decls if d.__class__.__name__ == "FuncDecl")
    assert it.definitions.digest(name).startswith("gen:")
    assert 0 < len(table.loaded()) < len(every)
