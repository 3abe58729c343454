"""Encodings of a loaded spec: the loader's parsed catalogs and headers, no second read.

This is the one way the check, the pages and the commands get encodings.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..cache import cache_file, package_digest, prune, read_entry, write_entry
from ..workspace import current
from ..graph import Derived, SpecGraph
from ..models.catalog import CATALOG_STEMS
from ..models.instruction import Contract
from .asm_names import ASSEMBLY_PROSE
from .build import build_encodings
from .model import EncodingSet

CONTRACT_FIELDS = {"operands", "field_zero_meanings", "field_contracts"}
def _last() -> dict[str, EncodingSet]:
    """The workspace's table: the last set built in this process, by a digest of its inputs (it dies with the workspace)."""
    return current().table("encoding.from_spec._LAST")


def _spec_encodings(graph: SpecGraph) -> EncodingSet:
    """Build (once per graph) the encoding set from the spec's own catalogs, domains and contracts."""
    spec = graph.spec
    catalogs: dict[str, Any] = {}
    paths: dict[str, str] = {}
    texts: dict[str, str] = {}
    for stem in CATALOG_STEMS:
        rel = f"{spec.config.json_root}/catalog/{stem}.json"
        art = spec.artifacts.get(rel)
        if art is not None and art.data is not None:
            catalogs[stem], paths[stem], texts[stem] = art.data, rel, art.text
    domains = [d.model_dump() for d in spec.field_domains]
    # only what field tables read: dumping whole contracts (prose, examples) was most of this stage
    contracts = {u.instruction.mnemonic: _contract(u.instruction.contract)
                 for u in spec.units if u.instruction is not None and u.instruction.contract is not None}
    # the set is a pure function of these inputs: a serve rebuild after a prose edit reuses it
    key = hashlib.sha256(json.dumps([sorted((k, spec.files.get(p, "")) for k, p in paths.items()), domains,
                                     contracts], sort_keys=True, default=str).encode()).hexdigest()
    es = _last().get(key)
    if es is None:
        stored = _stored(key)
        es = read_entry(stored, EncodingSet)
        if es is None:
            es = build_encodings(catalogs, domains, contracts, paths, texts)
            if write_entry(stored, es) and stored is not None:
                prune(stored.parent, "*.entry", 8)  # a few trees and versions; each set is about 1 MB
        _last().clear()
        _last()[key] = es
    return es


def _stored(key: str) -> Path | None:
    """Where the set of one input digest is kept between processes: building it costs a warm
    ``specgen run`` 70 ms, decoding it 20 ms. The key holds specgen's code (the builder)."""
    digest = hashlib.sha256(f"{key}\0{package_digest()}".encode()).hexdigest()
    return cache_file("encodings", f"{digest}.entry")


def _contract(contract: Contract) -> dict[str, Any]:
    """The contract parts field tables read, and the few sentences that name assembly codes (asm_names)."""
    out = contract.model_dump(include=CONTRACT_FIELDS)
    out["assembly_prose"] = [line for line in (*contract.legality, *contract.defaults) if ASSEMBLY_PROSE.search(line)]
    return out


spec_encodings = Derived(_spec_encodings, structural=True)  # catalogs, domains, records: the structure
