"""Bad inputs through the real CLI: exact diagnostics, confinement, bounded memory, inert reports.

A documentation tool reads files anyone can edit in a pull request. Each case
under ``tests/bad-inputs/`` must give its listed findings (rule, path, line)
and a non-zero exit, never a traceback; nothing outside the root may be read;
a 10 MB line must not cost more than a bounded amount of memory; and markup or
template syntax in the spec must come out of every report format as data.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from specgen.vocabulary import Vocabulary

REPO = Path(__file__).resolve().parent.parent

CASES_DIR = Path(__file__).resolve().parent / "bad-inputs"
SECRET_MARK = "SECRET-OUTSIDE-CONTENT"
TAIL = "// A tiny model unit.\nfunc X() => integer\nbegin\n    return 0;\nend;\n"


def case_dirs() -> list[Path]:
    """Every numbered case directory, in order."""
    return sorted(p for p in CASES_DIR.iterdir() if p.is_dir() and p.name[:2].isdigit())


def expectation(case: Path) -> dict[str, Any]:
    return json.loads((case / "expect.json").read_text(encoding="utf-8"))


def _generate(root: Path, spec: dict[str, Any]) -> None:
    p = root / spec["path"]
    p.parent.mkdir(parents=True, exist_ok=True)
    kind = spec["kind"]
    if kind == "long-line":  # one header line of `chars` characters, written in chunks
        with p.open("w", encoding="ascii") as fh:
            fh.write(spec["prefix"] + '{"id":"')
            left = spec["chars"]
            chunk = "A" * (1 << 20)
            while left > 0:
                fh.write(chunk[:left])
                left -= len(chunk)
            fh.write('"}\n' + TAIL)
    elif kind == "sparse":  # a file larger than the bound without writing its bytes
        with p.open("wb") as fh:
            fh.truncate(spec["bytes"])
    elif kind == "deep-json":
        d = spec["depth"]
        # an ASL header line followed by a unit body, or (``tail: false``) a JSON file on its own
        tail = "\n" + TAIL if spec.get("tail", True) else ("}" if spec["prefix"].startswith("{") else "") + "\n"
        p.write_text(spec["prefix"] + "[" * d + "]" * d + tail, encoding="ascii")
    elif kind == "big-unit":  # a header, then ordinary ASL functions up to ``bytes``
        with p.open("w", encoding="ascii") as fh:
            fh.write(spec["prefix"] + TAIL)
            n, size = 0, 0
            while size < spec["bytes"]:
                chunk = f"// filler {n}\nfunc Filler{n}() => integer\nbegin\n    return {n};\nend;\n"
                fh.write(chunk)
                size += len(chunk)
                n += 1
    else:
        raise ValueError(f"unknown generator {kind!r}")


def materialize(case: Path, tmp: Path) -> Path:
    """Copy the case tree to ``tmp/root`` and apply its setup; returns the root.

    ``setup`` makes at test time what git should not carry: ``outside`` ({path: text} written
    beside the root), ``symlinks`` ({path: relative target} inside it), ``generate``
    (long-line / sparse / deep-json / big-unit files) and ``base: bundled`` (overlay on the bundled spec).
    """
    root = tmp / "root"
    setup = expectation(case).get("setup", {})
    if setup.get("base") == "bundled":  # the case is an overlay on a copy of the bundled spec
        shutil.copytree(REPO / "spec", root)
    shutil.copytree(case, root, ignore=shutil.ignore_patterns("expect.json"), dirs_exist_ok=True)
    for rel, text in setup.get("outside", {}).items():
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    for rel, target in setup.get("symlinks", {}).items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, p)
    for gen in setup.get("generate", []):
        _generate(root, gen)
    return root


@dataclass
class Run:
    code: int
    out: str
    err: str

    def diagnostics(self) -> list[dict[str, Any]]:
        """``[{rule, path, line}]`` from the JSON report, sorted."""
        data = json.loads(self.out)
        return sorted(({"rule": f["rule"], "path": f["path"], "line": f["line"]} for f in data["findings"]),
                      key=lambda d: (d["path"], d["line"], d["rule"]))


def run_cli(command: str, root: Path, fmt: str = "json") -> Run:
    """The real CLI, in process."""
    from specgen.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main([command, "--root", str(root), "--format", fmt], out, err)
    return Run(code, out.getvalue(), err.getvalue())


# --------------------------------------------------------------------------- the corpus

REQUIRED = {  # the kinds of breakage the corpus must keep covering (a case may be renamed, not dropped)
    "01-header-truncated", "02-header-not-json", "03-header-array", "04-header-string",
    "05-header-duplicate-key", "06-header-unknown-key", "12-ndf-unterminated", "13-ndf-crossed",
    "25-non-utf8", "26-bom", "27-crlf", "28-empty-file", "30-long-header-line",
    "37-test-dangling-requirement", "40-adr-no-title", "50-manifest-absolute-path",
    "51-manifest-dotdot-path", "52-manifest-symlink-path", "54-symlink-loop", "55-dir-symlink-outside",
    "61-example-program-syntax", "63-unit-too-large", "64-nul-bytes", "65-deep-json-catalog",
    "66-deep-json-example", "67-editor-files", "68-json-invalid-utf8", "69-test-nul-bytes",
}


def test_corpus_is_complete() -> None:
    names = {p.name for p in case_dirs()}
    assert len(names) >= 40
    assert REQUIRED <= names, sorted(REQUIRED - names)
    for case in case_dirs():
        exp = expectation(case)
        assert exp["command"] in ("validate", "check"), case.name
        assert exp["exit"] != 0 and exp["diagnostics"], f"{case.name}: every bad input must fail with a finding"
        assert exp["note"], case.name


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_case_gives_exact_diagnostics(case: Path, tmp_path: Path) -> None:
    exp = expectation(case)
    root = materialize(case, tmp_path)
    run = run_cli(exp["command"], root)
    assert "Traceback" not in run.out + run.err
    assert run.code == exp["exit"], run.err
    assert run.diagnostics() == sorted(exp["diagnostics"], key=lambda d: (d["path"], d["line"], d["rule"]))
    assert SECRET_MARK not in run.out + run.err
    data = json.loads(run.out)
    for f in data["findings"]:  # every finding tells the reader what to do, on one line
        assert f["message"] and "\n" not in f["message"], f
    text = run_cli(exp["command"], root, "text")
    assert text.code == exp["exit"]
    assert "Traceback" not in text.out + text.err and SECRET_MARK not in text.out + text.err
    for d in exp["diagnostics"]:
        assert d["path"] in text.out, d


SUBPROCESS_CASES = ["01-header-truncated", "25-non-utf8", "37-test-dangling-requirement",
                    "53-asl-symlink-outside", "32-deep-json"]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_case_through_python_m_specgen(name: str, tmp_path: Path) -> None:
    case = CASES_DIR / name
    exp = expectation(case)
    root = materialize(case, tmp_path)
    proc = subprocess.run([sys.executable, "-m", "specgen", exp["command"], "--root", str(root)],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == exp["exit"], proc.stderr
    assert SECRET_MARK not in proc.stdout + proc.stderr
    for d in exp["diagnostics"]:
        assert d["rule"] in proc.stdout and d["path"] in proc.stdout, d


def test_unreadable_root_is_a_usage_error(tmp_path: Path) -> None:
    for root in (tmp_path / "absent", tmp_path / "file.txt"):
        if root.name == "file.txt":
            root.write_text("not a directory\n")
        run = run_cli("validate", root)
        assert run.code == 2 and "Traceback" not in run.out + run.err
        assert str(root) in run.err


# --------------------------------------------------------------------------- confinement

def _confinement_tree(tmp: Path) -> Path:
    """A valid tree plus every way of pointing outside it, at a file whose content is a marker."""
    case = CASES_DIR / "52-manifest-symlink-path"
    root = materialize(case, tmp)
    secret = f"{SECRET_MARK}-CONFINEMENT"
    outside = tmp / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.asl").write_text(
        '// PTO-UNIT: {"id":"PTO-TILE-MODEL-SECRET","surface":"tile","classification":["model"],'
        f'"depends_on":[]}}\n// NDF-BEGIN: PTO-SECRET-001\n// ndf: kind=contract level=L1 layer=tile status=accepted\n'
        f"// {secret}\n// NDF-END: PTO-SECRET-001\n", encoding="utf-8")
    (outside / "secret.json").write_text(json.dumps({"secret": secret}), encoding="utf-8")
    (outside / "sub").mkdir(exist_ok=True)
    (outside / "sub" / "deep.asl").write_text((outside / "secret.asl").read_text(), encoding="utf-8")
    os.symlink("../../../../outside/secret.asl", root / "asl/tile/model/leak.asl")
    os.symlink("../../../outside/sub", root / "asl/tile/linked-dir")
    os.symlink("../../../outside", root / "tests/asl-outside") if (root / "tests").is_dir() else None
    (root / "tests/asl").mkdir(parents=True, exist_ok=True)
    os.symlink("../../../outside", root / "tests/asl/outside")
    os.symlink("../../outside/secret.json", root / "spec/catalog.json")
    man = json.loads((root / "spec/release-manifest.json").read_text())
    man["canonical_inputs"] += [{"path": p, "sha256": "0" * 64} for p in
                                (str(outside / "secret.asl"), "../outside/secret.asl", "asl/tile/model/leak.asl",
                                 "asl/tile/linked-dir/deep.asl")]
    man["canonical_inputs"].sort(key=lambda r: r["path"])
    (root / "spec/release-manifest.json").write_text(json.dumps(man, indent=2, sort_keys=True) + "\n")
    return root


def test_nothing_outside_the_root_is_read(tmp_path: Path) -> None:
    """Every open() during validate/check/trace is inside the root (audit hook), and no output shows the secret."""
    root = _confinement_tree(tmp_path)
    outside = (tmp_path / "outside").resolve()
    opened: list[str] = []
    active = [True]

    def hook(event: str, args: tuple) -> None:
        if active[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.append(os.fsdecode(args[0]))

    sys.addaudithook(hook)  # hooks cannot be removed; this one switches itself off below
    try:
        runs = [run_cli("validate", root), run_cli("check", root)]
        runs += [run_cli("check", root, fmt) for fmt in ("text", "junit", "sarif", "github")]
    finally:
        active[0] = False
    assert any(p.endswith("asl/tile/model/x.asl") for p in opened)  # the hook does see the loader's reads
    leaked = [p for p in opened if Path(p).resolve() == outside or outside in Path(p).resolve().parents]
    assert leaked == []
    for run in runs:
        assert SECRET_MARK not in run.out + run.err and "Traceback" not in run.out + run.err
        assert run.code == 1
    got = {(d["rule"], d["path"]) for d in runs[1].diagnostics()}
    assert {("path-outside-root", "asl/tile/model/leak.asl"), ("path-outside-root", "asl/tile/linked-dir"),
            ("path-outside-root", "tests/asl/outside"), ("path-outside-root", "spec/catalog.json"),
            ("path-outside-root", "spec/linked.json")} <= got
    unsafe = sorted(f["subject"] for f in json.loads(runs[1].out)["findings"] if f["rule"] == "manifest-unsafe-path")
    assert unsafe == sorted([str(outside / "secret.asl"), "../outside/secret.asl", "asl/tile/model/leak.asl",
                             "asl/tile/linked-dir/deep.asl", "spec/linked.json"])
    # the loader kept none of the outside records
    from specgen.loader import load_spec
    spec = load_spec(root)
    assert [u.path for u in spec.units] == ["asl/tile/model/x.asl"]
    assert spec.tests == [] and "spec/catalog.json" not in spec.artifacts


def test_safe_refuses_every_escape(tmp_path: Path) -> None:
    from specgen.files import SpecFiles
    root = _confinement_tree(tmp_path)
    fs = SpecFiles(root)
    for rel in ("/etc/passwd", "../outside/secret.asl", "asl/../../outside/secret.asl", "asl\\..\\x",
                "asl/tile/model/leak.asl", "asl/tile/linked-dir/deep.asl", "spec/linked.json", ""):
        assert fs.safe(rel) is None, rel
    assert fs.safe("asl/tile/model/x.asl") == (root / "asl/tile/model/x.asl").resolve()
    assert fs.read("asl/tile/linked-dir/deep.asl") is None
    assert [f.rule for f in fs.findings] == ["path-outside-root"]


# --------------------------------------------------------------------------- bounded resources

def test_ten_megabyte_line_has_bounded_memory(tmp_path: Path) -> None:
    """Peak RSS of a whole ``validate`` on a 10 MB header line stays under a generous bound."""
    root = materialize(CASES_DIR / "30-long-header-line", tmp_path)
    assert (root / "asl/tile/model/x.asl").stat().st_size > 10 * 1024 * 1024
    child = (
        "import io, json, sys\n"
        "from specgen.cli import main\n"
        "out = io.StringIO()\n"
        f"code = main(['validate', '--root', {str(root)!r}, '--format', 'json'], out, io.StringIO())\n"
        "rules = [f['rule'] for f in json.loads(out.getvalue())['findings']]\n"
        # VmHWM is this process's own peak: ru_maxrss would carry the forking pytest worker's
        # peak across exec and measure the test session instead of the command
        "hwm = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
        "print(json.dumps({'code': code, 'rules': rules, 'maxrss_kib': hwm}))\n")
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["code"] == 1 and "line-too-long" in res["rules"]
    assert res["maxrss_kib"] < 400 * 1024, f"peak RSS {res['maxrss_kib'] / 1024:.0f} MiB"


def test_limits_are_stated_in_the_message(tmp_path: Path) -> None:
    from specgen.files import MAX_FILE_BYTES, MAX_LINE_CHARS
    for name, limit in (("30-long-header-line", MAX_LINE_CHARS), ("31-file-too-large", MAX_FILE_BYTES)):
        root = materialize(CASES_DIR / name, tmp_path / name)
        findings = json.loads(run_cli("validate", root).out)["findings"]
        assert any(str(limit) in f["message"] and "limit" in f["message"] for f in findings), findings


# --------------------------------------------------------------------------- injection in reports

HOSTILE = json.loads((CASES_DIR / "hostile" / "hostile-strings.json").read_text(encoding="utf-8"))
ESC = "\x1b[2J\x1b[31m"


def _hostile_findings_tree(tmp: Path) -> Path:
    """Findings whose messages, subjects and paths carry the hostile strings (and a terminal escape)."""
    root = tmp / "root"
    d = root / "asl/tile/model"
    d.mkdir(parents=True)
    hdr = '// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}\n'
    body = hdr + "".join(f"// NDF-BEGIN: {h}\n// ndf: kind=contract level=L1 layer=tile status=accepted\n"
                         f"// rule\n// NDF-END: {h}\n" for h in HOSTILE)
    body += f"// NDF-END: {ESC}\n// DOC-BEGIN: {HOSTILE[1]}\n// x\n// DOC-END: {HOSTILE[1]}\n"
    (d / "x.asl").write_text(body, encoding="ascii")
    for name in ("{{ 7*7 }}.asl", "{% raw %}.asl", "<img src=x onerror=alert(1)>.asl", "[x](javascript:alert(1)).asl"):
        (d / name).write_text("func F() => integer\nbegin\n    return 0;\nend;\n", encoding="ascii")
    return root


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_hostile_text_is_inert_in_every_report_format(tmp_path: Path) -> None:
    root = _hostile_findings_tree(tmp_path)
    reports = {fmt: run_cli("check", root, fmt) for fmt in ("json", "sarif", "junit", "text", "github")}
    for fmt, run in reports.items():
        assert run.code == 1 and "Traceback" not in run.out + run.err, fmt
        assert "\x1b" not in run.out, f"{fmt}: a raw terminal escape reached the report"
    # JSON and SARIF: valid JSON whose strings carry the hostile text verbatim (data, not markup)
    for fmt in ("json", "sarif"):
        strings = "\n".join(_strings(json.loads(reports[fmt].out)))
        for h in HOSTILE:
            assert h in strings, (fmt, h)  # '{{ 7*7 }}' still there: no template evaluated it
    # JUnit: well-formed XML; hostile text only in attribute values and text, never as elements
    tree = ET.fromstring(reports["junit"].out)
    tags = {e.tag for e in tree.iter()}
    assert tags <= {"testsuites", "testsuite", "properties", "property", "testcase", "failure",
                    "error", "skipped", "system-out", "system-err"}, tags
    content = "\n".join([*(e.text or "" for e in tree.iter()), *(v for e in tree.iter() for v in e.attrib.values())])
    for h in HOSTILE:
        assert h in content, h
    assert "<script>" not in reports["junit"].out and "<img " not in reports["junit"].out
    # text and GitHub annotations: plain text; every GitHub line is one workflow command
    for h in HOSTILE:
        assert h in reports["text"].out, h
    assert "\\x1b" in reports["text"].out
    for line in reports["github"].out.splitlines():
        assert line.startswith(("::error ", "::warning ", "::notice ", "::notice::")), line


def test_hostile_tree_is_valid_and_inert(tmp_path: Path) -> None:
    """The reusable hostile tree checks clean (warnings only) and its text survives as data."""
    root = tmp_path / "hostile"
    shutil.copytree(CASES_DIR / "hostile", root)
    run = run_cli("check", root)
    assert run.code == 0, run.out
    assert not any(f["severity"] == "error" for f in json.loads(run.out)["findings"])
    from specgen.loader import load_spec
    spec = load_spec(root)
    clause = spec.units[0].clauses[0]
    assert all(h in clause.text for h in HOSTILE)
    assert spec.tests[0].header is not None and HOSTILE[0] in spec.tests[0].header.summary
    assert HOSTILE[0] in spec.adrs[0].title and HOSTILE[3] in spec.adrs[0].title


def test_hostile_example_runs_and_keeps_its_text(tmp_path: Path, bundled_vocabulary: Vocabulary) -> None:
    """The hostile checked example (an overlay for the bundled spec) passes and its text stays data."""
    root = tmp_path / "spec"
    shutil.copytree(REPO / "spec", root)
    shutil.copytree(CASES_DIR / "hostile-example", root, dirs_exist_ok=True)
    run = run_cli("check", root)
    assert run.code == 0, run.out
    assert [f for f in json.loads(run.out)["findings"] if "hostile" in f["path"]] == []
    from specgen.program.reader import parse_program
    ex = json.loads(next((CASES_DIR / "hostile-example").rglob("*.json")).read_text(encoding="utf-8"))
    program = parse_program("\n".join(ex["program"]), bundled_vocabulary)
    assert not program.sketch
    assert all(h in ex["summary"] for h in HOSTILE)
