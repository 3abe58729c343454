"""ADR markdown: JSON front matter between ``---`` fences, then an H1 title and the body."""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import Finding, Severity, Span
from ..models.adr import AdrFrontMatter
from ..models.located import Adr
from .jsonrec import parse_json, validate

NAME = re.compile(r"^(\d{4})-[a-z0-9][a-z0-9-]*\.md$")
H1 = re.compile(r"^# +(?:ADR[ -]?\d{4}\s*[:.\-–—]\s*)?(.+?)\s*$")


def scan_adr(path: str, sha256: str, text: str, findings: list[Finding],
             schema_validator: Any = None) -> Adr:
    """Split and validate one ADR; front-matter problems point at the line inside the fence."""
    lines = text.split("\n")
    front: AdrFrontMatter | None = None
    raw: dict[str, Any] | None = None
    span = Span(path, 1, 1, 1)
    body_start = 0
    if not lines or lines[0].strip() != "---":
        findings.append(Finding("adr-front-matter", Severity.ERROR, path, 1,
                                "ADR must start with '---', a JSON front-matter object and '---'", col=1))
    else:
        try:
            close = lines.index("---", 1)
        except ValueError:
            close = -1
        if close < 0:
            findings.append(Finding("adr-front-matter", Severity.ERROR, path, 1,
                                    "front matter is never closed; add a line '---' after the JSON object", col=1))
        else:
            span = Span(path, 1, 1, close + 1)
            body_start = close + 1
            payload = "\n".join(lines[1:close])
            data = parse_json(payload, path, 2, 0, "ADR front matter", findings)
            if isinstance(data, dict):
                raw = data
                front = validate(AdrFrontMatter, data, payload, path, 2, 0, "ADR front matter", findings)
                if front is not None and schema_validator is not None:
                    for err in sorted(schema_validator.iter_errors(data), key=lambda e: list(e.path)):
                        where = "/".join(str(p) for p in err.path) or "(front matter)"
                        findings.append(Finding("adr-schema", Severity.ERROR, path, 2,
                                                f"ADR front matter: {where}: {err.message} (spec/schemas/pto-adr.schema.json)",
                                                col=1))
            elif data is not None:
                findings.append(Finding("record-schema", Severity.ERROR, path, 2,
                                        "ADR front matter must be a JSON object", col=1))
    name = path.rsplit("/", 1)[-1]
    m = NAME.match(name)
    if not m:
        findings.append(Finding("adr-filename", Severity.ERROR, path, 0,
                                "ADR file name must be NNNN-slug.md (lowercase slug)"))
    elif front is not None and f"ADR-{m.group(1)}" != front.id:
        findings.append(Finding("adr-filename", Severity.ERROR, path, 2,
                                f"file number {m.group(1)} does not match id {front.id}", col=1, subject=front.id))
    title, title_line = "", 0
    for i in range(body_start, len(lines)):
        if lines[i].startswith("# "):
            hm = H1.match(lines[i])
            title, title_line = (hm.group(1) if hm else lines[i][2:].strip()), i + 1
            break
    if not title:
        # the line after the front matter, or its closing '---' when nothing follows it
        line = min(body_start + 1, len(lines)) if body_start else 1
        findings.append(Finding("adr-no-title", Severity.ERROR, path, line,
                                "ADR has no '# ADR NNNN: Title' heading after its front matter", col=1,
                                subject=front.id if front else ""))
    body = "\n".join(lines[title_line:] if title_line else lines[body_start:])
    return Adr(path=path, sha256=sha256, front=front, span=span, title=title or (front.title if front else ""),
               title_line=title_line, body=body, body_line=(title_line or body_start) + 1, raw=raw)
