"""Recognise the format generation of each artifact kind a tree uses (``Spec.formats``).

Each record was validated with the variant its own structure names
(:func:`~specgen.models.instruction.instruction_model` and friends). Here the
tree-level view is taken: the generation most records use is the tree's; a
record of another known generation is one finding each (a tree mixes formats
only by mistake); records that match no known generation at all are, when they
are most of their kind, ONE finding naming the first file and the field that
differs, in place of thousands of per-record schema errors.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

from pydantic import BaseModel, ValidationError

from ..diagnostics import Finding, Severity
from ..models.adr import MarkdownAdrHeader
from ..models.catalog import RESERVATION_STEMS
from ..models.evidence import BareTraceabilityView
from ..models.generations import ABSENT, UNKNOWN
from ..models.instruction import InstructionHeader, PreContractInstruction
from ..models.manifest import UnselectedReleaseManifest
from ..models.test import IdNamedTestHeader
from ..models.unit import UnitHeader
from .jsonrec import validate
from .tree import Spec

RULE_UNKNOWN = "format-generation-unknown"
RULE_MIXED = "format-generation-mixed"
#: a row-level difference repeated in this many rows is the file's format, not a typo
REPEATED = 3

#: header kind -> (record prefix, [(generation label, model)])
RECORD_VARIANTS: dict[str, tuple[str, list[tuple[str, type[BaseModel]]]]] = {
    "instruction": ("// PTO-INSTRUCTION: ", [("contract", InstructionHeader),
                                             ("pre-contract", PreContractInstruction)]),
    "unit": ("// PTO-UNIT: ", [("v1", UnitHeader)]),
}


def _keys(model: type[BaseModel]) -> tuple[set[str], set[str]]:
    """(required keys, allowed keys) of a closed model; a field typed ``None`` is not allowed."""
    allowed = {f.alias or n for n, f in model.model_fields.items() if f.annotation is not type(None)}
    required = {f.alias or n for n, f in model.model_fields.items() if f.is_required()}
    return required, allowed


def classify(data: Any, variants: list[tuple[str, type[BaseModel]]]) -> tuple[str | None, str]:
    """The generation whose key set ``data`` has, or None and the key that differs from the nearest."""
    if not isinstance(data, dict):
        return None, "(the record is not a JSON object)"
    keys = {k for k in data if not k.startswith("__")}  # the loader's own marks (``__kind__``)
    best: tuple[int, str] | None = None
    for label, model in variants:
        required, allowed = _keys(model)
        extra, missing = sorted(keys - allowed), sorted(required - keys)
        if not extra and not missing:
            return label, ""
        diff = (f"key '{extra[0]}' is not in generation '{label}'" if extra
                else f"key '{missing[0]}' of generation '{label}' is missing")
        if best is None or len(extra) + len(missing) < best[0]:
            best = (len(extra) + len(missing), diff)
    return None, best[1] if best else ""


def _header_line(text: str, line: int) -> str:
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:end if end >= 0 else len(text)]


def _records(spec: Spec, prefix: str) -> Iterable[tuple[str, int, Any]]:
    for u in spec.units:
        if u.header_span is not None and u.raw_header is not None \
                and _header_line(u.text, u.header_span.line).startswith(prefix):
            yield u.path, u.header_span.line, u.raw_header


def _record_generation(spec: Spec, kind: str, findings: list[Finding]) -> str:
    prefix, variants = RECORD_VARIANTS[kind]
    what = prefix.strip("/ :")
    seen: list[tuple[str, int, str | None, str]] = [
        (path, line, *classify(data, variants)) for path, line, data in _records(spec, prefix)]
    if not seen:
        return ABSENT
    counts = Counter(label for _, _, label, _ in seen if label is not None)
    unknown = [s for s in seen if s[2] is None]
    if len(unknown) >= REPEATED and len(unknown) > max(counts.values(), default=0):
        # most records differ from every known generation: the tree's format, one cause
        paths = {s[0] for s in unknown}
        findings[:] = [f for f in findings if not (f.rule == "record-schema" and f.path in paths
                                                    and f.message.startswith(f"{what} record"))]
        path, line, _, diff = unknown[0]
        findings.append(Finding(RULE_UNKNOWN, Severity.ERROR, path, line,
                                f"{what} records match no known format generation ({len(unknown)} of "
                                f"{len(seen)}; first here): {diff}; known: "
                                f"{', '.join(label for label, _ in variants)}", col=1))
        return UNKNOWN
    # a few odd records in a tree of a known generation are that record's errors (already reported)
    label = counts.most_common(1)[0][0] if counts else variants[0][0]
    for path, line, other, _ in seen:
        if other is not None and other != label:
            findings.append(Finding(RULE_MIXED, Severity.ERROR, path, line,
                                    f"{what} record is of format generation '{other}' but this tree's "
                                    f"records are '{label}'; write it in the tree's format", col=1))
    return label


_RECORD_RULES = ("record-schema", "record-json", "adr-front-matter")


def _collapse_failed(findings: list[Finding], failed: list[str], ok: int, what: str) -> bool:
    """Most files of a kind fail their record the same way: one finding instead of one per file.

    ``failed`` are the files whose record did not validate, ``ok`` how many did. The message
    shared by most failed files names the field that differs; it is kept once, at its first file.
    """
    if len(failed) < REPEATED or len(failed) <= ok:
        return False
    paths = set(failed)
    mine = [f for f in findings if f.path in paths and f.rule in _RECORD_RULES and f.message.startswith(what)]
    if not mine:
        return False
    common, n = Counter(re.sub(r"\d+", "N", f.message) for f in mine).most_common(1)[0]
    first = next(f for f in mine if re.sub(r"\d+", "N", f.message) == common)
    findings[:] = [f for f in findings if f not in mine]
    findings.append(Finding(RULE_UNKNOWN, Severity.ERROR, first.path, first.line,
                            f"{what} records match no known format generation ({len(failed)} of "
                            f"{len(failed) + ok} files; {n} say, first here): {first.message}", col=first.col))
    return True


def _majority(labels: Iterable[str]) -> str:
    counts = Counter(labels)
    return counts.most_common(1)[0][0] if counts else ABSENT


def _headerless(spec: Spec, findings: list[Finding]) -> dict[str, str]:
    """A tree whose units or tests (at least 3, most of them) carry no record is of a layout before records:
    one finding for each such kind instead of one ``header-missing`` per file (0.57.x: 788 units, 479 test
    shards). Tests are then the functions the README's convention names (``spec.test_functions``), and the
    finding says how many; without a stated convention no test runs, and the finding says that."""
    out: dict[str, str] = {}
    for kind, items, root in (("unit", spec.units, ",".join(spec.config.source_roots)),
                              ("avs", spec.tests, spec.config.test_root)):
        paths = {x.path for x in items}
        missing = [f for f in findings if f.rule == "header-missing" and f.path in paths]
        if len(missing) < REPEATED or 2 * len(missing) < len(items):
            continue
        gone = {id(f) for f in missing}
        findings[:] = [f for f in findings if id(f) not in gone]
        first = min(missing, key=lambda f: f.path)
        if kind == "unit":
            out[kind] = "no-records"
            findings.append(Finding(RULE_UNKNOWN, Severity.WARNING, first.path, 0,
                                    f"{len(missing)} of the {len(items)} ASL units under {root} carry no "
                                    "// PTO-INSTRUCTION: or // PTO-UNIT: record (a layout before unit records): "
                                    "pages show each by its path; what reads instruction or unit records has "
                                    "nothing to read", subject=root))
            continue
        conv = spec.test_functions
        if conv is None:
            out[kind] = UNKNOWN
            findings.append(Finding(RULE_UNKNOWN, Severity.WARNING, first.path, 0,
                                    f"{len(missing)} of the {len(items)} test files under {root} carry no "
                                    "// PTO-TEST: header and the tree states no convention by which their test "
                                    "functions could be found: no test of them runs", subject=root))
            continue
        count = sum(len(conv.functions(t.text)) for t in items if t.header is None)
        if conv.per_file:
            out[kind] = "main-per-file"
            findings.append(Finding(RULE_UNKNOWN, Severity.NOTE, first.path, 0,
                                    f"{len(missing)} test files under {root} carry no // PTO-TEST: header: each is "
                                    f"one test, its main(), as {conv.readme}:{conv.line} states; {count} of them "
                                    "define main() and run", subject=root))
            continue
        out[kind] = "function-shards"
        findings.append(Finding(RULE_UNKNOWN, Severity.NOTE, first.path, 0,
                                f"{len(missing)} test files under {root} carry no // PTO-TEST: header: they are "
                                f"shards of test functions, as {conv.readme}:{conv.line} states (functions named "
                                f"{conv.prefix}…); {count} test function(s) run, each by its name", subject=root))
    return out


def _engines(spec: Spec, findings: list[Finding]) -> str:
    """Whether the tree's tile records carry their execution ``engine``: a generation that has it (0.58.x)
    requires it of every tile record (one ``record-schema`` error each that lacks it); one where no tile
    record has it (the development trees before 0.58.0's release) is read without it, not 109 errors."""
    tiles = [u for u in spec.units if u.instruction is not None and u.instruction.surface == "tile"]
    carrying = sum(1 for u in tiles if getattr(u.instruction, "engine", None) is not None)
    if not tiles:
        return ABSENT
    if not carrying:
        return "none"
    for u in tiles:
        if getattr(u.instruction, "engine", None) is None:
            line = u.header_span.line if u.header_span else 1
            findings.append(Finding("record-schema", Severity.ERROR, u.path, line,
                                    f"PTO-INSTRUCTION record: engine is required on tile records ({carrying} of "
                                    f"{len(tiles)} tile records of this tree carry one)", col=1))
    return "record"


def detect_formats(spec: Spec, findings: list[Finding]) -> dict[str, str]:
    """Fill ``spec.formats``; drop the findings a generation makes meaningless (review-missing)."""
    formats: dict[str, str] = {}
    for kind in RECORD_VARIANTS:
        formats[kind] = _record_generation(spec, kind, findings)
    formats["engine"] = _engines(spec, findings)
    if any(u.review_span is not None for u in spec.units) or formats["instruction"] == "contract":
        formats["review"] = "review-records"
    elif formats["instruction"] == "pre-contract":
        # no PTO-REVIEW records existed yet: their absence is the format, not 651 errors
        formats["review"] = "none"
        findings[:] = [f for f in findings if f.rule != "review-missing"]
    else:
        formats["review"] = ABSENT
    formats["ndf"] = "v1" if any(u.clauses for u in spec.units) else ABSENT
    adr_failed = [a.path for a in spec.adrs if a.front is None]
    adr_labels = ("markdown-headers" if isinstance(a.front, MarkdownAdrHeader) else "json-front-matter"
                  for a in spec.adrs if a.front is not None)
    formats["adr"] = (UNKNOWN if _collapse_failed(findings, adr_failed, len(spec.adrs) - len(adr_failed), "ADR")
                      else _majority(adr_labels))
    test_failed = [t.path for t in spec.tests if t.header is None]
    test_labels = ("id-named" if isinstance(t.header, IdNamedTestHeader) else "kind-named"
                   for t in spec.tests if t.header is not None)
    formats["avs"] = (UNKNOWN if _collapse_failed(findings, test_failed, len(spec.tests) - len(test_failed),
                                                  "PTO-TEST record") else _majority(test_labels))
    man = spec.manifest
    formats["manifest"] = (ABSENT if spec.manifest_path not in spec.artifacts else UNKNOWN if man is None
                           else "no-release-selection" if isinstance(man, UnselectedReleaseManifest)
                           else "release-selection")
    view = spec.traceability_view
    formats["evidence"] = (ABSENT if view is None else "no-readiness-subjects"
                           if isinstance(view, BareTraceabilityView) else "readiness-subjects")
    cats = [s for s in RESERVATION_STEMS if f"{spec.config.json_root}/catalog/{s}.json" in spec.artifacts]
    formats["catalog"] = ("extension-reservations" if RESERVATION_STEMS[0] in cats
                          else "linx-vector-reservations" if cats else ABSENT)
    formats.update(_headerless(spec, findings))
    spec.formats = formats
    return formats


def unknown_shape(found: list[Finding], path: str) -> list[Finding]:
    """A traceability view whose every difference is a whole-file shape (keys renamed, missing or added in
    every row) is ONE warning naming the keys, not errors: the view is derived evidence whose tree may be
    fine, and the rules that read it say, one note each, that they did not run. Any other problem (a
    bad value in one row, invalid JSON) stays an error."""
    errors = [f for f in found if f.severity is Severity.ERROR]
    if not errors or any(f.rule != RULE_UNKNOWN for f in errors):
        return found
    name = path.rsplit("/", 1)[-1]
    details = "; ".join(f.message.split(": ", 1)[1] for f in errors)
    first = min(errors, key=lambda f: (f.line, f.col))
    return [f for f in found if f.severity is not Severity.ERROR] + [Finding(
        RULE_UNKNOWN, Severity.WARNING, path, first.line,
        f"{name} is a traceability view of a shape specgen does not know ({details}); the rules that read it "
        "did not run (a rule-not-run note each)", col=1, subject=path)]


def validate_whole(model: type[Any], data: Any, text: str, path: str, findings: list[Finding]) -> Any:
    """Validate a whole JSON file; a difference repeated in every row is ONE finding, not one per row.

    A view or catalog of a generation specgen does not know fails the same way in each
    of its thousands of rows; that is one cause (the file's format) and ONE finding for the
    file, naming each differing field and how many rows have it (at the first one's line).
    Isolated errors stay located.
    """
    name = path.rsplit("/", 1)[-1]
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = e.errors(include_url=False)
    except (TypeError, ValueError):
        errors = []
    shapes = Counter((re.sub(r"\.\d+(?=\.|$)", ".*", ".".join(str(p) for p in err["loc"])), err["type"])
                     for err in errors)
    repeated = [(loc, kind, n) for (loc, kind), n in shapes.items() if n >= REPEATED]
    if not repeated:
        validate(model, data, text, path, 1, 0, name, findings)
        return None
    parts, lines = [], []
    for loc, kind, n in sorted(repeated):
        what = ("unknown key" if kind == "extra_forbidden" else "missing key" if kind == "missing"
                else f"invalid value ({kind})")
        key = loc.rsplit(".", 1)[-1]
        lines.append(1 if kind == "missing" else
                     next((i + 1 for i, ln in enumerate(text.split("\n")) if f'"{key}"' in ln), 1))
        parts.append(f"{loc}: {what} in {n} rows")
    shown = "; ".join(parts[:5]) + (f"; and {len(parts) - 5} more" if len(parts) > 5 else "")
    findings.append(Finding(RULE_UNKNOWN, Severity.ERROR, path, lines[0],
                            f"{name} matches no known format generation of its kind: {shown}", col=1))
    return None
