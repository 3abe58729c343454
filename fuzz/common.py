"""What every harness asserts, and how it is started (seed corpus, time bound).

A parser passes when it returns normally and its findings are well formed:
a rule id, the path it was given, a line inside the input (0 = whole file),
and a message that serialises to strict JSON. Anything else (an exception, a
finding pointing past the end of the file) is a bug the harness reports by
raising, which atheris records as a crash with its input.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable, Iterable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from specgen.diagnostics import Finding, Severity  # noqa: E402

RULE_ID = re.compile(r"^[a-z][a-z0-9-]*$")


def assert_findings(findings: Iterable[Finding], path: str, nlines: int) -> None:
    """Raise AssertionError when a finding is malformed or points outside the input."""
    for f in findings:
        assert isinstance(f, Finding), f
        assert RULE_ID.match(f.rule), f.rule
        assert isinstance(f.severity, Severity), f.severity
        assert f.path == path, (f.path, path)
        assert 0 <= f.line <= max(nlines, 1), (f.line, nlines, f.format())
        assert f.col >= 0, f.format()
        assert isinstance(f.message, str) and f.message, f
        json.dumps(f.to_json(), allow_nan=False)


def line_count(text: str) -> int:
    return text.count("\n") + 1


def byte_lines(data: bytes) -> int:
    """Lines as the loader counts them: CRLF and a lone CR both end a line (as str.splitlines does)."""
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1


def seeds(*globs: str) -> list[Path]:
    """Seed files from the bundled spec and the bad-input corpus (project-owned content)."""
    out: list[Path] = []
    for g in globs:
        out.extend(sorted(p for p in REPO.glob(g) if p.is_file() and p.stat().st_size < 1_000_000))
    return out


def _dict_entry(token: str) -> str:
    """One libFuzzer dictionary line: a quoted string, \\xNN for every byte outside printable ASCII."""
    out = []
    for b in token.encode("utf-8", "surrogatepass"):
        out.append(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\x{b:02x}")
    return '"' + "".join(out) + '"'


def run(name: str, test_one: Callable[[bytes], None], seed_files: list[Path],
        dictionary: list[str] | None = None) -> None:
    """Start atheris with a seed corpus under build/fuzz/NAME and the given command-line options."""
    import atheris

    work = REPO / "build" / "fuzz" / name
    work.mkdir(parents=True, exist_ok=True)
    for i, p in enumerate(seed_files):
        dst = work / f"seed-{i:04d}"
        if not dst.exists():
            dst.write_bytes(p.read_bytes())
    argv = list(sys.argv)
    extra = [a for a in argv[1:] if not a.startswith("-")]
    if not extra:
        argv.append(str(work))
    if dictionary:
        dict_path = REPO / "build" / "fuzz" / f"{name}.dict"
        dict_path.write_text("".join(_dict_entry(t) + "\n" for t in dictionary), encoding="ascii")
        if not any(a.startswith("-dict=") for a in argv):
            argv.insert(1, f"-dict={dict_path}")
    if not any(a.startswith("-artifact_prefix=") for a in argv):
        (REPO / "build" / "fuzz" / "crashes").mkdir(parents=True, exist_ok=True)
        argv.insert(1, f"-artifact_prefix={REPO / 'build' / 'fuzz' / 'crashes'}/{name}-")
    atheris.Setup(argv, test_one)
    atheris.Fuzz()


ASL_TOKENS = [
    "// PTO-UNIT: ", "// PTO-INSTRUCTION: ", "// PTO-REVIEW: ", "// PTO-STATE: ", "// PTO-TEST: ",
    "// NDF-BEGIN: ", "// NDF-END: ", "// ndf: ", "// DOC-BEGIN: ", "// DOC-END: ",
    "kind=contract", "level=L1", "layer=tile", "status=accepted", "PTO-TILE-X-001",
    '{"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}',
    '"id"', '"surface"', '"classification"', '"depends_on"', "decode", "operation",
    "\r\n", "\ufeff", "\n", "//", "---", "# ", "NaN", "1e999", "[[[[", "\"\\u0000\"",
]
