"""JSON payloads into models, with every failure turned into a located finding.

Duplicate keys are errors (``json`` would silently keep the last one), and a
pydantic ``ValidationError`` becomes one finding per problem, pointing at the
column of the offending key on the record's line when it can be found.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..diagnostics import Finding, Severity

M = TypeVar("M", bound=BaseModel)
MAX_ERRORS_PER_RECORD = 8


class DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise DuplicateKey(k)
            seen.add(k)
    return d


def parse_json(text: str, path: str, line: int, col0: int, what: str,
               findings: list[Finding]) -> Any:
    """Parse ``text`` (which starts at ``line``/``col0`` in ``path``); None after a finding."""
    try:
        return json.loads(text, object_pairs_hook=_pairs)
    except DuplicateKey as e:
        i = text.find(f'"{e.key}"')
        i = text.find(f'"{e.key}"', i + 1) if i >= 0 else -1
        findings.append(_located(text, path, line, col0, i, "record-duplicate-key",
                                 f"{what}: key {e.key!r} appears twice; keep one"))
    except json.JSONDecodeError as e:
        findings.append(_located(text, path, line, col0, e.pos, "record-json",
                                 f"{what}: invalid JSON: {e.msg}"))
    except RecursionError:
        findings.append(Finding("record-json", Severity.ERROR, path, line, "{what}: JSON nested too deeply", col=col0 + 1))
    return None


def _located(text: str, path: str, line: int, col0: int, pos: int, rule: str, msg: str) -> Finding:
    if pos < 0:
        return Finding(rule, Severity.ERROR, path, line, msg, col=col0 + 1)
    nl = text.count("\n", 0, pos)
    if nl:
        return Finding(rule, Severity.ERROR, path, line + nl, msg, col=pos - text.rfind("\n", 0, pos))
    return Finding(rule, Severity.ERROR, path, line, msg, col=col0 + pos + 1)


def validate(model: type[M], data: Any, text: str, path: str, line: int, col0: int, what: str,
             findings: list[Finding]) -> M | None:
    """Validate ``data`` with ``model``; None after located findings."""
    if not isinstance(data, dict):
        findings.append(Finding("record-schema", Severity.ERROR, path, line,
                                f"{what}: expected a JSON object, got {type(data).__name__}", col=col0 + 1))
        return None
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = e.errors(include_url=False)
        for err in errors[:MAX_ERRORS_PER_RECORD]:
            loc = ".".join(str(p) for p in err["loc"]) or "(record)"
            keys = [p for p in err["loc"] if isinstance(p, str)]
            pos = -1
            for k in reversed(keys):
                pos = text.find(f'"{k}"')
                if pos >= 0:
                    break
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown key (the record format is closed; remove it or fix its spelling)"
            elif err["type"] == "missing":
                msg = "required key is missing"
            findings.append(_located(text, path, line, col0, pos, "record-schema", f"{what}: {loc}: {msg}"))
        if len(errors) > MAX_ERRORS_PER_RECORD:
            findings.append(Finding("record-schema", Severity.ERROR, path, line,
                                    f"{what}: {len(errors) - MAX_ERRORS_PER_RECORD} more problems", col=col0 + 1))
        return None
