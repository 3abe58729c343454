"""JUnit XML, the dialect Jenkins, GitLab and GitHub test reporters read: the one writer (and reader) of it.

Two reports are JUnit: ``specgen check`` (:func:`render`) and ``specgen test`` (its command line builds
:class:`Case` values from the test results and calls :func:`document`); ``specgen test --merge`` reads
shard reports back with :func:`read`. One writer means one escaping of what XML 1.0 cannot carry, one
order of attributes and one way to count.

For the check, CI test views list testcases, so each (rule, subject) a finding names becomes a
testcase, and each rule that ran clean becomes a passing one: the view then shows what was checked,
not only what failed. Severities agree with the exit code: errors are ``<failure>``s, warnings too
under ``--strict`` (``strict=True``); otherwise warnings, like notes, leave their testcase passing and
are carried in ``<system-out>`` (``<skipped>`` would claim the check did not run).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from specgen.diagnostics import Finding, Severity
from specgen.report._common import TOOL_NAME, clean_text, elapsed, known_label, ordered, rule_catalogue
from specgen.report.summary import CheckSummary

SUITE_NAME = "specgen check"
PASSING_CASE_NAME = "no findings"

# XML 1.0 allows tab, LF, CR, and U+0020.. except surrogates, U+FFFE and U+FFFF; C1 controls and the
# Unicode line and paragraph separators are allowed but would break a line where the report is printed.
_NOT_XML = re.compile("[^\t\n\r\u0020-\u007e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """Replace what XML 1.0 cannot carry by a visible escape such as ``\\x1b``."""
    text = clean_text(text)
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


# ------------------------------------------------------------------ the document model
@dataclass(frozen=True)
class Outcome:
    """Why a testcase did not pass: ``kind`` is ``failure`` (the thing tested is wrong), ``error``
    (it could not be tested) or ``skipped`` (not derivable on this tree: the message says why)."""

    kind: str
    message: str
    type: str
    text: str = ""


@dataclass(frozen=True)
class Case:
    """One ``<testcase>``; ``outcome`` None passes. ``seconds`` None leaves ``time`` out (byte-stable)."""

    classname: str
    name: str
    file: str = ""
    line: int = 0
    seconds: float | None = None
    outcome: Outcome | None = None
    system_out: str = ""


@dataclass(frozen=True)
class TestSuite:
    """One ``<testsuite>`` with its ``<properties>`` (name, value pairs, in order)."""

    name: str
    cases: tuple[Case, ...]
    properties: tuple[tuple[str, str], ...] = ()
    seconds: float | None = None

    def count(self, kind: str) -> int:
        return sum(1 for c in self.cases if c.outcome is not None and c.outcome.kind == kind)


def _totals(cases: int, failures: int, errors: int, seconds: float | None, skipped: int = 0) -> dict[str, str]:
    totals = {"tests": str(cases), "failures": str(failures), "errors": str(errors), "skipped": str(skipped)}
    if seconds is not None:
        totals["time"] = f"{seconds:.3f}"
    return totals


def _case(parent: ET.Element, case: Case) -> None:
    attrs = {"classname": xml_text(case.classname), "name": xml_text(case.name)}
    if case.file:
        attrs["file"] = xml_text(case.file)
    if case.line > 0:
        attrs["line"] = str(case.line)
    if case.seconds is not None:
        attrs["time"] = f"{case.seconds:.4f}"
    element = ET.SubElement(parent, "testcase", attrs)
    if case.outcome is not None:
        o = case.outcome
        ET.SubElement(element, o.kind, {"message": xml_text(o.message), "type": xml_text(o.type)}).text = \
            xml_text(o.text) if o.text else None
    if case.system_out:
        ET.SubElement(element, "system-out").text = xml_text(case.system_out)


def document(suites: Sequence[TestSuite], name: str = TOOL_NAME, seconds: float | None = None) -> str:
    """A ``<testsuites>`` document; each suite's and the whole document's totals counted from the cases."""
    root = ET.Element("testsuites", {"name": xml_text(name)})
    for suite in suites:
        element = ET.SubElement(root, "testsuite", {"name": xml_text(suite.name)})
        if suite.properties:
            props = ET.SubElement(element, "properties")
            for key, value in suite.properties:
                ET.SubElement(props, "property", {"name": xml_text(key), "value": xml_text(value)})
        for case in suite.cases:
            _case(element, case)
        element.attrib.update(_totals(len(suite.cases), suite.count("failure"), suite.count("error"), suite.seconds,
                                      suite.count("skipped")))
    root.attrib.update(_totals(sum(len(s.cases) for s in suites), sum(s.count("failure") for s in suites),
                               sum(s.count("error") for s in suites), seconds,
                               sum(s.count("skipped") for s in suites)))
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def read(text: str) -> list[TestSuite]:
    """The suites of a JUnit document this writer (or another tool of the same dialect) wrote.

    Raises ``ValueError`` naming what is wrong when ``text`` is not JUnit XML.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ValueError(f"not XML: {e}") from None
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite")) if root.tag == "testsuites" else None
    if suites is None:
        raise ValueError(f"not JUnit XML: the document element is <{root.tag}>, not <testsuites> or <testsuite>")
    out = []
    for s in suites:
        cases = []
        for c in s.iter("testcase"):
            outcome = None
            for kind in ("failure", "error", "skipped"):
                o = c.find(kind)
                if o is not None:
                    outcome = Outcome(kind, o.get("message", ""), o.get("type", ""), o.text or "")
            so = c.find("system-out")
            cases.append(Case(c.get("classname", ""), c.get("name", ""), c.get("file", ""),
                              int(c.get("line", "0") or 0), _float(c.get("time")), outcome,
                              so.text or "" if so is not None else ""))
        props = tuple((p.get("name", ""), p.get("value", "")) for p in s.iter("property"))
        out.append(TestSuite(s.get("name", ""), tuple(cases), props, _float(s.get("time"))))
    return out


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


# ------------------------------------------------------------------ the check report
def _case_name(finding: Finding) -> str:
    if finding.subject:
        return finding.subject
    return f"{finding.path}:{finding.line}" if finding.line > 0 else finding.path


def _describe(finding: Finding) -> str:
    return f"{finding.format()} [{Severity(finding.severity).value}]"


def _fails(finding: Finding, strict: bool) -> bool:
    severity = Severity(finding.severity)
    return severity is Severity.ERROR or (strict and severity is Severity.WARNING)


def _finding_case(rule: str, name: str, group: Sequence[Finding], strict: bool, summary: CheckSummary) -> Case:
    """A failure for new failing findings; ``<skipped>`` when every failing one is known (a baseline or a
    suppression: not checked against, with the reason); otherwise it passes with the findings in system-out."""
    first = group[0]
    failing = [f for f in group if _fails(f, strict) and not known_label(f, summary)]
    known = [f for f in group if _fails(f, strict) and known_label(f, summary)]
    notes = [f for f in group if not _fails(f, strict)]
    outcome = None
    if failing:
        lead = failing[0]
        message = f"{Severity(lead.severity).value}: {lead.message}"
        if len(failing) > 1:
            message += f" (and {len(failing) - 1} more)"
        outcome = Outcome("failure", message, rule, "\n".join(_describe(f) for f in failing))
        notes = known + notes
    elif known:
        outcome = Outcome("skipped", f"known ({known_label(known[0], summary)}): {known[0].message}", rule,
                          "\n".join(f"{_describe(f)} ({known_label(f, summary)})" for f in known))
    return Case(rule, name, first.path, first.line, None, outcome, "\n".join(
        _describe(f) + (f" ({known_label(f, summary)})" if known_label(f, summary) else "") for f in notes))


def _properties(summary: CheckSummary) -> tuple[tuple[str, str], ...]:
    pairs = [("tool", TOOL_NAME), ("tool.version", summary.tool_version), ("root", summary.root)]
    if summary.release is not None:
        pairs.append(("release", summary.release))
    pairs.extend((f"count.{k}", str(v)) for k, v in summary.counts.items())
    return tuple(pairs)


def _passing_case(rule: str, description: str, hidden: int) -> Case:
    """A rule with nothing reported: "no findings" only when it found none; findings ``--min-severity`` left
    out are counted in the name, so a shorter report never reads as a cleaner tree."""
    if not hidden:
        return Case(rule, PASSING_CASE_NAME, system_out=description)
    what = f"{hidden} finding{'s' if hidden != 1 else ''} hidden by --min-severity"
    return Case(rule, f"no findings shown ({what})", system_out=f"{description}\n{what}")


def render(findings: Sequence[Finding], summary: CheckSummary, strict: bool = False) -> str:
    """A ``<testsuites>`` document with one ``specgen check`` suite.

    ``strict`` is the ``check --strict`` flag: the failures then count exactly
    what makes the exit code non-zero.
    """
    items = ordered(findings)
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in items:
        groups.setdefault((finding.rule, _case_name(finding)), []).append(finding)
    cases = [_finding_case(rule, name, group, strict, summary) for (rule, name), group in sorted(groups.items())]
    ruled = {rule for rule, _ in groups}
    cases += [_passing_case(rule.id, rule.description, summary.hidden_rules.get(rule.id, 0))
              for rule in rule_catalogue(summary, items) if rule.id not in ruled]
    seconds = elapsed(summary)
    return document([TestSuite(SUITE_NAME, tuple(cases), _properties(summary), seconds)], seconds=seconds)
