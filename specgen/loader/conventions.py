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


def parse_test_naming(text: str, readme: str, test_root: str) -> TestNaming | None:
    """The first template line under ``test_root`` in a README (None: the README states none)."""
    for n, line in enumerate(text.split("\n"), 1):
        m = _TEMPLATE.match(line)
        if m and m.group(1).startswith(test_root.rstrip("/") + "/"):
            return TestNaming(m.group(1), readme, n)
    return None
