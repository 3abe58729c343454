"""JUnit XML, the dialect Jenkins, GitLab and GitHub test reporters read.

CI test views list testcases, so each (rule, subject) a finding names becomes
a testcase, and each rule that ran clean becomes a passing one: the view then
shows what was checked, not only what failed. Severities agree with the exit
code: errors are ``<failure>``s, warnings too under ``--strict`` (``strict=True``);
otherwise warnings, like notes, leave their testcase passing and are carried in
``<system-out>`` (``<skipped>`` would claim the check did not run).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from specgen.diagnostics import Finding, Severity
from specgen.report._common import TOOL_NAME, clean_text, elapsed, ordered, rule_catalogue
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


def _case_name(finding: Finding) -> str:
    if finding.subject:
        return finding.subject
    return f"{finding.path}:{finding.line}" if finding.line > 0 else finding.path


def _describe(finding: Finding) -> str:
    return f"{finding.format()} [{Severity(finding.severity).value}]"


def _fails(finding: Finding, strict: bool) -> bool:
    severity = Severity(finding.severity)
    return severity is Severity.ERROR or (strict and severity is Severity.WARNING)


def _case(parent: ET.Element, rule: str, name: str, group: Sequence[Finding], strict: bool) -> bool:
    """Append one testcase; True when it fails."""
    first = group[0]
    attrs = {"classname": xml_text(rule), "name": xml_text(name)}
    if first.path:
        attrs["file"] = xml_text(first.path)
    if first.line > 0:
        attrs["line"] = str(first.line)
    case = ET.SubElement(parent, "testcase", attrs)
    failing = [f for f in group if _fails(f, strict)]
    notes = [f for f in group if not _fails(f, strict)]
    if failing:
        lead = failing[0]
        message = f"{Severity(lead.severity).value}: {lead.message}"
        if len(failing) > 1:
            message += f" (and {len(failing) - 1} more)"
        failure = ET.SubElement(case, "failure", {"message": xml_text(message), "type": xml_text(rule)})
        failure.text = xml_text("\n".join(_describe(f) for f in failing))
    if notes:
        ET.SubElement(case, "system-out").text = xml_text("\n".join(_describe(f) for f in notes))
    return bool(failing)


def _properties(suite: ET.Element, summary: CheckSummary) -> None:
    props = ET.SubElement(suite, "properties")
    pairs = [("tool", TOOL_NAME), ("tool.version", summary.tool_version), ("root", summary.root)]
    if summary.release is not None:
        pairs.append(("release", summary.release))
    pairs.extend((f"count.{k}", str(v)) for k, v in summary.counts.items())
    for name, value in pairs:
        ET.SubElement(props, "property", {"name": xml_text(name), "value": xml_text(value)})


def render(findings: Sequence[Finding], summary: CheckSummary, strict: bool = False) -> str:
    """A ``<testsuites>`` document with one ``specgen check`` suite.

    ``strict`` is the ``check --strict`` flag: the failures then count exactly
    what makes the exit code non-zero.
    """
    items = ordered(findings)
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in items:
        groups.setdefault((finding.rule, _case_name(finding)), []).append(finding)

    root = ET.Element("testsuites", {"name": TOOL_NAME})
    suite = ET.SubElement(root, "testsuite", {"name": SUITE_NAME})
    _properties(suite, summary)
    failures = 0
    for (rule, name), group in sorted(groups.items()):
        failures += _case(suite, rule, name, group, strict)
    ruled = {rule for rule, _ in groups}
    clean_rules = [r for r in rule_catalogue(summary, items) if r.id not in ruled]
    for rule in clean_rules:
        case = ET.SubElement(suite, "testcase", {"classname": xml_text(rule.id),
                                                 "name": PASSING_CASE_NAME})
        if rule.description:
            ET.SubElement(case, "system-out").text = xml_text(rule.description)

    totals = {"tests": str(len(groups) + len(clean_rules)), "failures": str(failures),
              "errors": "0", "skipped": "0"}
    seconds = elapsed(summary)
    if seconds is not None:
        totals["time"] = f"{seconds:.3f}"
    for element in (root, suite):
        element.attrib.update(totals)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
