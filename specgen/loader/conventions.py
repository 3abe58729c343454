"""Conventions a release states in its own prose, read instead of hard-coded per release.

A release's ``tests/README.md`` shows where a test lives, e.g.::

    tests/asl/<surface>/<classification>/<unit>/<PTO-TEST-ID>.asl

Rules then hold a test to what its own release says rather than to a table
written for one release. Only the template line is read; the prose around it
is not interpreted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a path line inside the README: segments of names or <placeholders>, ending in .asl
_TEMPLATE = re.compile(r"^\s*((?:[^/\s]+/)+[^/\s]*<[^<>/\s]+>[^/\s]*\.asl)\s*$")


@dataclass(frozen=True, slots=True)
class TestNaming:
    """Where the release says a test file lives (``path_template``), and where it says so."""

    __test__ = False  # not a pytest class

    path_template: str
    readme: str
    line: int

    @property
    def file_template(self) -> str:
        return self.path_template.rsplit("/", 1)[-1]

    @property
    def named_by_id(self) -> bool:
        """True when the file name is the test id itself (``<PTO-TEST-ID>.asl``)."""
        return re.fullmatch(r"<[^<>]*ID[^<>]*>\.asl", self.file_template) is not None

    def expected_file_name(self, test_id: str) -> str | None:
        """The file name the convention gives a test (None: the name is not derived from the id)."""
        return f"{test_id}.asl" if self.named_by_id else None


@dataclass(frozen=True, slots=True)
class TestFunctions:
    """A release whose test files are shards of test functions (before per-file headers, 0.57.x): the prefix
    its README says a test function's name starts with, and where it says so."""

    __test__ = False

    prefix: str
    readme: str
    line: int
    per_file: bool = False  # the README says each file is one test, its ``main()`` (0.57.1): ``prefix`` is "main"

    def functions(self, text: str) -> list[tuple[str, int]]:
        """The test functions a shard defines: (name, line), in file order; a file of a per-file
        convention holds one, its ``main``."""
        name = re.escape(self.prefix) + ("" if self.per_file else r"\w*")
        pattern = re.compile(rf"^(?:func\s+)({name})\s*\(\s*\)\s*=>\s*integer\b", re.M)
        found = [(m.group(1), text.count("\n", 0, m.start()) + 1) for m in pattern.finditer(text)]
        return found[:1] if self.per_file else found

    def key(self, path: str, name: str) -> str:
        """What names one of its tests in a suite: the file itself when a file is one test, else
        ``<path>::<function>``."""
        return path if self.per_file else f"{path}::{name}"


# "each function whose name starts with `Test` … is one test": the sentence that states the shard convention
_FUNCTIONS = re.compile(r"function(?:s)?\s+(?:whose\s+name\s+(?:starts|begins)\s+with|named|prefixed(?:\s+with)?)\s+"
                        r"`(\w+)(?:…|\.\.\.|\*)?`[^.]*?\b(?:is|are)\s+(?:one\s+|a\s+)?tests?\b", re.I | re.S)


# "one integer `main()` that returns zero on success", "exactly one `func main() => integer`, which returns 0":
# the sentence that states a file is one test, its main
_MAIN = re.compile(r"`(?:func\s+)?main\s*\(\s*\)(?:\s*=>\s*integer)?`[^.]*?\breturn(?:s|ing)?\s+(?:zero|0)\b",
                   re.I | re.S)


def parse_test_functions(text: str, readme: str) -> TestFunctions | None:
    """The convention a README states for files without a test header: shards of test functions (a
    sentence naming their prefix), else one test per file, its ``main()`` (a sentence saying a file's
    ``main()`` returns zero on success); None when it states neither."""
    m = _FUNCTIONS.search(text)
    if m:
        return TestFunctions(m.group(1), readme, text.count("\n", 0, m.start()) + 1)
    m = _MAIN.search(text)
    return TestFunctions("main", readme, text.count("\n", 0, m.start()) + 1, per_file=True) if m else None


def parse_test_naming(text: str, readme: str, test_root: str) -> TestNaming | None:
    """The first template line under ``test_root`` in a README (None: the README states none)."""
    for n, line in enumerate(text.split("\n"), 1):
        m = _TEMPLATE.match(line)
        if m and m.group(1).startswith(test_root.rstrip("/") + "/"):
            return TestNaming(m.group(1), readme, n)
    return None
