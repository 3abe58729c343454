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
from ..files import MAX_JSON_DEPTH, json_too_deep

M = TypeVar("M", bound=BaseModel)
MAX_ERRORS_PER_RECORD = 8
MAX_INT_DIGITS = 4000


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


class NotJson(ValueError):
    """A value Python's ``json`` accepts but JSON does not (NaN, Infinity, a 5,000-digit integer)."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(why)
        self.token = token
        self.why = why


def _constant(name: str) -> Any:
    raise NotJson(name, f"{name} is not a JSON value")


def _int(digits: str) -> int:
    # Python refuses to convert more than 4,300 digits (ValueError); say so as a finding.
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise NotJson(digits, f"integer with {len(digits.lstrip('-'))} digits (the limit is {MAX_INT_DIGITS})")
    return int(digits)


def _float(text: str) -> float:
    if len(text) > MAX_INT_DIGITS:
        raise NotJson(text, f"number with {len(text)} characters (the limit is {MAX_INT_DIGITS})")
    return float(text)


def parse_json(text: str, path: str, line: int, col0: int, what: str,
               findings: list[Finding]) -> Any:
    """Parse ``text`` (which starts at ``line``/``col0`` in ``path``); None after a finding."""
    deep = json_too_deep(text)
    if deep >= 0:  # before json.loads: its recursion depends on the process' recursion limit
        findings.append(_located(text, path, line, col0, deep, "record-json",
                                 f"{what}: JSON nested more than {MAX_JSON_DEPTH} deep; flatten the data"))
        return None
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant,
                          parse_int=_int, parse_float=_float)
        if data is None:  # a bare 'null' would otherwise be indistinguishable from "reported, skip it"
            findings.append(Finding("record-schema", Severity.ERROR, path, line,
                                    f"{what}: expected a JSON object, got null", col=col0 + 1))
        return data
    except DuplicateKey as e:
        i = text.find(f'"{e.key}"')
        i = text.find(f'"{e.key}"', i + 1) if i >= 0 else -1
        findings.append(_located(text, path, line, col0, i, "record-duplicate-key",
                                 f"{what}: key {e.key!r} appears twice; keep one"))
    except json.JSONDecodeError as e:
        findings.append(_located(text, path, line, col0, e.pos, "record-json",
                                 f"{what}: invalid JSON: {e.msg}"))
    except NotJson as e:
        i = text.find(e.token[:64])
        findings.append(_located(text, path, line, col0, i, "record-json", f"{what}: invalid JSON: {e.why}"))
    except ValueError as e:  # anything else the decoder refuses
        findings.append(Finding("record-json", Severity.ERROR, path, line, f"{what}: invalid JSON: {e}",
                                col=col0 + 1))
    except RecursionError:
        findings.append(Finding("record-json", Severity.ERROR, path, line,
                                f"{what}: JSON nested too deeply", col=col0 + 1))
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
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown key (the record format is closed; remove it or fix its spelling)"
            elif err["type"] == "missing":
                msg = "required key is missing"
            findings.append(_located(text, path, line, col0, pos, "record-schema", f"{what}: {loc}: {msg}"))
        if len(errors) > MAX_ERRORS_PER_RECORD:
            findings.append(Finding("record-schema", Severity.ERROR, path, line,
                                    f"{what}: {len(errors) - MAX_ERRORS_PER_RECORD} more problems", col=col0 + 1))
        return None
