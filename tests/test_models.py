"""Each model against a valid record and each kind of invalid one."""

from __future__ import annotations

import copy
import json

import pytest
from pydantic import ValidationError

from specgen.models import (AdrFrontMatter, FieldDomain, InstructionHeader, NdfAttributes, ReleaseManifest,
                            ReviewRecord, StateRecord, TestHeader, UnitHeader)

TILE = {
    "assembly": ["TADD <bundle operands>"], "block": ["BSTART.VEC TADD, DataType", "BSTOP"],
    "catalog_indices": [0],
    "catalog_records": [{
        "arguments": [{"constant": "TileBinary_ADD"}, {"operand": "destination0"}],
        "command_mnemonic": "BSTART.TEPL", "contract_status": "reviewed-complete",
        "datr_contract": {"allowed_nonzero_fields": ["PadValueOrByteId"], "pad_union": "pad-value"},
        "disposition": "accepted-direct-operation", "effect_contract": "ExecuteTileBinary", "family": "TEPL",
        "fault_contract": "ExecuteTileInstruction", "function": 0, "legality_handler": "L", "mode": 0, "name": "TADD",
        "operands": [{"field": "destination0", "role": "destination"}],
        "restart_contract": "R", "selector": "0x000", "semantic_handler": "ExecuteTileBinary",
        "state_effects": ["operand:destination0:destination"]}],
    "classification": ["elementwise-tile-tile", "arithmetic"],
    "contract": {
        "block_composition": ["BSTART.VEC TADD, DataType", "BSTOP"], "canonical_assembly": ["TADD <bundle operands>"],
        "defaults": ["d"], "encoding_class": "selector-encoded-block-operation", "examples": ["e"],
        "exceptions": ["x"], "field_contracts": {}, "field_zero_meanings": {}, "legality": ["l"],
        "memory_effects": ["none"], "operands": [{"field": "destination0", "role": "destination"}],
        "ordering": ["o"], "standalone_opcode": False, "state_effects": ["s"]},
    "depends_on": ["PTO-TILE-MODEL"], "engine": "VEC", "id": "PTO-TILE-TADD", "mnemonic": "TADD",
    "summary": "Add.", "surface": "tile",
}


def test_valid_tile_instruction() -> None:
    rec = InstructionHeader.model_validate(TILE)
    assert rec.clause_id == "PTO-INST-TILE-TADD"
    assert rec.catalog_records[0].selector == "0x000"


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d.update(extra_key=1), "extra_key"),
    (lambda d: d.pop("summary"), "summary"),
    (lambda d: d.update(surface="vector"), "surface"),
    (lambda d: d.update(id="PTO-TILE-WRONG"), "should be 'PTO-TILE-TADD'"),
    (lambda d: d.update(catalog_indices=[0, 1]), "catalog_indices"),
    # an engine on a non-tile record (one missing on a tile record is the tree's rule: tests/test_generations.py)
    (lambda d: d.update(surface="block", id="PTO-BLOCK-TADD"), "engine is forbidden"),
    (lambda d: d["catalog_records"][0].update(selector="0x001"), "selector"),
    (lambda d: d["catalog_records"][0].update(name="TSUB"), "mnemonic"),
    (lambda d: d["contract"].update(standalone_opcode=True), "standalone_opcode"),
    (lambda d: d["contract"].update(legality=["Execute the TADD instruction contract"]), "placeholder"),
    (lambda d: d["contract"].update(defaults=[]), "defaults"),
    (lambda d: d["contract"].update(legality=["a", "a"]), "duplicate"),
    (lambda d: d.update(classification=["Not_A_Class", "x"]), "classification"),
    (lambda d: d.update(depends_on=["lowercase"]), "depends_on"),
])
def test_invalid_instruction(mutate, fragment: str) -> None:
    d = copy.deepcopy(TILE)
    mutate(d)
    with pytest.raises(ValidationError) as e:
        InstructionHeader.model_validate(d)
    assert fragment in str(e.value)


def test_review_record() -> None:
    ok = {"review_method": "formal-definition-read", "outcome": "FORMAL-COMPLETE",
          "reviewed_fields": ["assembly", "encoding", "defaults", "operation", "state", "memory", "ordering",
                              "faults", "reserved"]}
    ReviewRecord.model_validate(ok)
    for bad in ({**ok, "outcome": "RESERVED"}, {**ok, "reviewed_fields": ["assembly"]}, {**ok, "x": 1}):
        with pytest.raises(ValidationError):
            ReviewRecord.model_validate(bad)


def test_unit_and_state_records() -> None:
    UnitHeader.model_validate({"id": "PTO-TILE-MODEL", "surface": "tile", "classification": ["model", "x"],
                               "depends_on": ["generated:decoders"]})
    with pytest.raises(ValidationError):
        UnitHeader.model_validate({"id": "PTO-TILE-MODEL", "surface": "gpu", "classification": ["m"], "depends_on": []})
    StateRecord.model_validate({"id": "PTO-STATE-TILE-LOCAL", "classification": ["tile"], "scope": "core",
                                "owner": "PTO-TILE-MODEL", "members": ["_Tiles"], "depends_on": []})
    with pytest.raises(ValidationError):
        StateRecord.model_validate({"id": "PTO-TILE-LOCAL", "classification": ["tile"], "scope": "core",
                                    "owner": "PTO-TILE-MODEL", "members": [], "depends_on": []})


def test_ndf_attributes_kind_fixes_level() -> None:
    NdfAttributes.model_validate({"kind": "contract", "level": "L1", "layer": "tile", "status": "accepted"})
    with pytest.raises(ValidationError, match="requires level=L1"):
        NdfAttributes.model_validate({"kind": "contract", "level": "L3", "layer": "tile", "status": "accepted"})
    with pytest.raises(ValidationError):
        NdfAttributes.model_validate({"kind": "contract", "level": "L1", "layer": "gpu", "status": "accepted"})


def test_test_header() -> None:
    ok = {"id": "PTO-AVS-TILE-TADD-001", "source": "asl/tile/a/TADD.asl", "requirements": ["PTO-INST-TILE-TADD"],
          "kind": "execution", "summary": "adds", "pass_condition": "p", "related_sources": []}
    assert TestHeader.model_validate(ok).semantic
    for bad in ({**ok, "kind": "smoke"}, {**ok, "source": "../x.asl"}, {**ok, "requirements": ["A", "A"]},
                {**ok, "summary": "run test of x"}, {k: v for k, v in ok.items() if k != "id"}):
        with pytest.raises(ValidationError):
            TestHeader.model_validate(bad)


ADR = {"id": "ADR-0001", "title": "T", "status": "accepted", "authors": ["a"], "approvers": ["b"],
       "created": "2026-01-01", "accepted": "2026-01-02", "rejected": None, "superseded": None,
       "baseline": "0" * 40, "target_releases": ["0.1.0"], "affected_ndf": ["PTO-X-001"], "affected_units": [],
       "resolves": [], "supersedes": [], "superseded_by": [], "implementation_issue": None,
       "release_impact": "required", "legacy_ids": []}


def test_adr_front_matter() -> None:
    AdrFrontMatter.model_validate(ADR)
    for bad in ({**ADR, "accepted": None}, {**ADR, "status": "superseded"}, {**ADR, "id": "ADR-1"},
                {**ADR, "implementation_issue": "http://insecure"}, {**ADR, "created": "yesterday"}):
        with pytest.raises(ValidationError):
            AdrFrontMatter.model_validate(bad)


def test_field_domain_totality() -> None:
    ok = {"id": "PTO-FIELD-X", "width": 1, "role": "r", "zero_meaning": "z",
          "assigned": [{"value": 0, "meaning": "A"}], "reserved": [1], "rejection": "r"}
    FieldDomain.model_validate(ok)
    with pytest.raises(ValidationError, match="not total"):
        FieldDomain.model_validate({**ok, "reserved": []})
    with pytest.raises(ValidationError, match="both assigned and reserved"):
        FieldDomain.model_validate({**ok, "reserved": [0, 1]})


def test_manifest_model_on_corpus(corpus_root) -> None:
    data = json.loads((corpus_root / "spec/release-manifest.json").read_text())
    man = ReleaseManifest.model_validate(data)
    assert len(man.canonical_inputs) == 858
    data["canonical_inputs"].append(data["canonical_inputs"][0])
    with pytest.raises(ValidationError, match="listed twice"):
        ReleaseManifest.model_validate(data)
