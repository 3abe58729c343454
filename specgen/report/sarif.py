"""SARIF 2.1.0, the log format GitHub code scanning and IDE viewers import.

Locations are relative to a base id so the log stays valid wherever the
checkout lives: ``SPECROOT`` (the spec root) by default, ``REPOROOT`` (the
repository's top level) when it is known, so GitHub code scanning, which reads
URIs relative to the repository, places findings of a spec in a subfolder; ``partialFingerprints`` hash what a
finding *is* (rule, path, subject, message), not where its line moved to, so
code scanning keeps one alert across unrelated edits.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from urllib.parse import quote

from specgen.diagnostics import Finding, Severity
from specgen.report._common import TOOL_NAME, clean_data, clean_text, elapsed, help_uri, ordered, rule_catalogue
from specgen.report.summary import CheckSummary, RuleInfo

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SPECROOT = "SPECROOT"
REPOROOT = "REPOROOT"
FINGERPRINT_KEY = "specgenFindingHash/v1"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _pascal(rule_id: str) -> str:
    """SARIF wants ``rule.name`` as an identifier-like PascalCase name."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", rule_id)) or rule_id


def fingerprint(finding: Finding) -> str:
    """Stable across runs and line moves; changes when the finding's meaning does."""
    key = "\0".join(clean_text(s) for s in (finding.rule, finding.path, finding.subject, finding.message))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def artifact_uri(path: str) -> str:
    """A relative URI reference for a root-relative POSIX path (``:`` and spaces escaped)."""
    return quote(clean_text(path), safe="/")


def _root_base(root: str) -> dict[str, object]:
    """SARIF requires an absolute URI here; a relative root is only described, never
    resolved against the working directory, which would make output machine-dependent."""
    return _base(root, "The spec root as given on the command line")


def _base(root: str, what: str) -> dict[str, object]:
    for flavour in (PurePosixPath, PureWindowsPath):
        path = flavour(root)
        if path.is_absolute():
            uri = path.as_uri()
            return {"uri": uri if uri.endswith("/") else uri + "/"}
    return {"description": {"text": f"{what}: {root}"}}


def _bases(summary: CheckSummary) -> dict[str, object]:
    """``SPECROOT`` always; with a repository root, ``REPOROOT`` and ``SPECROOT`` relative to it."""
    if summary.repo_root is None or summary.spec_in_repo is None:
        return {SPECROOT: _root_base(summary.root)}
    spec: dict[str, object] = {"uriBaseId": REPOROOT}
    if summary.spec_in_repo:
        spec["uri"] = artifact_uri(summary.spec_in_repo.rstrip("/") + "/")
    return {REPOROOT: _base(summary.repo_root, "The repository root"), SPECROOT: spec}


def _location(path: str, summary: CheckSummary) -> dict[str, str]:
    if summary.repo_root is None or summary.spec_in_repo is None:
        return {"uri": artifact_uri(path), "uriBaseId": SPECROOT}
    prefix = summary.spec_in_repo.rstrip("/")
    return {"uri": artifact_uri(f"{prefix}/{path}" if prefix else path), "uriBaseId": REPOROOT}


def _rule(rule: RuleInfo) -> dict[str, object]:
    description = rule.description or f"Findings of rule {rule.id}."
    return {
        "id": rule.id,
        "name": _pascal(rule.id),
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "help": {"text": rule.help or description},
        "helpUri": help_uri(rule),
        "defaultConfiguration": {"level": _LEVEL[Severity(rule.severity)]},
    }


def _result(finding: Finding, rule_index: int, summary: CheckSummary) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": _LEVEL[Severity(finding.severity)],
        "message": {"text": finding.message or finding.rule},
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(finding)},
    }
    if finding.path:
        physical: dict[str, object] = {
            "artifactLocation": _location(finding.path, summary)}
        if finding.line > 0:
            region: dict[str, int] = {"startLine": finding.line}
            if finding.col > 0:
                region["startColumn"] = finding.col
            physical["region"] = region
        result["locations"] = [{"physicalLocation": physical}]
    known = summary.known_as(finding)
    if summary.baseline:  # compared with a baseline: every result says whether it is new
        result["baselineState"] = "unchanged" if known is not None and known.kind == "baseline" else "new"
    if known is not None and known.kind != "baseline":
        suppression: dict[str, object] = {"kind": known.kind, "status": "accepted", "justification": known.reason}
        if known.where:
            suppression["properties"] = {"where": known.where}
        result["suppressions"] = [suppression]
    properties: dict[str, object] = {}
    if finding.subject:
        properties["subject"] = finding.subject
    if finding.related:
        properties["related"] = list(finding.related)
    if properties:
        result["properties"] = properties
    return result


def sarif_log(findings: Sequence[Finding], summary: CheckSummary) -> dict[str, object]:
    """The SARIF log as plain data."""
    items = ordered(findings)
    rules = rule_catalogue(summary, items)
    index = {rule.id: i for i, rule in enumerate(rules)}
    driver: dict[str, object] = {"name": TOOL_NAME, "version": summary.tool_version}
    if summary.information_uri:
        driver["informationUri"] = summary.information_uri
    driver["rules"] = [_rule(rule) for rule in rules]
    invocation: dict[str, object] = {"executionSuccessful": True}
    seconds = elapsed(summary)
    if seconds is not None:
        invocation["properties"] = {"elapsedSeconds": seconds}
    run_properties: dict[str, object] = {"root": summary.root, "counts": dict(summary.counts)}
    if summary.release is not None:
        run_properties["release"] = summary.release
    run = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "originalUriBaseIds": _bases(summary),
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index[f.rule], summary) for f in items],
        "properties": run_properties,
    }
    log = {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
    return clean_data(log)  # type: ignore[return-value]


def render(findings: Sequence[Finding], summary: CheckSummary) -> str:
    """Indented JSON with a trailing newline; key order fixed by construction."""
    return json.dumps(sarif_log(findings, summary), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
