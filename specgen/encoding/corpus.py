"""Read a spec tree just far enough to build its encodings.

The project's loader is the real reader; this module exists so the encoding
commands and tests can run on a spec root alone. It reads the four catalogs
and scans ASL headers for instruction contracts and field domains, nothing
else, and hands everything to the pure :func:`build_encodings`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .build import CATALOG_STEMS, build_encodings
from .model import EncodingSet

_HEADERS = ("// PTO-INSTRUCTION: ", "// PTO-UNIT: ")


def read_headers(root: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Instruction contracts by mnemonic and every declared field domain."""
    contracts: dict[str, dict[str, Any]] = {}
    domains: list[dict[str, Any]] = []
    asl = root / "asl"
    if not asl.is_dir():
        return contracts, domains
    for path in sorted(asl.rglob("*.asl")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            prefix = next((p for p in _HEADERS if line.startswith(p)), None)
            if prefix is None:
                continue
            try:
                rec = json.loads(line[len(prefix):])
            except ValueError:
                continue  # the loader reports malformed headers; we only need the good ones
            if not isinstance(rec, dict):
                continue
            if prefix == _HEADERS[0] and isinstance(rec.get("mnemonic"), str):
                if isinstance(rec.get("contract"), dict):
                    contracts[rec["mnemonic"]] = rec["contract"]
            for d in rec.get("field_domains", []) or []:
                if isinstance(d, dict):
                    domains.append(d)
    return contracts, domains


def encodings_from_root(root: Path) -> EncodingSet:
    """Build the encodings of the spec tree at ``root`` (catalogs plus ASL headers)."""
    catalogs: dict[str, Any] = {}
    texts: dict[str, str] = {}
    paths: dict[str, str] = {}
    for stem in CATALOG_STEMS:
        rel = f"spec/catalog/{stem}.json"
        paths[stem] = rel
        p = root / rel
        try:
            texts[stem] = p.read_text(encoding="utf-8")
            catalogs[stem] = json.loads(texts[stem])
        except (OSError, ValueError):
            continue
    contracts, domains = read_headers(root)
    return build_encodings(catalogs, domains, contracts, paths, texts)
