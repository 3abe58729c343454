"""Records as the loader finds them: a validated model plus where it came from.

These are the nodes of the graph. Every one carries a :class:`~specgen.diagnostics.Span`
(like markdown-it-py's ``Token.map``) so findings and pages point back at source lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Span
from .adr import AdrFrontMatter
from .instruction import InstructionHeader
from .ndf import NdfAttributes
from .test import TestHeader
from .unit import ReviewRecord, StateRecord, UnitHeader
from ..cache import codec


@dataclass(slots=True)
class NdfClause:
    """An explicit clause region ``NDF-BEGIN`` … ``NDF-END`` (``span`` covers both markers)."""

    id: str
    attrs: NdfAttributes | None
    body: list[str]
    span: Span
    source: str  # owning unit path

    @property
    def text(self) -> str:
        return "\n".join(self.body).strip()


@dataclass(slots=True)
class DocRegion:
    """A ``DOC-BEGIN: name`` region of ASL (``span`` covers the code lines only)."""

    name: str
    text: str
    span: Span


@dataclass(slots=True)
class AslUnit:
    """One ``asl/**.asl`` file: an instruction (PTO-INSTRUCTION) or a model unit (PTO-UNIT)."""

    path: str
    sha256: str
    text: str
    instruction: InstructionHeader | None = None
    unit: UnitHeader | None = None
    header_span: Span | None = None
    review: ReviewRecord | None = None
    review_span: Span | None = None
    states: list[tuple[StateRecord, Span]] = field(default_factory=list)
    clauses: list[NdfClause] = field(default_factory=list)
    docs: list[DocRegion] = field(default_factory=list)
    raw_header: dict[str, Any] | None = None

    @property
    def id(self) -> str | None:
        if self.instruction is not None:
            return self.instruction.id
        if self.unit is not None:
            return self.unit.id
        return None

    @property
    def surface(self) -> str:
        return self.path.split("/")[1] if self.path.count("/") >= 2 else ""

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".asl")

    def doc(self, name: str) -> DocRegion | None:
        return next((d for d in self.docs if d.name == name), None)


@dataclass(slots=True)
class AvsTest:
    """One AVS test file with its ``PTO-TEST`` header."""

    path: str
    sha256: str
    header: TestHeader | None
    span: Span
    text: str


@dataclass(slots=True)
class Adr:
    """One ADR markdown file: front matter, H1 title and body."""

    path: str
    sha256: str
    front: AdrFrontMatter | None
    span: Span  # front-matter span
    title: str
    title_line: int
    body: str
    body_line: int
    raw: dict[str, Any] | None = None


@dataclass(slots=True)
class JsonArtifact:
    """A JSON file under ``spec/``: parsed data, and its model when specgen reads it for meaning."""

    path: str
    sha256: str
    data: Any
    model: Any = None
    text: str = ""

    def line_of(self, needle: str) -> int:
        """1-based line of the first occurrence of ``needle`` in the raw text (0 if absent)."""
        i = self.text.find(needle)
        return self.text.count("\n", 0, i) + 1 if i >= 0 else 0


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(NdfClause, DocRegion, AslUnit, AvsTest, Adr, JsonArtifact)
