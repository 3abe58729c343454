"""Each report format, rendered from hand-built findings and read back by a real parser."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.diagnostics import Finding, Severity
from specgen.report import FORMATS, REPORT_SCHEMA_PATH, CheckSummary, RuleInfo, render_report
from specgen.report import github, junit, sarif, text
from specgen.report import json as json_report

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
NASTY = "<script>&\"'\nnext line\x1b[31m\x00 100%, a:b"
NON_ASCII = "Opérande « src » doit être ≤ 2³² — 张量 \U0001f600"
UNDECODABLE = "bytes \udcff\udcfe from a non-UTF-8 file"

RULES = (
    RuleInfo("manifest-hash", Severity.ERROR, "Release manifest hashes match the files.",
             "Regenerate spec/release-manifest.json."),
    RuleInfo("test-orphan", Severity.WARNING, "Every AVS test names an instruction."),
    RuleInfo("doc-style", Severity.NOTE, "Prose follows the style guide."),
    RuleInfo("catalog-unique", Severity.ERROR, "Catalog ids are unique."),  # runs clean
)


def make_findings() -> list[Finding]:
    return [
        Finding("manifest-hash", Severity.ERROR, "asl/tadd.asl", 12, "hash mismatch; regenerate",
                subject="TADD", col=5),
        Finding("manifest-hash", Severity.ERROR, "asl/tadd.asl", 40, "second mismatch", subject="TADD", col=1),
        Finding("test-orphan", Severity.WARNING, "tests/asl/x y.asl", 0, "whole-file warning"),
        Finding("doc-style", Severity.NOTE, "docs/a:b,c.md", 3, NASTY, col=2),
        Finding("manifest-hash", Severity.ERROR, "spec/release-manifest.json", 7, NON_ASCII,
                subject="entry/7", related=("asl/tmul.asl",)),
        Finding("undeclared-rule", Severity.WARNING, "asl/tadd.asl", 2, UNDECODABLE),
    ]


def make_summary(elapsed: float | None = None) -> CheckSummary:
    return CheckSummary(tool_version="0.1.0", root="/srv/pto-spec", release="0.58.3",
                        counts={"manifest_entries_verified": 857, "asl_units": 840, "tests": 3352},
                        rules=RULES, elapsed_seconds=elapsed)


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    # The published errata01 schema declares draft-04; use what it declares.
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


# --- every format -----------------------------------------------------------------


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_output_is_deterministic_and_encodable(fmt: str) -> None:
    findings = make_findings()
    first = render_report(fmt, findings, make_summary())
    second = render_report(fmt, list(reversed(findings)) + findings[:2], make_summary())
    assert first == second
    assert first.endswith("\n")
    first.encode("utf-8")  # lone surrogates would raise here


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_timing_printed_only_when_given(fmt: str) -> None:
    without = render_report(fmt, make_findings(), make_summary())
    with_time = render_report(fmt, make_findings(), make_summary(elapsed=2.5))
    assert without != with_time
    assert "2.5" in with_time and "2.5" not in without


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_empty_run_renders(fmt: str) -> None:
    out = render_report(fmt, [], make_summary())
    assert out.endswith("\n")


def test_unknown_format_names_choices() -> None:
    with pytest.raises(ValueError, match="sarif"):
        render_report("yaml", [], make_summary())


# --- text -------------------------------------------------------------------------


def test_text_groups_by_file_and_summarises() -> None:
    out = text.render(make_findings(), make_summary(), list_notes=True)
    lines = out.splitlines()
    headers = [ln for ln in lines if ln and not ln.startswith(" ") and not ln.startswith("specgen ")]
    assert headers == ["asl/tadd.asl", "docs/a:b,c.md", "spec/release-manifest.json", "tests/asl/x y.asl"]
    tadd = lines[lines.index("asl/tadd.asl") + 1: lines.index("docs/a:b,c.md")]
    assert [row.split()[0] for row in tadd] == ["2", "12:5", "40:1"]
    assert "[TADD]" in tadd[1] and "error" in tadd[1] and "manifest-hash" in tadd[1]
    whole_file = lines[lines.index("tests/asl/x y.asl") + 1]
    assert whole_file.split()[:3] == ["-", "warning", "test-orphan"]
    assert "\x1b" not in out and "\\x1b" in out  # control characters shown, not sent
    assert NON_ASCII in out
    assert lines[-1].endswith("3 errors, 2 warnings, 1 note in 4 files; "
                              "manifest_entries_verified: 857, asl_units: 840, tests: 3352")
    assert "release 0.58.3" in lines[-1]


def test_text_line_break_in_spec_text_is_shown_not_obeyed() -> None:
    """A line break inside spec text would start a line of its own (a CI runner reads ``::error`` there,
    after trimming blanks): it is shown as ``\\x0a`` on the finding's one line (issue 24)."""
    out = text.render(make_findings(), make_summary(), list_notes=True)
    lines = out.splitlines()
    first = next(i for i, ln in enumerate(lines) if "<script>" in ln)
    assert "<script>&\"'\\x0anext line\\x1b[31m\\x00" in lines[first]
    assert not any(ln.lstrip().startswith("next line") for ln in lines)


def test_text_summarises_notes_by_rule() -> None:
    """Issue 28: 145 example-sketch notes buried the one error; notes are one line per rule by default."""
    notes = [Finding("example-sketch", Severity.NOTE, f"asl/u{i}.asl", 1, f"example {i} cannot run", col=40 + i)
             for i in range(5)] + [Finding("encoding-gap", Severity.NOTE, "spec/catalog/x.json", 9, "payload", col=7)]
    error = Finding("manifest-missing-file", Severity.ERROR, "spec/release-manifest.json", 3400, "absent", col=1)
    out = text.render([*notes, error], make_summary())
    lines = out.splitlines()
    assert not any(ln.startswith("asl/u") for ln in lines), "a note listed on its own"
    head = lines.index("notes by rule (check --verbose lists each):")
    assert lines[head + 1].split()[:4] == ["example-sketch", "5", "in", "5"]
    assert "first asl/u0.asl:1:40: example 0 cannot run" in lines[head + 1]
    assert lines[head + 2].split()[:2] == ["encoding-gap", "1"]
    assert lines[0] == "spec/release-manifest.json" and "manifest-missing-file" in lines[1]
    assert "1 error, 0 warnings, 6 notes in 7 files" in lines[-1]
    listed = text.render([*notes, error], make_summary(), list_notes=True)
    assert "notes by rule" not in listed and "asl/u4.asl" in listed


def test_text_says_what_min_severity_left_out() -> None:
    hidden = CheckSummary(tool_version="0.1.0", root="r", hidden={"notes": 143, "warnings": 38})
    assert "(38 warnings and 143 notes below --min-severity not shown)" in text.render([], hidden)
    assert "not shown" not in text.render([], make_summary())


def test_text_colour_only_when_asked() -> None:
    plain = text.render(make_findings(), make_summary())
    coloured = text.render(make_findings(), make_summary(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31merror" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


# --- json -------------------------------------------------------------------------


def test_json_matches_schema_and_counts() -> None:
    out = json_report.render(make_findings(), make_summary(elapsed=1.0))
    doc = json.loads(out)
    schema = json.loads(REPORT_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["summary"]["errors"] == 3
    assert doc["summary"]["warnings"] == 2
    assert doc["summary"]["notes"] == 1
    assert doc["summary"]["elapsed_seconds"] == 1.0
    assert doc["release"] == "0.58.3" and doc["root"] == "/srv/pto-spec"
    assert [f["rule"] for f in doc["findings"]][:3] == ["undeclared-rule", "manifest-hash", "manifest-hash"]
    assert {r["id"] for r in doc["tool"]["rules"]} == {r.id for r in RULES} | {"undeclared-rule"}
    messages = {f["message"] for f in doc["findings"]}
    assert NASTY in messages and NON_ASCII in messages
    assert "bytes \ufffd\ufffd from a non-UTF-8 file" in messages
    assert out == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_json_schema_rejects_a_broken_report() -> None:
    doc = json.loads(json_report.render(make_findings(), make_summary()))
    doc["findings"][0]["severity"] = "fatal"
    schema = json.loads(REPORT_SCHEMA_PATH.read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(doc)


# --- junit ------------------------------------------------------------------------


def test_junit_parses_and_counts() -> None:
    out = junit.render(make_findings(), make_summary())
    root = ET.fromstring(out.encode("utf-8"))
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "specgen check"
    cases = suite.findall("testcase")
    # (rule, subject-or-location) groups: TADD, entry/7, test-orphan file, doc-style, undeclared; + clean rule
    keys = [(c.get("classname"), c.get("name")) for c in cases]
    assert ("manifest-hash", "TADD") in keys and ("manifest-hash", "entry/7") in keys
    assert ("test-orphan", "tests/asl/x y.asl") in keys
    assert ("doc-style", "docs/a:b,c.md:3") in keys
    assert ("catalog-unique", junit.PASSING_CASE_NAME) in keys
    failed = [c for c in cases if c.find("failure") is not None]
    assert len(failed) == 2  # warnings pass without --strict, as the exit code does
    for element in (root, suite):
        assert element.get("tests") == str(len(cases)) == "6"
        assert element.get("failures") == "2"
        assert element.get("errors") == "0" and element.get("skipped") == "0"
    tadd = cases[keys.index(("manifest-hash", "TADD"))]
    failure = tadd.find("failure")
    assert failure.get("type") == "manifest-hash"
    assert failure.get("message") == "error: hash mismatch; regenerate (and 1 more)"
    assert "asl/tadd.asl:40:1" in failure.text
    assert tadd.get("file") == "asl/tadd.asl" and tadd.get("line") == "12"
    note = cases[keys.index(("doc-style", "docs/a:b,c.md:3"))]
    assert note.find("failure") is None and note.find("skipped") is None
    out_text = note.find("system-out").text
    assert "<script>&\"'\\x0anext line\\x1b[31m\\x00" in out_text  # one line per finding (issue 24)
    whole = cases[keys.index(("test-orphan", "tests/asl/x y.asl"))]
    assert whole.get("line") is None
    assert "time" not in suite.attrib


def test_junit_warnings_fail_only_under_strict() -> None:
    for strict, failures in ((False, "2"), (True, "4")):
        root = ET.fromstring(junit.render(make_findings(), make_summary(), strict=strict).encode("utf-8"))
        assert root.get("failures") == failures and root.get("skipped") == "0"
        cases = {(c.get("classname"), c.get("name")): c for c in root.iter("testcase")}
        orphan = cases[("test-orphan", "tests/asl/x y.asl")]
        assert (orphan.find("failure") is not None) is strict
        assert orphan.find("skipped") is None
        if not strict:
            assert "whole-file warning [warning]" in orphan.find("system-out").text
    assert render_report("junit", make_findings(), make_summary(), strict=True).count("<failure") == 4


def test_junit_survives_every_illegal_character() -> None:
    nasty = "".join(chr(c) for c in range(0, 0x20)) + "\ufffe\uffff\udc80]]>--><!-- &#0;"
    finding = Finding("r", Severity.ERROR, nasty, 1, nasty, subject=nasty)
    out = junit.render([finding], CheckSummary("0.1.0", nasty, nasty, {nasty: 1}, ()))
    root = ET.fromstring(out.encode("utf-8"))
    failure = root.find("testsuite/testcase/failure")
    assert "]]>--><!-- &#0;" in failure.get("message")
    assert "\\x00" in failure.get("message") and "\\ufffe" in failure.get("message")


# --- sarif ------------------------------------------------------------------------


def test_sarif_validates_against_published_schema(sarif_validator: jsonschema.protocols.Validator) -> None:
    for elapsed in (None, 3.0):
        log = json.loads(sarif.render(make_findings(), make_summary(elapsed)))
        sarif_validator.validate(log)
    log = json.loads(sarif.render([], CheckSummary("0.1.0", "relative/root", None,
                                                   information_uri="https://example.org/specgen")))
    sarif_validator.validate(log)
    assert log["runs"][0]["tool"]["driver"]["informationUri"] == "https://example.org/specgen"
    assert "uri" not in log["runs"][0]["originalUriBaseIds"]["SPECROOT"]


def test_sarif_schema_catches_a_bad_level(sarif_validator: jsonschema.protocols.Validator) -> None:
    log = json.loads(sarif.render(make_findings(), make_summary()))
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        sarif_validator.validate(log)


def test_sarif_results_levels_and_locations() -> None:
    log = json.loads(sarif.render(make_findings(), make_summary()))
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json" and log["version"] == "2.1.0"
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.id for r in RULES] + ["undeclared-rule"]
    assert rules[0]["name"] == "ManifestHash"
    assert rules[0]["defaultConfiguration"]["level"] == "error"
    assert rules[0]["help"]["text"] == "Regenerate spec/release-manifest.json."
    assert run["originalUriBaseIds"]["SPECROOT"]["uri"] == "file:///srv/pto-spec/"
    results = run["results"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    by_message = {r["message"]["text"]: r for r in results}
    assert {r["level"] for r in results} == {"error", "warning", "note"}
    whole = by_message["whole-file warning"]["locations"][0]["physicalLocation"]
    assert "region" not in whole
    assert whole["artifactLocation"] == {"uri": "tests/asl/x%20y.asl", "uriBaseId": "SPECROOT"}
    odd = by_message[NASTY]
    assert odd["level"] == "note"
    assert odd["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/a%3Ab%2Cc.md"
    assert odd["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 2}
    assert by_message[NON_ASCII]["properties"] == {"subject": "entry/7", "related": ["asl/tmul.asl"]}
    no_col = by_message["hash mismatch; regenerate"]["locations"][0]["physicalLocation"]["region"]
    assert no_col == {"startLine": 12, "startColumn": 5}
    for result in results:  # every uri is a plain relative reference
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert re.fullmatch(r"[A-Za-z0-9_.~/%-]+", uri)


def test_sarif_fingerprint_ignores_line_but_not_message() -> None:
    base = Finding("manifest-hash", Severity.ERROR, "asl/a.asl", 3, "m", subject="S")
    moved = Finding("manifest-hash", Severity.ERROR, "asl/a.asl", 90, "m", subject="S", col=4)
    other = Finding("manifest-hash", Severity.ERROR, "asl/a.asl", 3, "m2", subject="S")
    assert sarif.fingerprint(base) == sarif.fingerprint(moved)
    assert sarif.fingerprint(base) != sarif.fingerprint(other)
    log = json.loads(sarif.render([base, other], make_summary()))
    prints = [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in log["runs"][0]["results"]]
    assert len(set(prints)) == 2


# --- github -----------------------------------------------------------------------


def test_github_commands_escaped_exactly() -> None:
    out = github.render(make_findings(), make_summary())
    lines = out.splitlines()
    assert len(lines) == len(make_findings()) + 1
    assert "::error file=asl/tadd.asl,line=12,col=5,title=manifest-hash::TADD: hash mismatch; regenerate" in lines
    assert "::warning file=tests/asl/x y.asl,title=test-orphan::whole-file warning" in lines
    assert ("::notice file=docs/a%3Ab%2Cc.md,line=3,col=2,title=doc-style::"
            "<script>&\"'%0Anext line\\x1b[31m\\x00 100%25, a:b") in lines
    assert f"::error file=spec/release-manifest.json,line=7,title=manifest-hash::entry/7: {NON_ASCII}" in lines
    assert lines[-1] == ("::notice::specgen check: 3 errors, 2 warnings, 1 note in 4 files; "
                         "manifest_entries_verified: 857, asl_units: 840, tests: 3352")


def test_github_files_are_relative_to_the_repository() -> None:
    """GitHub attaches an annotation to a path relative to the repository: a spec in a subfolder is prefixed."""
    inside = CheckSummary(tool_version="0.1.0", root="/w/repo/shared/corpus/pto", repo_root="/w/repo",
                          spec_in_repo="shared/corpus/pto")
    lines = github.render(make_findings(), inside).splitlines()
    assert "::error file=shared/corpus/pto/asl/tadd.asl,line=12,col=5,title=manifest-hash::TADD: hash mismatch; " \
           "regenerate" in lines
    at_top = CheckSummary(tool_version="0.1.0", root="/w/repo", repo_root="/w/repo", spec_in_repo="")
    assert "::error file=asl/tadd.asl,line=12,col=5,title=manifest-hash::TADD: hash mismatch; regenerate" \
        in github.render(make_findings(), at_top).splitlines()


def test_github_escaping_rules() -> None:
    assert github.escape_data("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e"
    assert github.escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"
    injected = Finding("r", Severity.ERROR, "p", 1, "x\n::error::forged")
    (line, _summary) = github.render([injected], make_summary()).splitlines()
    assert line == "::error file=p,line=1,title=r::x%0A::error::forged"


# --- arbitrary text ---------------------------------------------------------------

_any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
_findings = st.lists(st.builds(
    Finding,
    rule=st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True),
    severity=st.sampled_from(list(Severity)),
    path=_any_text,
    line=st.integers(0, 10_000),
    message=_any_text,
    subject=_any_text,
    col=st.integers(0, 500),
    related=st.lists(_any_text, max_size=2).map(tuple),
), max_size=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(findings=_findings, root=_any_text)
def test_any_text_gives_parseable_output(findings: list[Finding], root: str,
                                         sarif_validator: jsonschema.protocols.Validator) -> None:
    summary = CheckSummary("0.1.0", root, None, {"n": 1}, RULES)
    unique = set(findings)
    for fmt in FORMATS:
        render_report(fmt, findings, summary).encode("utf-8")
    ET.fromstring(junit.render(findings, summary).encode("utf-8"))
    sarif_log = json.loads(sarif.render(findings, summary))
    sarif_validator.validate(sarif_log)
    assert len(sarif_log["runs"][0]["results"]) == len(unique)
    doc = json.loads(json_report.render(findings, summary))
    assert len(doc["findings"]) == len(unique)
    gh_lines = github.render(findings, summary).split("\n")
    assert len(gh_lines) == len(unique) + 2 and gh_lines[-1] == ""
    assert all(ln.startswith("::") for ln in gh_lines[:-1])


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_ties_in_sort_key_still_order_deterministically(fmt: str) -> None:
    twins = [Finding("r", severity, "p", 1, "m", related=related)
             for severity in Severity for related in ((), ("b",), ("a",))]
    outputs = {render_report(fmt, order, make_summary())
               for order in (twins, list(reversed(twins)), twins[3:] + twins[:3])}
    assert len(outputs) == 1


def test_text_lists_the_rules_that_did_not_run() -> None:
    stopped = [Finding("rule-not-run", Severity.NOTE, "spec/release-manifest.json", 0, "no release selection",
                       related=("ndf-hash",)),
               Finding("rule-not-run", Severity.ERROR, "spec/evidence/view.json", 1, "view unreadable",
                       related=("evidence-stale", "instruction-missing-artifact"))]
    out = text.render(stopped, CheckSummary(tool_version="1", root="r")).splitlines()
    assert out[-2:] == ["not checked: evidence-stale, instruction-missing-artifact "
                        "(spec/evidence/view.json is absent or unreadable)",
                        "not checked: ndf-hash (spec/release-manifest.json lacks the fact)"]
    assert not any(line.startswith("not checked") for line in text.render([], CheckSummary("1", "r")).splitlines())


def test_text_prints_the_whole_manifest_content_hash() -> None:
    digest = "0123456789abcdef" * 4
    summary = CheckSummary("0.1.0", "/srv/pto-spec", "0.58.3", content_sha256=digest)
    assert f"manifest content_sha256: {digest}\n" in text.render([], summary)
    assert "content_sha256" not in text.render([], make_summary())


def test_sarif_locations_relative_to_the_repository_root(
        sarif_validator: jsonschema.protocols.Validator) -> None:
    summary = CheckSummary("0.1.0", "spec", repo_root="/srv/repo", spec_in_repo="specs/pto spec")
    log = json.loads(sarif.render(make_findings(), summary))
    sarif_validator.validate(log)
    (run,) = log["runs"]
    assert run["originalUriBaseIds"] == {"REPOROOT": {"uri": "file:///srv/repo/"},
                                         "SPECROOT": {"uriBaseId": "REPOROOT", "uri": "specs/pto%20spec/"}}
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {"uri": "specs/pto%20spec/tests/asl/x%20y.asl", "uriBaseId": "REPOROOT"} in locations
    assert all(loc["uriBaseId"] == "REPOROOT" and loc["uri"].startswith("specs/") for loc in locations)
    same = json.loads(sarif.render(make_findings(), CheckSummary("0.1.0", "/srv/repo", repo_root="/srv/repo",
                                                                spec_in_repo="")))["runs"][0]
    assert same["originalUriBaseIds"]["SPECROOT"] == {"uriBaseId": "REPOROOT"}
    assert same["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "asl/tadd.asl"


def test_sarif_rules_link_their_documented_section() -> None:
    """Issue 41: every rule of a SARIF log has a ``helpUri``: its row of docs-internal/check-rules.md, by an
    anchor named by its id, which must exist; a rule no registry declares links the paragraph about those."""
    from specgen.check import all_rules
    from specgen.report._common import RULES_DOC_URL
    doc = (Path(__file__).resolve().parent.parent / "docs-internal" / "check-rules.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', doc))
    registered = tuple(RuleInfo(r.id, r.severity, r.description, r.help) for r in all_rules())
    summary = CheckSummary(tool_version="0.1.0", root="/srv/pto-spec", rules=registered)
    stray = Finding("path-outside-root", Severity.ERROR, "docs/x.md", 0, "symbolic link leads outside")
    log = json.loads(render_report("sarif", [stray], summary))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(registered) + 1
    for rule in rules:
        base, _, anchor = rule["helpUri"].partition("#")
        assert base == RULES_DOC_URL and anchor in anchors, rule["helpUri"]
    by_id = {r["id"]: r["helpUri"].partition("#")[2] for r in rules}
    assert all(by_id[r.id] == r.id for r in registered)
    assert by_id["path-outside-root"] == "findings-without-a-rule"


def test_junit_says_how_many_findings_min_severity_hid() -> None:
    """Issue 41: a rule whose findings ``--min-severity`` left out is not "no findings": its passing testcase
    says how many it hides; a rule that found nothing still says "no findings"."""
    summary = CheckSummary(tool_version="0.1.0", root="/srv/pto-spec", rules=RULES,
                           hidden={"notes": 3}, hidden_rules={"doc-style": 3})
    shown = [f for f in make_findings() if f.rule not in ("doc-style",)]
    root = ET.fromstring(render_report("junit", shown, summary))
    names = {(c.get("classname"), c.get("name")) for c in root.iter("testcase")}
    assert ("doc-style", "no findings shown (3 findings hidden by --min-severity)") in names
    assert ("catalog-unique", "no findings") in names
    assert not [n for c, n in names if c == "doc-style" and n == "no findings"]
