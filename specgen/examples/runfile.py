"""Reading what ``specgen run`` is given: a loose example file, or a program and its Tiles file.

A run file is either

* an example file (a JSON object: ``program``, ``tiles``, optional
  ``profile`` and ``expect``; the format of docs-internal/examples.md, with
  ``id``/``instruction``/``summary`` optional here), or
* a plain program text whose input Tiles come from an explicit Tiles file or
  from ``<FILE>.tiles.json`` beside it: a JSON object mapping registers to
  Tiles in the example format
  (``{"T1": {"data_type": "FP16", "rows": 16, …, "values": [[…]]}}``).

Malformed input raises :class:`~specgen.examples.model.ExampleFormatError`
with a position, never a pydantic traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from ..executor.executor import TileInput
from ..vocabulary import Vocabulary
from .model import ExampleFile, ExampleFormatError, TileData, parse_example


def tiles_file(file: str, explicit: Path | None) -> Path | None:
    """The Tiles file of a plain program: ``explicit``, else ``FILE.tiles.json`` (``X.s`` -> ``X.tiles.json``)."""
    if explicit:
        return Path(explicit)
    if file != "-":
        sibling = Path(file + ".tiles.json") if not file.endswith(".s") else Path(file[:-2] + ".tiles.json")
        for cand in (sibling, Path(file + ".tiles.json")):
            if cand.is_file():
                return cand
    return None


def load_tiles(path: Path, vocabulary: Vocabulary) -> list[TileInput]:
    """The input Tiles a Tiles file maps registers to."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ExampleFormatError(f"{path}: not valid JSON: {e.msg}", e.lineno, e.colno) from None
    if not isinstance(data, dict):
        raise ExampleFormatError(f"{path}: expected an object mapping registers to tiles")
    out = []
    for reg, spec in data.items():
        try:
            out.append(TileData.model_validate(spec, context={"vocabulary": vocabulary}).to_input(reg, vocabulary))
        except ValidationError as e:
            err = e.errors()[0]
            raise ExampleFormatError(f"{path}: {reg}.{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return out


def parse_loose_example(text: str, vocabulary: Vocabulary) -> ExampleFile:
    """An example file where ``id``, ``instruction`` and ``summary`` may be left out."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ExampleFormatError(f"not valid JSON: {e.msg}", e.lineno, e.colno) from None
    if isinstance(data, dict):
        data.setdefault("id", "PTO-EX-RUN")
        data.setdefault("instruction", "RUN")
        data.setdefault("summary", "specgen run")
        text = json.dumps(data) if set(data) else text
    if isinstance(data, dict):
        return parse_example(text, vocabulary, require_expect=False)
    return parse_example(text, vocabulary)
