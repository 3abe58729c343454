"""``specgen schema``: the JSON Schema of every model, so other tools can validate records too."""

from __future__ import annotations

import json
from pathlib import Path

from .models import SCHEMA_MODELS
from .report import REPORT_SCHEMA_PATH


def write_schemas(out: Path) -> list[Path]:
    """Write one ``<name>.schema.json`` per model (and the check report's schema) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, model in sorted(SCHEMA_MODELS.items()):
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema.setdefault("title", model.__name__)
        p = out / f"{name}.schema.json"
        p.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(p)
    p = out / "check-report.schema.json"
    p.write_text(REPORT_SCHEMA_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    written.append(p)
    return written
