"""ADR markdown: JSON front matter between ``---`` fences, then an H1 title and the body.

An older generation (``markdown-headers``) has no front matter: the H1 names the
ADR and ``- Status:`` lines (or a ``## Status`` section) state its facts; those
are read into the same model (:class:`~specgen.models.adr.MarkdownAdrHeader`).
"""

from __future__ import annotations

import re
from typing import Any

from ..diagnostics import Finding, Severity, Span
from ..models.adr import AdrFrontMatter, MarkdownAdrHeader
from ..models.located import Adr
from .jsonrec import parse_json, validate

NAME = re.compile(r"^(\d{4})-[a-z0-9][a-z0-9-]*\.md$")
H1 = re.compile(r"^# +(?:ADR[ -]?\d{4}\s*[:.\-–—]\s*)?(.+?)\s*$")


def find_adr_dir(files: Any, root: str = "docs") -> str:
    """Where an older layout keeps its ADRs when the usual folder has none: the folder under ``docs/`` holding
    the most ``NNNN-slug.md`` files (at least two; 0.57.x: ``docs/architecture-decisions``), else ""."""
    counts: dict[str, int] = {}
    for rel in files.walk(root, ".md"):
        folder, _, name = rel.rpartition("/")
        if NAME.match(name):
            counts[folder] = counts.get(folder, 0) + 1
    best = max(sorted(counts), key=lambda d: counts[d], default="")
    return best if counts.get(best, 0) >= 2 else ""


def scan_adr(path: str, sha256: str, text: str, findings: list[Finding],
             schema_validator: Any = None) -> Adr:
    """Split and validate one ADR; front-matter problems point at the line inside the fence."""
    lines = text.split("\n")
    front: AdrFrontMatter | None = None
    raw: dict[str, Any] | None = None
    span = Span(path, 1, 1, 1)
    body_start = 0
    if lines and lines[0].startswith("# ") and not text.startswith("---"):
        front, raw = _markdown_header(path, lines, findings)
    elif not lines or lines[0].strip() != "---":
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


_BULLET = re.compile(r"^-\s+\*{0,2}([A-Za-z][A-Za-z -]*?)\*{0,2}\s*:\s*\*{0,2}\s*(.+?)\s*$")
_ADR_REF = re.compile(r"ADR[ -]?(\d{4})")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_URL = re.compile(r"https://[^\s)>\]]+")
_NDF_REF = re.compile(r"PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*")
_H1_ID = re.compile(r"^# +ADR[ -]?(\d{4})")
_STATUS_WORDS = ("draft", "proposed", "accepted", "rejected", "superseded")  # the words rules compare with


def _markdown_header(path: str, lines: list[str], findings: list[Finding]
                     ) -> tuple[AdrFrontMatter | None, dict[str, Any]]:
    """Read ``- Key: value`` lines and a ``## Status`` section above the first other section."""
    heads: dict[str, str] = {}
    section = ""
    for i, line in enumerate(lines[1:], 2):
        if line.startswith("## "):
            section = line[3:].strip().lower()
            if section != "status":
                break
            continue
        m = _BULLET.match(line)
        if m and not section:
            heads.setdefault(m.group(1).strip().lower(), m.group(2))
        elif section == "status" and line.strip() and "status" not in heads:
            heads["status"] = line.strip()
    h1 = _H1_ID.match(lines[0])
    name = NAME.match(path.rsplit("/", 1)[-1])
    number = h1.group(1) if h1 else name.group(1) if name else ""
    title = H1.match(lines[0])
    status_text = heads.get("status", "")
    word = re.sub(r"[^a-z].*$", "", status_text.lower())
    status = word if word in _STATUS_WORDS else status_text  # free text: this generation has no list
    date = _DATE.search(heads.get("decision date", heads.get("date", "")))
    data: dict[str, Any] = {"id": f"ADR-{number}", "title": title.group(1) if title else lines[0][2:].strip(),
                            "status": status}
    if date:
        data["accepted" if status in ("accepted", "superseded") else "created"] = date.group(0)
    successors = [f"ADR-{n}" for n in _ADR_REF.findall(status_text)]
    if status == "superseded" and successors:  # "Superseded" alone names no successor: not recorded
        data["superseded_by"] = successors
    refs = _NDF_REF.findall(" ".join(heads.get(k, "") for k in ("requirement", "requirements")))
    if refs:
        data["affected_ndf"] = list(dict.fromkeys(refs))
    url = _URL.search(heads.get("formal-model issue", ""))
    if url:
        data["implementation_issue"] = url.group(0)
    if "deciders" in heads:
        data["approvers"] = [heads["deciders"]]
    if not status_text:
        findings.append(Finding("adr-front-matter", Severity.ERROR, path, 1,
                                "ADR states no status: add '- Status: accepted' (or a '## Status' section)",
                                col=1))
        return None, {"headers": heads}
    return validate(MarkdownAdrHeader, data, "\n".join(lines[:40]), path, 1, 0, "ADR header", findings), \
        {"headers": heads, **data}
