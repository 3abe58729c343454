"""Scan one ASL unit: its ``// PTO-…:`` headers, NDF clauses and DOC regions.

Only the four exact header prefixes carry JSON; prose comments that merely
start with an ID and a colon (``// PTO-REQ-PROFILE-001: …``) are prose. Every
record keeps its line span so findings and pages can point back at it.
"""

from __future__ import annotations

import re

from ..diagnostics import Finding, Severity, Span
from ..models.instruction import InstructionHeader, instruction_model
from ..models.located import AslUnit, DocRegion, NdfClause
from ..models.ndf import NdfAttributes
from ..models.unit import ReviewRecord, StateRecord, UnitHeader
from ..files import MAX_LINE_CHARS
from .jsonrec import parse_json, validate

HEADERS = {
    "// PTO-INSTRUCTION: ": ("instruction", InstructionHeader),
    "// PTO-UNIT: ": ("unit", UnitHeader),
    "// PTO-REVIEW: ": ("review", ReviewRecord),
    "// PTO-STATE: ": ("state", StateRecord),
}
NDF_BEGIN = re.compile(r"^// NDF-BEGIN: (.*)$")
NDF_END = re.compile(r"^// NDF-END: (.*)$")
NDF_ID = re.compile(r"^PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*$")
DOC_BEGIN = re.compile(r"^// DOC-BEGIN: (.*)$")
DOC_END = re.compile(r"^// DOC-END: (.*)$")
DOC_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
NDF_KEYS = ("kind", "level", "layer", "status")


def _f(rule: str, path: str, line: int, msg: str, col: int = 1, subject: str = "") -> Finding:
    return Finding(rule, Severity.ERROR, path, line, msg, subject=subject, col=col)


def safe_file_name(mnemonic: str) -> str:
    """The file stem an instruction must have (the corpus' path rule)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", mnemonic).strip("_")


def scan_unit(path: str, sha256: str, text: str, findings: list[Finding]) -> AslUnit:
    """Parse one unit's records; structural problems become findings, never exceptions."""
    unit = AslUnit(path=path, sha256=sha256, text=text)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    clause: tuple[str, int, list[str], list[tuple[int, str]]] | None = None  # id, line, body, attr lines
    doc: tuple[str, int, list[str]] | None = None
    header_count = 0
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            findings.append(_f("line-too-long", path, n, f"line has {len(line)} characters; the limit is {MAX_LINE_CHARS}"))
            kind = next((k for prefix, (k, _) in HEADERS.items() if line.startswith(prefix)), None)
            if kind in ("instruction", "unit") and unit.header_span is None:
                # the header is there but unreadable: one cause, one finding (no header-missing)
                header_count += 1
                unit.header_span = Span(path, n, 1, n)
                _mark_broken(unit, kind)
            continue
        if clause is not None:
            cid, start, body, attrs = clause
            m = NDF_END.match(line)
            if m:
                end_id = m.group(1).strip()
                if end_id != cid:
                    findings.append(_f("ndf-mismatched-end", path, n,
                                       f"NDF-END: {end_id} closes clause {cid} opened on line {start}; "
                                       f"write NDF-END: {cid}", 15, cid))
                _close_clause(unit, cid, start, n, body, attrs, findings)
                clause = None
            elif NDF_BEGIN.match(line) or DOC_BEGIN.match(line):
                findings.append(_f("ndf-unterminated", path, start,
                                   f"clause {cid} is not closed before line {n}; add // NDF-END: {cid}", 15, cid))
                _close_clause(unit, cid, start, n - 1, body, attrs, findings, report=False)
                clause = None
            elif line.startswith("// ndf:") :
                attrs.append((n, line))
            elif line.startswith("//"):
                body.append(line[3:] if line.startswith("// ") else line[2:])
            else:
                findings.append(_f("ndf-bad-body", path, n,
                                   f"clause {cid} body line is not a comment; every line of a clause starts with //",
                                   1, cid))
            if clause is not None:
                continue
            if not (NDF_BEGIN.match(line) or DOC_BEGIN.match(line)):
                continue
        if doc is not None:
            name, start, body = doc
            m = DOC_END.match(line)
            if m:
                if m.group(1) != name:
                    findings.append(_f("doc-mismatched-end", path, n,
                                       f"DOC-END: {m.group(1)} closes region {name!r} opened on line {start}", 15))
                _close_doc(unit, name, start, n, body, findings)
                doc = None
            elif DOC_BEGIN.match(line):
                findings.append(_f("doc-nested", path, n, f"DOC region opened inside region {name!r} (line {start})"))
            elif NDF_BEGIN.match(line):
                findings.append(_f("ndf-nested", path, n, f"NDF clause inside DOC region {name!r} (line {start}); "
                                   "clauses sit outside DOC regions"))
            else:
                body.append(line.rstrip())
            continue
        if not line.startswith("//"):
            continue
        for prefix, (kind, model) in HEADERS.items():
            # The exact prefix followed by JSON punctuation is a record (a list or a string is a
            # wrong-typed record, not prose); anything else after it stays prose.
            if line.startswith(prefix) and line[len(prefix):].lstrip()[:1] in ("{", "[", '"'):
                payload = line[len(prefix):]
                span = Span(path, n, len(prefix) + 1, n)
                data = parse_json(payload, path, n, len(prefix), f"PTO-{kind.upper()} record", findings)
                if kind == "instruction":
                    model = instruction_model(data)  # the record's generation, by its structure
                rec = None if data is None else validate(model, data, payload, path, n, len(prefix),
                                                          f"PTO-{kind.upper()} record", findings)
                if kind in ("instruction", "unit"):
                    header_count += 1
                    if header_count > 1:
                        findings.append(_f("header-duplicate", path, n,
                                           "a unit has exactly one PTO-INSTRUCTION or PTO-UNIT header; remove this one"))
                        break
                    unit.header_span = span
                    unit.raw_header = data if isinstance(data, dict) else None
                    if kind == "instruction":
                        unit.instruction = rec  # type: ignore[assignment]
                        if rec is None:
                            unit.unit = None
                    else:
                        unit.unit = rec  # type: ignore[assignment]
                    if rec is None and isinstance(data, dict):
                        _mark_broken(unit, kind)
                elif kind == "review":
                    if unit.review_span is not None:
                        findings.append(_f("header-duplicate", path, n, "a unit has at most one PTO-REVIEW line"))
                    unit.review = rec  # type: ignore[assignment]
                    unit.review_span = span
                else:
                    if rec is not None:
                        unit.states.append((rec, span))  # type: ignore[arg-type]
                break
        else:
            m = NDF_BEGIN.match(line)
            if m:
                cid = m.group(1).strip()
                if not NDF_ID.match(cid):
                    findings.append(_f("ndf-bad-id", path, n,
                                       f"clause id {cid!r} must match PTO-[A-Z0-9]+(-[A-Z0-9]+)*", 15, cid))
                clause = (cid, n, [], [])
                continue
            m = NDF_END.match(line)
            if m:
                findings.append(_f("ndf-mismatched-end", path, n,
                                   f"NDF-END: {m.group(1)} without an open clause", 15, m.group(1)))
                continue
            m = DOC_BEGIN.match(line)
            if m:
                name = m.group(1)
                if not DOC_NAME.match(name):
                    findings.append(_f("doc-bad-name", path, n, f"DOC region name {name!r} must match [a-z][a-z0-9-]*", 15))
                doc = (name, n, [])
                continue
            m = DOC_END.match(line)
            if m:
                findings.append(_f("doc-mismatched-end", path, n, f"DOC-END: {m.group(1)} without an open region", 13))
    if clause is not None:
        cid, start, body, attrs = clause
        findings.append(_f("ndf-unterminated", path, start,
                           f"clause {cid} is never closed; add // NDF-END: {cid}", 15, cid))
    if doc is not None:
        findings.append(_f("doc-unterminated", path, doc[1],
                           f"DOC region {doc[0]!r} is never closed; add // DOC-END: {doc[0]}", 15))
    _unit_rules(unit, len(lines), findings)
    return unit


def _mark_broken(unit: AslUnit, kind: str) -> None:
    """Remember which kind of header a unit has even when its record failed validation."""
    unit.raw_header = dict(unit.raw_header or {}, __kind__=kind)


def _close_clause(unit: AslUnit, cid: str, start: int, end: int, body: list[str],
                  attr_lines: list[tuple[int, str]], findings: list[Finding], report: bool = True) -> None:
    path = unit.path
    attrs: NdfAttributes | None = None
    if not attr_lines:
        findings.append(_f("ndf-bad-attribute", path, start,
                           f"clause {cid} has no '// ndf: kind=… level=… layer=… status=…' line", 1, cid))
    else:
        if len(attr_lines) > 1:
            findings.append(_f("ndf-bad-attribute", path, attr_lines[1][0],
                               f"clause {cid} has a second // ndf: line; keep exactly one", 1, cid))
        n, line = attr_lines[0]
        values: dict[str, str] = {}
        ok = True
        col = len("// ndf:") + 1
        for token in line[len("// ndf:"):].split():
            col = line.find(token, col - 1) + 1
            key, eq, value = token.partition("=")
            if not eq or not value:
                findings.append(_f("ndf-bad-attribute", path, n, f"clause {cid}: {token!r} is not key=value", col, cid))
                ok = False
            elif key not in NDF_KEYS:
                findings.append(_f("ndf-bad-attribute", path, n,
                                   f"clause {cid}: unknown key {key!r} (allowed: {', '.join(NDF_KEYS)})", col, cid))
                ok = False
            elif key in values:
                findings.append(_f("ndf-bad-attribute", path, n, f"clause {cid}: key {key!r} given twice", col, cid))
                ok = False
            else:
                values[key] = value
        if ok:
            missing = [k for k in NDF_KEYS if k not in values]
            if missing:
                findings.append(_f("ndf-bad-attribute", path, n,
                                   f"clause {cid}: missing {', '.join(missing)}", 1, cid))
            else:
                try:
                    attrs = NdfAttributes.model_validate(values)
                except Exception as e:  # pydantic.ValidationError
                    errs = getattr(e, "errors", lambda **_: [{"msg": str(e), "loc": ()}])(include_url=False)
                    for err in errs:
                        loc = ".".join(str(p) for p in err["loc"])
                        findings.append(_f("ndf-bad-attribute", path, n,
                                           f"clause {cid}: {loc + ': ' if loc else ''}{err['msg'].removeprefix('Value error, ')}", 1, cid))
    if report and not "\n".join(body).strip():
        findings.append(_f("ndf-empty", path, start, f"clause {cid} has an empty body; state the rule", 1, cid))
    unit.clauses.append(NdfClause(id=cid, attrs=attrs, body=body, span=Span(path, start, 1, end), source=path))


def _close_doc(unit: AslUnit, name: str, start: int, end: int, body: list[str], findings: list[Finding]) -> None:
    if unit.doc(name) is not None:
        findings.append(_f("doc-duplicate", unit.path, start, f"DOC region {name!r} appears twice in this unit"))
        return
    if not "".join(body).strip():
        findings.append(_f("doc-empty", unit.path, start, f"DOC region {name!r} is empty"))
    unit.docs.append(DocRegion(name=name, text="\n".join(body), span=Span(unit.path, start + 1, 1, end - 1)))


def _unit_rules(unit: AslUnit, nlines: int, findings: list[Finding]) -> None:
    """Per-file structure: one header, review only on instructions, decode+operation regions, path."""
    path = unit.path
    kind = (unit.raw_header or {}).get("__kind__") or ("instruction" if unit.instruction else
                                                        "unit" if unit.unit else None)
    if unit.header_span is None:
        findings.append(_f("header-missing", path, 1 if nlines else 0,
                           "no // PTO-INSTRUCTION: or // PTO-UNIT: header; every ASL unit starts with one"))
        return
    if kind == "unit" and unit.review_span is not None:
        findings.append(_f("review-misplaced", path, unit.review_span.line,
                           "PTO-REVIEW belongs to instruction units only"))
    if kind == "instruction":
        if unit.review_span is None:
            findings.append(_f("review-missing", path, unit.header_span.line,
                               "instruction unit has no // PTO-REVIEW: line"))
        for name in ("decode", "operation"):
            if unit.doc(name) is None:
                findings.append(_f("doc-missing", path, unit.header_span.line,
                                   f"instruction unit has no '{name}' DOC region"))
    ins = unit.instruction
    if ins is not None:
        want = "/".join(["asl", ins.surface, *ins.classification, safe_file_name(ins.mnemonic) + ".asl"])
        if path != want:
            findings.append(_f("instruction-path-mismatch", path, unit.header_span.line,
                               f"instruction {ins.mnemonic} must live at {want}", subject=ins.id))
    if unit.unit is not None and unit.surface and unit.unit.surface != unit.surface:
        findings.append(_f("unit-path-mismatch", path, unit.header_span.line,
                           f"unit surface {unit.unit.surface!r} but the file is under asl/{unit.surface}/",
                           subject=unit.unit.id))
    for rec, span in unit.states:
        if unit.unit is not None and rec.owner != unit.unit.id:
            findings.append(_f("state-owner", path, span.line,
                               f"state {rec.id} owner {rec.owner!r} is not this unit's id {unit.unit.id!r}",
                               subject=rec.id))
