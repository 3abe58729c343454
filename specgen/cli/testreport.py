"""``specgen test``'s reports as files: JSON and JUnit written, and read back for ``--merge`` and
``--durations``.

JUnit goes through the one JUnit writer (:mod:`specgen.report.junit`); the shard a report covers
travels in the JSON document's ``shard`` object and in the JUnit suite's ``shard.*`` properties, so a
merge can check that the shards make one whole suite (:func:`specgen.asl.sharding.merge`).
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from .. import __version__
from ..asl.runner import TestResult, TestRunReport
from ..asl.sharding import ShardError, ShardInfo, ShardReport
from ..diagnostics import printable
from ..report import junit

SUITE = "specgen test"
_RESULT_FIELDS = {f.name for f in fields(TestResult)}
_KIND = {"failed": "failure", "error": "error", "not-derivable": "skipped"}  # a test's status: its JUnit element
_STATUS = {kind: status for status, kind in _KIND.items()}


def to_json(report: TestRunReport, shard: ShardInfo | None = None,
            shards: list[ShardInfo] | None = None) -> dict[str, Any]:
    """The JSON report; a shard's says which shard it is, a merged one which shards it joined."""
    doc = report.to_json()
    doc["tool"] = {"name": "specgen", "version": __version__}
    if shard is not None:
        doc["shard"] = shard.to_json()
    if shards:
        doc["merged_shards"] = [s.to_json() for s in shards]
    return doc


def to_junit(report: TestRunReport, root: str = "", shard: ShardInfo | None = None) -> str:
    """One ``specgen test`` suite: a testcase per test (classname its path, name its id), a ``<failure>`` for
    a failed test (type: the reason, e.g. ``missing-function:<name>``), an ``<error>`` for one that could
    not run, a ``<skipped>`` for one not derivable on this tree (message: why); the location and ASL stack
    as the element's text."""
    cases = []
    for r in report.results:
        outcome = None
        if r.status in _KIND:
            kind = _KIND[r.status]
            outcome = junit.Outcome(kind, r.message, r.reason or ("assert" if kind == "failure" else ""),
                                    "\n".join(printable(x) for x in (r.location, *r.stack)))  # no spec text starts a line
        cases.append(junit.Case(r.path, r.id or r.path, seconds=r.seconds, outcome=outcome))
    props = [("tool", "specgen"), ("tool.version", __version__), ("profile", report.profile),
             ("jobs", str(report.jobs)), ("load_seconds", f"{report.load_seconds:.3f}")]
    if root:
        props.insert(2, ("root", root))
    if shard is not None:
        props += [(f"shard.{k}", str(v)) for k, v in shard.to_json().items()]
    suite = junit.TestSuite(SUITE, tuple(cases), tuple(props), report.total_seconds)
    return junit.document([suite], seconds=report.total_seconds)


def read(path: Path) -> ShardReport:
    """A report ``specgen test --format json|junit`` wrote (a shard's or a whole suite's); raises
    :class:`ShardError` naming the file when it is neither."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ShardError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    if text.lstrip().startswith("<"):
        return _from_junit(text, str(path))
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ShardError(f"{path}: neither a JSON nor a JUnit report of specgen test: {e}") from None
    return _from_json(doc, str(path))


def _from_json(doc: Any, source: str) -> ShardReport:
    if not isinstance(doc, dict) or not isinstance(doc.get("tests"), list) or not isinstance(doc.get("summary"), dict):
        raise ShardError(f"{source}: not a JSON report of specgen test (no 'summary' and 'tests')")
    results = []
    for i, t in enumerate(doc["tests"]):
        if not isinstance(t, dict) or not {"id", "path", "status", "seconds"} <= set(t):
            raise ShardError(f"{source}: tests[{i}] is not a test result")
        results.append(TestResult(**{k: v for k, v in t.items() if k in _RESULT_FIELDS}))
    s = doc["summary"]
    shard = ShardInfo.from_json(doc["shard"]) if "shard" in doc else None
    return ShardReport(source, results, float(s.get("total_seconds", 0)), float(s.get("load_seconds", 0)),
                       str(s.get("profile", "")), int(s.get("jobs", 1)), shard)


def _from_junit(text: str, source: str) -> ShardReport:
    try:
        suites = junit.read(text)
    except ValueError as e:
        raise ShardError(f"{source}: {e}") from None
    results, props, total = [], {}, 0.0
    for suite in suites:
        props.update(dict(suite.properties))
        total = max(total, suite.seconds or 0.0)
        for c in suite.cases:
            status, message, reason, location, stack = "passed", "", "", "", []
            if c.outcome is not None:
                status = _STATUS.get(c.outcome.kind, "error")
                message, reason = c.outcome.message, c.outcome.type
                location, *stack = (c.outcome.text or "").split("\n")
            test_id = "" if c.name == c.classname else c.name
            results.append(TestResult(test_id, c.classname, status, c.seconds or 0.0, message, location, stack, reason))
    shard = None
    if "shard.index" in props:
        shard = ShardInfo.from_json({k.removeprefix("shard."): v for k, v in props.items() if k.startswith("shard.")})
    return ShardReport(source, results, total, float(props.get("load_seconds", 0) or 0), props.get("profile", ""),
                       int(props.get("jobs", 1) or 1), shard)
