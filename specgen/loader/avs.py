"""AVS test files and their ``// PTO-TEST:`` header (line 1 or 2, exactly once)."""

from __future__ import annotations

from ..diagnostics import Finding, Severity, Span
from ..models.located import AvsTest
from ..models.test import TestHeader, test_model
from ..files import MAX_LINE_CHARS
from .jsonrec import parse_json, validate

PREFIX = "// PTO-TEST: "


def scan_test(path: str, sha256: str, text: str, findings: list[Finding]) -> AvsTest:
    """Find and validate the test header; a missing or broken header is a located finding."""
    header: TestHeader | None = None
    span: Span | None = None
    start = 0
    n = 0
    while True:
        i = text.find(PREFIX, start)
        if i < 0:
            break
        if i == 0 or text[i - 1] == "\n":
            n = text.count("\n", 0, i) + 1
            end = text.find("\n", i)
            line = text[i:end if end >= 0 else len(text)]
            if span is not None:
                findings.append(Finding("header-duplicate", Severity.ERROR, path, n,
                                        "a test has exactly one // PTO-TEST: header; remove this one", col=1))
            elif len(line) > MAX_LINE_CHARS:
                findings.append(Finding("line-too-long", Severity.ERROR, path, n,
                                        f"header line has {len(line)} characters; the limit is {MAX_LINE_CHARS}", col=1))
                span = Span(path, n, 1, n)
            else:
                span = Span(path, n, len(PREFIX) + 1, n)
                payload = line[len(PREFIX):]
                data = parse_json(payload, path, n, len(PREFIX), "PTO-TEST record", findings)
                if data is not None:
                    stem = path.rsplit("/", 1)[-1].removesuffix(".asl")
                    header = validate(test_model(data, stem), data, payload, path, n, len(PREFIX),
                                      "PTO-TEST record", findings)
        start = i + len(PREFIX)
    if span is None:
        findings.append(Finding("header-missing", Severity.ERROR, path, 1 if text else 0,
                                "no // PTO-TEST: {…} header; every AVS test starts with one", col=1))
        span = Span(path, 0, 0, 0)
    return AvsTest(path=path, sha256=sha256, header=header, span=span, text=text)
